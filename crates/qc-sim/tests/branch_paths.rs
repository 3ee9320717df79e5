//! SparseSim's branching gates take one of several paths (expand each entry, mix in place when
//! partners sit side by side, sort then mix in place, sort then build). Each path is driven here
//! on states of 2^14..2^16 entries, many parallel work items wide, so that work items end on
//! group boundaries and pruned outputs must be closed up (measurements too); every step is checked against
//! `ReferenceSparse`, and the whole run must be bit-identical on 1 and 2 threads.

mod common;
use common::{bits, in_pool};
use qc_ir::{Backend, Complex64, Control, Gate, MeasureChoice, Qubit};
use qc_sim::{BranchPaths, ReferenceSparse, SparseSim};
use std::collections::BTreeMap;

/// One step of the workload: a gate (targets, controls) or a forced measurement.
enum Step {
    Gate(Gate, Vec<u32>, Vec<Control>),
    Measure(u32, bool),
}

fn g(gate: Gate, targets: &[u32]) -> Step {
    Step::Gate(gate, targets.to_vec(), vec![])
}

fn gc(gate: Gate, targets: &[u32], controls: Vec<Control>) -> Step {
    Step::Gate(gate, targets.to_vec(), controls)
}

/// The workload, with the path each branching gate must take (`None`: not a branching gate).
fn workload() -> Vec<(Step, Option<&'static str>)> {
    let mut steps: Vec<(Step, Option<&str>)> = Vec::new();
    // 14 qubits in uniform superposition with uneven phases (so no two amplitudes coincide).
    for q in 0..14 {
        steps.push((g(Gate::H, &[q]), Some("expanded")));
    }
    steps.push((g(Gate::T, &[1]), None));
    steps.push((gc(Gate::S, &[2], vec![Control::one(Qubit(5))]), None));
    steps.push((g(Gate::Rz(0.37), &[3]), None));
    steps.push((
        gc(Gate::Phase(1.1), &[6], vec![Control::zero(Qubit(11))]),
        None,
    ));
    // A split onto an empty square, then its merge: partners are side by side.
    steps.push((g(Gate::SqrtISwap, &[0, 20]), Some("expanded")));
    steps.push((g(Gate::ISwap, &[8, 9]), None));
    steps.push((g(Gate::SqrtISwapDg, &[0, 20]), Some("in_place")));
    // Two splits, then the first merge: its partners are two apart, so it must sort.
    steps.push((g(Gate::SqrtISwap, &[0, 20]), Some("expanded")));
    steps.push((g(Gate::SqrtISwap, &[7, 21]), Some("expanded")));
    steps.push((g(Gate::SqrtISwapDg, &[0, 20]), Some("sorted_in_place")));
    steps.push((g(Gate::SqrtISwapDg, &[7, 21]), Some("sorted_in_place")));
    // A controlled sqrt-iSWAP between two squares in superposition, with a 0-control.
    steps.push((
        gc(Gate::SqrtISwap, &[2, 3], vec![Control::zero(Qubit(9))]),
        Some("sorted_in_place"),
    ));
    // Half the partners missing: after q22 = q1, sqrt-iSWAP(q0, q22) meets columns {00, 10} or
    // {01, 11} only, so groups grow and the sorted state is built into the scratch buffer.
    steps.push((gc(Gate::X, &[22], vec![Control::one(Qubit(1))]), None));
    steps.push((g(Gate::SqrtISwap, &[0, 22]), Some("sorted_built")));
    // A measurement halves the state; an H on a qubit in superposition, then pruning to zero:
    // H twice on q4 gives back the old state, the second H cancelling half of its outputs.
    steps.push((Step::Measure(5, true), None));
    steps.push((g(Gate::H, &[4]), None));
    steps.push((g(Gate::H, &[4]), None));
    // q23 copies q6; measuring q6 leaves q23 constant, so both must leave the keys.
    steps.push((gc(Gate::X, &[23], vec![Control::one(Qubit(6))]), None));
    steps.push((Step::Measure(6, false), None));
    steps
}

fn count(paths: BranchPaths, name: &str) -> u64 {
    match name {
        "expanded" => paths.expanded,
        "in_place" => paths.in_place,
        "sorted_in_place" => paths.sorted_in_place,
        "sorted_built" => paths.sorted_built,
        other => panic!("unknown path {other}"),
    }
}

fn apply<B: Backend>(b: &mut B, step: &Step) {
    match step {
        Step::Gate(gate, targets, controls) => {
            let targets: Vec<Qubit> = targets.iter().map(|&q| Qubit(q)).collect();
            b.apply_gate(*gate, &targets, controls).unwrap();
        }
        Step::Measure(q, v) => {
            b.measure(Qubit(*q), MeasureChoice::Forced(*v)).unwrap();
        }
    }
}

fn as_map<B: Backend>(b: &B) -> BTreeMap<Vec<Qubit>, Complex64> {
    b.basis_states().into_iter().collect()
}

/// Runs the workload on SparseSim (parallel from 256 entries), checking each step against the
/// reference and each branching gate's path; returns the final state bit for bit.
fn run_checked() -> Vec<(Vec<Qubit>, u64, u64)> {
    let mut sim = SparseSim::new();
    sim.set_parallel_threshold(256);
    let mut reference = ReferenceSparse::new();
    for (i, (step, path)) in workload().iter().enumerate() {
        let before = sim.branch_paths();
        apply(&mut sim, step);
        apply(&mut reference, step);
        if let Some(path) = path {
            let after = sim.branch_paths();
            assert_eq!(
                count(after, path),
                count(before, path) + 1,
                "step {i}: expected the {path} path, counts went {before:?} -> {after:?}"
            );
        }
        let got = as_map(&sim);
        let want = as_map(&reference);
        assert_eq!(got.len(), want.len(), "step {i}: number of basis states");
        for ((gk, ga), (wk, wa)) in got.iter().zip(&want) {
            assert_eq!(gk, wk, "step {i}");
            assert!((ga - wa).norm() < 1e-10, "step {i}: {gk:?} {ga} vs {wa}");
        }
    }
    assert!(sim.state_size() >= 1 << 12, "the state stayed large");
    assert_eq!(
        sim.quantum_qubits(),
        reference.quantum_qubits(),
        "qubits left constant by the last measurement are classical again"
    );
    bits(sim.basis_states())
}

#[test]
fn every_branching_path_agrees_with_the_reference_and_across_thread_counts() {
    let one = in_pool(1, run_checked);
    let two = in_pool(2, run_checked);
    assert_eq!(one, two, "1 and 2 threads differ");
}
