//! `qchess run`: exact outcome probabilities of a circuit file (IR text, OpenQASM 2 or 3).

use crate::backend_choice::{check_precision, with_backend};
use crate::circuit_input::read_circuit;
use crate::output::write_stdout;
use anyhow::Context;
use clap::Args;
use qc_front::BackendKind;
use qc_ir::exec::{exact_distribution, qiskit_key, sample_counts};
use qc_sim::Precision;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `qchess run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The circuit: IR text (`.qc`), IR JSON (`compile --format json`), OpenQASM 2 or 3
    /// (`.qasm`; told apart by content), or `-` for standard input.
    pub circuit: PathBuf,
    /// The simulator.
    #[arg(long, value_parser = crate::choice_arg::choice::<BackendKind>(), default_value_t = BackendKind::Sparse)]
    pub backend: BackendKind,
    /// Amplitude precision of the dense simulator: double (complex128, default) or single
    /// (complex64, `--backend dense` only: half the memory, faster; about 7 significant digits
    /// as in qsim, so probabilities agree with double to about 1e-6 and those below 1e-10 read
    /// as 0).
    #[arg(long, value_parser = crate::choice_arg::choice::<Precision>(), default_value_t = Precision::Double)]
    pub precision: Precision,
    /// Print `{"probabilities": {"<bits>": p, ...}}` (or `{"counts": ...}` with --shots).
    #[arg(long)]
    pub json: bool,
    /// Sample this many shots from the exact distribution instead of printing probabilities.
    /// At most 100000000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=qc_ir::exec::MAX_SHOTS))]
    pub shots: Option<u64>,
    /// Seed for --shots.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Simulate the circuit as written: no optimisation passes, and user gates of OpenQASM
    /// programs applied gate by gate from their bodies instead of as one matrix each.
    #[arg(long)]
    pub no_optimize: bool,
}

/// Runs the command.
pub fn run(args: &RunArgs) -> anyhow::Result<()> {
    check_precision(args.backend, args.precision)?;
    let (name, circuit) = read_circuit(&args.circuit)?;
    // Rewrites that keep the distribution (inlined gate bodies recognised as their table gate,
    // X-wrapped 0-controls read back, inverse pairs, identities): fewer passes over the state.
    // Small user gates stay one matrix each unless `--no-optimize` asks for their bodies.
    let circuit = qc_ir::passes::simulation_form(&circuit, !args.no_optimize);
    let dist = with_backend!(args.backend, args.precision, |backend| {
        let mut sim = backend;
        exact_distribution(&mut sim, &circuit).with_context(|| format!("cannot simulate {name}"))?
    });
    let probabilities: BTreeMap<String, f64> = dist
        .iter()
        .map(|(bits, p)| (qiskit_key(bits), *p))
        .collect();
    let text = match args.shots {
        None => render(&probabilities, "probabilities", args.json, |p| {
            format!("{p:.6}")
        })?,
        Some(shots) => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
            let counts: BTreeMap<String, u64> = sample_counts(&dist, shots, || rng.gen::<f64>())
                .into_iter()
                .map(|(k, v)| (qiskit_key(&k), v))
                .collect();
            render(&counts, "counts", args.json, |c| c.to_string())?
        }
    };
    write_stdout(&text)
}

fn render<V: serde::Serialize>(
    values: &BTreeMap<String, V>,
    key: &str,
    json: bool,
    show: impl Fn(&V) -> String,
) -> anyhow::Result<String> {
    if json {
        let mut object = serde_json::Map::new();
        object.insert(key.to_string(), serde_json::to_value(values)?);
        return Ok(serde_json::to_string_pretty(&serde_json::Value::Object(object))? + "\n");
    }
    let mut out = format!("{key} (bit strings: rightmost = c0)\n");
    for (bits, v) in values {
        let label = if bits.is_empty() { "(no bits)" } else { bits };
        out.push_str(&format!("  {label}  {}\n", show(v)));
    }
    Ok(out)
}

/// Reads a file, or standard input for `-`; returns a display name and the text.
pub fn read_input(path: &std::path::Path) -> anyhow::Result<(String, String)> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .context("cannot read standard input")?;
        return Ok(("<stdin>".to_string(), text));
    }
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    Ok((name, text))
}
