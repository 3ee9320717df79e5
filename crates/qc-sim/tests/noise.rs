//! Noisy trajectories against hand-computed probabilities: amplitude damping of |1> over a gate
//! and over an idle window (`P(1) = exp(-t / T1)`), dephasing of |+> (`P(0) = (1 + exp(-t /
//! T2)) / 2`), depolarising rates, readout flips (and a misread bit steering a condition),
//! reset errors; on every simulator, each case within 5 standard errors of its exact value (the
//! seeds are fixed, so the tests are deterministic). Then determinism per seed whatever the
//! thread count, the memory limit, and the programs a noise model refuses.

use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Instruction, Op, Qubit};
use qc_sim::noise::{
    noisy_counts, Counts, CouplerNoise, NoiseError, NoiseModel, NoisyProgram, NoisyRunError,
    TrajectoryBackend,
};
use qc_sim::{MemoryLimit, SparseSim};

const SHOTS: u64 = 20_000;

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

/// A model of `n` noiseless qubits, couplers 0-1 and 1-2 noiseless and instantaneous.
fn model(n: usize) -> NoiseModel {
    let mut m = NoiseModel::ideal(n);
    m.couplers.insert((0, 1), CouplerNoise::default());
    m.couplers.insert((1, 2), CouplerNoise::default());
    m
}

fn run<B: TrajectoryBackend>(new: fn() -> B, c: &Circuit, m: &NoiseModel, seed: u64) -> Counts {
    let program = NoisyProgram::new(c, m).expect("a program the model covers");
    noisy_counts(&program, |_| new(), MemoryLimit::default(), SHOTS, seed).expect("runs")
}

/// The fraction of shots whose bits satisfy `keep`.
fn fraction(counts: &Counts, keep: impl Fn(&[bool]) -> bool) -> f64 {
    let shots: u64 = counts.values().sum();
    assert_eq!(shots, SHOTS);
    let hits: u64 = counts
        .iter()
        .filter(|(bits, _)| keep(bits))
        .map(|(_, n)| n)
        .sum();
    hits as f64 / shots as f64
}

/// `observed` within 5 standard errors of `expected` (plus one shot).
fn assert_close(observed: f64, expected: f64, what: &str) {
    let sigma = (expected * (1.0 - expected) / SHOTS as f64).sqrt();
    let tolerance = 5.0 * sigma + 1.0 / SHOTS as f64;
    assert!(
        (observed - expected).abs() <= tolerance,
        "{what}: observed {observed}, expected {expected} (tolerance {tolerance})"
    );
}

/// q0 prepared by `prepare`, then idle for `k * 100` ns while q1 runs `k` gates of 100 ns
/// between two instantaneous CZs, then `finish` on q0 and a measurement of q0.
fn idle_program(prepare: Gate, finish: Option<Gate>, k: usize) -> Circuit {
    let mut instrs = vec![gate(prepare, 0), cz(0, 1)];
    instrs.extend((0..k).map(|_| gate(Gate::X, 1)));
    instrs.push(cz(0, 1));
    instrs.extend(finish.map(|g| gate(g, 0)));
    instrs.push(measure(0, 0));
    circuit(2, 1, instrs)
}

/// The model of [`idle_program`]: q0 with `t1`, `t2` and instantaneous gates, q1 with 100 ns
/// gates and no relaxation.
fn idle_model(t1: f64, t2: f64) -> NoiseModel {
    let mut m = model(2);
    m.qubits[0].t1 = t1;
    m.qubits[0].t2 = t2;
    m.qubits[1].gate_duration = 100.0;
    m
}

/// (T1, T2) in ns: T2 below T1 (reset and Z mixture), pure dephasing, T2 above T1 (damping with
/// the quantum-jump method), T2 at 2 T1 (pure damping).
const RELAXATIONS: [(f64, f64); 4] = [
    (1_000.0, 600.0),
    (f64::INFINITY, 900.0),
    (1_000.0, 1_500.0),
    (1_000.0, 2_000.0),
];

