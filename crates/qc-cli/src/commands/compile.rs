//! `qchess compile`: a whole game as one circuit, written as OpenQASM 3 or 2 (through
//! `qc_export`, carrying the game's recorded outcomes for post-selection) or as the IR.

use crate::choice_arg::choice;
use crate::game_input::{open, GameArgs, SimArgs};
use crate::output::{write_stderr, write_stdout};
use anyhow::Context;
use clap::Args;
use qc_export::{Dialect, ExportOptions, Form, MeasureScope, Summary, Target, Width};
use qc_front::{Compiled, DeviceOptions, DeviceSummary, Format, Game, COMPILE_DEFAULTS};
use qc_ir::Circuit;
use qc_sim::noise::DdSequence;
use std::path::PathBuf;

// `--no-optimize` is a flag that turns the passes off, which only means something while the
// default (qc_front's one declaration) has them on.
const _: () = assert!(COMPILE_DEFAULTS.options.optimize);

/// Arguments of `qchess compile` (the defaults are `qc_front::COMPILE_DEFAULTS`, which the web
/// API and Python read too).
#[derive(Args, Debug)]
pub struct CompileArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Output format.
    #[arg(long, value_parser = choice::<Format>(), default_value_t = COMPILE_DEFAULTS.format)]
    pub format: Format,
    /// Hardware target: a bundled one (generic, ibm, google, braket; the devices ibm_fez,
    /// sycamore, quantinuum_h2) or NAME.toml in --backends-dir. OpenQASM 3 is lowered to its native gates;
    /// every format is refused when the game needs more qubits than the target has. On a device
    /// target (one with couplers) the program is also placed and routed: it is written on
    /// physical qubits $k, every two-qubit gate on a coupler, with the layout in its header.
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// A device calibration in IBM's BackendProperties JSON (the format of qiskit-ibm-runtime's
    /// props_fez.json) or Google's (cirq-google's calibrations/*_calibration.json, as for
    /// --target weber), for a device target: qubits and couplers whose error is 0.5 or more are
    /// never used, and placement and routing maximise the estimated success probability.
    /// Without it, errors are uniform.
    #[arg(long, value_name = "FILE")]
    pub properties: Option<PathBuf>,
    /// Use a --properties file whose backend_name is another device's than the target's
    /// (refused otherwise: IBM's Heron r2 devices share one coupling map, so only the name tells
    /// their calibrations apart).
    #[arg(long, requires = "properties")]
    pub allow_other_device: bool,
    /// Dynamical decoupling on a device target: every idle window at least twice as long as the
    /// pulses is filled with them, spaced by delays (OpenQASM 3 `delay`), from the --properties
    /// durations; never inside a feed-forward block's time, never right after a measurement or
    /// reset. Default: the target's `dd` key (none for the bundled targets: on a Markovian noise
    /// model the pulses only add errors; docs/hardware.md, "Dynamical decoupling").
    #[arg(long, value_name = "SEQUENCE", value_parser = choice::<DdSequence>())]
    pub dd: Option<DdSequence>,
    /// Print the summary on standard error as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Where the measurements stand.
    #[arg(long, value_name = "FORM", value_parser = choice::<Form>(), default_value_t = COMPILE_DEFAULTS.options.form)]
    pub form: Form,
    /// Which OpenQASM features the program may use.
    #[arg(long, value_name = "DIALECT", value_parser = choice::<Dialect>(), default_value_t = COMPILE_DEFAULTS.options.dialect)]
    pub dialect: Dialect,
    /// Which squares get a qubit.
    #[arg(long, value_name = "WIDTH", value_parser = choice::<Width>(), default_value_t = COMPILE_DEFAULTS.options.width)]
    pub width: Width,
    /// What the program measures at the end.
    #[arg(long, value_name = "WHAT", value_parser = choice::<MeasureScope>(), default_value_t = COMPILE_DEFAULTS.options.measure)]
    pub measure: MeasureScope,
    /// Export the circuit exactly as the moves were lowered: skip the exact passes that
    /// otherwise run first (runs of gates recognised as one gate, single-qubit runs merged,
    /// identities dropped, X-wrapped 0-controls read back, inverse pairs cancelled).
    #[arg(long)]
    pub no_optimize: bool,
    /// Also write the board map (what every bit means; the same JSON as the program header's
    /// `map`) to this file.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// A folder of target files NAME.toml: adds targets, or overrides the bundled ones of the
    /// same name (default: the bundled targets only).
    #[arg(long, value_name = "DIR")]
    pub backends_dir: Option<PathBuf>,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The simulator the game is played on (the circuit is the same on every one), and the seed
    /// of the outcomes of moves written without them and of the device compiler's routing trials
    /// (the output is a function of the game, the options and the seed).
    #[command(flatten)]
    pub sim: SimArgs,
}

