//! The deferred form (an IR-to-IR pass): no mid-circuit measurement and no classical condition.
//!
//! Each measurement that something later depends on becomes a CNOT copy of the measured qubit into
//! a fresh predicate ancilla (the deferred-measurement principle: copying in the computational basis
//! dephases the qubit exactly as a measurement would). Conditions on its bit become quantum controls
//! on that ancilla, and the ancilla is measured into the same bit at the end. Measurements nothing
//! depends on are moved to the end unchanged. A reset becomes a swap-out into a fresh garbage ancilla
//! (copy out, then uncompute the qubit from the copy), which is the reset channel once the garbage
//! is traced out.

use crate::{
    AncillaKind, Circuit, Clbit, Control, Gate, Instruction, Op, Polarity, Qubit, QubitRole,
};
use std::collections::{BTreeMap, BTreeSet};

/// Rewrites `circuit` into the deferred form; the classical register and its distribution are
/// unchanged.
pub fn defer_measurements(circuit: &Circuit) -> Circuit {
    let instrs = circuit.instructions();
    let terminal = terminal_measurements(instrs);
    let mut roles: Vec<QubitRole> = circuit.qubit_roles().to_vec();
    let mut out: Vec<Instruction> = Vec::new();
    let mut predicate: BTreeMap<Clbit, Qubit> = BTreeMap::new();
    let mut finals: Vec<(Qubit, Clbit, Option<crate::Origin>)> = Vec::new();
    let fresh = |roles: &mut Vec<QubitRole>, kind| {
        roles.push(QubitRole::Ancilla(kind));
        Qubit((roles.len() - 1) as u32)
    };
    for (index, instr) in instrs.iter().enumerate() {
        // One control per bit of the condition, on the ancilla that holds the bit's predicate.
        let cond_control: Vec<Control> = instr
            .condition
            .iter()
            .flat_map(|g| g.conditions())
            .filter_map(|c| {
                predicate.get(&c.clbit).map(|&m| Control {
                    qubit: m,
                    on: if c.value {
                        Polarity::One
                    } else {
                        Polarity::Zero
                    },
                })
            })
            .collect();
        let with = |op: Op| Instruction {
            op,
            condition: None,
            origin: instr.origin.clone(),
        };
        match &instr.op {
            Op::Gate { controls, .. } | Op::UserGate { controls, .. } => {
                let mut controls = controls.clone();
                controls.extend(cond_control.iter().copied());
                out.push(with(instr.op.with_controls(controls)));
            }
            Op::Measure { qubit, clbit } if terminal[index] => {
                finals.push((*qubit, *clbit, instr.origin.clone()));
            }
            Op::Measure { qubit, clbit } => {
                let m = fresh(&mut roles, AncillaKind::Measure);
                out.push(with(Op::Alloc { qubit: m }));
                let mut controls: crate::instruction::Controls = smallvec_one(Control::one(*qubit));
                controls.extend(cond_control.iter().copied());
                out.push(with(Op::Gate {
                    gate: Gate::X,
                    targets: [m].as_slice().into(),
                    controls,
                }));
                predicate.insert(*clbit, m);
                finals.push((m, *clbit, instr.origin.clone()));
            }
            Op::Reset { qubit } => {
                let g = fresh(&mut roles, AncillaKind::Other);
                out.push(with(Op::Alloc { qubit: g }));
                let mut controls: crate::instruction::Controls = smallvec_one(Control::one(*qubit));
                controls.extend(cond_control.iter().copied());
                out.push(with(Op::Gate {
                    gate: Gate::X,
                    targets: [g].as_slice().into(),
                    controls,
                }));
                out.push(with(Op::Gate {
                    gate: Gate::X,
                    targets: [*qubit].as_slice().into(),
                    controls: smallvec_one(Control::one(g)),
                }));
            }
            other => out.push(with(other.clone())),
        }
    }
    for (qubit, clbit, origin) in finals {
        out.push(Instruction {
            op: Op::Measure { qubit, clbit },
            condition: None,
            origin,
        });
    }
    Circuit::from_parts(roles, circuit.num_clbits() as u32, out)
}

fn smallvec_one(c: Control) -> crate::instruction::Controls {
    let mut v = crate::instruction::Controls::new();
    v.push(c);
    v
}

/// For each instruction: true when it is an unconditioned measurement whose qubit nothing later
/// touches and whose bit nothing later reads.
pub fn terminal_measurements(instrs: &[Instruction]) -> Vec<bool> {
    let mut touched = BTreeSet::new();
    let mut read = BTreeSet::new();
    let mut result = vec![false; instrs.len()];
    for (index, instr) in instrs.iter().enumerate().rev() {
        if let Op::Measure { qubit, clbit } = instr.op {
            result[index] =
                instr.condition.is_none() && !touched.contains(&qubit) && !read.contains(&clbit);
        }
        touched.extend(instr.op.qubits());
        if let Some(g) = &instr.condition {
            read.extend(g.clbits());
        }
    }
    result
}
