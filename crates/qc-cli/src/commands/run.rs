//! `qchess run`: exact outcome probabilities of a circuit file (IR text, OpenQASM 2 or 3).

use crate::circuit_input::read_circuit;
use crate::game_input::SimArgs;
use crate::output::stream_stdout;
use anyhow::Context;
use clap::Args;
use qc_ir::exec::{in_qiskit_order, qiskit_key};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `qchess run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The circuit: IR text (`.qc`), IR JSON (`compile --format json`), OpenQASM 2 or 3
    /// (`.qasm`; told apart by content), or `-` for standard input.
    pub circuit: PathBuf,
    // The simulator, its precision, and the seed of --shots.
    #[command(flatten)]
    pub sim: SimArgs,
    /// Print `{"probabilities": {"<bits>": p, ...}}` (or `{"counts": ...}` with --shots).
    #[arg(long)]
    pub json: bool,
    /// Sample this many shots from the exact distribution instead of printing probabilities.
    /// At most 100000000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=qc_ir::exec::MAX_SHOTS))]
    pub shots: Option<u64>,
    /// Simulate with the noise of this device calibration (IBM BackendProperties JSON, e.g.
    /// `props_fez.json`; see docs/hardware.md): each shot is one Monte-Carlo trajectory of the
    /// program as written, on the physical qubits it names, with a depolarising error after each
    /// gate, thermal relaxation over each gate and each idle window of its as-late-as-possible
    /// schedule, and readout errors. Needs --shots.
    #[arg(long, value_name = "CALIBRATION", requires = "shots")]
    pub noise: Option<PathBuf>,
    /// Simulate the circuit as written: no optimisation passes, and user gates of OpenQASM
    /// programs applied gate by gate from their bodies instead of as one matrix each.
    #[arg(long)]
    pub no_optimize: bool,
}

/// Runs the command.
pub fn run(args: &RunArgs) -> anyhow::Result<()> {
    qc_front::check_precision(args.sim.backend, args.sim.precision)?;
    let (name, circuit) = read_circuit(&args.circuit)?;
    if let (Some(calibration), Some(shots)) = (&args.noise, args.shots) {
        let properties = std::fs::read_to_string(calibration)
            .with_context(|| format!("cannot read {}", calibration.display()))?;
        let counts = qc_front::noise::noisy_run(
            &circuit,
            &properties,
            args.sim.backend,
            args.sim.precision,
            shots,
            args.sim.seed,
        )
        .with_context(|| {
            format!(
                "cannot simulate {name} with the noise of {}",
                calibration.display()
            )
        })?;
        let rows = in_qiskit_order(&counts);
        return stream_stdout(|out| write_outcomes(out, &rows, "counts", args.json));
    }
    // Rewrites that keep the distribution (inlined gate bodies recognised as their table gate,
    // X-wrapped 0-controls read back, inverse pairs, identities): fewer passes over the state.
    // Small user gates stay one matrix each unless `--no-optimize` asks for their bodies.
    let dist = qc_front::program::distribution(
        &circuit,
        args.sim.backend,
        args.sim.precision,
        !args.no_optimize,
    )
    .with_context(|| format!("cannot simulate {name}"))?;
    // The outcomes are written as they are formatted, in Qiskit's key order, without a copy of
    // the keys: a distribution may hold millions (its size is bounded by `exact_distribution`).
    match args.shots {
        None => {
            let rows = in_qiskit_order(&dist);
            stream_stdout(|out| write_outcomes(out, &rows, "probabilities", args.json))
        }
        Some(shots) => {
            let counts = qc_front::program::sample(&dist, shots, args.sim.seed);
            drop(dist);
            let rows = in_qiskit_order(&counts);
            stream_stdout(|out| write_outcomes(out, &rows, "counts", args.json))
        }
    }
}

/// A value of an outcome: a probability or a count.
trait OutcomeValue: Copy + serde::Serialize {
    /// As the text listing shows it.
    fn show(self) -> String;
}

impl OutcomeValue for f64 {
    fn show(self) -> String {
        format!("{self:.6}")
    }
}

impl OutcomeValue for u64 {
    fn show(self) -> String {
        self.to_string()
    }
}

/// Writes `{"<key>": {"<bits>": value, ...}}` as `serde_json`'s pretty printer does, or the text
/// listing.
fn write_outcomes<V: OutcomeValue>(
    out: &mut dyn Write,
    rows: &[(&[bool], V)],
    key: &str,
    json: bool,
) -> std::io::Result<()> {
    if json {
        if rows.is_empty() {
            return writeln!(out, "{{\n  \"{key}\": {{}}\n}}");
        }
        write!(out, "{{\n  \"{key}\": {{")?;
        for (k, (bits, value)) in rows.iter().enumerate() {
            let separator = if k == 0 { "" } else { "," };
            let value = serde_json::to_string(value).map_err(std::io::Error::other)?;
            write!(out, "{separator}\n    \"{}\": {value}", qiskit_key(bits))?;
        }
        return writeln!(out, "\n  }}\n}}");
    }
    writeln!(out, "{key} (bit strings: rightmost = c0)")?;
    for (bits, value) in rows {
        let label = qiskit_key(bits);
        let label = if label.is_empty() {
            "(no bits)"
        } else {
            &label
        };
        writeln!(out, "  {label}  {}", value.show())?;
    }
    Ok(())
}
