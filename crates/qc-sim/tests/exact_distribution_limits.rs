//! `exact_distribution` on circuits that once broke it (issue 12): more than 128 measured bits
//! (the backends' marginal keys are `u128`), long runs of `h; reset` (a reset writes no bit, so it
//! must not double the work), long runs of certain measurements (no recursion per instruction),
//! and circuits whose mid-circuit measurements would need more branches than the limit.
//! Expected values are worked out by hand in each test.

use qc_ir::exec::{
    exact_distribution, exact_distribution_within, Distribution, ExactLimits, MAX_BRANCHES,
};
use qc_ir::{BackendError, Circuit};
use qc_sim::{DenseSim, ReferenceSparse, SparseSim};

fn parse(text: &str) -> Circuit {
    qc_ir::text::parse(text).expect("test circuit parses")
}

/// Runs `circuit` on every backend and checks they agree; returns the sparse result.
fn on_every_backend(circuit: &Circuit) -> Distribution {
    let sparse = exact_distribution(&mut SparseSim::default(), circuit).expect("sparse runs");
    let dense = exact_distribution(&mut DenseSim::default(), circuit).expect("dense runs");
    let reference =
        exact_distribution(&mut ReferenceSparse::default(), circuit).expect("reference runs");
    for other in [&dense, &reference] {
        assert_eq!(other.len(), sparse.len());
        for (key, p) in other {
            assert!((sparse[key] - p).abs() < 1e-12);
        }
    }
    sparse
}

fn header(qubits: usize, clbits: usize) -> String {
    let names: Vec<String> = (0..qubits).map(|i| format!("q{i}")).collect();
    format!("qcir 1\nqubits {}\nclbits {clbits}\n", names.join(" "))
}

#[test]
fn two_hundred_measured_bits_give_every_pattern_of_the_superposed_ones() {
    let n = 200;
    let mut text = header(n, n);
    // q0, q150 and q199 in superposition; every qubit measured into its own bit at the end.
    for q in [0, 150, 199] {
        text.push_str(&format!("h q{q}\n"));
    }
    for q in 0..n {
        text.push_str(&format!("measure q{q} -> c{q}\n"));
    }
    let dist = on_every_backend(&parse(&text));
    // 2^3 patterns of bits 0, 150, 199, each 1/8; all other bits 0.
    assert_eq!(dist.len(), 8);
    for (bits, p) in &dist {
        assert_eq!(bits.len(), n);
        assert!((p - 0.125).abs() < 1e-12);
        let ones: Vec<usize> = (0..n).filter(|&i| bits[i]).collect();
        assert!(ones.iter().all(|i| [0, 150, 199].contains(i)), "{ones:?}");
    }
}

#[test]
fn two_hundred_h_reset_pairs_do_not_branch() {
    let mut text = header(1, 1);
    text.push_str(&"h q0\nreset q0\n".repeat(200));
    // A last H: the qubit is |+>, so c0 is 0 or 1 with 1/2 each.
    text.push_str("h q0\nmeasure q0 -> c0\n");
    let dist = on_every_backend(&parse(&text));
    assert_eq!(dist.len(), 2);
    assert!(dist.values().all(|p| (p - 0.5).abs() < 1e-12));
}

#[test]
fn a_reset_of_an_entangled_qubit_still_mixes() {
    // (|00> + |11>)/sqrt 2, then reset q0: q1 is a mixture of |0> and |1>, so c1 is 0 or 1 with
    // 1/2 each; keeping either branch's state alone would make c1 certain.
    let text = format!(
        "{}h q0\nx q1 ctrl(q0=1)\nreset q0\nmeasure q1 -> c1\nmeasure q0 -> c0\n",
        header(2, 2)
    );
    let dist = on_every_backend(&parse(&text));
    assert_eq!(dist.len(), 2);
    assert!((dist[&vec![false, false]] - 0.5).abs() < 1e-12);
    assert!((dist[&vec![false, true]] - 0.5).abs() < 1e-12);
}

#[test]
fn a_hundred_thousand_certain_measurements_do_not_recurse() {
    // Each measurement of q0 is re-read by the next X, so none is deferred; all are certain.
    let mut text = header(1, 1);
    text.push_str(&"measure q0 -> c0\nx q0\nx q0\n".repeat(100_000));
    let dist = on_every_backend(&parse(&text));
    assert_eq!(dist.len(), 1);
    assert!((dist[&vec![false]] - 1.0).abs() < 1e-12);
}

#[test]
fn too_many_branches_is_an_error() {
    // Each round measures a fresh |+> mid-circuit (q0 is touched again), so every round doubles
    // the branches: 2^17 paths are more than the limit.
    const { assert!(MAX_BRANCHES < 1 << 17) };
    let mut text = header(1, 1);
    text.push_str(&"h q0\nmeasure q0 -> c0\nreset q0\n".repeat(17));
    let circuit = parse(&text);
    let err = exact_distribution(&mut SparseSim::default(), &circuit).unwrap_err();
    assert!(
        matches!(err.source, BackendError::TooManyBranches { limit } if limit == MAX_BRANCHES),
        "{err}"
    );
}

