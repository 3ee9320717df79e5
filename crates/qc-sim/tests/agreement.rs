//! SparseSim and DenseSim against ReferenceSparse (the oracle) on random circuits: gates of
//! every kind with 0-, 1- and 2-controls of both polarities, measurements forced both ways,
//! resets, frees, and qubits joining and leaving; also whole-circuit exact distributions and the
//! dense simulator's fused runner.

use proptest::prelude::*;
use qc_ir::exec::exact_distribution;
use qc_ir::{
    Backend, BackendError, Circuit, ClassicalRecord, Clbit, Complex64, Control, Gate, GateCall,
    Instruction, MeasureChoice, Op, Qubit,
};
use qc_sim::{DenseSim, ReferenceSparse, SparseSim};
use std::collections::BTreeMap;

const QUBITS: u32 = 6;
const TOL: f64 = 1e-10;

#[derive(Clone, Debug)]
enum Step {
    Gate(Gate, Vec<Qubit>, Vec<Control>),
    Measure(Qubit, MeasureChoice),
    Reset(Qubit, MeasureChoice),
    Free(Qubit),
}

fn gate_strategy() -> impl Strategy<Value = Gate> {
    prop::sample::select(Gate::examples().collect::<Vec<_>>())
}

fn step_strategy() -> impl Strategy<Value = Step> {
    // Qubits are spread over a sparse index range so that qubit ids and bit positions differ.
    let qubits = proptest::sample::subsequence((0..QUBITS).collect::<Vec<u32>>(), 4)
        .prop_shuffle()
        .prop_map(|v| v.into_iter().map(|q| Qubit(q * 3 + 1)).collect::<Vec<_>>());
    prop_oneof![
        8 => (gate_strategy(), qubits.clone(), 0usize..3, any::<[bool; 2]>()).prop_map(
            |(g, qs, nc, pol)| {
                let k = g.num_targets();
                let targets = qs[..k].to_vec();
                let controls = qs[k..k + nc]
                    .iter()
                    .zip(pol)
                    .map(|(&q, one)| if one { Control::one(q) } else { Control::zero(q) })
                    .collect();
                Step::Gate(g, targets, controls)
            }
        ),
        2 => (0..QUBITS, any::<bool>()).prop_map(|(q, v)| Step::Measure(Qubit(q * 3 + 1), MeasureChoice::Forced(v))),
        1 => (0..QUBITS, 0.0..1.0f64).prop_map(|(q, u)| Step::Measure(Qubit(q * 3 + 1), MeasureChoice::Random(u))),
        1 => (0..QUBITS, 0.0..1.0f64).prop_map(|(q, u)| Step::Reset(Qubit(q * 3 + 1), MeasureChoice::Random(u))),
        1 => (0..QUBITS).prop_map(|q| Step::Free(Qubit(q * 3 + 1))),
    ]
}

fn run_step<B: Backend>(b: &mut B, step: &Step) -> Result<Option<bool>, BackendError> {
    match step {
        Step::Gate(g, t, c) => b.apply_gate(*g, t, c).map(|_| None),
        Step::Measure(q, choice) => b.measure(*q, *choice).map(Some),
        Step::Reset(q, choice) => b.reset(*q, *choice).map(Some),
        Step::Free(q) => b.free(*q).map(|_| None),
    }
}

fn as_map<B: Backend>(b: &B) -> BTreeMap<Vec<Qubit>, Complex64> {
    b.basis_states().into_iter().collect()
}

fn assert_same_state<B: Backend>(name: &str, got: &B, want: &ReferenceSparse) {
    let (g, w) = (as_map(got), as_map(want));
    for key in g.keys().chain(w.keys()) {
        let zero = Complex64::new(0.0, 0.0);
        let (a, b) = (
            g.get(key).copied().unwrap_or(zero),
            w.get(key).copied().unwrap_or(zero),
        );
        assert!(
            (a - b).norm() < TOL,
            "{name}: amplitude of {key:?}: {a} vs reference {b}"
        );
        assert!(
            (got.amplitude(key) - b).norm() < TOL,
            "{name}: amplitude() of {key:?}"
        );
    }
    for q in 0..QUBITS {
        let q = Qubit(q * 3 + 1);
        assert!(
            (got.probability_one(q) - want.probability_one(q)).abs() < TOL,
            "{name}: P({q})"
        );
    }
    let probe = [Qubit(1), Qubit(7), Qubit(13), Qubit(2)];
    let (mg, mw) = (got.marginal(&probe), want.marginal(&probe));
    let mw: BTreeMap<u128, f64> = mw.into_iter().collect();
    for (p, v) in &mg {
        assert!(
            (v - mw.get(p).copied().unwrap_or(0.0)).abs() < TOL,
            "{name}: marginal {p}"
        );
    }
    assert!(
        mg.len() == mw.len() || mg.iter().all(|(_, v)| *v < TOL),
        "{name}: marginal support"
    );
    let (rg, rw) = (
        got.reduced_density_matrix(&probe[..2]),
        want.reduced_density_matrix(&probe[..2]),
    );
    assert!(rg.approx_eq(&rw, TOL), "{name}: reduced density matrix");
}

