//! The order routing must keep: which steps of a plan depend on which.
//!
//! Steps on a shared qubit normally run in program order. Two steps that act on every qubit
//! they share in the same basis commute, and may run in either order: both diagonal there (a CZ,
//! a controlled phase, the control of a CNOT, a Z rotation), or both diagonal in the X basis (the
//! target of a CNOT, an X rotation). Such runs on a qubit form a *group*: each member depends on
//! the group before it, not on the other members, so the router can run whichever of them is
//! adjacent first. A QFT's controlled phases on one qubit are one group; so are CNOTs sharing a
//! control or a target.
//!
//! Why this is sound: a step that acts on qubit `q` in the Z basis is block diagonal in `q`'s
//! basis states; two such steps on different other qubits commute, and two on the same pair,
//! each block diagonal in the same product basis, are diagonal in it and commute. Births,
//! deaths, measurements and conditioned steps are never reordered (their basis is
//! [`Basis::Other`]).

use crate::linalg::{paulis, Mat2, Mat4};
use crate::plan::{Plan, VOp, VStep};

/// Entries smaller than this count as zero when deciding the basis a step acts in.
const EXACT: f64 = 1e-9;

/// The basis a step acts in on one of its qubits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Basis {
    /// It commutes with Z on that qubit.
    Z,
    /// It commutes with X on that qubit.
    X,
    /// Neither (or it is a step that is never reordered).
    Other,
}

/// True when `a b = b a` within [`EXACT`].
fn commutes4(a: &Mat4, b: &Mat4) -> bool {
    let (ab, ba) = (a.mul(b), b.mul(a));
    ab.0.as_flattened()
        .iter()
        .zip(ba.0.as_flattened())
        .all(|(x, y)| (x - y).norm() <= EXACT)
}

/// The basis the two-qubit block `m` acts in on its high qubit (`hi`) or its low one.
pub fn basis_of_block(m: &Mat4, hi: bool) -> Basis {
    let on = |p: &Mat2| if hi { Mat4::on_hi(p) } else { Mat4::on_lo(p) };
    let [x, _, z] = paulis();
    if commutes4(m, &on(&z)) {
        Basis::Z
    } else if commutes4(m, &on(&x)) {
        Basis::X
    } else {
        Basis::Other
    }
}

/// The basis the single-qubit gate `m` acts in.
pub fn basis_of_one(m: &Mat2) -> Basis {
    basis_of_block(&Mat4::on_hi(m), true)
}

/// The basis of `step` on each of its qubits (in [`VStep::virtuals`]' order).
fn bases(step: &VStep) -> [Basis; 2] {
    if step.cond.is_some() {
        return [Basis::Other; 2];
    }
    match step.op {
        VOp::One { m, .. } => [basis_of_one(&m); 2],
        VOp::Two { m, .. } => [basis_of_block(&m, true), basis_of_block(&m, false)],
        VOp::Birth { .. } | VOp::Measure { .. } | VOp::Death { .. } => [Basis::Other; 2],
    }
}

/// The steps on one qubit since its last change of basis.
#[derive(Clone, Debug)]
struct Group {
    basis: Basis,
    /// The steps of the group before (each member depends on them all).
    before: Vec<usize>,
    /// The steps of this group.
    members: Vec<usize>,
}

