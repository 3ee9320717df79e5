//! The first-order board error (`qc_sim::noise::board`) against hand-computed distances (a
//! readout flip, dephasing of |+> over an idle window, a depolarising error of which only X and Y
//! are visible) and against the noisy trajectories themselves on a program with every kind of
//! step (mid-circuit measurement, a conditioned block, a reset and reuse), at a noise level where
//! the second order is below the sampling error.

use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Instruction, Op, Qubit};
use qc_sim::noise::{
    board_error, first_order, noisy_counts, CouplerNoise, NoiseModel, NoisyProgram,
};
use qc_sim::{MemoryLimit, SparseSim};

fn gate(g: Gate, q: u32) -> Instruction {
    Instruction::gate(g, &[Qubit(q)], &[])
}

fn cz(a: u32, b: u32) -> Instruction {
    Instruction::gate(Gate::Z, &[Qubit(b)], &[Control::one(Qubit(a))])
}

fn measure(q: u32, bit: u32) -> Instruction {
    Instruction::new(Op::Measure {
        qubit: Qubit(q),
        clbit: Clbit(bit),
    })
}

fn circuit(qubits: u32, clbits: u32, instructions: Vec<Instruction>) -> Circuit {
    let mut c = Circuit::with_plain_qubits(qubits, clbits);
    c.extend(instructions);
    c
}

fn model(n: usize) -> NoiseModel {
    let mut m = NoiseModel::ideal(n);
    m.couplers.insert((0, 1), CouplerNoise::default());
    m.couplers.insert((1, 2), CouplerNoise::default());
    m
}

fn error_of(c: &Circuit, m: &NoiseModel, bits: &[usize]) -> f64 {
    let program = NoisyProgram::new(c, m).expect("a program the model covers");
    board_error(&program, bits, u64::MAX)
        .expect("runs")
        .expect("within the bound")
}

fn assert_near(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: {got} against {want}");
}

#[test]
fn a_readout_flip_moves_the_board_by_its_mean_rate() {
    let mut m = model(1);
    m.qubits[0].p1_given_0 = 0.02;
    m.qubits[0].p0_given_1 = 0.04;
    let c = circuit(1, 1, vec![gate(Gate::X, 0), measure(0, 0)]);
    assert_near(error_of(&c, &m, &[0]), 0.03, "X then a misread");
}

#[test]
fn dephasing_of_plus_over_an_idle_window_is_its_phase_flip() {
    // q0 in |+> waits 800 ns while q1 runs eight 100 ns gates, then H and a measurement: the
    // phase flip (1 - exp(-t / T2)) / 2 turns into a bit flip.
    let mut m = model(2);
    m.qubits[0].t2 = 900.0;
    m.qubits[1].gate_duration = 100.0;
    let mut instrs = vec![gate(Gate::H, 0), cz(0, 1)];
    instrs.extend((0..8).map(|_| gate(Gate::X, 1)));
    instrs.extend([cz(0, 1), gate(Gate::H, 0), measure(0, 0)]);
    let c = circuit(2, 1, instrs);
    let want = -(-800.0f64 / 900.0).exp_m1() / 2.0;
    assert_near(error_of(&c, &m, &[0]), want, "dephased |+>");
}

#[test]
fn only_the_paulis_that_change_a_bit_count() {
    // A depolarising error after X: X and Y flip the measured bit, Z does not.
    let mut m = model(1);
    m.qubits[0].gate_error = 0.03;
    let c = circuit(1, 1, vec![gate(Gate::X, 0), measure(0, 0)]);
    let program = NoisyProgram::new(&c, &m).expect("covered");
    let p = 1.0 - program.success_probability();
    assert_near(error_of(&c, &m, &[0]), 2.0 * p / 3.0, "two of three Paulis");
    // And a bit left out of the board does not count at all.
    let mut m = model(2);
    m.qubits[0].gate_error = 0.03;
    let c = circuit(2, 2, vec![gate(Gate::X, 0), measure(0, 0), measure(1, 1)]);
    assert_near(error_of(&c, &m, &[1]), 0.0, "the other bit");
}