qc_sim::for_each_backend!(damping_over_a_gate, |backend| {
    for (t1, t2) in RELAXATIONS {
        let mut m = model(1);
        m.qubits[0].t1 = t1;
        m.qubits[0].t2 = t2;
        m.qubits[0].gate_duration = 700.0;
        let c = circuit(1, 1, vec![gate(Gate::X, 0), measure(0, 0)]);
        let p1 = fraction(&run(backend, &c, &m, 1), |b| b[0]);
        assert_close(p1, (-700.0 / t1).exp(), &format!("P(1) after X, T1 {t1}"));
    }
});

qc_sim::for_each_backend!(damping_over_an_idle_window, |backend| {
    for (t1, t2) in RELAXATIONS {
        let m = idle_model(t1, t2);
        // |1>: P(1) = e1; |+>: P(1) = e1 / 2 (the no-jump branch on a superposition).
        let p1 = fraction(&run(backend, &idle_program(Gate::X, None, 8), &m, 2), |b| {
            b[0]
        });
        assert_close(p1, (-800.0 / t1).exp(), &format!("|1> idle, T1 {t1}"));
        let p1 = fraction(&run(backend, &idle_program(Gate::H, None, 8), &m, 3), |b| {
            b[0]
        });
        assert_close(p1, (-800.0 / t1).exp() / 2.0, &format!("|+> idle, T1 {t1}"));
    }
});

qc_sim::for_each_backend!(dephasing_of_plus, |backend| {
    for (t1, t2) in RELAXATIONS {
        let m = idle_model(t1, t2);
        let c = idle_program(Gate::H, Some(Gate::H), 6);
        let p0 = fraction(&run(backend, &c, &m, 4), |b| !b[0]);
        let t2 = t2.min(2.0 * t1);
        assert_close(p0, (1.0 + (-600.0 / t2).exp()) / 2.0, &format!("T2 {t2}"));
    }
});

qc_sim::for_each_backend!(depolarising_rates, |backend| {
    // One qubit, error e: X and Y flip |1> back, each with probability lambda / 4 = e / 2.
    let mut m = model(2);
    m.qubits[0].gate_error = 0.06;
    let c = circuit(1, 1, vec![gate(Gate::X, 0), measure(0, 0)]);
    assert_close(
        fraction(&run(backend, &c, &m, 5), |b| !b[0]),
        0.06,
        "single",
    );
    // Two qubits, error e: lambda = 4e/3; each of 01, 10, 11 from 4 of the 16 Paulis: e / 3.
    m.qubits[0].gate_error = 0.0;
    m.couplers.insert(
        (0, 1),
        CouplerNoise {
            error: 0.09,
            duration: 0.0,
        },
    );
    let c = circuit(2, 2, vec![cz(0, 1), measure(0, 0), measure(1, 1)]);
    let counts = run(backend, &c, &m, 6);
    for want in [[false, true], [true, false], [true, true]] {
        assert_close(fraction(&counts, |b| b == want), 0.03, &format!("{want:?}"));
    }
});

qc_sim::for_each_backend!(readout_flips, |backend| {
    let mut m = model(2);
    for q in &mut m.qubits {
        q.p1_given_0 = 0.1;
        q.p0_given_1 = 0.25;
    }
    let c = circuit(2, 2, vec![measure(0, 0), gate(Gate::X, 1), measure(1, 1)]);
    let counts = run(backend, &c, &m, 7);
    assert_close(fraction(&counts, |b| b[0]), 0.1, "P(read 1 | 0)");
    assert_close(fraction(&counts, |b| !b[1]), 0.25, "P(read 0 | 1)");
    assert_close(fraction(&counts, |b| b[0] && !b[1]), 0.025, "independent");
});

