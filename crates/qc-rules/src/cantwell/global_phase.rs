//! Moves that would change the state only by a global phase, which Definition 2 makes illegal.
//!
//! A move of gates alone that sends every branch of the qubits it reads to a basis state (up to a
//! phase) leaves the whole state unchanged up to a global phase exactly when the state is an
//! eigenvector of the move's unitary `U`, that is when `|<psi|U|psi>| = |Tr(rho U)| = 1`, `rho`
//! the reduced density matrix of the read qubits. A cheap necessary condition comes first: the
//! branches' images must carry the same probabilities as the branches (a permutation of the
//! marginal onto itself); only then, which is rare, is `Tr(rho U)` computed, on at most
//! [`UNITARY_QUBIT_LIMIT`] qubits.

use crate::cantwell::definition2::Walk;
use crate::cantwell::game::UNCHANGED_FIDELITY;
use qc_ir::unitary::{apply_gate_reference, UNITARY_QUBIT_LIMIT};
use qc_ir::{Backend, Complex64, Control, Instruction, Op, Qubit};
use std::collections::BTreeMap;

/// Two probabilities of the marginal count as equal within this (they come from sums of squared
/// amplitudes, so they differ in the last bits when the state is symmetric).
const SAME_PROBABILITY: f64 = 1e-9;

/// Whether `instructions` (walked branch by branch in `walks`: pattern over `read`, probability,
/// walk) change the state of `backend` by a global phase at most. False whenever it cannot be
/// decided exactly (a branch not sent to a basis state, too many qubits): the move is then kept,
/// and playing it still refuses it if it changes nothing.
pub(crate) fn only_global_phase<B: Backend + ?Sized>(
    backend: &B,
    instructions: &[Instruction],
    read: &[Qubit],
    walks: &[(u128, f64, Walk)],
) -> bool {
    if read.is_empty() || read.len() > UNITARY_QUBIT_LIMIT || !images_keep_marginal(walks) {
        return false;
    }
    let fidelity = expectation(backend, instructions, read).map_or(0.0, |e| e.norm_sqr());
    fidelity > UNCHANGED_FIDELITY
}

/// The necessary condition: every branch has an image, and the image holds the branch's
/// probability.
fn images_keep_marginal(walks: &[(u128, f64, Walk)]) -> bool {
    let probability: BTreeMap<u128, f64> = walks.iter().map(|(b, p, _)| (*b, *p)).collect();
    walks.iter().all(|(_, p, walk)| {
        walk.image
            .and_then(|image| probability.get(&image))
            .is_some_and(|q| (p - q).abs() <= SAME_PROBABILITY)
    })
}

/// `Tr(rho U)` for the gates of `instructions` on the qubits `read` (qubit `read[k]` is bit k);
/// `None` if an instruction is not a gate on those qubits.
fn expectation<B: Backend + ?Sized>(
    backend: &B,
    instructions: &[Instruction],
    read: &[Qubit],
) -> Option<Complex64> {
    // `read` has at most UNITARY_QUBIT_LIMIT qubits, so a local index fits in u32.
    let local = |q: &Qubit| read.binary_search(q).ok().map(|k| Qubit(k as u32));
    let mut gates = Vec::with_capacity(instructions.len());
    for instr in instructions {
        let Op::Gate {
            gate,
            targets,
            controls,
        } = &instr.op
        else {
            return None;
        };
        if instr.condition.is_some() {
            return None;
        }
        let targets: Vec<Qubit> = targets.iter().map(local).collect::<Option<_>>()?;
        let controls: Vec<Control> = controls
            .iter()
            .map(|c| local(&c.qubit).map(|qubit| Control { qubit, on: c.on }))
            .collect::<Option<_>>()?;
        gates.push((*gate, targets, controls));
    }
    let rho = backend.reduced_density_matrix(read);
    let dim = 1usize << read.len();
    // Tr(rho U) = sum over columns j of U, sum over i of rho[j][i] U[i][j].
    let mut trace = Complex64::new(0.0, 0.0);
    let mut column = vec![Complex64::new(0.0, 0.0); dim];
    for j in 0..dim {
        column
            .iter_mut()
            .for_each(|a| *a = Complex64::new(0.0, 0.0));
        column[j] = Complex64::new(1.0, 0.0);
        for (gate, targets, controls) in &gates {
            apply_gate_reference(&mut column, *gate, targets, controls);
        }
        for (i, u) in column.iter().enumerate() {
            trace += rho.get(j, i) * u;
        }
    }
    Some(trace)
}

#[cfg(test)]
mod tests {
    use crate::cantwell::definition2::can_act;
    use qc_ir::{Backend, CircuitBuilder, Gate, Instruction, Qubit};
    use qc_sim::ReferenceSparse;

    const A: Qubit = Qubit(0);
    const B: Qubit = Qubit(1);

    /// Two qubits in (|01> + e^(i phase) |10>)/sqrt 2: X on one, sqrt(iSWAP) (which gives the
    /// second term the phase i), then a phase gate on the second qubit.
    fn split(phase_gate: Option<Gate>) -> ReferenceSparse {
        let mut sim = ReferenceSparse::new();
        for q in [A, B] {
            sim.alloc(q).expect("alloc");
        }
        sim.apply_gate(Gate::X, &[A], &[]).expect("x");
        sim.apply_gate(Gate::SqrtISwap, &[A, B], &[])
            .expect("sqrt iswap");
        if let Some(gate) = phase_gate {
            sim.apply_gate(gate, &[B], &[]).expect("phase");
        }
        sim
    }

    fn one_gate(gate: Gate) -> Vec<Instruction> {
        let mut b = CircuitBuilder::new();
        let (a, c) = (b.plain_qubit(), b.plain_qubit());
        b.gate(gate, &[a, c], &[]);
        b.circuit().instructions().to_vec()
    }

    #[test]
    fn a_swap_of_equal_halves_with_equal_phases_changes_nothing() {
        // Sdg takes the i off: (|01> + |10>)/sqrt 2, which iSWAP multiplies by i and SWAP by 1.
        let even = split(Some(Gate::Sdg));
        assert!(!can_act(&even, &one_gate(Gate::ISwap)));
        assert!(!can_act(&even, &one_gate(Gate::Swap)));
    }

    #[test]
    fn a_swap_of_equal_halves_with_different_phases_acts() {
        // (|01> + i|10>)/sqrt 2: iSWAP gives (i|10> - |01>)/sqrt 2, not a multiple of it.
        let phased = split(None);
        assert!(can_act(&phased, &one_gate(Gate::ISwap)));
        assert!(can_act(&phased, &one_gate(Gate::Swap)));
        // (|01> - |10>)/sqrt 2 is the swap's eigenvector with eigenvalue -1 and iSWAP's with -i.
        let odd = split(Some(Gate::S));
        assert!(!can_act(&odd, &one_gate(Gate::Swap)));
        assert!(!can_act(&odd, &one_gate(Gate::ISwap)));
    }

    #[test]
    fn a_swap_of_unequal_halves_acts() {
        let mut sim = split(None);
        sim.apply_gate(Gate::SqrtISwap, &[A, B], &[])
            .expect("sqrt iswap");
        sim.apply_gate(Gate::SqrtISwap, &[A, B], &[])
            .expect("sqrt iswap");
        sim.apply_gate(Gate::H, &[A], &[]).expect("h");
        assert!(can_act(&sim, &one_gate(Gate::ISwap)));
    }
}
