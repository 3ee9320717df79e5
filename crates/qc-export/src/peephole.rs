//! Inverse pairs of gate calls left by the lowering, cancelled in the program.
//!
//! The IR passes ([`qc_ir::passes::optimize`]) see one instruction per gate; the lowering then
//! writes a 0-control as an `x` on each side of the gate, a multi-controlled gate as a compute /
//! uncompute chain over scratch qubits, and so on. Two consecutive instructions with the same
//! 0-control leave `x c; x c` between them. This pass removes a call directly followed, on every
//! qubit it touches, by its inverse on the same operands (same modifiers, same operand order):
//! the two multiply to the identity exactly (the inverse comes from the gate table, no angle
//! arithmetic). Statements that are not gate calls (measurements, resets, `if` blocks) end the
//! adjacency of every qubit they touch; gates inside an `if` block are paired among themselves.

use crate::program::{GateCall, Stmt};
use qc_ir::gate_data::{qasm_gate, QasmCall};

/// The meaning of a call from the gate table, when the call is one of its names.
fn meaning(call: &GateCall) -> Option<QasmCall> {
    qasm_gate(&call.name)?.resolve(&call.params)
}

/// True when `b` undoes `a`.
fn undoes(a: &GateCall, b: &GateCall) -> bool {
    if a.qubits != b.qubits || a.modifiers != b.modifiers {
        return false;
    }
    match (meaning(a), meaning(b)) {
        (Some(x), Some(y)) => {
            x.controls == y.controls
                && x.zero_control == y.zero_control
                && x.control_phase == 0.0
                && y.control_phase == 0.0
                && x.gate.inverse() == y.gate
        }
        _ => false,
    }
}

/// Cancels inverse pairs among `calls` (one straight-line sequence); returns the pairs removed.
fn cancel_calls(calls: &mut Vec<GateCall>, num_qubits: usize) -> usize {
    let mut keep = vec![true; calls.len()];
    let mut stacks: Vec<Vec<usize>> = vec![Vec::new(); num_qubits];
    let mut pairs = 0;
    for (index, call) in calls.iter().enumerate() {
        let tops: Vec<Option<usize>> = call
            .qubits
            .iter()
            .map(|&q| stacks.get(q).and_then(|s| s.last().copied()))
            .collect();
        let partner = tops
            .first()
            .copied()
            .flatten()
            .filter(|&a| tops.iter().all(|t| *t == Some(a)) && undoes(&calls[a], call));
        if let Some(a) = partner {
            keep[a] = false;
            keep[index] = false;
            pairs += 1;
            for &q in &call.qubits {
                if let Some(stack) = stacks.get_mut(q) {
                    stack.pop();
                }
            }
            continue;
        }
        for &q in &call.qubits {
            if let Some(stack) = stacks.get_mut(q) {
                stack.push(index);
            }
        }
    }
    let mut index = 0;
    calls.retain(|_| {
        index += 1;
        keep[index - 1]
    });
    pairs
}

/// Cancels inverse pairs of gate calls in `body` (see the module docs); returns the pairs
/// removed. Runs until nothing changes, since a removed pair can make its neighbours adjacent.
pub fn cancel_inverse_calls(body: &mut Vec<Stmt>, num_qubits: usize) -> usize {
    let mut total = 0;
    loop {
        let mut pairs = 0;
        // Straight-line stretches of top-level calls between other statements.
        let mut out: Vec<Stmt> = Vec::with_capacity(body.len());
        let mut stretch: Vec<GateCall> = Vec::new();
        for stmt in body.drain(..) {
            match stmt {
                Stmt::Gate(call) => stretch.push(call),
                other => {
                    pairs += cancel_calls(&mut stretch, num_qubits);
                    out.extend(stretch.drain(..).map(Stmt::Gate));
                    match other {
                        Stmt::If { clbit, mut body } => {
                            pairs += cancel_calls(&mut body, num_qubits);
                            if !body.is_empty() {
                                out.push(Stmt::If { clbit, body });
                            }
                        }
                        other => out.push(other),
                    }
                }
            }
        }
        pairs += cancel_calls(&mut stretch, num_qubits);
        out.extend(stretch.into_iter().map(Stmt::Gate));
        *body = out;
        total += pairs;
        if pairs == 0 {
            return total;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, qubits: &[usize]) -> Stmt {
        Stmt::Gate(GateCall::new(name, vec![], qubits.to_vec()))
    }

    #[test]
    fn x_wraps_of_neighbouring_gates_cancel_and_others_stay() {
        // x c; cx c a; x c | x c; cx c b; x c: the middle pair goes.
        let mut body = vec![
            call("x", &[0]),
            call("cx", &[0, 1]),
            call("x", &[0]),
            call("x", &[0]),
            call("cx", &[0, 2]),
            call("x", &[0]),
        ];
        assert_eq!(cancel_inverse_calls(&mut body, 3), 1);
        assert_eq!(
            body,
            vec![
                call("x", &[0]),
                call("cx", &[0, 1]),
                call("cx", &[0, 2]),
                call("x", &[0])
            ]
        );
    }

    #[test]
    fn inverses_cancel_across_other_qubits_but_not_across_a_use() {
        // s; sdg with an h on another qubit between: cancel. cx a b; cx b a: not inverses.
        let mut body = vec![
            call("s", &[0]),
            call("h", &[1]),
            call("sdg", &[0]),
            call("cx", &[0, 1]),
            call("cx", &[1, 0]),
            call("iswap", &[1, 2]),
            Stmt::Measure { qubit: 2, clbit: 0 },
            call("iswapdg", &[1, 2]),
        ];
        assert_eq!(cancel_inverse_calls(&mut body, 3), 1);
        assert_eq!(body.len(), 6);
        assert_eq!(body[0], call("h", &[1]));
    }

    #[test]
    fn pairs_nest() {
        // h; x; x; h: the inner pair goes, then the outer one.
        let mut body = vec![
            call("h", &[0]),
            call("x", &[0]),
            call("x", &[0]),
            call("h", &[0]),
        ];
        assert_eq!(cancel_inverse_calls(&mut body, 1), 2);
        assert!(body.is_empty());
    }
}
