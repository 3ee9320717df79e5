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
//! conditioned on it follow the recorded value). A branch "acts" when a gate does not fix its
//! basis state (a swap-family gate on two different bits, any other gate but `X` whose controls
//! hold) or a bit has changed at the end. A move that acts in no branch cannot change the state,
//! whatever the measurement outcomes.
//!
//! A move can act in every branch and still leave the state as it was up to a global phase:
//! moving one half of an evenly split rook onto the other (`a2a3` after `a1^a2a3`) swaps the two
//! branches with the same phase `i`. Playing such a move is refused (the state's fidelity with
//! itself before the move stays 1), so the legal moves must leave it out too:
//! [`crate::cantwell::global_phase`] decides it exactly for moves that permute basis states.

use crate::cantwell::classify::Classified;
use crate::cantwell::error::MoveError;
use crate::cantwell::global_phase;
use crate::cantwell::lower::lower;
use crate::cantwell::occupancy::Occupancy;
use crate::chess::Square;
use qc_ir::{Backend, CircuitBuilder, Gate, Instruction, Op, Qubit, IMPOSSIBLE_PROBABILITY};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

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
    let read = read_qubits(instructions);
    if !gates_only(instructions) {
        // A move that measures, resets or allocates is never a pure phase: any acting branch
        // settles it.
        return branches(backend, instructions, &read).any(|(_, _, walk)| walk.acts);
    }
    let walks: Vec<(u128, f64, Walk)> = branches(backend, instructions, &read).collect();
    walks.iter().any(|(_, _, walk)| walk.acts)
        && !global_phase::only_global_phase(backend, instructions, &read, &walks)
}

/// Whether `instructions` are unconditioned gates alone (a unitary on the qubits they read).
fn gates_only(instructions: &[Instruction]) -> bool {
    instructions
        .iter()
        .all(|i| i.condition.is_none() && matches!(i.op, Op::Gate { .. }))
}

/// The probability that the move's measurement gives 1 ("applied"): the total probability of
/// the branches whose measured bit is 1; 1 for a move that measures nothing.
pub fn success_probability<B: Backend + ?Sized>(backend: &B, instructions: &[Instruction]) -> f64 {
    branches(backend, instructions, &read_qubits(instructions))
        .filter(|(_, _, walk)| walk.measured.unwrap_or(true))
        .map(|(_, p, _)| p)
        .sum::<f64>()
        .min(1.0)
}

/// The qubits `instructions` read that they do not allocate (an allocated ancilla starts in 0),
/// in increasing order: bit k of a branch's pattern is `read[k]`.
fn read_qubits(instructions: &[Instruction]) -> Vec<Qubit> {
    let allocated: BTreeSet<Qubit> = instructions
        .iter()
        .filter_map(|i| match i.op {
            Op::Alloc { qubit } => Some(qubit),
            _ => None,
        })
        .collect();
    instructions
        .iter()
        .flat_map(|i| i.op.qubits())
        .filter(|q| !allocated.contains(q))
        .collect::<BTreeSet<Qubit>>()
        .into_iter()
        .collect()
}

/// Every classical branch of the qubits `read` (see [`read_qubits`]): its pattern, its
/// probability and what the walk through the instructions found in it.
fn branches<'a, B: Backend + ?Sized>(
    backend: &B,
    instructions: &'a [Instruction],
    read: &'a [Qubit],
) -> impl Iterator<Item = (u128, f64, Walk)> + 'a {
    // More qubits than a joint distribution can name: one branch that is assumed to act.
    let patterns = if read.len() > 128 {
        Vec::new()
    } else {
        backend.marginal(read)
    };
    let unknown = (read.len() > 128).then_some((
        0,
        1.0,
        Walk {
            acts: true,
            measured: None,
            image: None,
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
            (pattern, p, walk(instructions, start, read))
        })
        .chain(unknown)
}

/// What one branch's walk found.
pub(crate) struct Walk {
    /// The branch's basis state is not left as it was.
    pub(crate) acts: bool,
    /// The first measured bit, if the walk reached a measurement.
    measured: Option<bool>,
    /// The pattern (over the read qubits) the branch's basis state is sent to, up to a phase,
    /// when every gate on the way sent basis states to basis states (`X`, `swap`, `iswap`,
    /// `iswapdg`, or a gate that fixed the branch); `None` after any other gate, a measurement,
    /// a reset or a qubit outside the read ones.
    pub(crate) image: Option<u128>,
}

