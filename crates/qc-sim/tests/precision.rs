//! The dense simulator in single precision (complex64, `DenseSim<f32>`) against the reference
//! simulator (exact arithmetic in f64) on seeded random circuits over every gate kind, with
//! controls of both polarities, qubits joining and leaving, measurements, and the fused runner;
//! and checks that single precision really computes in f32 (memory, rounding).

use qc_ir::exec::exact_distribution;
use qc_ir::{Backend, Circuit, Clbit, Complex64, Control, Gate, Instruction, MeasureChoice, Qubit};
use qc_sim::{DenseSim, MemoryLimit, Precision, ReferenceSparse};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;

const QUBITS: u32 = 7;
/// Single precision keeps about 7 digits; 40 gates lose at most a few units of 6e-8 each. A
/// wrong matrix entry, a wrong control, or a lost phase is off by 0.01 or more.
const SINGLE_TOL: f64 = 2e-5;

/// A random gate of any kind (with its example angle, or a random one for rotations), its
/// targets and up to two controls of random polarity, on distinct qubits.
fn random_gate(rng: &mut impl Rng) -> (Gate, Vec<Qubit>, Vec<Control>) {
    let gates: Vec<Gate> = Gate::examples().collect();
    let gate = match *gates.choose(rng).expect("gates") {
        Gate::Rx(_) => Gate::Rx(rng.gen_range(-3.0..3.0)),
        Gate::Ry(_) => Gate::Ry(rng.gen_range(-3.0..3.0)),
        Gate::Rz(_) => Gate::Rz(rng.gen_range(-3.0..3.0)),
        Gate::Phase(_) => Gate::Phase(rng.gen_range(-3.0..3.0)),
        g => g,
    };
    let mut qubits: Vec<Qubit> = (0..QUBITS).map(|q| Qubit(q * 2 + 1)).collect();
    qubits.shuffle(rng);
    let k = gate.num_targets();
    let controls = qubits[k..k + rng.gen_range(0..3)]
        .iter()
        .map(|&q| {
            if rng.gen() {
                Control::one(q)
            } else {
                Control::zero(q)
            }
        })
        .collect();
    (gate, qubits[..k].to_vec(), controls)
}

fn states<B: Backend>(b: &B) -> BTreeMap<Vec<Qubit>, Complex64> {
    b.basis_states().into_iter().collect()
}

/// The largest amplitude difference between two states (missing entries are 0).
fn distance(a: &BTreeMap<Vec<Qubit>, Complex64>, b: &BTreeMap<Vec<Qubit>, Complex64>) -> f64 {
    let zero = Complex64::new(0.0, 0.0);
    a.keys()
        .chain(b.keys())
        .map(|k| (a.get(k).copied().unwrap_or(zero) - b.get(k).copied().unwrap_or(zero)).norm())
        .fold(0.0, f64::max)
}

#[test]
fn single_precision_agrees_with_the_reference_on_random_circuits_of_every_gate_kind() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let mut largest_error = 0.0f64;
    for circuit in 0..150 {
        let mut single = DenseSim::<f32>::zero_state(MemoryLimit::default());
        let mut reference = ReferenceSparse::new();
        for step in 0..40 {
            let (gate, targets, controls) = random_gate(&mut rng);
            single.apply_gate(gate, &targets, &controls).expect("gate");
            reference
                .apply_gate(gate, &targets, &controls)
                .expect("gate");
            if step % 13 == 12 {
                // A measurement forced to the outcome the reference finds more likely (so it is
                // possible in both), which makes the qubit leave the vector.
                let q = Qubit(rng.gen_range(0..QUBITS) * 2 + 1);
                let p = reference.probability_one(q);
                assert!(
                    (single.probability_one(q) - p).abs() < SINGLE_TOL,
                    "circuit {circuit}, step {step}: P(1) {} vs reference {p}",
                    single.probability_one(q)
                );
                let outcome = p > 0.5;
                single
                    .measure(q, MeasureChoice::Forced(outcome))
                    .expect("measure");
                reference
                    .measure(q, MeasureChoice::Forced(outcome))
                    .expect("measure");
            }
            let error = distance(&states(&single), &states(&reference));
            assert!(
                error < SINGLE_TOL,
                "circuit {circuit}, step {step}, {gate} on {targets:?} / {controls:?}: off by {error}"
            );
            largest_error = largest_error.max(error);
        }
    }
    // Had the f32 simulator computed in f64, every state would match to about 1e-15.
    assert!(
        largest_error > 1e-9,
        "single precision is as exact as double ({largest_error}): not computing in f32"
    );
}

