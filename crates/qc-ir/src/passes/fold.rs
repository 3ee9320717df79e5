//! Classical folding (an IR-to-IR pass) for the compact width, and the gate-level core it shares
//! with qc-rules' lowering.
//!
//! **The core** ([`fold_gate`], [`resolve_controls`]) says what known classical values of some
//! qubits make of one gate, wherever the knowledge comes from: this pass derives it by tracking the
//! circuit from |0...0>, qc-rules' lowering from the game's state (squares certainly empty or
//! occupied, fresh ancillas). A control known to hold is dropped; a control known to fail, or
//! targets holding known values the gate maps to themselves with amplitude 1, drop the gate; a
//! gate that acts says what is known of each target afterwards (from its matrix: a value every
//! basis state the known inputs allow maps to).
//!
//! **The pass** ([`fold_classical`]): a qubit whose value is a known basis state (a square that
//! only ever saw set-up `x`, an ancilla just allocated, a qubit after an unconditioned reset) is
//! tracked at compile time instead of being given a hardware qubit. Invariant: while a qubit is
//! known, its physical qubit is |0>.
//! - Gates are resolved by the core.
//! - A gate left with no control and no unresolved condition whose targets all have known values
//!   afterwards only updates the known values (its phase is global within the classical branch, so
//!   it is unobservable).
//! - Any other use *materializes* the known qubits it touches: `x` if the value is 1, then the
//!   qubit is quantum from there on.
//! - Measuring a known qubit gives a known bit; it is written by measuring one of two constant
//!   qubits (|0>, and |1> flipped at the start), and conditions on known bits are
//!   resolved at compile time.

use crate::instruction::Controls;
use crate::{Circuit, Clbit, Control, Gate, Guard, Instruction, Matrix, Op, Qubit, QubitRole};
use std::collections::BTreeMap;

/// An amplitude below this is zero when the pass reads a gate's matrix.
const ZERO: f64 = 1e-9;

/// What known classical values make of one gate (see [`fold_gate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GateFold {
    /// The gate never changes the state: a control is known to fail, or the targets hold known
    /// values that the gate maps to themselves with amplitude exactly 1 (so even a controlled or
    /// conditioned form is the identity).
    Drop,
    /// The gate acts, under `controls` (those not known to hold, each qubit once).
    Act {
        /// The controls left.
        controls: Controls,
        /// Per target, its value after the gate when known (with controls left: only a value
        /// the gate leaves unchanged, since it may not act).
        after: Vec<Option<bool>>,
    },
}

/// Resolves `controls` against known values (`known(q)`: `Some(v)` when qubit `q` certainly has
/// value `v`): a control known to hold is dropped, one known to fail means the gate never acts
/// (`None`); a qubit controlled twice counts once, or makes the gate never act when the two
/// polarities differ.
pub fn resolve_controls(
    controls: &[Control],
    known: impl Fn(Qubit) -> Option<bool>,
) -> Option<Controls> {
    let mut kept = Controls::new();
    for c in controls {
        match known(c.qubit) {
            Some(v) if v == c.on.value() => {}
            Some(_) => return None,
            None => match kept.iter().find(|k| k.qubit == c.qubit) {
                Some(other) if other.on != c.on => return None,
                Some(_) => {}
                None => kept.push(*c),
            },
        }
    }
    Some(kept)
}

/// What known values make of `gate` on `targets` under `controls` (see [`GateFold`]); `known(q)`
/// as in [`resolve_controls`].
pub fn fold_gate(
    gate: Gate,
    targets: &[Qubit],
    controls: &[Control],
    known: impl Fn(Qubit) -> Option<bool>,
) -> GateFold {
    fold_matrix(&gate.matrix(), targets, controls, known)
}

/// [`fold_gate`] for any gate given by its unitary `matrix` (first target = most significant
/// bit): a table gate or a user gate ([`Op::UserGate`]).
pub fn fold_matrix(
    matrix: &Matrix,
    targets: &[Qubit],
    controls: &[Control],
    known: impl Fn(Qubit) -> Option<bool>,
) -> GateFold {
    let Some(controls) = resolve_controls(controls, &known) else {
        return GateFold::Drop;
    };
    let before: Vec<Option<bool>> = targets.iter().map(|&q| known(q)).collect();
    if before.iter().all(Option::is_none) {
        // Nothing known goes in, so nothing is known coming out (the gate is unitary).
        return GateFold::Act {
            controls,
            after: before,
        };
    }
    let action = known_action(matrix, &before);
    if action.identity {
        return GateFold::Drop;
    }
    let after = if controls.is_empty() {
        action.after
    } else {
        before
            .iter()
            .zip(action.after)
            .map(|(&b, a)| if b == a { b } else { None })
            .collect()
    };
    GateFold::Act { controls, after }
}

/// What a gate's matrix does to the basis states its targets' known values allow.
struct KnownAction {
    /// Every target is known and the gate maps that basis state to itself with amplitude 1.
    identity: bool,
    /// Per target, the value it has in every basis state the gate maps those inputs to.
    after: Vec<Option<bool>>,
}

