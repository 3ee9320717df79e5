//! Classical folding (an IR-to-IR pass) for the compact width.
//!
//! A qubit whose value is a known basis state (a square that only ever saw set-up `x`, an ancilla
//! just allocated, a qubit after an unconditioned reset) is tracked at compile time instead of being
//! given a hardware qubit. Invariant: while a qubit is `Known(v)`, its physical qubit is |0>.
//! - A control with a known value is dropped when satisfied, and the whole gate is dropped when not.
//! - A gate whose remaining qubits are all known, with no quantum control and no unresolved
//!   condition, and whose matrix maps the known basis state to one basis state, only updates the
//!   known values (its phase is global within the classical branch, so it is unobservable).
//! - Any other use *materializes* the known qubits it touches: `x` if the value is 1, then the
//!   qubit is quantum from there on.
//! - Measuring a known qubit gives a known bit; it is written by measuring one of two constant
//!   qubits (|0>, and |1> flipped at the start), and conditions on known bits are
//!   resolved at compile time.

use crate::{Circuit, Clbit, Gate, Instruction, Op, Polarity, Qubit, QubitRole};
use std::collections::BTreeMap;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Value {
    Known(bool),
    Quantum,
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
    let mut value = vec![Value::Known(false); roles.len()];
    let mut known_bits: BTreeMap<Clbit, bool> = BTreeMap::new();
    let mut consts: [Option<Qubit>; 2] = [None, None];
    let mut prelude: Vec<Instruction> = Vec::new();
    let mut out: Vec<Instruction> = Vec::new();
    for instr in circuit.instructions() {
        let mut condition = instr.condition;
        if let Some(c) = condition {
            if let Some(&v) = known_bits.get(&c.clbit) {
                if v != c.value {
                    continue;
                }
                condition = None;
            }
        }
        let origin = instr.origin.clone();
        let emit = |out: &mut Vec<Instruction>, op: Op, condition| {
            out.push(Instruction {
                op,
                condition,
                origin: origin.clone(),
            })
        };
        let materialize = |out: &mut Vec<Instruction>, value: &mut Vec<Value>, q: Qubit| {
            if let Value::Known(v) = value[q.index()] {
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
                value[q.index()] = Value::Quantum;
            }
        };
        match &instr.op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => {
                let mut kept = crate::instruction::Controls::new();
                let mut disabled = false;
                for c in controls {
                    match value[c.qubit.index()] {
                        Value::Known(v) => disabled |= v != (c.on == Polarity::One),
                        Value::Quantum => kept.push(*c),
                    }
                }
                if disabled {
                    continue;
                }
                if kept.is_empty() && condition.is_none() {
                    if let Some(new) = classical_action(*gate, targets, &value) {
                        for (q, v) in targets.iter().zip(new) {
                            value[q.index()] = Value::Known(v);
                        }
                        continue;
                    }
                }
                for q in targets {
                    materialize(&mut out, &mut value, *q);
                }
                emit(
                    &mut out,
                    Op::Gate {
                        gate: *gate,
                        targets: targets.clone(),
                        controls: kept,
                    },
                    condition,
                );
            }
            Op::Measure { qubit, clbit } => match (value[qubit.index()], condition) {
                (Value::Known(v), None) => {
                    known_bits.insert(*clbit, v);
                    let k = *consts[usize::from(v)].get_or_insert_with(|| {
                        roles.push(QubitRole::Plain);
                        value.push(Value::Quantum);
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
                    if value[qubit.index()] == Value::Quantum {
                        emit(&mut out, instr.op.clone(), None);
                    }
                    value[qubit.index()] = Value::Known(false);
                } else {
                    materialize(&mut out, &mut value, *qubit);
                    emit(&mut out, instr.op.clone(), condition);
                }
            }
            Op::Alloc { qubit } => {
                value[qubit.index()] = Value::Known(false);
                emit(&mut out, instr.op.clone(), None);
            }
            _ => emit(&mut out, instr.op.clone(), condition),
        }
    }
    prelude.extend(out);
    let known = value
        .iter()
        .map(|v| match v {
            Value::Known(b) => Some(*b),
            Value::Quantum => None,
        })
        .collect();
    (
        Circuit::from_parts(roles, circuit.num_clbits() as u32, prelude),
        known,
    )
}

/// The new known values when `gate` maps the known basis state of `targets` to a single basis
/// state; `None` if a target is quantum or the gate creates a superposition.
fn classical_action(gate: Gate, targets: &[Qubit], value: &[Value]) -> Option<Vec<bool>> {
    let mut column = 0usize;
    for q in targets {
        match value[q.index()] {
            Value::Known(v) => column = (column << 1) | usize::from(v),
            Value::Quantum => return None,
        }
    }
    let m = gate.matrix();
    let mut rows = (0..m.dim()).filter(|&r| m.get(r, column).norm() > 1e-9);
    let row = rows.next()?;
    if rows.next().is_some() {
        return None;
    }
    let n = targets.len();
    Some((0..n).map(|k| (row >> (n - 1 - k)) & 1 == 1).collect())
}
