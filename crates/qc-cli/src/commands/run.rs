//! `qchess run`: exact outcome probabilities of a circuit file (IR text, OpenQASM 2 or 3), or
//! its final state's amplitudes (`--state`, computed by `qc_front::state`).

use crate::circuit_input::read_circuit;
use crate::game_input::SimArgs;
use crate::output::stream_stdout;
use anyhow::Context;
use clap::Args;
use qc_front::state::{basis_index, basis_key, Branch, FinalStates, StateForm};
use qc_ir::exec::{in_qiskit_order, qiskit_key};
use qc_ir::Complex64;
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
    /// `props_fez.json`, or a Google calibration as cirq-google ships it; see
    /// docs/hardware.md): each shot is one Monte-Carlo trajectory of the
    /// program as written, on the physical qubits it names, with a depolarising error after each
    /// gate, thermal relaxation over each gate and each idle window of its as-late-as-possible
    /// schedule, and readout errors. Needs --shots.
    #[arg(long, value_name = "CALIBRATION", requires = "shots")]
    pub noise: Option<PathBuf>,
    /// Simulate the circuit as written: no optimisation passes, and user gates of OpenQASM
    /// programs applied gate by gate from their bodies instead of as one matrix each.
    #[arg(long)]
    pub no_optimize: bool,
    /// Print the final state's amplitudes instead of the probabilities: `sparse` (the nonzero
    /// ones; the default) or `dense` (all 2^n, for at most 16 qubits). The state is the one the
    /// final measurements would read; each outcome of a mid-circuit measurement is a branch
    /// with its own state and probability. Amplitudes are exact up to one global phase. At
    /// most 65536 amplitudes over at most 64 branches; a reset is refused.
    #[arg(long, value_name = "FORM", num_args = 0..=1, default_missing_value = "sparse",
          value_parser = crate::choice_arg::choice::<StateForm>(), conflicts_with = "shots")]
    pub state: Option<StateForm>,
}

/// Runs the command.
pub fn run(args: &RunArgs) -> anyhow::Result<()> {
    qc_front::check_precision(args.sim.simulator.backend, args.sim.simulator.precision)?;
    let (name, circuit) = read_circuit(&args.circuit)?;
    if let Some(form) = args.state {
        let states = qc_front::state::final_states(
            &circuit,
            args.sim.simulator.backend,
            args.sim.simulator.precision,
            !args.no_optimize,
            form,
        )
        .with_context(|| format!("cannot list the state of {name}"))?;
        return stream_stdout(|out| write_states(out, &states, form, args.json));
    }
    if let (Some(calibration), Some(shots)) = (&args.noise, args.shots) {
        let properties = std::fs::read_to_string(calibration)
            .with_context(|| format!("cannot read {}", calibration.display()))?;
        let counts = qc_front::noise::noisy_run(
            &circuit,
            &properties,
            args.sim.simulator.backend,
            args.sim.simulator.precision,
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
        args.sim.simulator.backend,
        args.sim.simulator.precision,
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

/// An amplitude as the text listing shows it. A part that rounds to zero is shown `+0.000000`,
/// whatever its sign (`-0.000000i` read as a sign where there is none).
fn complex_text(a: Complex64) -> String {
    format!("{:+.6}{:+.6}i", shown(a.re), shown(a.im))
}

/// `x`, or +0 when six decimals show it as zero.
fn shown(x: f64) -> f64 {
    if x.abs() < 5e-7 {
        0.0
    } else {
        x
    }
}

/// The bits a branch measured on the way, as `c0=1 c2=0`.
fn measured_text(branch: &Branch) -> String {
    let bits: Vec<String> = branch
        .measured
        .iter()
        .map(|(c, v)| format!("{c}={}", u8::from(*v)))
        .collect();
    bits.join(" ")
}

/// Writes the final states (see `qc_front::state`) as JSON or as text.
fn write_states(
    out: &mut dyn Write,
    states: &FinalStates,
    form: StateForm,
    json: bool,
) -> std::io::Result<()> {
    let n = states.num_qubits;
    if json {
        let branches: Vec<serde_json::Value> = states
            .branches
            .iter()
            .map(|b| {
                let measured: serde_json::Map<String, serde_json::Value> = b
                    .measured
                    .iter()
                    .map(|(c, v)| (c.to_string(), serde_json::json!(u8::from(*v))))
                    .collect();
                let amplitudes = match form {
                    StateForm::Sparse => serde_json::Value::Object(
                        b.amplitudes
                            .iter()
                            .map(|(ones, a)| (basis_key(ones, n), serde_json::json!([a.re, a.im])))
                            .collect(),
                    ),
                    StateForm::Dense => {
                        let mut all = vec![[0.0, 0.0]; 1 << n];
                        for (ones, a) in &b.amplitudes {
                            all[basis_index(ones)] = [a.re, a.im];
                        }
                        serde_json::json!(all)
                    }
                };
                serde_json::json!({
                    "measured": measured,
                    "probability": b.probability,
                    "amplitudes": amplitudes,
                })
            })
            .collect();
        let value = serde_json::json!({
            "qubits": n,
            "form": qc_ir::Choice::name(form),
            "branches": branches,
        });
        let text = serde_json::to_string_pretty(&value).map_err(std::io::Error::other)?;
        return writeln!(out, "{text}");
    }
    writeln!(
        out,
        "state of {n} qubit(s) (basis states: rightmost = q0; amplitudes up to a global phase)"
    )?;
    for b in &states.branches {
        if !b.measured.is_empty() || states.branches.len() > 1 {
            writeln!(
                out,
                "branch {} (probability {:.6})",
                measured_text(b),
                b.probability
            )?;
        }
        match form {
            StateForm::Sparse => {
                for (ones, a) in &b.amplitudes {
                    writeln!(out, "  {}  {}", basis_key(ones, n), complex_text(*a))?;
                }
            }
            StateForm::Dense => {
                let mut all = vec![Complex64::new(0.0, 0.0); 1 << n];
                for (ones, a) in &b.amplitudes {
                    all[basis_index(ones)] = *a;
                }
                for (index, a) in all.iter().enumerate() {
                    let ones: Vec<qc_ir::Qubit> = (0..n)
                        .filter(|k| index >> k & 1 == 1)
                        .map(|k| qc_ir::Qubit(k as u32))
                        .collect();
                    writeln!(out, "  {}  {}", basis_key(&ones, n), complex_text(*a))?;
                }
            }
        }
    }
    Ok(())
}