qc_sim::for_each_backend!(a_misread_bit_steers_its_condition, |backend| {
    let mut m = model(2);
    m.qubits[0].p1_given_0 = 0.3;
    let flip = gate(Gate::X, 1).with_condition(Condition {
        clbit: Clbit(0),
        value: true,
    });
    let c = circuit(2, 2, vec![measure(0, 0), flip, measure(1, 1)]);
    let counts = run(backend, &c, &m, 8);
    assert!(counts.keys().all(|b| b[0] == b[1]), "{counts:?}");
    assert_close(fraction(&counts, |b| b[0]), 0.3, "misread");
});

qc_sim::for_each_backend!(reset_errors, |backend| {
    let mut m = model(1);
    m.qubits[0].reset_error = 0.2;
    let reset = Instruction::new(Op::Reset { qubit: Qubit(0) });
    let c = circuit(1, 1, vec![gate(Gate::H, 0), reset, measure(0, 0)]);
    assert_close(fraction(&run(backend, &c, &m, 9), |b| b[0]), 0.2, "reset");
});

/// A program with every kind of step and every noise: superposition, CZs, a mid-circuit
/// measurement, a conditioned block, a reset.
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
            gate(Gate::H, 0),
            gate(Gate::SX, 1),
            cz(0, 1),
            gate(Gate::H, 2),
            cz(1, 2),
            measure(1, 0),
            when(gate(Gate::X, 2)),
            when(gate(Gate::SX, 0)),
            Instruction::new(Op::Reset { qubit: Qubit(1) }),
            gate(Gate::H, 1),
            cz(0, 1),
            measure(0, 1),
            measure(2, 2),
        ],
    );
    let mut m = model(3);
    for (k, q) in m.qubits.iter_mut().enumerate() {
        q.t1 = 20_000.0;
        q.t2 = [15_000.0, 30_000.0, 40_000.0][k];
        q.gate_error = 0.01;
        q.gate_duration = 30.0;
        q.measure_duration = 1_500.0;
        q.reset_duration = 1_500.0;
        q.p1_given_0 = 0.02;
        q.p0_given_1 = 0.04;
    }
    for c in m.couplers.values_mut() {
        *c = CouplerNoise {
            error: 0.02,
            duration: 80.0,
        };
    }
    (c, m)
}

#[test]
fn counts_depend_on_the_seed_alone_not_on_the_thread_count() {
    let (c, m) = busy();
    let program = NoisyProgram::new(&c, &m).expect("program");
    let counts = |threads: usize, seed: u64| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
            .install(|| {
                noisy_counts(
                    &program,
                    SparseSim::with_limit,
                    MemoryLimit::default(),
                    3_000,
                    seed,
                )
                .expect("runs")
            })
    };
    let one = counts(1, 11);
    assert_eq!(one, counts(3, 11));
    assert_eq!(one, counts(1, 11));
    assert_ne!(one, counts(1, 12));
    assert_eq!(one.values().sum::<u64>(), 3_000);
    assert!(one.len() > 4, "{one:?}");
}

#[test]
fn a_state_over_the_memory_limit_is_an_error_with_its_trajectory() {
    let c = circuit(8, 0, (0..8).map(|q| gate(Gate::H, q)).collect::<Vec<_>>());
    let program = NoisyProgram::new(&c, &NoiseModel::ideal(8)).expect("program");
    let err = noisy_counts(
        &program,
        SparseSim::with_limit,
        MemoryLimit::bytes(4_000),
        10,
        0,
    )
    .unwrap_err();
    let NoisyRunError::Trajectory { trajectory, source } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(*trajectory, 0);
    assert!(
        matches!(source.source, qc_ir::BackendError::CapacityExceeded { .. }),
        "{err}"
    );
}