/// Reads [`KnownAction`] off a gate's matrix `m` (target 0 is the most significant bit).
fn known_action(m: &Matrix, before: &[Option<bool>]) -> KnownAction {
    let n = before.len();
    let bit = |index: usize, k: usize| (index >> (n - 1 - k)) & 1 == 1;
    let allowed = (0..m.dim()).filter(|&col| {
        before
            .iter()
            .enumerate()
            .all(|(k, b)| b.is_none_or(|v| bit(col, k) == v))
    });
    let mut after: Vec<Option<Option<bool>>> = vec![None; n];
    let mut identity = before.iter().all(Option::is_some);
    for col in allowed {
        for row in (0..m.dim()).filter(|&r| m.get(r, col).norm() > ZERO) {
            identity &= row == col && (m.get(row, col) - 1.0).norm() <= 1e-12;
            for (k, slot) in after.iter_mut().enumerate() {
                let v = bit(row, k);
                *slot = match *slot {
                    None => Some(Some(v)),
                    Some(Some(w)) if w == v => Some(Some(v)),
                    Some(_) => Some(None),
                };
            }
        }
    }
    KnownAction {
        identity,
        after: after.into_iter().map(Option::flatten).collect(),
    }
}

/// Folds classically known qubits away; the result has the same classical distribution.
pub fn fold_classical(circuit: &Circuit) -> Circuit {
    fold_classical_known(circuit).0
}

/// [`fold_classical`], also returning each qubit's value at the end of the circuit when it is
/// known at compile time (`None`: the qubit is quantum and keeps a register slot). The board
/// measurement of qc-export reads the squares it folded away from here.
pub fn fold_classical_known(circuit: &Circuit) -> (Circuit, Vec<Option<bool>>) {
    let mut roles = circuit.qubit_roles().to_vec();
    // Per qubit, its value while it is known (and its physical qubit |0>); `None`: quantum.
    let mut value: Vec<Option<bool>> = vec![Some(false); roles.len()];
    let mut known_bits: BTreeMap<Clbit, bool> = BTreeMap::new();
    let mut consts: [Option<Qubit>; 2] = [None, None];
    let mut prelude: Vec<Instruction> = Vec::new();
    let mut out: Vec<Instruction> = Vec::new();
    for instr in circuit.instructions() {
        // The bits of the condition known at compile time go: the instruction never runs when
        // one differs, and runs on the bits left otherwise.
        let mut condition = None;
        if let Some(g) = &instr.condition {
            if g.conditions()
                .iter()
                .any(|c| known_bits.get(&c.clbit).is_some_and(|&v| v != c.value))
            {
                continue;
            }
            let unknown = g.conditions().iter().copied();
            condition = Guard::all(unknown.filter(|c| !known_bits.contains_key(&c.clbit))).ok();
        }
        let origin = instr.origin.clone();
        let emit = |out: &mut Vec<Instruction>, op: Op, condition: Option<Guard>| {
            out.push(Instruction {
                op,
                condition,
                origin: origin.clone(),
            })
        };
        let materialize = |out: &mut Vec<Instruction>, value: &mut Vec<Option<bool>>, q: Qubit| {
            if let Some(v) = value[q.index()] {
                if v {
                    emit(
                        out,
                        Op::Gate {
                            gate: Gate::X,
                            targets: [q].as_slice().into(),
                            controls: Default::default(),
                        },
                        None,
                    );
                }
                value[q.index()] = None;
            }
        };
        match &instr.op {
            Op::Gate {
                targets, controls, ..
            }
            | Op::UserGate {
                targets, controls, ..
            } => {
                let known = |q: Qubit| value[q.index()];
                let Some(matrix) = instr.op.matrix() else {
                    unreachable!("a gate or user gate has a matrix")
                };
                let kept = match fold_matrix(&matrix, targets, controls, known) {
                    GateFold::Drop => continue,
                    GateFold::Act { controls, after } => {
                        if controls.is_empty() && condition.is_none() {
                            if let Some(after) = after.into_iter().collect::<Option<Vec<bool>>>() {
                                for (q, v) in targets.iter().zip(after) {
                                    value[q.index()] = Some(v);
                                }
                                continue;
                            }
                        }
                        controls
                    }
                };
                for q in targets {
                    materialize(&mut out, &mut value, *q);
                }
                emit(&mut out, instr.op.with_controls(kept), condition);
            }
            Op::Measure { qubit, clbit } => match (value[qubit.index()], &condition) {
                (Some(v), None) => {
                    known_bits.insert(*clbit, v);
                    let k = *consts[usize::from(v)].get_or_insert_with(|| {
                        roles.push(QubitRole::Plain);
                        value.push(None);
                        let k = Qubit((roles.len() - 1) as u32);
                        if v {
                            // Flipped once at the very start, so the deferred form keeps every
                            // gate before every measurement.
                            prelude.push(Instruction::gate(Gate::X, &[k], &[]));
                        }
                        k
                    });
                    emit(
                        &mut out,
                        Op::Measure {
                            qubit: k,
                            clbit: *clbit,
                        },
                        None,
                    );
                }
                _ => {
                    materialize(&mut out, &mut value, *qubit);
                    emit(&mut out, instr.op.clone(), condition);
                }
            },
            Op::Reset { qubit } => {
                if condition.is_none() {
                    if value[qubit.index()].is_none() {
                        emit(&mut out, instr.op.clone(), None);
                    }
                    value[qubit.index()] = Some(false);
                } else {
                    materialize(&mut out, &mut value, *qubit);
                    emit(&mut out, instr.op.clone(), condition);
                }
            }
            Op::Alloc { qubit } => {
                value[qubit.index()] = Some(false);
                emit(&mut out, instr.op.clone(), None);
            }
            _ => emit(&mut out, instr.op.clone(), condition),
        }
    }
    prelude.extend(out);
    (
        Circuit::from_parts(roles, circuit.num_clbits() as u32, prelude),
        value,
    )
}