/// Walks one classical branch (the bits in `values`; any other qubit is 0) through the
/// instructions; `read` names the bits of the branch's image pattern.
fn walk(instructions: &[Instruction], mut values: BTreeMap<Qubit, bool>, read: &[Qubit]) -> Walk {
    let start = values.clone();
    let mut bits = BTreeMap::new();
    let mut measured = None;
    // A swap-family gate moved the branch: it acts even if a later gate moves it back, since the
    // phases it picked up need not cancel.
    let mut swapped = false;
    // Only a move of gates alone is followed past its first swap (to find its image); in any
    // other the walk stops there, as a measurement after it is read from the branch unmoved.
    let permutes = gates_only(instructions);
    let value = |values: &BTreeMap<Qubit, bool>, q: &Qubit| values.get(q).copied().unwrap_or(false);
    let acting = |measured| Walk {
        acts: true,
        measured,
        image: None,
    };
    for instr in instructions {
        if let Some(guard) = &instr.condition {
            if !guard.holds(|b| bits.get(&b).copied().unwrap_or(false)) {
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
                    Gate::Swap | Gate::ISwap | Gate::ISwapDg => {
                        // |00> and |11> are fixed; |01> and |10> are exchanged (with a phase).
                        let (a, b) = (value(&values, &targets[0]), value(&values, &targets[1]));
                        if a != b {
                            if !permutes {
                                return acting(measured);
                            }
                            swapped = true;
                            values.insert(targets[0], b);
                            values.insert(targets[1], a);
                        }
                    }
                    Gate::SqrtISwap | Gate::SqrtISwapDg => {
                        // |00> and |11> are fixed, the others are spread over two basis states.
                        if value(&values, &targets[0]) != value(&values, &targets[1]) {
                            return acting(measured);
                        }
                    }
                    // Any other gate may change the branch (a phase, a rotation): assume it acts.
                    _ => return acting(measured),
                }
            }
            // Game circuits hold no user gates; one may act like any gate that is not a swap.
            Op::UserGate { .. } => return acting(measured),
            Op::Measure { qubit, clbit } => {
                let bit = value(&values, qubit);
                bits.insert(*clbit, bit);
                measured.get_or_insert(bit);
            }
            Op::Reset { qubit } => {
                values.insert(*qubit, false);
            }
            Op::Alloc { .. } | Op::Free { .. } | Op::Delay { .. } => {}
        }
    }
    let acts = swapped
        || values
            .iter()
            .any(|(q, v)| *v != start.get(q).copied().unwrap_or(false));
    let image = permutes.then(|| pattern_over(&values, read)).flatten();
    Walk {
        acts,
        measured,
        image,
    }
}

/// The pattern of `values` over `read` (bit k = `read[k]`); `None` when a qubit outside `read` is
/// 1 or there are more than 128 read qubits.
fn pattern_over(values: &BTreeMap<Qubit, bool>, read: &[Qubit]) -> Option<u128> {
    if read.len() > 128 {
        return None;
    }
    let mut pattern = 0u128;
    for (q, v) in values {
        if !*v {
            continue;
        }
        let k = read.binary_search(q).ok()?;
        pattern |= 1 << k;
    }
    Some(pattern)
}

/// A builder holding the 64 square qubits and nothing else, made once: each candidate move is
/// lowered into a clone of it (adding the 64 sites anew for every candidate was a sixth of the
/// time the legal moves of a big superposition took).
fn square_builder() -> &'static CircuitBuilder {
    static BUILDER: OnceLock<CircuitBuilder> = OnceLock::new();
    BUILDER.get_or_init(|| {
        let mut builder = CircuitBuilder::new();
        for sq in Square::ALL {
            builder.site(sq.site());
        }
        builder
    })
}

/// The instructions the classified move would emit (`occ`: the state's support), lowered into
/// a scratch circuit (square k is qubit k, as in [`crate::Game`]).
fn scratch_instructions(
    occ: &Occupancy,
    classified: &Classified,
) -> Result<Vec<Instruction>, MoveError> {
    let mut scratch = square_builder().clone();
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
