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

use crate::cantwell::classify::Classified;
use crate::cantwell::error::MoveError;
use crate::cantwell::lower::lower;
use crate::cantwell::occupancy::Occupancy;
use crate::chess::Square;
use qc_ir::{Backend, CircuitBuilder, Gate, Instruction, Op, Qubit, IMPOSSIBLE_PROBABILITY};
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
    branches(backend, instructions).any(|(_, walk)| walk.acts)
}

/// The probability that the move's measurement gives 1 ("applied"): the total probability of
/// the branches whose measured bit is 1; 1 for a move that measures nothing.
pub fn success_probability<B: Backend + ?Sized>(backend: &B, instructions: &[Instruction]) -> f64 {
    branches(backend, instructions)
        .filter(|(_, walk)| walk.measured.unwrap_or(true))
        .map(|(p, _)| p)
        .sum::<f64>()
        .min(1.0)
}

/// Every classical branch of the qubits `instructions` read (with its probability) and what the
/// walk through the instructions found in it.
fn branches<'a, B: Backend + ?Sized>(
    backend: &B,
    instructions: &'a [Instruction],
) -> impl Iterator<Item = (f64, Walk)> + 'a {
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
    // More qubits than a joint distribution can name: one branch that is assumed to act.
    let patterns = if read.len() > 128 {
        Vec::new()
    } else {
        backend.marginal(&read)
    };
    let unknown = (read.len() > 128).then_some((
        1.0,
        Walk {
            acts: true,
            measured: None,
        },
    ));
    patterns
        .into_iter()
        .map(move |(pattern, p)| {
            let start: BTreeMap<Qubit, bool> = read
                .iter()
                .enumerate()
                .map(|(k, &q)| (q, pattern >> k & 1 == 1))
                .collect();
            (p, walk(instructions, start))
        })
        .chain(unknown)
}

/// What one branch's walk found.
struct Walk {
    /// The branch's basis state is not left as it was.
    acts: bool,
    /// The first measured bit, if the walk reached a measurement.
    measured: Option<bool>,
}

/// Walks one classical branch (the bits in `values`; any other qubit is 0) through the
/// instructions.
fn walk(instructions: &[Instruction], mut values: BTreeMap<Qubit, bool>) -> Walk {
    let start = values.clone();
    let mut bits = BTreeMap::new();
    let mut measured = None;
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
                            return Walk {
                                acts: true,
                                measured,
                            };
                        }
                    }
                    // Any other gate may change the branch (a phase, a rotation): assume it acts.
                    _ => {
                        return Walk {
                            acts: true,
                            measured,
                        }
                    }
                }
            }
            // Game circuits hold no user gates; one may act like any gate that is not a swap.
            Op::UserGate { .. } => {
                return Walk {
                    acts: true,
                    measured,
                }
            }
            Op::Measure { qubit, clbit } => {
                let bit = value(&values, qubit);
                bits.insert(*clbit, bit);
                measured.get_or_insert(bit);
            }
            Op::Reset { qubit } => {
                values.insert(*qubit, false);
            }
            Op::Alloc { .. } | Op::Free { .. } => {}
        }
    }
    let acts = values
        .iter()
        .any(|(q, v)| *v != start.get(q).copied().unwrap_or(false));
    Walk { acts, measured }
}

/// The instructions the classified move would emit (`occ`: the state's support), lowered into
/// a scratch circuit (square k is qubit k, as in [`crate::Game`]).
fn scratch_instructions(
    occ: &Occupancy,
    classified: &Classified,
) -> Result<Vec<Instruction>, MoveError> {
    let mut scratch = CircuitBuilder::new();
    for sq in Square::ALL {
        scratch.site(sq.site());
    }
    lower(classified, occ, &mut scratch, 0)?;
    Ok(scratch.circuit().instructions().to_vec())
}

/// Whether the classified move can change the state of `backend` (`occ` is the state's
/// support), judged by [`can_act`] on its instructions.
///
/// # Errors
/// Lowering the move fails.
pub fn classified_can_act<B: Backend + ?Sized>(
    backend: &B,
    occ: &Occupancy,
    classified: &Classified,
) -> Result<bool, MoveError> {
    Ok(can_act(backend, &scratch_instructions(occ, classified)?))
}

/// The outcomes of the classified move on the state of `backend` (`occ` is the state's
/// support), each with its exact probability: `None` alone (probability 1) when the move
/// measures nothing; otherwise `Some(true)` (applied) and `Some(false)` with their
/// probabilities, leaving out an outcome below [`IMPOSSIBLE_PROBABILITY`]. The move is not
/// played.
///
/// # Errors
/// Lowering fails, or the move cannot change the state ([`MoveError::CertainlyFails`],
/// [`MoveError::Unchanged`]).
pub fn move_outcomes<B: Backend + ?Sized>(
    backend: &B,
    occ: &Occupancy,
    classified: &Classified,
) -> Result<Vec<(Option<bool>, f64)>, MoveError> {
    let instructions = scratch_instructions(occ, classified)?;
    check(backend, &instructions)?;
    if !instructions
        .iter()
        .any(|i| matches!(i.op, Op::Measure { .. }))
    {
        return Ok(vec![(None, 1.0)]);
    }
    let applied = success_probability(backend, &instructions);
    Ok([(Some(true), applied), (Some(false), 1.0 - applied)]
        .into_iter()
        .filter(|(_, p)| *p >= IMPOSSIBLE_PROBABILITY)
        .collect())
}