impl CompileArgs {
    /// The hardware target named by `--target`: `--backends-dir`'s file of that name, else the
    /// bundled target.
    pub fn target(&self) -> anyhow::Result<Option<Target>> {
        let Some(name) = &self.target else {
            return Ok(None);
        };
        Ok(Some(Target::find(name, self.backends_dir.as_deref())?))
    }

    /// The export options given on the command line.
    pub fn options(&self) -> ExportOptions {
        ExportOptions {
            form: self.form,
            dialect: self.dialect,
            width: self.width,
            measure: self.measure,
            optimize: !self.no_optimize,
        }
    }

    /// The calibration file's text (`--properties`), if any.
    pub fn properties(&self) -> anyhow::Result<Option<String>> {
        self.properties
            .as_ref()
            .map(|path| {
                std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))
            })
            .transpose()
    }

    /// Writes the program text (`-o` or standard output) and the map (`--map`).
    pub fn write(&self, compiled: &Compiled) -> anyhow::Result<()> {
        if let Some(path) = &self.map {
            let json = serde_json::to_string_pretty(&compiled.map)? + "\n";
            std::fs::write(path, json)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        match &self.output {
            Some(path) => std::fs::write(path, &compiled.text)
                .with_context(|| format!("cannot write {}", path.display())),
            None => write_stdout(&compiled.text),
        }
    }
}

/// Runs the command.
pub fn run(args: &CompileArgs) -> anyhow::Result<()> {
    let target = args.target()?;
    let properties = args.properties()?;
    let device = DeviceOptions {
        properties: properties.as_deref(),
        seed: args.sim.seed,
        other_device: args.allow_other_device,
        gates_only_choice: false,
        dd: args.dd,
    };
    let game = open(&args.game, &args.sim, true)?;
    let compiled = game
        .compile(args.format, &args.options(), target.as_ref(), &device)
        .with_context(|| format!("{}: cannot compile", game.source()))?;
    let outcomes = game.outcomes();
    let summary = Summaries {
        program: &compiled.summary,
        device: compiled.device.as_ref(),
        circuit: game.circuit(),
        outcomes: &outcomes,
        outcome_lines: &outcome_lines(&*game),
    };
    write_stderr(&if args.json {
        summary.json()?
    } else {
        summary.text()?
    })?;
    args.write(&compiled)
}

/// What `compile` (and `route`) print about the program they wrote.
pub struct Summaries<'a> {
    /// The written program's figures.
    pub program: &'a Summary,
    /// On a device target, what placing and routing gave.
    pub device: Option<&'a DeviceSummary>,
    /// The compiled circuit (for the keep probability).
    pub circuit: &'a Circuit,
    /// Its recorded outcomes, by bit.
    pub outcomes: &'a [Option<bool>],
    /// One line per recorded outcome.
    pub outcome_lines: &'a [String],
}

impl Summaries<'_> {
    /// The text lines.
    pub fn text(&self) -> anyhow::Result<String> {
        let mut out = summary_text(
            self.program,
            self.circuit,
            self.outcomes,
            self.outcome_lines,
        )?;
        if let Some(d) = self.device {
            out.push_str(&device_line(d));
        }
        Ok(out)
    }

    /// One JSON object.
    pub fn json(&self) -> anyhow::Result<String> {
        let mut value = serde_json::json!({
            "qubits": self.program.qubits,
            "clbits": self.program.clbits,
            "gates": self.program.total_gates,
            "gate_counts": self.program.gate_counts,
            "two_qubit_gates": self.program.multi_qubit_gates,
            "two_qubit_depth": self.program.two_qubit_depth,
            "measurements": self.program.measurements,
        });
        if !self.outcome_lines.is_empty() {
            value["recorded_outcomes"] = serde_json::json!(self.outcome_lines);
            value["keep_probability"] =
                serde_json::json!(keep_probability(self.circuit, self.outcomes)?);
        }
        if let Some(d) = self.device {
            value["device"] = serde_json::to_value(d)?;
        }
        Ok(serde_json::to_string(&value)? + "\n")
    }
}

