//! The reference sparse simulator against `Circuit::unitary()` (an independent dense computation
//! from the gate table) on random circuits, with mid-circuit measurements forced both ways and with
//! seeded sampling.

use proptest::prelude::*;
use qc_ir::exec::{exact_distribution, run_instructions};
use qc_ir::{
    Backend, Circuit, ClassicalRecord, Clbit, Complex64, Control, Gate, Instruction, MeasureChoice,
    Op, Qubit,
};
use qc_sim::ReferenceSparse;
use rand::{Rng, SeedableRng};

const TOL: f64 = 1e-10;

/// A random gate with random distinct targets and controls (both polarities) on `n` qubits.
fn gate_strategy(n: usize) -> impl Strategy<Value = Instruction> {
    let gate = prop_oneof![
        Just(Gate::X),
        Just(Gate::Y),
        Just(Gate::Z),
        Just(Gate::H),
        Just(Gate::S),
        Just(Gate::Tdg),
        Just(Gate::SX),
        Just(Gate::SXdg),
        (-4.0..4.0f64).prop_map(Gate::Rx),
        (-4.0..4.0f64).prop_map(Gate::Ry),
        (-4.0..4.0f64).prop_map(Gate::Rz),
        (-4.0..4.0f64).prop_map(Gate::Phase),
        (-4.0..4.0f64, -4.0..4.0f64, -4.0..4.0f64).prop_map(|(a, b, c)| Gate::U(a, b, c)),
        Just(Gate::Swap),
        Just(Gate::ISwap),
        Just(Gate::ISwapDg),
        Just(Gate::SqrtISwap),
        Just(Gate::SqrtISwapDg),
    ];
    let order = Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle();
    let polarities = prop::collection::vec(any::<bool>(), 0..=2);
    (gate, (order, polarities)).prop_filter_map(
        "not enough qubits",
        move |(gate, (order, polarities))| {
            let k = gate.num_targets();
            if k + polarities.len() > n {
                return None;
            }
            let targets: Vec<Qubit> = order[..k].iter().map(|&i| Qubit(i)).collect();
            let controls: Vec<Control> = polarities
                .iter()
                .enumerate()
                .map(|(j, &p)| {
                    let q = Qubit(order[k + j]);
                    if p {
                        Control::one(q)
                    } else {
                        Control::zero(q)
                    }
                })
                .collect();
            Some(Instruction::gate(gate, &targets, &controls))
        },
    )
}

fn circuit_strategy(max_qubits: usize, max_gates: usize) -> impl Strategy<Value = Circuit> {
    (2..=max_qubits).prop_flat_map(move |n| {
        prop::collection::vec(gate_strategy(n), 1..=max_gates).prop_map(move |gates| {
            let mut c = Circuit::with_plain_qubits(n as u32, 0);
            c.extend(gates);
            c
        })
    })
}

/// Dense vector of the simulator's state over `n` qubits (qubit k = bit k).
fn dense_state(sim: &ReferenceSparse, n: usize) -> Vec<Complex64> {
    let mut v = vec![Complex64::new(0.0, 0.0); 1 << n];
    for (ones, amp) in sim.basis_states() {
        let index: usize = ones.iter().map(|q| 1usize << q.index()).sum();
        v[index] += amp;
    }
    v
}

fn run_gates(sim: &mut ReferenceSparse, c: &Circuit) {
    let mut record = ClassicalRecord::default();
    let mut never = |_: Option<Clbit>| MeasureChoice::Forced(false);
    run_instructions(sim, c.instructions(), &mut record, &mut never).unwrap();
}

fn assert_close(a: &[Complex64], b: &[Complex64]) -> Result<(), TestCaseError> {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        prop_assert!(
            (x - y).norm() < TOL,
            "amplitude {i}: simulator {x} vs reference {y}"
        );
    }
    Ok(())
}

/// Column 0 of the unitary applied to `state`, i.e. `U * state`.
fn apply_unitary(c: &Circuit, state: &[Complex64]) -> Vec<Complex64> {
    let u = c.unitary().unwrap();
    let n = state.len();
    (0..n)
        .map(|row| (0..n).map(|col| u.get(row, col) * state[col]).sum())
        .collect()
}

