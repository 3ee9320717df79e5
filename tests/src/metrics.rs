//! Size figures of a piece of circuit (one move's instructions): the qubits it touches, gate
//! counts by name, two-qubit depth and measurement count, and its IR lines with square names.

use qc_ir::{Circuit, Instruction, Op, Qubit};
use std::collections::{BTreeMap, BTreeSet};

/// Figures of a list of instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metrics {
    /// Distinct qubits touched (targets, controls, measured, allocated), squares and ancillas.
    pub qubits: usize,
    /// Gates by name with one `c`/`n` prefix per 1-/0-control (`iswap`, `niswap`, `ccx`), as
    /// [`Circuit::gate_counts`] spells them.
    pub gate_counts: BTreeMap<String, usize>,
    /// Total gates.
    pub gates: usize,
    /// Gates acting on two or more qubits (targets plus controls).
    pub multi_qubit_gates: usize,
    /// Depth counting only gates on two or more qubits.
    pub two_qubit_depth: usize,
    /// Measurements.
    pub measurements: usize,
}

/// The qubits an instruction touches.
fn touched(instr: &Instruction) -> Vec<Qubit> {
    instr.op.qubits().into_iter().collect()
}

/// Figures of `instructions`.
pub fn metrics(instructions: &[Instruction]) -> Metrics {
    let mut qubits = BTreeSet::new();
    let mut gates = 0;
    let mut multi = 0;
    let mut measurements = 0;
    for instr in instructions {
        let qs = touched(instr);
        qubits.extend(qs.iter().copied());
        match &instr.op {
            Op::Gate { .. } | Op::UserGate { .. } => {
                gates += 1;
                if qs.len() >= 2 {
                    multi += 1;
                }
            }
            Op::Measure { .. } => measurements += 1,
            Op::Reset { .. } | Op::Alloc { .. } | Op::Free { .. } | Op::Delay { .. } => {}
        }
    }
    let gate_qubits: Vec<Vec<Qubit>> = instructions
        .iter()
        .filter(|i| matches!(i.op, Op::Gate { .. } | Op::UserGate { .. }))
        .map(touched)
        .collect();
    let two_qubit_depth = qc_export::two_qubit_depth(gate_qubits.iter().map(Vec::as_slice));
    let gate_counts = Circuit::from_parts(Vec::new(), 0, instructions.to_vec())
        .gate_counts()
        .into_iter()
        .collect();
    Metrics {
        qubits: qubits.len(),
        gate_counts,
        gates,
        multi_qubit_gates: multi,
        two_qubit_depth,
        measurements,
    }
}

/// The IR text lines of `instructions`, with `circuit`'s qubit names (squares by name, ancillas
/// as the circuit names them), one instruction per line.
pub fn ir_lines(circuit: &Circuit, instructions: &[Instruction]) -> String {
    let names = circuit.qubit_names();
    let mut out = String::new();
    for instr in instructions {
        out.push_str(&qc_ir::text::print_instruction(instr, &names));
        out.push('\n');
    }
    out
}

/// `iswap: 2, x: 1`, in name order.
pub fn counts_text(counts: &BTreeMap<String, usize>) -> String {
    if counts.is_empty() {
        return "none".into();
    }
    counts
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}
