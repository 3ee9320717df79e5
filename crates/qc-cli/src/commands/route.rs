//! `qchess route`: any circuit (OpenQASM 2 or 3, IR text or JSON) compiled for a target, as
//! `compile --target` compiles a game: on a device target placed and routed onto its couplers
//! and written as a device program (the device compiler), on a logical target (`generic`,
//! `ibm`, `google`, `braket`) lowered to its native gates on the circuit's own qubits.

use crate::choice_arg::choice;
use crate::circuit_input::read_circuit;
use crate::commands::compile::Summaries;
use crate::output::{write_stderr, write_stdout};
use anyhow::Context;
use clap::Args;
use qc_export::{ExportOptions, Form, MeasureScope, Target, Width};
use qc_front::{DeviceOptions, Format, COMPILE_DEFAULTS};
use qc_sim::noise::DdSequence;
use std::path::PathBuf;

/// Arguments of `qchess route`.
#[derive(Args, Debug)]
pub struct RouteArgs {
    /// The circuit: OpenQASM 2 or 3, IR text or IR JSON (told apart by content); `-` for
    /// standard input.
    pub circuit: PathBuf,
    /// The target: a device (ibm_fez, ibm_brisbane, sycamore, quantinuum_h2, or NAME.toml with
    /// `edges` or `all_to_all` in --backends-dir), placed and routed onto its couplers; or a logical target (generic, ibm, google, braket,
    /// or NAME.toml without `edges`), lowered to its native gates on the circuit's own qubits,
    /// as `compile --target` lowers a game.
    #[arg(long, value_name = "NAME")]
    pub target: String,
    /// A device calibration in IBM's BackendProperties JSON (props_fez.json's format): qubits
    /// and couplers whose error is 0.5 or more are never used, and placement and routing
    /// maximise the estimated success probability. Without it, errors are uniform.
    #[arg(long, value_name = "FILE")]
    pub properties: Option<PathBuf>,
    /// Use a --properties file whose backend_name is another device's than the target's
    /// (refused otherwise: IBM's Heron r2 devices share one coupling map, so only the name tells
    /// their calibrations apart).
    #[arg(long, requires = "properties")]
    pub allow_other_device: bool,
    /// Dynamical decoupling on a device target, as `compile --dd`: every idle window at least
    /// twice as long as the pulses is filled with them, spaced by delays, from the --properties
    /// durations. Default: the target's `dd` key.
    #[arg(long, value_name = "SEQUENCE", value_parser = choice::<DdSequence>())]
    pub dd: Option<DdSequence>,
    /// Seed of the routing trials (the output is a function of the circuit, the options and
    /// the seed).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output format (ir and json: the routed circuit before the device's single-qubit basis).
    #[arg(long, value_parser = choice::<Format>(), default_value_t = COMPILE_DEFAULTS.format)]
    pub format: Format,
    /// Where the measurements stand (a target without feed-forward always gets the deferred
    /// form; a condition on several bits, such as `if (c == 3)`, needs the deferred form).
    #[arg(long, value_name = "FORM", value_parser = choice::<Form>(), default_value_t = COMPILE_DEFAULTS.options.form)]
    pub form: Form,
    /// Route the circuit exactly as written: skip the exact passes that otherwise run first.
    #[arg(long)]
    pub no_optimize: bool,
    /// A folder of target files NAME.toml: adds targets, or overrides the bundled ones.
    #[arg(long, value_name = "DIR")]
    pub backends_dir: Option<PathBuf>,
    /// Print the summary on standard error as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &RouteArgs) -> anyhow::Result<()> {
    let target = Target::find(&args.target, args.backends_dir.as_deref())?;
    let properties = args
        .properties
        .as_ref()
        .map(|path| {
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
        })
        .transpose()?;
    let (name, circuit) = read_circuit(&args.circuit)?;
    // `compile`'s defaults (qc_front::COMPILE_DEFAULTS) but for two deliberate differences:
    // a device program places qubits itself, while a logical target keeps every qubit of the
    // circuit where it is (`q[k]` stays `q[k]`); and the circuit's own measurements are its
    // output (it has no board to measure).
    let width = if target.is_device() {
        Width::Compact
    } else {
        Width::Full
    };
    let options = ExportOptions {
        form: args.form,
        width,
        measure: MeasureScope::None,
        optimize: !args.no_optimize,
        ..COMPILE_DEFAULTS.options
    };
    let compiled = qc_front::compile_circuit_on(
        &circuit,
        &[],
        args.format,
        &options,
        Some(&target),
        None,
        &DeviceOptions {
            properties: properties.as_deref(),
            seed: args.seed,
            other_device: args.allow_other_device,
            gates_only_choice: false,
            dd: args.dd,
        },
    )
    .with_context(|| format!("{name}: cannot compile for target `{}`", target.name))?;
    let summary = Summaries {
        program: &compiled.summary,
        device: compiled.device.as_ref(),
        circuit: &circuit,
        outcomes: &[],
        outcome_lines: &[],
    };
    write_stderr(&if args.json {
        summary.json()?
    } else {
        summary.text()?
    })?;
    match &args.output {
        Some(path) => std::fs::write(path, &compiled.text)
            .with_context(|| format!("cannot write {}", path.display())),
        None => write_stdout(&compiled.text),
    }
}
