//! `qchess compile`: a whole game as one circuit, written as OpenQASM 3 or 2 (through
//! `qc_export`, carrying the game's recorded outcomes for post-selection) or as the IR.

use crate::choice_arg::choice;
use crate::game_input::{with_game, GameArgs};
use crate::output::{write_stderr, write_stdout};
use anyhow::Context;
use clap::Args;
use qc_export::{Dialect, ExportOptions, Form, MeasureScope, Summary, Target, Width};
use qc_front::BackendKind;
use qc_front::{Compiled, Format};
use qc_ir::Circuit;
use qc_rules::QuantumGame;
use std::path::PathBuf;

/// Arguments of `qchess compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Output format.
    #[arg(long, value_parser = choice::<Format>(), default_value_t = Format::Qasm3)]
    pub format: Format,
    /// Hardware target: a bundled one (generic, ibm, google, braket; the devices ibm_fez,
    /// sycamore) or NAME.toml in --backends-dir. OpenQASM 3 is lowered to its native gates;
    /// every format is refused when the game needs more qubits than the target has.
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// Where the measurements stand.
    #[arg(long, value_name = "FORM", value_parser = choice::<Form>(), default_value_t = Form::Dynamic)]
    pub form: Form,
    /// Which OpenQASM features the program may use.
    #[arg(long, value_name = "DIALECT", value_parser = choice::<Dialect>(), default_value_t = Dialect::Portable)]
    pub dialect: Dialect,
    /// Which squares get a qubit.
    #[arg(long, value_name = "WIDTH", value_parser = choice::<Width>(), default_value_t = Width::Compact)]
    pub width: Width,
    /// What the program measures at the end.
    #[arg(long, value_name = "WHAT", value_parser = choice::<MeasureScope>(), default_value_t = MeasureScope::Board)]
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
    /// Seed for the outcomes of moves written without them.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The simulator the game is played on (the circuit is the same on every one).
    #[arg(long, value_parser = crate::choice_arg::choice::<BackendKind>(), default_value_t = BackendKind::Sparse)]
    pub backend: BackendKind,
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
    with_game!(
        args.game,
        args.backend,
        args.seed,
        true,
        |R, loaded, game| {
            let outcomes = game.outcomes();
            let facts = qc_front::board_facts(&game, game.backend());
            let compiled = qc_front::compile_circuit(
                game.circuit(),
                &outcomes,
                args.format,
                &args.options(),
                target.as_ref(),
                Some(&facts),
            )
            .with_context(|| format!("{}: cannot compile", loaded.source))?;
            write_stderr(&summary_text(
                &compiled.summary,
                game.circuit(),
                &outcomes,
                &outcome_lines(&game),
            )?)?;
            args.write(&compiled)
        }
    )
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
        let keep = qc_export::keep_probability_forced(
            &mut qc_sim::ReferenceSparse::new(),
            circuit,
            outcomes,
        )
        .context("cannot compute the post-selection keep probability")?;
        out.push_str(&format!(
            "post-selection: a shot is kept (its bits equal the recorded outcomes) with probability {keep:.6}\n"
        ));
    }
    Ok(out)
}

/// `move N text: outcome` for every move with a sampled outcome.
fn outcome_lines<G: QuantumGame>(game: &G) -> Vec<String> {
    game.moves()
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            m.outcome_summary()
                .map(|o| format!("move {} {}: {o}", i + 1, m.text()))
        })
        .collect()
}
