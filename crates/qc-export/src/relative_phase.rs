//! Compute / uncompute pairs of Toffolis, found so that target lowering can write them as
//! relative-phase Toffolis.
//!
//! A game's moves compute "the path is empty" into an ancilla with `ccx` (or `c3x`), use the
//! ancilla as a control, and uncompute it with the same gate; the lowering writes a
//! multi-controlled gate the same way over a scratch qubit. A relative-phase Toffoli `R = D CCX`
//! (`D` diagonal) needs 3 CNOTs on two pairs instead of 6 on three (`c3x`: 6 instead of 14),
//! and `R ... R^-1 = CCX ... CCX` exactly when everything in between commutes with `D`: when
//! every statement in between acts on the pair's qubits only as controls or diagonal gates
//! (block-diagonal in their computational basis). `D` depends on the order of the controls, so
//! both halves are written with the compute's operand order: a Toffoli is symmetric in its
//! controls, so the uncompute is the same gate, and its `D^-1` then cancels the compute's `D`.
//! This module finds such pairs; the lowering writes them ([`crate::target`]).

use crate::program::{GateCall, Stmt};
use qc_ir::gate_data::qasm_gate;

/// The Toffoli names paired: X with two and with three controls (all operands but the last).
const TOFFOLIS: [&str; 2] = ["ccx", "c3x"];

/// True when `call` acts on its operand at `position` as a control or a diagonal gate (it
/// commutes with every diagonal operator on that qubit). Unknown names and modifiers count as
/// acting fully (false).
fn block_diagonal_on(call: &GateCall, position: usize) -> bool {
    if !call.modifiers.is_empty() {
        return false;
    }
    let Some(meaning) = qasm_gate(&call.name).and_then(|form| form.resolve(&call.params)) else {
        return false;
    };
    position < meaning.controls || meaning.gate.is_diagonal()
}

/// True when `stmt` keeps every qubit of `qubits` block-diagonal (a measurement or reset of
/// one of them does not).
fn keeps(stmt: &Stmt, qubits: &[usize]) -> bool {
    let call_keeps = |call: &GateCall| {
        call.qubits
            .iter()
            .enumerate()
            .all(|(k, q)| !qubits.contains(q) || block_diagonal_on(call, k))
    };
    match stmt {
        Stmt::Gate(call) => call_keeps(call),
        Stmt::If { body, .. } => body.iter().all(call_keeps),
        Stmt::Measure { qubit, .. } | Stmt::Reset { qubit } => !qubits.contains(qubit),
        // The identity: it keeps every qubit as it is (but it is a timed instruction, so a
        // pair of Toffolis is not matched across one on their qubits; see `toffoli_pairs`).
        Stmt::Delay { qubit, .. } => !qubits.contains(qubit),
    }
}

/// True when `a` and `b` are the same Toffoli: same name, same target, same set of controls.
fn same_toffoli(a: &GateCall, b: &GateCall) -> bool {
    let (Some((ta, ca)), Some((tb, cb))) = (a.qubits.split_last(), b.qubits.split_last()) else {
        return false;
    };
    a.name == b.name
        && a.params.is_empty()
        && b.params.is_empty()
        && a.modifiers.is_empty()
        && b.modifiers.is_empty()
        && ta == tb
        && ca.len() == cb.len()
        && ca.iter().all(|q| cb.contains(q))
}

/// How far past a Toffoli its partner is looked for, in statements (the search is bounded; a
/// Toffoli without a partner that near is written exactly).
const SEARCH: usize = 4096;

/// A Toffoli's part in a pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// The first of the pair: written as `R = D CCX`.
    Compute,
    /// The second: written as `R^-1`.
    Uncompute,
}

/// A Toffoli of a pair: its role and the operands its relative-phase form is written on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    /// Compute or uncompute.
    pub role: Role,
    /// Controls, then the target, in the compute's order for both halves (the uncompute's own
    /// call may list its controls in another order: the same gate, but another `D`).
    pub qubits: Vec<usize>,
}

/// The top-level Toffoli calls of `body` that pair up as compute and uncompute: each with the
/// next statement that acts on one of its qubits other than as a control or diagonal gate,
/// when that is the same Toffoli. Statements in `if` blocks are never paired (they only lie in
/// between).
pub fn toffoli_pairs(body: &[Stmt]) -> Vec<Option<Paired>> {
    let mut pairs = vec![None; body.len()];
    for (i, stmt) in body.iter().enumerate() {
        let Stmt::Gate(first) = stmt else { continue };
        if pairs[i].is_some() || !TOFFOLIS.contains(&first.name.as_str()) {
            continue;
        }
        let next = body[i + 1..]
            .iter()
            .take(SEARCH)
            .position(|s| !keeps(s, &first.qubits))
            .map(|k| i + 1 + k);
        if let Some(j) = next {
            if let Stmt::Gate(second) = &body[j] {
                if same_toffoli(first, second) {
                    let half = |role| Paired {
                        role,
                        qubits: first.qubits.clone(),
                    };
                    pairs[i] = Some(half(Role::Compute));
                    pairs[j] = Some(half(Role::Uncompute));
                }
            }
        }
    }
    pairs
}