#[test]
fn programs_off_the_model_are_refused() {
    let m = model(3);
    let refuse = |instrs: Vec<Instruction>| {
        NoisyProgram::new(&circuit(4, 0, instrs), &m)
            .map(|_| ())
            .unwrap_err()
    };
    assert_eq!(
        refuse(vec![gate(Gate::X, 0), cz(0, 2)]),
        NoiseError::NotCoupled {
            index: 1,
            a: 2,
            b: 0
        }
    );
    let ccz = Instruction::gate(
        Gate::Z,
        &[Qubit(2)],
        &[Control::one(Qubit(0)), Control::one(Qubit(1))],
    );
    assert_eq!(
        refuse(vec![ccz]),
        NoiseError::TooWide {
            index: 0,
            qubits: 3
        }
    );
    let message = refuse(vec![gate(Gate::H, 3)]).to_string();
    assert_eq!(
        message,
        "instruction 0 acts on qubit 3, but the noise model has qubits 0..3: it is for another device"
    );
    let mut bad = model(1);
    bad.qubits[0].t1 = -1.0;
    assert!(matches!(
        NoisyProgram::new(&circuit(1, 0, vec![]), &bad),
        Err(NoiseError::BadValue { field: "t1", .. })
    ));
}

/// Z rotations are virtual: no time, no error, however bad the qubit.
#[test]
fn z_rotations_are_exact() {
    let mut m = model(1);
    m.qubits[0].gate_error = 0.5;
    m.qubits[0].gate_duration = 1e6;
    m.qubits[0].t1 = 10.0;
    let c = circuit(
        1,
        1,
        vec![
            gate(Gate::Rz(0.3), 0),
            gate(Gate::S, 0),
            gate(Gate::Z, 0),
            measure(0, 0),
        ],
    );
    let program = NoisyProgram::new(&c, &m).expect("program");
    assert_eq!(program.schedule().length(), 0.0);
    let counts = run(SparseSim::new, &c, &m, 10);
    assert_eq!(counts.get(&vec![false]), Some(&SHOTS));
}

/// The success probability with time, by hand: q0's X (error 0, 10 ns) relaxes over its own
/// 10 ns, then q0 waits 30 ns on the as-late-as-possible schedule while q1 runs three X; the
/// process fidelity of T1 = T2 = 100 ns relaxation over `t` is `(1 + 3 exp(-t / 100)) / 4`. q1's
/// readout misreads 2 % of 0s and 4 % of 1s: a factor `1 - 0.03`. Doubling the wait lowers it.
#[test]
fn the_success_probability_counts_gates_waits_and_readout() {
    let mut m = model(2);
    m.qubits[0].t1 = 100.0;
    m.qubits[0].t2 = 100.0;
    m.qubits[0].gate_duration = 10.0;
    m.qubits[1].gate_duration = 10.0;
    m.qubits[1].p1_given_0 = 0.02;
    m.qubits[1].p0_given_1 = 0.04;
    let program_with = |m: &NoiseModel, xs: usize| {
        let mut instrs = vec![gate(Gate::X, 0), cz(0, 1)];
        instrs.extend((0..xs).map(|_| gate(Gate::X, 1)));
        instrs.extend([cz(0, 1), measure(0, 0), measure(1, 1)]);
        NoisyProgram::new(&circuit(2, 2, instrs), m).expect("program")
    };
    let fidelity = |t: f64| (1.0 + 3.0 * (-t / 100.0).exp()) / 4.0;
    let by_hand = fidelity(10.0) * fidelity(30.0) * (1.0 - 0.03);
    let esp = program_with(&m, 3).success_probability();
    assert!((esp - by_hand).abs() < 1e-12, "{esp} against {by_hand}");
    assert!(program_with(&m, 6).success_probability() < esp);
    // Without time (no T1/T2) only the readout is left.
    m.qubits[0].t1 = f64::INFINITY;
    m.qubits[0].t2 = f64::INFINITY;
    assert!((program_with(&m, 3).success_probability() - 0.97).abs() < 1e-12);
}
