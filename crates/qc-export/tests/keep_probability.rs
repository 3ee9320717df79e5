//! `keep_probability_forced` (one forced run) against `keep_probability_exact` (every branch)
//! and a hand-computed value.

mod common;

use common::{corpus, random_circuit};
use qc_export::{keep_probability_exact, keep_probability_forced};
use qc_ir::exec::exact_distribution;
use qc_ir::{CircuitBuilder, Gate, Op};
use qc_sim::ReferenceSparse;

/// A circuit has every measured bit recorded: pick each possible full outcome in turn.
#[test]
fn forced_equals_exact_for_every_possible_record() {
    let mut circuits: Vec<qc_ir::Circuit> = corpus().into_iter().map(|(_, c)| c).collect();
    circuits.extend((1..=8).map(|seed| random_circuit(seed, 4, 14)));
    let mut compared = 0;
    for c in &circuits {
        let measured: Vec<usize> = c
            .instructions()
            .iter()
            .filter_map(|i| match i.op {
                Op::Measure { clbit, .. } => Some(clbit.index()),
                _ => None,
            })
            .collect();
        let dist = exact_distribution(&mut ReferenceSparse::new(), c).expect("runs");
        for bits in dist.keys() {
            let mut outcomes = vec![None; c.num_clbits()];
            for &k in &measured {
                outcomes[k] = Some(bits[k]);
            }
            let exact =
                keep_probability_exact(&mut ReferenceSparse::new(), c, &outcomes).expect("runs");
            let forced =
                keep_probability_forced(&mut ReferenceSparse::new(), c, &outcomes).expect("runs");
            assert!((exact - forced).abs() < 1e-12, "{exact} vs {forced}");
            compared += 1;
        }
    }
    assert!(compared > 20, "only {compared} records compared");
}

/// H, measure (recorded 1), then a second qubit rotated by the conditioned RY(pi/3) and measured
/// (recorded 1): keep = 1/2 * sin^2(pi/6) = 1/8. An impossible record gives 0.
#[test]
fn forced_matches_a_hand_computed_value() {
    let mut b = CircuitBuilder::new();
    let q0 = b.plain_qubit();
    let q1 = b.plain_qubit();
    b.gate(Gate::H, &[q0], &[]);
    let c0 = b.measure(q0);
    b.conditioned(c0, true, |b| {
        b.gate(Gate::Ry(std::f64::consts::FRAC_PI_3), &[q1], &[])
    });
    b.measure(q1);
    let c = b.finish().expect("a valid circuit");
    let keep = keep_probability_forced(&mut ReferenceSparse::new(), &c, &[Some(true), Some(true)])
        .expect("runs");
    assert!((keep - 0.125).abs() < 1e-12, "{keep}");
    let never =
        keep_probability_forced(&mut ReferenceSparse::new(), &c, &[Some(false), Some(true)])
            .expect("runs");
    assert_eq!(never, 0.0);
}
