//! `qchess compile`: a whole game as one circuit.

use crate::backend_choice::{with_backend, BackendChoice};
use crate::game_input::GameArgs;
use crate::output::{write_stderr, write_stdout};
use crate::replay::replay;
use anyhow::Context;
use clap::{Args, ValueEnum};
use qc_ir::{Circuit, Op};
use std::path::PathBuf;

/// Output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The IR text format (docs/ir.md).
    Ir,
    /// The IR as JSON.
    Json,
    /// OpenQASM 3, dynamic form (mid-circuit measurements, recorded outcomes as comments).
    Qasm3,
}

/// Arguments of `qchess compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Ir)]
    pub format: Format,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Seed for the outcomes of moves written without .m0/.m1.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs the command.
pub fn run(args: &CompileArgs) -> anyhow::Result<()> {
    if args.game.rules.is_niels()? {
        return crate::niels::compile::run(args);
    }
    let loaded = args.game.load_required()?;
    with_backend!(BackendChoice::Sparse, |backend| {
        let game = replay(&loaded, backend, args.seed)?;
        let circuit = game.circuit();
        let text = match args.format {
            Format::Ir => qc_ir::text::print(circuit),
            Format::Json => serde_json::to_string_pretty(circuit)? + "\n",
            Format::Qasm3 => {
                let outcomes = game.classical_record().bits().to_vec();
                qc_export::export_qasm3(circuit, &outcomes, &qc_export::ExportOptions::default())
                    .context("cannot export the game circuit as OpenQASM 3")?
                    .text
            }
        };
        let outcomes: Vec<String> = game
            .history()
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                r.outcome
                    .map(|o| format!("move {} {}: {}", i + 1, r.qcan, u8::from(o)))
            })
            .collect();
        write_stderr(&summary(circuit, &outcomes))?;
        match &args.output {
            Some(path) => std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display())),
            None => write_stdout(&text),
        }
    })
}

/// The summary printed on standard error: qubits, clbits, gate counts, two-qubit depth,
/// measurements and recorded outcomes.
pub fn summary(circuit: &Circuit, outcomes: &[String]) -> String {
    let counts: Vec<String> = circuit
        .gate_counts()
        .into_iter()
        .map(|(name, n)| format!("{name}: {n}"))
        .collect();
    let mut out = format!(
        "qubits: {}, clbits: {}, gates: {} ({}), two-qubit depth: {}, measurements: {}\n",
        circuit.num_qubits(),
        circuit.num_clbits(),
        circuit.num_gates(),
        counts.join(", "),
        two_qubit_depth(circuit),
        circuit.num_measurements()
    );
    if !outcomes.is_empty() {
        out.push_str(&format!("recorded outcomes: {}\n", outcomes.join("; ")));
    }
    out
}

/// Depth counting only gates that touch two or more qubits (targets plus controls).
pub fn two_qubit_depth(circuit: &Circuit) -> usize {
    let mut depth = vec![0usize; circuit.num_qubits()];
    let mut max = 0;
    for instr in circuit.instructions() {
        if let Op::Gate { .. } = instr.op {
            let qubits = instr.op.qubits();
            if qubits.len() >= 2 {
                let d = qubits.iter().map(|q| depth[q.index()]).max().unwrap_or(0) + 1;
                for q in &qubits {
                    depth[q.index()] = d;
                }
                max = max.max(d);
            }
        }
    }
    max
}
