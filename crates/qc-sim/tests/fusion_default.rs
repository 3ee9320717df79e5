//! The default path fuses: `exact_distribution` (what `qchess run` calls) on a `DenseSim` with
//! default settings, in both precisions, hands each run of gates to the simulator at once and
//! the simulator applies some of them as fused blocks, with the reference simulator's
//! distribution. This fails if fusion is off by default, if exec hands gates over one at a
//! time, or if a fused block computes a wrong product.

use qc_ir::exec::exact_distribution;
use qc_ir::{Circuit, Clbit, Control, Gate, Instruction, Op, Qubit};
use qc_sim::{DenseSim, MemoryLimit, Real, ReferenceSparse, DEFAULT_FUSE_MIN_AMPLITUDES};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// 2^13 amplitudes: above the smallest vector that fuses.
const QUBITS: u32 = 13;
const MEASURED: u32 = 6;

/// H on every qubit (all join the vector), then gates of every kind whose qubits come from a
/// window of three neighbouring qubits that moves every few gates, so that neighbouring gates
/// share qubits as in game circuits; then measurements.
fn circuit(seed: u64) -> Circuit {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut circuit = Circuit::with_plain_qubits(QUBITS, MEASURED);
    for q in 0..QUBITS {
        circuit.push(Instruction::gate(Gate::H, &[Qubit(q)], &[]));
    }
    let gates: Vec<Gate> = Gate::examples().collect();
    let mut window: Vec<Qubit> = Vec::new();
    for i in 0..150 {
        if i % 4 == 0 {
            let low = rng.gen_range(0..QUBITS - 2);
            window = (low..low + 3).map(Qubit).collect();
        }
        window.shuffle(&mut rng);
        let gate = match *gates.choose(&mut rng).expect("gates") {
            Gate::Rx(_) => Gate::Rx(rng.gen_range(-3.0..3.0)),
            Gate::Ry(_) => Gate::Ry(rng.gen_range(-3.0..3.0)),
            Gate::Rz(_) => Gate::Rz(rng.gen_range(-3.0..3.0)),
            Gate::Phase(_) => Gate::Phase(rng.gen_range(-3.0..3.0)),
            g => g,
        };
        let k = gate.num_targets();
        let controls: Vec<Control> = window[k..k + rng.gen_range(0..=3 - k)]
            .iter()
            .map(|&q| Control::when(q, rng.gen()))
            .collect();
        circuit.push(Instruction::gate(gate, &window[..k], &controls));
    }
    for q in 0..MEASURED {
        circuit.push(Instruction::new(Op::Measure {
            qubit: Qubit(q),
            clbit: Clbit(q),
        }));
    }
    circuit
}

fn check_default_path_fuses<F: Real>(tolerance: f64) {
    const { assert!(1usize << QUBITS >= DEFAULT_FUSE_MIN_AMPLITUDES) };
    for seed in 0..3 {
        let circuit = circuit(seed);
        let want = exact_distribution(&mut ReferenceSparse::new(), &circuit).expect("reference");
        let mut sim = DenseSim::<F>::zero_state(MemoryLimit::default());
        let got = exact_distribution(&mut sim, &circuit).expect("dense");
        assert!(
            sim.fused_blocks() > 0,
            "{}: the default path applied no fused block",
            F::PRECISION
        );
        for key in want.keys().chain(got.keys()) {
            let (w, g) = (
                want.get(key).copied().unwrap_or(0.0),
                got.get(key).copied().unwrap_or(0.0),
            );
            assert!(
                (w - g).abs() < tolerance,
                "{} seed {seed}: p({key:?}) = {g}, reference {w}",
                F::PRECISION
            );
        }
        // The count counts fused blocks only: with fusion off there are none.
        let mut unfused = DenseSim::<F>::zero_state(MemoryLimit::default());
        unfused.set_fuse_max(1);
        exact_distribution(&mut unfused, &circuit).expect("unfused");
        assert_eq!(unfused.fused_blocks(), 0);
    }
}

#[test]
fn the_default_path_fuses_and_agrees_with_the_reference_in_double_precision() {
    check_default_path_fuses::<f64>(1e-10);
}

#[test]
fn the_default_path_fuses_and_agrees_with_the_reference_in_single_precision() {
    check_default_path_fuses::<f32>(2e-5);
}