/// Every kind of step (as `noise.rs`'s busy program, made deterministic without noise: the
/// outcome 1, 0, 0, so that every visible error shows), with errors small enough that the
/// first order is all that shows at the sampling error of the trajectories.
fn busy() -> (Circuit, NoiseModel) {
    let when = |i: Instruction| {
        i.with_condition(Condition {
            clbit: Clbit(0),
            value: true,
        })
    };
    let c = circuit(
        3,
        3,
        vec![
            gate(Gate::X, 0),
            gate(Gate::X, 1),
            cz(0, 1),
            gate(Gate::H, 2),
            cz(1, 2),
            gate(Gate::H, 2),
            measure(1, 0),
            when(gate(Gate::X, 2)),
            when(gate(Gate::X, 0)),
            Instruction::new(Op::Reset { qubit: Qubit(1) }),
            gate(Gate::X, 1),
            cz(0, 1),
            measure(0, 1),
            measure(2, 2),
        ],
    );
    let mut m = model(3);
    for (k, q) in m.qubits.iter_mut().enumerate() {
        // T2 below T1 on q0 (a reset and Z mixture), above it on the others (damping, twirled).
        q.t1 = 100_000.0;
        q.t2 = [75_000.0, 150_000.0, 200_000.0][k];
        q.gate_error = 0.001;
        q.gate_duration = 30.0;
        q.measure_duration = 1_500.0;
        q.reset_duration = 1_500.0;
        q.p1_given_0 = 0.002;
        q.p0_given_1 = 0.003;
        q.reset_error = 0.002;
    }
    for c in m.couplers.values_mut() {
        *c = CouplerNoise {
            error: 0.003,
            duration: 80.0,
        };
    }
    (c, m)
}

#[test]
fn the_first_order_agrees_with_the_trajectories_outcome_by_outcome() {
    let (c, m) = busy();
    let program = NoisyProgram::new(&c, &m).expect("covered");
    let bits = [0, 1, 2];
    let first = first_order(&program, &bits, u64::MAX)
        .expect("runs")
        .expect("within the bound");
    let shots = 200_000u64;
    let counts = noisy_counts(
        &program,
        |_| SparseSim::new(),
        MemoryLimit::default(),
        shots,
        11,
    )
    .expect("runs");
    // The noise is visible (the test would pass with the noiseless distribution otherwise)...
    let distance = first.distance();
    assert!(distance > 0.03, "first-order distance {distance}");
    // ...and every outcome of the trajectories lies within 5 standard errors (plus the second
    // order, (1 - ESP)^2 at most) of the first-order distribution.
    let second_order = (1.0 - program.success_probability()).powi(2);
    let mut outcomes: Vec<&Vec<bool>> = first.noisy.keys().collect();
    outcomes.extend(counts.keys().filter(|k| !first.noisy.contains_key(*k)));
    for key in outcomes {
        let want = first.noisy.get(key).copied().unwrap_or(0.0);
        let got = counts.get(key).copied().unwrap_or(0) as f64 / shots as f64;
        let sigma = (want.max(1.0 / shots as f64) * (1.0 - want) / shots as f64).sqrt();
        assert!(
            (got - want).abs() <= 5.0 * sigma + second_order,
            "{key:?}: trajectories {got}, first order {want} (sigma {sigma}, second order {second_order})"
        );
    }
}

#[test]
fn past_the_work_bound_there_is_no_figure() {
    let (c, m) = busy();
    let program = NoisyProgram::new(&c, &m).expect("covered");
    assert_eq!(board_error(&program, &[0, 1, 2], 100).expect("runs"), None);
    assert!(board_error(&program, &[0, 1, 2], 1_000_000)
        .expect("runs")
        .is_some());
}