/// The device line of the text summary.
fn device_line(d: &DeviceSummary) -> String {
    let broken = if d.broken_couplers > 0 {
        let plural = if d.broken_couplers == 1 { "" } else { "s" };
        format!("; {} broken coupler{plural} never used", d.broken_couplers)
    } else {
        String::new()
    };
    let with_time = d
        .esp_with_time
        .map(|p| format!(", with idle time: {p:.4}"))
        .unwrap_or_default();
    let board = d
        .board_error
        .map(|e| format!(", board error: {e:.4}"))
        .unwrap_or_default();
    // Dynamical decoupling is said only when applied, so that lines without it read as before.
    let dd = if d.dd.is_empty() || d.dd == "none" {
        String::new()
    } else {
        format!(
            ", dynamical decoupling {}: {} pulses in {} idle windows",
            d.dd, d.dd_pulses, d.dd_windows
        )
    };
    format!(
        "device {}: two-qubit gates: {} (unrouted {}), two-qubit depth: {}, physical qubits: {} (at most {} live at once), ESP: {:.4}{with_time}{board} ({} errors{broken}){dd}\n",
        d.device,
        d.two_qubit_gates,
        d.unrouted_two_qubit_gates,
        d.two_qubit_depth,
        d.physical_qubits,
        d.peak_live_qubits,
        d.esp,
        d.errors,
    )
}

fn keep_probability(circuit: &Circuit, outcomes: &[Option<bool>]) -> anyhow::Result<f64> {
    qc_export::keep_probability_forced(&mut qc_sim::ReferenceSparse::new(), circuit, outcomes)
        .context("cannot compute the post-selection keep probability")
}

/// The summary printed on standard error: qubits, clbits, gate counts by kind, two-qubit depth,
/// measurements, the recorded outcomes (`outcome_lines`, one per measured move) and the
/// probability that a shot survives post-selection on `outcomes` (indexed by clbit).
pub fn summary_text(
    s: &Summary,
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    outcome_lines: &[String],
) -> anyhow::Result<String> {
    let counts: Vec<String> = s
        .gate_counts
        .iter()
        .map(|(name, n)| format!("{name}: {n}"))
        .collect();
    let mut out = format!(
        "qubits: {}, clbits: {}, gates: {} ({}), two-qubit depth: {}, measurements: {}\n",
        s.qubits,
        s.clbits,
        s.total_gates,
        if counts.is_empty() {
            "none".to_string()
        } else {
            counts.join(", ")
        },
        s.two_qubit_depth,
        s.measurements
    );
    if !outcome_lines.is_empty() {
        out.push_str(&format!(
            "recorded outcomes: {}\n",
            outcome_lines.join("; ")
        ));
        let keep = keep_probability(circuit, outcomes)?;
        out.push_str(&format!(
            "post-selection: a shot is kept (its bits equal the recorded outcomes) with probability {keep:.6}\n"
        ));
    }
    Ok(out)
}

/// `move N text: outcome` for every move with a sampled outcome.
fn outcome_lines(game: &dyn Game) -> Vec<String> {
    game.moves()
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            m.outcome
                .as_ref()
                .map(|o| format!("move {} {}: {o}", i + 1, m.text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::{Cli, Command};
    use clap::Parser;
    use qc_front::COMPILE_DEFAULTS;

    fn parse(args: &[&str]) -> Command {
        match Cli::try_parse_from(std::iter::once("qchess").chain(args.iter().copied())) {
            Ok(cli) => cli.command,
            Err(e) => panic!("qchess {}: {e}", args.join(" ")),
        }
    }

    /// `qchess compile GAME` without options compiles as the web API and Python do without
    /// them: all three read qc_front's one declaration.
    #[test]
    fn compile_without_options_takes_the_front_ends_defaults() {
        let Command::Compile(args) = parse(&["compile", "game.qcg"]) else {
            panic!("not the compile command");
        };
        assert_eq!(args.format, COMPILE_DEFAULTS.format);
        assert_eq!(args.options(), COMPILE_DEFAULTS.options);
        let Command::Compile(args) = parse(&["compile", "game.qcg", "--no-optimize"]) else {
            panic!("not the compile command");
        };
        assert!(!args.options().optimize);
    }

    /// `qchess route` shares compile's format and form defaults.
    #[test]
    fn route_without_options_takes_compiles_format_and_form() {
        let Command::Route(args) = parse(&["route", "circuit.qasm", "--target", "ibm"]) else {
            panic!("not the route command");
        };
        assert_eq!(args.format, COMPILE_DEFAULTS.format);
        assert_eq!(args.form, COMPILE_DEFAULTS.options.form);
    }
}