/// Ten Hadamards (before each, the state holds 1, 2, 4, ..., 512 amplitudes: 1023 updates) then
/// ten X gates on the 1024-amplitude state (10,240): 11,263 amplitude updates in all.
fn eleven_thousand_updates() -> (Circuit, u64) {
    let mut text = header(10, 0);
    for q in 0..10 {
        text.push_str(&format!("h q{q}\n"));
    }
    text.push_str(&"x q0\n".repeat(10));
    (parse(&text), 1023 + 10 * 1024)
}

#[test]
fn the_work_bound_stops_an_exact_distribution_at_the_instruction_that_passes_it() {
    let (circuit, work) = eleven_thousand_updates();
    let within = |limit: u64| ExactLimits {
        max_amplitude_updates: Some(limit),
        ..ExactLimits::default()
    };
    for backend in ["sparse", "reference"] {
        let run = |limit| match backend {
            "sparse" => {
                exact_distribution_within(&mut SparseSim::default(), &circuit, within(limit))
            }
            _ => {
                exact_distribution_within(&mut ReferenceSparse::default(), &circuit, within(limit))
            }
        };
        run(work).unwrap_or_else(|e| panic!("{backend}: exactly the bound is allowed: {e}"));
        let err = run(work - 1).expect_err("one update less is refused");
        assert!(
            matches!(err.source, BackendError::TooMuchWork { limit } if limit == work - 1),
            "{backend}: {err}"
        );
        assert_eq!(err.index, 19, "{backend}: the last X passes the bound");
        // Half the bound, 5,631 updates, is passed by the fifth X
        // (1023 + 5 * 1024 = 6143 > 5631 >= 1023 + 4 * 1024 = 5119).
        let err = run(work / 2).expect_err("half the work is refused");
        assert_eq!(err.index, 14, "{backend}");
    }
}

/// `h` on `n` qubits, each measured into its own bit (2^n equally likely outcomes).
fn all_measured(n: usize) -> Circuit {
    let mut text = header(n, n);
    for q in 0..n {
        text.push_str(&format!("h q{q}\n"));
    }
    for q in 0..n {
        text.push_str(&format!("measure q{q} -> c{q}\n"));
    }
    parse(&text)
}

fn refused_for_outcomes(result: Result<Distribution, qc_ir::exec::ExecError>) -> usize {
    match result.map_err(|e| e.source) {
        Err(BackendError::TooManyOutcomes { limit, .. }) => limit,
        other => panic!("expected TooManyOutcomes, got {other:?}"),
    }
}

fn within_outcomes(max: usize) -> ExactLimits {
    ExactLimits {
        max_outcomes: Some(max),
        ..ExactLimits::default()
    }
}

qc_sim::for_each_backend!(
    an_outcome_bound_allows_exactly_its_count_and_refuses_one_more,
    |new| {
        let circuit = all_measured(4);
        let d =
            exact_distribution_within(&mut new(), &circuit, within_outcomes(16)).expect("16 fit");
        assert_eq!(d.len(), 16);
        let refused = exact_distribution_within(&mut new(), &circuit, within_outcomes(15));
        assert_eq!(refused_for_outcomes(refused), 15);
        // Branches that add outcomes one by one: q0 measured mid-circuit decides whether q1 gets
        // an h (c = 00 with 1/2; 01 and 11 with 1/4 each): three outcomes.
        let branching = parse(&format!(
            "{}h q0\nmeasure q0 -> c0\nif c0==1: h q1\nmeasure q1 -> c1\n",
            header(2, 2)
        ));
        let d =
            exact_distribution_within(&mut new(), &branching, within_outcomes(3)).expect("3 fit");
        assert_eq!(d.len(), 3);
        let refused = exact_distribution_within(&mut new(), &branching, within_outcomes(2));
        assert_eq!(refused_for_outcomes(refused), 2);
    }
);

/// Issue 30, item 5: the distribution counts against the backend's memory limit beside the
/// state. Ten measured Hadamards: 1,024 outcomes of 10 bits at `outcome_bytes(10)` = 128 bytes
/// each (131,072 bytes) beside a state of 1,024 sparse entries; a limit that holds the state
/// but not the outcomes refuses, one that holds both runs.
#[test]
fn the_default_outcome_bound_is_what_the_memory_limit_leaves_beside_the_state() {
    use qc_ir::exec::outcome_bytes;
    use qc_sim::MemoryLimit;
    let circuit = all_measured(10);
    assert_eq!(outcome_bytes(10), 128);
    let state = {
        let mut sim = SparseSim::default();
        exact_distribution(&mut sim, &circuit).expect("runs");
        qc_ir::Backend::state_bytes(&sim) as u128
    };
    assert!(state > 0);
    let needed = state + 1024 * outcome_bytes(10);
    let run = |bytes: u128| {
        exact_distribution(
            &mut SparseSim::with_limit(MemoryLimit::bytes(bytes)),
            &circuit,
        )
    };
    assert_eq!(run(needed).expect("state and outcomes fit").len(), 1024);
    let limit = refused_for_outcomes(run(needed - 1));
    assert_eq!(limit, 1023);
    // A limit that holds the state alone.
    refused_for_outcomes(run(state + 1));
}
