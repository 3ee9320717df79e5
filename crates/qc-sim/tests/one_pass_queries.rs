//! The one-pass queries (`probabilities_one`, `constant_values`, `state_hash`) of the sparse
//! simulator against their definitions on `basis_states` (the trait's defaults, which the other
//! simulators use), on random states: gates of every kind on qubits whose ids differ from their
//! bit positions, measurements, and the parallel paths.

use proptest::prelude::*;
use qc_ir::backend::{qubit_hash, state_hash_term};
use qc_ir::{Backend, Complex64, Control, Gate, MeasureChoice, Qubit};
use qc_sim::{ReferenceSparse, SparseSim};

const QUBITS: u32 = 7;

#[derive(Clone, Debug)]
enum Step {
    Gate(Gate, Vec<Qubit>, Vec<Control>),
    Measure(Qubit, bool),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let qubits = proptest::sample::subsequence((0..QUBITS).collect::<Vec<u32>>(), 3)
        .prop_shuffle()
        .prop_map(|v| v.into_iter().map(|q| Qubit(q * 5 + 2)).collect::<Vec<_>>());
    let gate = prop::sample::select(Gate::examples().collect::<Vec<_>>());
    let step = prop_oneof![
        8 => (gate, qubits, 0usize..2, any::<bool>()).prop_map(|(g, qs, nc, one)| {
            let k = g.num_targets();
            let controls = qs[k..k + nc]
                .iter()
                .map(|&q| if one { Control::one(q) } else { Control::zero(q) })
                .collect();
            Step::Gate(g, qs[..k].to_vec(), controls)
        }),
        1 => (0..QUBITS, any::<bool>()).prop_map(|(q, v)| Step::Measure(Qubit(q * 5 + 2), v)),
    ];
    prop::collection::vec(step, 1..30)
}

fn run<B: Backend>(b: &mut B, steps: &[Step]) {
    for step in steps {
        // An impossible forced outcome is refused and changes nothing.
        let _ = match step {
            Step::Gate(g, t, c) => b.apply_gate(*g, t, c),
            Step::Measure(q, v) => b.measure(*q, MeasureChoice::Forced(*v)).map(|_| ()),
        };
    }
}

/// The asked qubits: every qubit the steps may touch, one never touched, and a repeat.
fn asked() -> Vec<Qubit> {
    let mut qs: Vec<Qubit> = (0..QUBITS).map(|q| Qubit(q * 5 + 2)).collect();
    qs.push(Qubit(1000));
    qs.push(Qubit(7));
    qs
}

/// `constant_values` by its definition on the basis states.
fn constant_by_definition<B: Backend>(b: &B, qs: &[Qubit]) -> Vec<Option<bool>> {
    let states = b.basis_states();
    qs.iter()
        .map(|q| {
            let ones = states.iter().filter(|(o, _)| o.contains(q)).count();
            match ones {
                0 => Some(false),
                n if n == states.len() => Some(true),
                _ => None,
            }
        })
        .collect()
}

/// `state_hash` by its definition on the basis states.
fn hash_by_definition<B: Backend>(b: &B) -> u64 {
    b.basis_states()
        .iter()
        .map(|(ones, a)| state_hash_term(ones.iter().fold(0, |h, &q| h ^ qubit_hash(q)), *a))
        .fold(0u64, u64::wrapping_add)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn sparse_queries_match_their_definitions(steps in steps(), parallel in any::<bool>()) {
        let mut sim = SparseSim::new();
        if parallel {
            sim.set_parallel_threshold(1);
        }
        run(&mut sim, &steps);
        let qs = asked();
        let each: Vec<f64> = qs.iter().map(|&q| sim.probability_one(q)).collect();
        let one_pass = sim.probabilities_one(&qs);
        // Bit for bit the same sums.
        prop_assert_eq!(each.iter().map(|p| p.to_bits()).collect::<Vec<_>>(),
                        one_pass.iter().map(|p| p.to_bits()).collect::<Vec<_>>());
        prop_assert_eq!(sim.constant_values(&qs), constant_by_definition(&sim, &qs));
        prop_assert_eq!(sim.state_hash(), hash_by_definition(&sim));
        // The reference simulator (the trait's defaults) gives the same answers.
        let mut reference = ReferenceSparse::new();
        run(&mut reference, &steps);
        prop_assert_eq!(reference.constant_values(&qs), sim.constant_values(&qs));
        for (a, b) in reference.probabilities_one(&qs).iter().zip(&one_pass) {
            prop_assert!((a - b).abs() < 1e-12);
        }
    }
}

#[test]
fn the_hash_ignores_storage_order_and_slot_layout_but_not_the_state() {
    let qubits = [Qubit(3), Qubit(9), Qubit(4)];
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let entries = vec![
        (0b001, Complex64::new(h, 0.0)),
        (0b110, Complex64::new(0.0, h)),
    ];
    let a = SparseSim::from_entries(&qubits, entries.clone(), Default::default()).expect("a");
    let mut reversed = entries.clone();
    reversed.reverse();
    let b = SparseSim::from_entries(&qubits, reversed, Default::default()).expect("b");
    assert_eq!(a.state_hash(), b.state_hash());
    // The same state with the qubits in other bit positions.
    let permuted = [Qubit(4), Qubit(3), Qubit(9)];
    let c = SparseSim::from_entries(
        &permuted,
        vec![
            (0b010, Complex64::new(h, 0.0)),
            (0b101, Complex64::new(0.0, h)),
        ],
        Default::default(),
    )
    .expect("c");
    assert_eq!(a.state_hash(), c.state_hash());
    // Another phase is another state.
    let d = SparseSim::from_entries(
        &qubits,
        vec![
            (0b001, Complex64::new(h, 0.0)),
            (0b110, Complex64::new(0.0, -h)),
        ],
        Default::default(),
    )
    .expect("d");
    assert_ne!(a.state_hash(), d.state_hash());
}