/// Each step's predecessors (sorted, without repeats): on each of its qubits the steps it does
/// not commute with that come last before it; for a conditioned step the measurement that last
/// wrote its bit; for a measurement, the last write of its bit and the steps that read it since.
pub fn predecessors(plan: &Plan) -> Vec<Vec<usize>> {
    let empty = Group {
        basis: Basis::Other,
        before: Vec::new(),
        members: Vec::new(),
    };
    let mut groups: Vec<Group> = vec![empty; plan.num_virtuals()];
    let mut writer: Vec<Option<usize>> = vec![None; plan.num_clbits];
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); plan.num_clbits];
    let mut preds = Vec::with_capacity(plan.steps.len());
    for (i, s) in plan.steps.iter().enumerate() {
        let (vs, k) = s.virtuals();
        let basis = bases(s);
        let mut p: Vec<usize> = Vec::new();
        for (&v, &b) in vs[..k].iter().zip(&basis) {
            let g = &mut groups[v];
            if b != Basis::Other && g.basis == b {
                p.extend_from_slice(&g.before);
                g.members.push(i);
            } else {
                p.extend_from_slice(&g.members);
                let before = std::mem::take(&mut g.members);
                *g = Group {
                    basis: b,
                    before,
                    members: vec![i],
                };
            }
        }
        if let Some((clbit, _)) = s.cond {
            if let Some(w) = writer.get(clbit).copied().flatten() {
                p.push(w);
            }
            if let Some(r) = readers.get_mut(clbit) {
                r.push(i);
            }
        }
        if let VOp::Measure { clbit, .. } = s.op {
            // A bit written again waits for the steps that read its old value and for the
            // write before.
            if let (Some(w), Some(r)) = (writer.get_mut(clbit), readers.get_mut(clbit)) {
                p.extend(w.iter().copied().chain(r.drain(..)));
                *w = Some(i);
            }
        }
        p.sort_unstable();
        p.dedup();
        preds.push(p);
    }
    preds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::{hadamard, rx, rz};

    /// A bit measured into again waits for the step conditioned on its old value, though the
    /// two share no qubit.
    #[test]
    fn a_bit_written_again_waits_for_its_readers() {
        use crate::known::Oracle;
        use crate::program::Program;
        use qc_ir::{Circuit, Condition, Gate, Instruction, Op, Qubit};
        let mut c = Circuit::with_plain_qubits(3, 0);
        let bit = c.add_clbit();
        let measure = |q: u32| {
            Instruction::new(Op::Measure {
                qubit: Qubit(q),
                clbit: bit,
            })
        };
        c.push(Instruction::gate(Gate::H, &[Qubit(0)], &[]));
        c.push(measure(0));
        c.push(Instruction::gate(Gate::H, &[Qubit(2)], &[]));
        c.push(
            Instruction::gate(Gate::H, &[Qubit(1)], &[]).with_condition(Condition {
                clbit: bit,
                value: true,
            }),
        );
        c.push(measure(2));
        let program = Program::from_circuit(&c).expect("a program");
        let mut sim = qc_sim::SparseSim::new();
        let plan = Plan::new(
            &program,
            &mut Oracle::new(&program, &mut sim),
            crate::Entangler::Cz,
        );
        let preds = predecessors(&plan);
        let reader = plan.steps.iter().position(|s| s.cond.is_some());
        let last_write = plan
            .steps
            .iter()
            .rposition(|s| matches!(s.op, VOp::Measure { .. }));
        let (Some(reader), Some(last_write)) = (reader, last_write) else {
            panic!("the plan keeps the conditioned step and the measurements: {plan:?}");
        };
        assert!(
            preds[last_write].contains(&reader),
            "{:?}",
            preds[last_write]
        );
    }

    #[test]
    fn bases_of_common_gates() {
        // CZ: diagonal on both. CNOT (high controls low): Z on the control, X on the target.
        assert_eq!(basis_of_block(&Mat4::CZ, true), Basis::Z);
        assert_eq!(basis_of_block(&Mat4::CZ, false), Basis::Z);
        assert_eq!(basis_of_block(&Mat4::CX_HI_LO, true), Basis::Z);
        assert_eq!(basis_of_block(&Mat4::CX_HI_LO, false), Basis::X);
        assert_eq!(basis_of_block(&Mat4::SWAP, true), Basis::Other);
        assert_eq!(basis_of_one(&rz(0.3)), Basis::Z);
        assert_eq!(basis_of_one(&rx(0.3)), Basis::X);
        assert_eq!(basis_of_one(&hadamard()), Basis::Other);
    }
}