fn basis_zero(n: usize) -> Vec<Complex64> {
    let mut v = vec![Complex64::new(0.0, 0.0); 1 << n];
    v[0] = Complex64::new(1.0, 0.0);
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn sparse_state_equals_unitary_column(c in circuit_strategy(8, 24)) {
        let n = c.num_qubits();
        let mut sim = ReferenceSparse::new();
        run_gates(&mut sim, &c);
        assert_close(&dense_state(&sim, n), &apply_unitary(&c, &basis_zero(n)))?;
        let norm: f64 = sim.basis_states().iter().map(|(_, a)| a.norm_sqr()).sum();
        prop_assert!((norm - 1.0).abs() < TOL);
    }

    #[test]
    fn forced_mid_circuit_measurement_both_ways(
        prefix in circuit_strategy(6, 12),
        suffix_seed in any::<u64>(),
        which in any::<prop::sample::Index>(),
    ) {
        let n = prefix.num_qubits();
        let measured = Qubit(which.index(n) as u32);
        // Suffix: a few deterministic gates on the same register.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(suffix_seed);
        let mut suffix = Circuit::with_plain_qubits(n as u32, 0);
        for _ in 0..6 {
            let a = rng.gen_range(0..n as u32);
            let b = (a + rng.gen_range(1..n as u32)) % n as u32;
            suffix.push(Gate::SqrtISwap.on(&[Qubit(a), Qubit(b)]));
            suffix.push(Gate::Ry(rng.gen_range(-3.0..3.0)).on(&[Qubit(b)]));
        }
        let before = apply_unitary(&prefix, &basis_zero(n));
        for outcome in [false, true] {
            // Reference: project, renormalise, continue.
            let mut projected = before.clone();
            for (i, a) in projected.iter_mut().enumerate() {
                if ((i >> measured.index()) & 1 == 1) != outcome {
                    *a = Complex64::new(0.0, 0.0);
                }
            }
            let p: f64 = projected.iter().map(|a| a.norm_sqr()).sum();
            let mut sim = ReferenceSparse::new();
            run_gates(&mut sim, &prefix);
            let result = sim.measure(measured, MeasureChoice::Forced(outcome));
            if p < 1e-20 {
                prop_assert!(result.is_err(), "forcing an impossible outcome must fail");
                continue;
            }
            prop_assert_eq!(result.unwrap(), outcome);
            for a in projected.iter_mut() {
                *a /= p.sqrt();
            }
            run_gates(&mut sim, &suffix);
            assert_close(&dense_state(&sim, n), &apply_unitary(&suffix, &projected))?;
        }
    }

    #[test]
    fn inverse_undoes_the_circuit(c in circuit_strategy(6, 16)) {
        let mut sim = ReferenceSparse::new();
        run_gates(&mut sim, &c);
        run_gates(&mut sim, &c.inverse().unwrap());
        prop_assert_eq!(sim.state_size(), 1);
        prop_assert!((sim.amplitude(&[]) - Complex64::new(1.0, 0.0)).norm() < TOL);
    }
}

/// Sampled measurement outcomes follow the Born rule within 5 sigma.
#[test]
fn seeded_sampling_matches_probabilities() {
    let theta = 1.1f64;
    let p_one = (theta / 2.0).sin().powi(2);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let shots = 20_000;
    let mut ones = 0u32;
    for _ in 0..shots {
        let mut sim = ReferenceSparse::new();
        sim.apply_gate(Gate::Ry(theta), &[Qubit(0)], &[]).unwrap();
        sim.apply_gate(Gate::X, &[Qubit(1)], &[Control::one(Qubit(0))])
            .unwrap();
        let a = sim
            .measure(Qubit(0), MeasureChoice::Random(rng.gen()))
            .unwrap();
        // The copy must agree with the measured qubit after collapse.
        let b = sim
            .measure(Qubit(1), MeasureChoice::Random(rng.gen()))
            .unwrap();
        assert_eq!(a, b);
        ones += u32::from(a);
    }
    let mean = f64::from(ones) / f64::from(shots);
    let sigma = (p_one * (1.0 - p_one) / f64::from(shots)).sqrt();
    assert!(
        (mean - p_one).abs() < 5.0 * sigma,
        "frequency {mean} vs probability {p_one}"
    );
}

/// Bell pair with mid-circuit measurement and feed-forward: exact distribution by branching.
#[test]
fn exact_distribution_with_feed_forward() {
    let c = qc_ir::text::parse(
        "qubits q0 q1 q2\nclbits 3\nh q0\nx q1 ctrl(q0=1)\nmeasure q0 -> c0\nif c0==1: x q2\nmeasure q1 -> c1\nmeasure q2 -> c2\n",
    )
    .unwrap();
    let mut sim = ReferenceSparse::new();
    let dist = exact_distribution(&mut sim, &c).unwrap();
    let keyed: Vec<(String, f64)> = dist
        .iter()
        .map(|(k, p)| (qc_ir::exec::qiskit_key(k), *p))
        .collect();
    assert_eq!(keyed.len(), 2, "{keyed:?}");
    assert_eq!(keyed[0].0, "000");
    assert_eq!(keyed[1].0, "111");
    assert!((keyed[0].1 - 0.5).abs() < 1e-12 && (keyed[1].1 - 0.5).abs() < 1e-12);
}

/// A measurement that later gates depend on branches; a final one is read from the marginal.
/// Both paths give the same answer as measuring everything at the end when no feed-forward exists.
#[test]
fn exact_distribution_branching_equals_deferred() {
    let text =
        "qubits q0 q1\nclbits 2\nry(1.2) q0\nmeasure q0 -> c0\nsqiswap q0, q1\nmeasure q1 -> c1\n";
    let c = qc_ir::text::parse(text).unwrap();
    let mut sim = ReferenceSparse::new();
    let dist = exact_distribution(&mut sim, &c).unwrap();
    let p1 = (0.6f64).sin().powi(2);
    // Branch c0=1: q0=1 -> sqiswap splits it: q1=1 with prob 1/2.
    let get = |bits: [bool; 2]| dist.get(bits.as_slice()).copied().unwrap_or(0.0);
    assert!((get([false, false]) - (1.0 - p1)).abs() < 1e-12);
    assert!((get([true, false]) - p1 / 2.0).abs() < 1e-12);
    assert!((get([true, true]) - p1 / 2.0).abs() < 1e-12);
    assert!(!c
        .instructions()
        .iter()
        .any(|i| matches!(i.op, Op::Reset { .. })));
}
