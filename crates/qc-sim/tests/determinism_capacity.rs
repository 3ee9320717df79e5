//! Determinism across thread counts (rayon pools of 1 and 2 threads give bit-identical states
//! and the same sampled outcomes) and memory-limit errors instead of out-of-memory kills.

mod common;
use common::{bits, in_pool};
use qc_ir::{Backend, BackendError, Control, Gate, MeasureChoice, Qubit};
use qc_sim::{DenseSim, MemoryLimit, SparseSim};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded random circuit on 14 qubits: enough basis states to cross the parallel thresholds
/// set below, with branching, monomial and controlled gates and a few sampled measurements.
fn workload<B: Backend>(sim: &mut B) -> Vec<bool> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let gates = [
        Gate::H,
        Gate::SqrtISwap,
        Gate::ISwap,
        Gate::X,
        Gate::T,
        Gate::Ry(0.3),
    ];
    for q in 0..14 {
        sim.apply_gate(Gate::H, &[Qubit(q)], &[]).unwrap();
    }
    let mut outcomes = Vec::new();
    for step in 0..120 {
        let g = gates[rng.gen_range(0..gates.len())];
        let a = rng.gen_range(0..14u32);
        let b = (a + rng.gen_range(1..14u32)) % 14;
        let c = (b + 1 + (a == (b + 1) % 14) as u32) % 14;
        let control = if rng.gen() {
            Control::one(Qubit(c))
        } else {
            Control::zero(Qubit(c))
        };
        let targets = if g.num_targets() == 2 {
            vec![Qubit(a), Qubit(b)]
        } else {
            vec![Qubit(a)]
        };
        let controls = if c != a && c != b && step % 3 == 0 {
            vec![control]
        } else {
            vec![]
        };
        sim.apply_gate(g, &targets, &controls).unwrap();
        if step % 40 == 39 {
            let q = Qubit(rng.gen_range(0..14));
            outcomes.push(sim.measure(q, MeasureChoice::Random(rng.gen())).unwrap());
            sim.apply_gate(Gate::H, &[q], &[]).unwrap();
        }
    }
    outcomes
}

#[test]
fn sparse_is_bit_identical_on_one_and_two_threads() {
    let run = || {
        let mut sim = SparseSim::new();
        sim.set_parallel_threshold(256);
        let outcomes = workload(&mut sim);
        (
            outcomes,
            bits(sim.basis_states()),
            sim.probability_one(Qubit(3)).to_bits(),
        )
    };
    let one = in_pool(1, run);
    let two = in_pool(2, run);
    assert!(
        one.1.len() > 1000,
        "the workload must be large enough to run in parallel"
    );
    assert_eq!(one, two);
    // Sequential (threshold above the size) gives the same bits too.
    let mut seq = SparseSim::new();
    seq.set_parallel_threshold(usize::MAX);
    let outcomes = workload(&mut seq);
    assert_eq!((outcomes, bits(seq.basis_states())), (one.0, one.1));
}

#[test]
fn dense_is_bit_identical_on_one_and_two_threads() {
    let run = || {
        let mut sim = DenseSim::new();
        sim.set_parallel_threshold(256);
        let outcomes = workload(&mut sim);
        (outcomes, bits(sim.basis_states()))
    };
    assert_eq!(in_pool(1, run), in_pool(2, run));
}

#[test]
fn sparse_growth_past_the_limit_is_a_capacity_error() {
    // 32 bytes per entry: 2^10 entries need 32 KiB; the limit allows a bit more than 2^9 (with
    // the old and new vectors alive together during a branching gate).
    assert_eq!(SparseSim::bytes_per_entry(), 32);
    let mut sim = SparseSim::with_limit(MemoryLimit::bytes(40 * 1024));
    for q in 0..9 {
        sim.apply_gate(Gate::H, &[Qubit(q)], &[]).unwrap();
    }
    assert_eq!(sim.state_size(), 512);
    let before = sim.basis_states();
    let err = sim.apply_gate(Gate::H, &[Qubit(9)], &[]).unwrap_err();
    let BackendError::CapacityExceeded {
        needed_bytes,
        limit_bytes,
        ..
    } = err
    else {
        panic!("expected a capacity error, got {err:?}");
    };
    assert_eq!(limit_bytes, 40 * 1024);
    assert_eq!(needed_bytes, (512 + 1024) * 32);
    assert_eq!(
        sim.basis_states(),
        before,
        "a refused gate leaves the state as it was"
    );
}

#[test]
fn dense_growth_past_the_limit_is_a_capacity_error() {
    let mut sim = DenseSim::with_limit(MemoryLimit::bytes(16 << 10));
    for q in 0..10 {
        sim.apply_gate(Gate::H, &[Qubit(q)], &[]).unwrap();
    }
    let err = sim.apply_gate(Gate::H, &[Qubit(10)], &[]).unwrap_err();
    assert!(
        matches!(err, BackendError::CapacityExceeded { needed_bytes, .. } if needed_bytes == 16 << 11),
        "{err:?}"
    );
    // Monomial gates on classical qubits still work: they need no room.
    sim.apply_gate(Gate::X, &[Qubit(10)], &[]).unwrap();
    assert_eq!(sim.probability_one(Qubit(10)), 1.0);
    // 2^30 amplitudes on 24 GiB is the ceiling the issue sets; 2^31 must be refused up front.
    let big = DenseSim::with_dense_qubits(31, MemoryLimit::bytes(24 << 30));
    assert!(matches!(big, Err(BackendError::CapacityExceeded { .. })));
}

#[test]
fn default_limit_is_three_quarters_of_the_memory_the_process_may_use() {
    let limit = MemoryLimit::default().limit_bytes();
    if let Some(physical) = qc_sim::physical_memory_bytes() {
        let usable = [
            qc_sim::memory::address_space_limit_bytes(),
            qc_sim::memory::cgroup_memory_limit_bytes(),
        ]
        .into_iter()
        .flatten()
        .fold(physical, u128::min);
        let expected = usable * 3 / 4;
        assert!(
            limit.abs_diff(expected) <= 1 << 10,
            "{limit} vs 3/4 of {usable}"
        );
    }
}

#[test]
fn the_reference_simulator_keeps_to_its_memory_limit() {
    use qc_ir::{Backend, BackendError, Gate, Qubit};
    use qc_sim::ReferenceSparse;
    // 64 bytes a basis state: 2^12 states with the 2^11 they replace need 6144 * 64 bytes.
    let limit = MemoryLimit::bytes(5000 * 64);
    let mut sim = ReferenceSparse::with_limit(limit);
    for q in 0..11 {
        sim.apply_gate(Gate::H, &[Qubit(q)], &[])
            .expect("2^11 states fit");
    }
    assert_eq!(sim.state_size(), 1 << 11);
    let err = sim.apply_gate(Gate::H, &[Qubit(11)], &[]).unwrap_err();
    assert!(
        matches!(err, BackendError::CapacityExceeded { limit_bytes, .. } if limit_bytes == 5000 * 64),
        "{err}"
    );
}
