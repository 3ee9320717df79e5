//! Inlining user gates: every [`crate::Op::UserGate`] replaced by its body's gates, with the call's
//! controls, condition and origin on each. This is the plain form an importer writes for a user
//! gate, what `--no-optimize` runs; it has the same unitary exactly (the gate's matrix is its
//! body's product).

use crate::circuit::Circuit;
use crate::instruction::Instruction;
use crate::user_gate::inline_instruction;

/// `circuit` with every user gate written as its body (see the module docs).
pub fn inline_user_gates(circuit: &Circuit) -> Circuit {
    let mut out = circuit.clone();
    let instructions: Vec<Instruction> = circuit
        .instructions()
        .iter()
        .flat_map(|instr| inline_instruction(instr).unwrap_or_else(|| vec![instr.clone()]))
        .collect();
    *out.instructions_mut() = instructions;
    out
}
