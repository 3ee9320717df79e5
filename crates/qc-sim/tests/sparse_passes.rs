//! SparseSim's pass structure: monomial gates rewrite the entries in place (no reallocation),
//! branching gates on a fresh qubit expand each entry on its own, and hand-computed amplitudes.

use qc_ir::{Backend, Complex64, Control, Gate, Qubit};
use qc_sim::{MemoryLimit, SparseSim};
use std::f64::consts::FRAC_1_SQRT_2;

fn close(a: Complex64, b: Complex64) -> bool {
    (a - b).norm() < 1e-12
}

#[test]
fn monomial_gates_rewrite_entries_in_place() {
    let qubits: Vec<Qubit> = (0..10).map(Qubit).collect();
    let amp = Complex64::new(1.0 / 32.0, 0.0);
    let entries = (0..1024u128).map(|k| (k, amp)).collect();
    let mut sim = SparseSim::from_entries(&qubits, entries, MemoryLimit::default()).unwrap();
    let before = (sim.entries().as_ptr(), sim.memory_bytes());
    sim.apply_gate(
        Gate::ISwap,
        &[Qubit(2), Qubit(7)],
        &[Control::zero(Qubit(4))],
    )
    .unwrap();
    sim.apply_gate(Gate::X, &[Qubit(9)], &[Control::one(Qubit(0))])
        .unwrap();
    sim.apply_gate(Gate::S, &[Qubit(3)], &[]).unwrap();
    assert_eq!((sim.entries().as_ptr(), sim.memory_bytes()), before);
    assert_eq!(sim.state_size(), 1024);
    assert_eq!(sim.memory_bytes(), 1024 * SparseSim::bytes_per_entry());
    // |q2=0, q7=1, q4=0, rest 0>: iSWAP gives i|q2=1, q7=0>; S on q3 (0) does nothing.
    let a = sim.amplitude(&[Qubit(2)]);
    assert!(close(a, Complex64::new(0.0, 1.0 / 32.0)), "{a}");
    // With q4 = 1 the iSWAP is off: |q7, q4> keeps its amplitude; S on q3 = 1 gives i.
    let b = sim.amplitude(&[Qubit(3), Qubit(4), Qubit(7)]);
    assert!(close(b, Complex64::new(0.0, 1.0 / 32.0)), "{b}");
}

#[test]
fn split_onto_an_empty_square_matches_the_matrix() {
    // Piece on q0 in superposition with q1; sqrt-iSWAP q0 with the empty q5.
    let mut sim = SparseSim::new();
    sim.apply_gate(Gate::H, &[Qubit(0)], &[]).unwrap();
    sim.apply_gate(Gate::X, &[Qubit(1)], &[Control::zero(Qubit(0))])
        .unwrap();
    sim.apply_gate(Gate::SqrtISwap, &[Qubit(0), Qubit(5)], &[])
        .unwrap();
    let h = FRAC_1_SQRT_2;
    // |q0=1>: (|10> + i|01>)/sqrt2 on (q0, q5); |q1=1> untouched.
    let want = [
        (vec![Qubit(0)], Complex64::new(h * h, 0.0)),
        (vec![Qubit(1)], Complex64::new(h, 0.0)),
        (vec![Qubit(5)], Complex64::new(0.0, h * h)),
    ];
    let got = sim.basis_states();
    assert_eq!(got.len(), 3);
    for ((gk, ga), (wk, wa)) in got.iter().zip(&want) {
        assert_eq!(gk, wk);
        assert!(close(*ga, *wa), "{gk:?}: {ga} vs {wa}");
    }
    // And back: the merge needs the sort path and restores the two-entry state exactly.
    sim.apply_gate(Gate::SqrtISwapDg, &[Qubit(0), Qubit(5)], &[])
        .unwrap();
    assert_eq!(sim.state_size(), 2);
    assert_eq!(
        sim.quantum_qubits(),
        2,
        "q5 is constant again and left the keys"
    );
    assert!(close(sim.amplitude(&[Qubit(0)]), Complex64::new(h, 0.0)));
}

#[test]
fn monomial_gates_on_key_bits_above_64_match_the_reference() {
    // Qubits 66..69 in uniform superposition sit at key bits 66..69 (bits 0..65 are constant and
    // leave the keys), so the gates below take the full 128-bit pass, not the low-word one.
    let qubits: Vec<Qubit> = (0..70).map(Qubit).collect();
    let amp = Complex64::new(0.25, 0.0);
    let entries = (0..16u128).map(|k| (k << 66, amp)).collect();
    let mut sim = SparseSim::from_entries(&qubits, entries, MemoryLimit::default()).unwrap();
    let mut reference = qc_sim::ReferenceSparse::new();
    for q in 66..70 {
        reference.apply_gate(Gate::H, &[Qubit(q)], &[]).unwrap();
    }
    let steps: [(Gate, Vec<Qubit>, Vec<Control>); 4] = [
        (
            Gate::ISwap,
            vec![Qubit(66), Qubit(67)],
            vec![Control::zero(Qubit(68))],
        ),
        (Gate::S, vec![Qubit(69)], vec![Control::one(Qubit(66))]),
        (Gate::X, vec![Qubit(3)], vec![Control::one(Qubit(67))]),
        (Gate::ISwap, vec![Qubit(3), Qubit(69)], vec![]),
    ];
    for (gate, targets, controls) in &steps {
        sim.apply_gate(*gate, targets, controls).unwrap();
        reference.apply_gate(*gate, targets, controls).unwrap();
    }
    let got = sim.basis_states();
    let want = reference.basis_states();
    assert_eq!(got.len(), want.len());
    for ((gk, ga), (wk, wa)) in got.iter().zip(&want) {
        assert_eq!(gk, wk);
        assert!(close(*ga, *wa), "{gk:?}: {ga} vs {wa}");
    }
}