#[test]
fn fused_single_precision_runs_agree_with_unfused_ones() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
    for _ in 0..40 {
        let mut circuit = Circuit::with_plain_qubits(QUBITS * 2 + 1, 0);
        for q in 0..QUBITS {
            circuit.push(Instruction::gate(Gate::H, &[Qubit(q * 2 + 1)], &[]));
        }
        for _ in 0..60 {
            let (gate, targets, controls) = random_gate(&mut rng);
            circuit.push(Instruction::gate(gate, &targets, &controls));
        }
        let mut results = Vec::new();
        for fuse in [1, 3, 5] {
            let mut sim = DenseSim::<f32>::zero_state(MemoryLimit::default());
            sim.set_fuse_max(fuse);
            sim.set_fuse_min_amplitudes(0);
            sim.run_circuit(&circuit, &mut |_: Option<Clbit>| {
                MeasureChoice::Forced(false)
            })
            .expect("run");
            results.push(states(&sim));
        }
        let mut reference = ReferenceSparse::new();
        let want = {
            qc_ir::exec::run_instructions(
                &mut reference,
                circuit.instructions(),
                &mut qc_ir::ClassicalRecord::new(0),
                &mut |_: Option<Clbit>| MeasureChoice::Forced(false),
            )
            .expect("reference");
            states(&reference)
        };
        for got in &results {
            assert!(distance(got, &want) < SINGLE_TOL);
        }
    }
}

#[test]
fn a_single_precision_state_takes_half_the_memory() {
    let double = DenseSim::with_dense_qubits(12, MemoryLimit::default()).expect("double");
    let single = DenseSim::<f32>::zero_state_dense(12, MemoryLimit::default()).expect("single");
    assert_eq!(double.memory_bytes(), 16 << 12);
    assert_eq!(single.memory_bytes(), 8 << 12);
    assert_eq!(
        DenseSim::<f32>::bytes_per_amplitude(),
        Precision::Single.bytes_per_amplitude()
    );
    // And the memory limit is checked in the state's own precision: 2^12 amplitudes fit in
    // 48 KiB as complex64 (32 KiB) but not as complex128 (64 KiB).
    let limit = MemoryLimit::bytes(48 << 10);
    assert!(DenseSim::<f32>::zero_state_dense(12, limit).is_ok());
    assert!(DenseSim::with_dense_qubits(12, limit).is_err());
}

#[test]
fn single_precision_shows_f32_rounding_in_probabilities() {
    // H on 7 qubits: every outcome has probability exactly 1/128. In f64, 2^-3.5 squared comes
    // back to 1/128 within 1e-16; in f32 it is off by about 1e-9.
    let mut circuit = Circuit::with_plain_qubits(7, 7);
    for q in 0..7 {
        circuit.push(Instruction::gate(Gate::H, &[Qubit(q)], &[]));
        circuit.push(Instruction::new(qc_ir::Op::Measure {
            qubit: Qubit(q),
            clbit: Clbit(q),
        }));
    }
    let double = exact_distribution(&mut DenseSim::new(), &circuit).expect("double");
    let single = exact_distribution(
        &mut DenseSim::<f32>::zero_state(MemoryLimit::default()),
        &circuit,
    )
    .expect("single");
    assert_eq!(double.len(), 128);
    assert_eq!(single.len(), 128);
    let worst = |d: &qc_ir::exec::Distribution| {
        d.values()
            .map(|p| (p - 1.0 / 128.0).abs())
            .fold(0.0, f64::max)
    };
    assert!(worst(&double) < 1e-15, "double: {}", worst(&double));
    assert!(
        worst(&single) > 1e-12,
        "single is exact: {}",
        worst(&single)
    );
    assert!(worst(&single) < 1e-7, "single: {}", worst(&single));
}
