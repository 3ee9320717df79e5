//! Definition 2 of the paper: a move is legal only if it can change the state.
//!
//! A move whose possibility equations hold can still fail in every branch of the superposition:
//! a capture slide whose path is blocked in each branch by *some* piece although no single path
//! square is certainly occupied, or a castling whose squares are never jointly free. Played, such
//! a move would measure a certain 0 and spend the turn without doing anything: a free null move.
//!
//! [`can_act`] decides it from the exact state. The move's lowered instructions touch a few
//! qubits; the state's exact joint distribution of those qubits (its support, ancillas the move
//! allocates start in 0) lists every classical branch. Each branch is walked through the
//! instructions: `X` gates flip bits, a measurement records its bit (later instructions
//! conditioned on it follow the recorded value), and the walk stops with "acts" at the first gate
//! that does not fix the branch's basis state (an iSWAP-family gate on two different bits, any
//! other non-permutation gate whose controls hold) or at the end if a bit changed. A move that
//! acts in no branch cannot change the state, whatever the measurement outcomes.

use crate::board::Board;
use crate::classify::classify;
use crate::error::MoveError;
use crate::lower::lower;
use crate::occupancy::Occupancy;
use crate::qcan::QcanMove;
use qc_ir::{Backend, CircuitBuilder, Gate, Instruction, Op, Qubit, Square};
use std::collections::{BTreeMap, BTreeSet};

/// Refuses a move whose `instructions` cannot change the state of `backend`.
///
/// # Errors
/// [`MoveError::CertainlyFails`] when the move measures and its measured condition holds in no
/// branch; [`MoveError::Unchanged`] when it measures nothing and acts in no branch.
pub fn check<B: Backend + ?Sized>(
    backend: &B,
    instructions: &[Instruction],
) -> Result<(), MoveError> {
    if can_act(backend, instructions) {
        return Ok(());
    }
    let measures = instructions
        .iter()
        .any(|i| matches!(i.op, Op::Measure { .. }));
    Err(if measures {
        MoveError::CertainlyFails
    } else {
        MoveError::Unchanged
    })
}

/// Whether running `instructions` on the state of `backend` can change it in at least one
/// branch of the superposition (see the module docs).
pub fn can_act<B: Backend + ?Sized>(backend: &B, instructions: &[Instruction]) -> bool {
    let allocated: BTreeSet<Qubit> = instructions
        .iter()
        .filter_map(|i| match i.op {
            Op::Alloc { qubit } => Some(qubit),
            _ => None,
        })
        .collect();
    let read: Vec<Qubit> = instructions
        .iter()
        .flat_map(|i| i.op.qubits())
        .filter(|q| !allocated.contains(q))
        .collect::<BTreeSet<Qubit>>()
        .into_iter()
        .collect();
    if read.len() > 128 {
        // More qubits than a joint distribution can name: assume the move can act.
        return true;
    }
    backend.marginal(&read).into_iter().any(|(pattern, _)| {
        let start: BTreeMap<Qubit, bool> = read
            .iter()
            .enumerate()
            .map(|(k, &q)| (q, pattern >> k & 1 == 1))
            .collect();
        branch_acts(instructions, start)
    })
}

/// Walks one classical branch (the bits in `values`; any other qubit is 0) through the
/// instructions; true when the branch's basis state is not left as it was.
fn branch_acts(instructions: &[Instruction], mut values: BTreeMap<Qubit, bool>) -> bool {
    let start = values.clone();
    let mut bits = BTreeMap::new();
    let value = |values: &BTreeMap<Qubit, bool>, q: &Qubit| values.get(q).copied().unwrap_or(false);
    for instr in instructions {
        if let Some(cond) = instr.condition {
            if bits.get(&cond.clbit).copied().unwrap_or(false) != cond.value {
                continue;
            }
        }
        match &instr.op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => {
                if !controls
                    .iter()
                    .all(|c| value(&values, &c.qubit) == c.on.value())
                {
                    continue;
                }
                match gate {
                    Gate::I => {}
                    Gate::X => {
                        let q = targets[0];
                        let v = value(&values, &q);
                        values.insert(q, !v);
                    }
                    Gate::Swap
                    | Gate::ISwap
                    | Gate::ISwapDg
                    | Gate::SqrtISwap
                    | Gate::SqrtISwapDg => {
                        // |00> and |11> are fixed by every swap-type gate, the others are moved.
                        if value(&values, &targets[0]) != value(&values, &targets[1]) {
                            return true;
                        }
                    }
                    // Any other gate may change the branch (a phase, a rotation): assume it acts.
                    _ => return true,
                }
            }
            Op::Measure { qubit, clbit } => {
                bits.insert(*clbit, value(&values, qubit));
            }
            Op::Reset { qubit } => {
                values.insert(*qubit, false);
            }
            Op::Alloc { .. } | Op::Free { .. } => {}
        }
    }
    values
        .iter()
        .any(|(q, v)| *v != start.get(q).copied().unwrap_or(false))
}

/// Whether `mv` can change the state of `backend` in the position `board` (`occ` is the state's
/// support): it is classified and lowered into a scratch circuit (square k is qubit k, as in
/// [`crate::Game`]), then judged by [`can_act`].
///
/// # Errors
/// The move is not possible by the possibility equations (classification or lowering fails).
pub fn move_can_act<B: Backend + ?Sized>(
    backend: &B,
    board: &Board,
    occ: &Occupancy,
    mv: &QcanMove,
) -> Result<bool, MoveError> {
    let classified = classify(board, occ, mv)?;
    let mut scratch = CircuitBuilder::new();
    for sq in Square::ALL {
        scratch.square(sq);
    }
    lower(&classified, occ, &mut scratch, 0)?;
    Ok(can_act(backend, scratch.circuit().instructions()))
}