fn circuit_of(steps: &[Step]) -> Circuit {
    let mut circuit = Circuit::with_plain_qubits(QUBITS * 3 + 1, 0);
    for s in steps {
        let op = match s {
            Step::Gate(g, t, c) => Op::Gate {
                gate: *g,
                targets: t.iter().copied().collect(),
                controls: c.iter().copied().collect(),
            },
            Step::Measure(q, _) => Op::Measure {
                qubit: *q,
                clbit: circuit.add_clbit(),
            },
            Step::Reset(q, _) => Op::Reset { qubit: *q },
            Step::Free(_) => continue,
        };
        circuit.push(Instruction::new(op));
    }
    circuit
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn fast_simulators_agree_with_the_reference(steps in proptest::collection::vec(step_strategy(), 1..30)) {
        let mut reference = ReferenceSparse::new();
        let mut sparse = SparseSim::new();
        let mut dense = DenseSim::new();
        sparse.set_parallel_threshold(4);
        for (i, step) in steps.iter().enumerate() {
            let want = run_step(&mut reference, step);
            let got_s = run_step(&mut sparse, step);
            let got_d = run_step(&mut dense, step);
            prop_assert_eq!(got_s.is_ok(), want.is_ok(), "sparse at step {} {:?}: {:?} vs {:?}", i, step, got_s, want);
            prop_assert_eq!(got_d.is_ok(), want.is_ok(), "dense at step {} {:?}: {:?} vs {:?}", i, step, got_d, want);
            if let (Ok(a), Ok(b), Ok(c)) = (&got_s, &got_d, &want) {
                prop_assert_eq!(a, c);
                prop_assert_eq!(b, c);
            }
            if i % 5 == 4 {
                assert_same_state("sparse", &sparse, &reference);
                assert_same_state("dense", &dense, &reference);
            }
        }
        assert_same_state("sparse", &sparse, &reference);
        assert_same_state("dense", &dense, &reference);
        prop_assert_eq!(sparse.state_size(), reference.state_size());
    }

    #[test]
    fn exact_distributions_agree(steps in proptest::collection::vec(step_strategy(), 1..16)) {
        let circuit = circuit_of(&steps);
        let want = exact_distribution(&mut ReferenceSparse::new(), &circuit);
        let got_s = exact_distribution(&mut SparseSim::new(), &circuit);
        let got_d = exact_distribution(&mut DenseSim::new(), &circuit);
        // The default fusion limit on this small vector too, so the runs of gates that
        // exact_distribution hands over really fuse.
        let mut fusing = DenseSim::new();
        fusing.set_fuse_min_amplitudes(0);
        let got_f = exact_distribution(&mut fusing, &circuit);
        match (want, got_s, got_d, got_f) {
            (Ok(w), Ok(s), Ok(d), Ok(f)) => {
                for key in w.keys().chain(s.keys()).chain(d.keys()).chain(f.keys()) {
                    let p = w.get(key).copied().unwrap_or(0.0);
                    prop_assert!((s.get(key).copied().unwrap_or(0.0) - p).abs() < TOL);
                    prop_assert!((d.get(key).copied().unwrap_or(0.0) - p).abs() < TOL);
                    prop_assert!((f.get(key).copied().unwrap_or(0.0) - p).abs() < TOL);
                }
            }
            (w, s, d, f) => {
                prop_assert!(w.is_err() && s.is_err() && d.is_err() && f.is_err(), "{:?} {:?} {:?} {:?}", w, s, d, f);
            }
        }
    }

    #[test]
    fn fused_dense_runs_agree_with_the_reference(
        steps in proptest::collection::vec(step_strategy(), 1..40),
        fuse in 2usize..=5,
    ) {
        // Unitary steps only, on a vector that already holds every qubit, so blocks really fuse.
        let steps: Vec<Step> = steps.into_iter().filter(|s| matches!(s, Step::Gate(..))).collect();
        let circuit = circuit_of(&steps);
        let mut reference = ReferenceSparse::new();
        let mut dense = DenseSim::new();
        let mut batched = DenseSim::new();
        for q in 0..QUBITS {
            // H alone puts every qubit in the vector, on both sides.
            let q = Qubit(q * 3 + 1);
            reference.apply_gate(Gate::H, &[q], &[]).unwrap();
            dense.apply_gate(Gate::H, &[q], &[]).unwrap();
            batched.apply_gate(Gate::H, &[q], &[]).unwrap();
        }
        for sim in [&mut dense, &mut batched] {
            sim.set_fuse_max(fuse);
            sim.set_fuse_min_amplitudes(0);
        }
        let mut record = ClassicalRecord::new(0);
        let mut never = |_: Option<Clbit>| MeasureChoice::Forced(false);
        qc_ir::exec::run_instructions(&mut reference, circuit.instructions(), &mut record, &mut never).unwrap();
        // The run path (exec hands the run over in one apply_gates call) ...
        qc_ir::exec::run_instructions(&mut dense, circuit.instructions(), &mut record, &mut never).unwrap();
        assert_same_state("fused dense", &dense, &reference);
        // ... and the batch entry point called directly.
        let calls: Vec<GateCall<'_>> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Gate(gate, targets, controls) => Some(GateCall { gate: *gate, targets, controls }),
                _ => None,
            })
            .collect();
        batched.apply_gates(&calls).unwrap();
        assert_same_state("dense apply_gates", &batched, &reference);
    }
}
