//! Dynamical decoupling: the idle windows of a scheduled device program filled with pulses that
//! multiply to the identity, spaced by delays, so that a waiting qubit's coherent (low-frequency)
//! dephasing is echoed away on a device.
//!
//! The program is scheduled as the noisy simulator schedules it ([`NoisyProgram`]: the model's
//! durations, as late as possible). A window is filled when the time it leaves for decoupling is
//! at least twice the pulses' total duration (the delays between the pulses at least as long as
//! the pulses themselves); a model without single-qubit gate durations gets no pulse. The sequence
//! and its delays fill the window exactly, so the schedule of every other instruction is
//! unchanged:
//!
//! * `xx`: `τ/4, X, τ/2, X, τ/4`;
//! * `xy4`: `τ/8, X, τ/4, Y, τ/4, X, τ/4, Y, τ/8`,
//!
//! where `τ` is the window's length less the pulses' duration. X and Y are written in the
//! target's native single-qubit gates ([`Pulses`]). Which windows are never filled, and why:
//!
//! * before a qubit's first instruction and after its last (not windows at all: a qubit in |0>
//!   gains nothing, and nothing reads it afterwards);
//! * right after a measurement or a reset of the qubit: its state is then a basis state, which
//!   dephasing does not harm and which the X pulses would only expose to relaxation from |1>;
//! * the part of a window inside a feed-forward (`if`) block's time: a block runs as one unit
//!   (see [`qc_ir::passes::schedule`]), so a window that starts inside a block starts at the
//!   block's end, and one that ends at an instruction of a block ends at the block's start; the
//!   pulses are unconditioned and placed before the block, never inside it.
//!
//! On a Markovian noise model (the noisy simulator's, Aer's from a calibration) the pulses only
//! add gate errors and move the qubit between |0> and |1> while it relaxes: decoupling pays on a
//! device whose dephasing is slow noise, which such a model does not have.

use super::model::{NoiseError, NoiseModel};
use super::program::NoisyProgram;
use qc_ir::passes::conditioned_block;
use qc_ir::{Circuit, Gate, Instruction, Op, Qubit};

/// A dynamical-decoupling sequence (the IR's: a target file names its default).
pub use qc_ir::DdSequence;

/// The X and Y pulses, each a run of the target's native single-qubit gates whose product is
/// X (respectively Y) up to a global phase.
#[derive(Clone, Debug, PartialEq)]
pub struct Pulses {
    /// X as native gates (in circuit order).
    pub x: Vec<Gate>,
    /// Y as native gates (in circuit order).
    pub y: Vec<Gate>,
}

impl Pulses {
    /// The pulses in the uncontrolled gates `is_native` accepts (asked of the very gates the
    /// pulses would hold, so a target that resolves nativeness by gate kind answers without
    /// names): X as X, or as two SX; Y as `Rz(π)` then X (`X Rz(π) = -Y`). `None` when the
    /// target has neither X nor SX, or has no Z rotation for Y.
    pub fn native(is_native: impl Fn(Gate) -> bool) -> Option<Pulses> {
        let x = if is_native(Gate::X) {
            vec![Gate::X]
        } else if is_native(Gate::SX) {
            vec![Gate::SX, Gate::SX]
        } else {
            return None;
        };
        let rz = Gate::Rz(std::f64::consts::PI);
        if !is_native(rz) {
            return None;
        }
        let mut y = vec![rz];
        y.extend(x.iter().copied());
        Some(Pulses { x, y })
    }
}

/// What the pass did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DdReport {
    /// Windows filled.
    pub windows: usize,
    /// Pulses written (X and Y, each counted once however many native gates it takes).
    pub pulses: usize,
    /// The total time filled, in nanoseconds.
    pub filled_ns: f64,
}

/// The instructions the pass inserts before instruction `before` of the original program.
#[derive(Clone, Debug, PartialEq)]
pub struct Insertion {
    /// The index (in the original program) of the instruction they go before.
    pub before: usize,
    /// The pulses and delays, in order, all on one qubit and unconditioned.
    pub ops: Vec<Op>,
}

/// The duration of one native gate on `qubit` as the noisy simulator counts it: a diagonal
/// gate other than the identity is a virtual Z rotation (no time).
fn gate_time(gate: Gate, qubit: Qubit, model: &NoiseModel) -> f64 {
    if gate.is_diagonal() && gate != Gate::I {
        0.0
    } else {
        model.qubits[qubit.index()].gate_duration
    }
}

/// The ops of `sequence` on `qubit` filling `length` nanoseconds, or `None` when the window is
/// below the threshold (see the module docs).
fn fill(
    sequence: DdSequence,
    pulses: &Pulses,
    qubit: Qubit,
    length: f64,
    model: &NoiseModel,
) -> Option<(Vec<Op>, usize)> {
    let order: Vec<&[Gate]> = match sequence {
        DdSequence::None => return None,
        DdSequence::Xx => vec![&pulses.x, &pulses.x],
        DdSequence::Xy4 => vec![&pulses.x, &pulses.y, &pulses.x, &pulses.y],
    };
    // Spacings, in units of the free time: the edges half the inner gaps.
    let fractions: &[f64] = match sequence {
        DdSequence::Xx => &[0.25, 0.5, 0.25],
        _ => &[0.125, 0.25, 0.25, 0.25, 0.125],
    };
    let pulse_time: f64 = order
        .iter()
        .flat_map(|p| p.iter())
        .map(|&g| gate_time(g, qubit, model))
        .sum();
    if pulse_time.is_nan() || pulse_time <= 0.0 || length < 2.0 * pulse_time {
        return None;
    }
    let free = length - pulse_time;
    let mut ops = Vec::new();
    let mut used = 0.0;
    for (k, pulse) in order.iter().enumerate() {
        let d = free * fractions[k];
        used += d;
        ops.push(Op::Delay { qubit, duration: d });
        for &gate in pulse.iter() {
            ops.push(Op::Gate {
                gate,
                targets: [qubit].as_slice().into(),
                controls: Default::default(),
            });
        }
    }
    // The last delay takes what is left, so that the sequence fills the window exactly.
    ops.push(Op::Delay {
        qubit,
        duration: (free - used).max(0.0),
    });
    Some((ops, order.len()))
}

/// Fills the idle windows of `circuit` (a device program on physical qubits, as written) with
/// `sequence`'s pulses, scheduled with `model`'s durations (see the module docs). Returns the new
/// program, the insertions (for a front end that writes the program from another form) and a
/// report. With [`DdSequence::None`] the program is returned unchanged.
///
/// # Errors
/// The noise model's, as [`NoisyProgram::new`] gives them (a bad value, a qubit it lacks, a
/// two-qubit gate off its couplers).
pub fn decouple(
    circuit: &Circuit,
    model: &NoiseModel,
    sequence: DdSequence,
    pulses: &Pulses,
) -> Result<(Circuit, Vec<Insertion>, DdReport), NoiseError> {
    let mut report = DdReport::default();
    if sequence == DdSequence::None {
        return Ok((circuit.clone(), Vec::new(), report));
    }
    let program = NoisyProgram::new(circuit, model)?;
    let schedule = program.schedule();
    let instructions = circuit.instructions();
    // The qubit's previous instruction, for each window: found by one pass in program order.
    let mut last_on = std::collections::BTreeMap::<Qubit, usize>::new();
    let mut previous = vec![Vec::<(Qubit, usize)>::new(); instructions.len()];
    for (index, instr) in instructions.iter().enumerate() {
        for q in instr.op.qubits() {
            if let Some(&p) = last_on.get(&q) {
                previous[index].push((q, p));
            }
            last_on.insert(q, index);
        }
    }
    let mut insertions: Vec<Insertion> = Vec::new();
    for window in schedule.idle_windows(instructions) {
        let Some(&(_, prev)) = previous[window.before]
            .iter()
            .find(|(q, _)| *q == window.qubit)
        else {
            continue;
        };
        if matches!(instructions[prev].op, Op::Measure { .. } | Op::Reset { .. }) {
            continue;
        }
        let mut start = window.start;
        if instructions[prev].condition.is_some() {
            let end = conditioned_block(instructions, prev)
                .map(|i| schedule.end(i))
                .fold(f64::NEG_INFINITY, f64::max);
            start = start.max(end);
        }
        let (mut end, mut before) = (window.start + window.duration, window.before);
        if instructions[before].condition.is_some() {
            let first = conditioned_block(instructions, before).start;
            end = end.min(schedule.start(first));
            before = first;
        }
        let length = end - start;
        if length.is_nan() || length <= 0.0 {
            continue;
        }
        if let Some((ops, pulses)) = fill(sequence, pulses, window.qubit, length, model) {
            report.windows += 1;
            report.pulses += pulses;
            report.filled_ns += length;
            insertions.push(Insertion { before, ops });
        }
    }
    // In program order; several before one instruction keep the windows' order.
    insertions.sort_by_key(|i| i.before);
    let mut out = Vec::with_capacity(instructions.len());
    let mut next = insertions.iter().peekable();
    for (index, instr) in instructions.iter().enumerate() {
        while let Some(ins) = next.next_if(|i| i.before == index) {
            out.extend(ins.ops.iter().cloned().map(Instruction::new));
        }
        out.push(instr.clone());
    }
    let decoupled = Circuit::from_parts(
        circuit.qubit_roles().to_vec(),
        circuit.num_clbits() as u32,
        out,
    );
    Ok((decoupled, insertions, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::{CouplerNoise, QubitNoise};
    use qc_ir::{Clbit, Condition, Control};

    /// Two qubits, one coupler: single-qubit gates 50 ns, the CZ 100 ns, a measurement 10 ns.
    fn model() -> NoiseModel {
        let q = QubitNoise {
            gate_duration: 50.0,
            measure_duration: 10.0,
            ..QubitNoise::default()
        };
        let mut m = NoiseModel {
            qubits: vec![q; 3],
            ..NoiseModel::default()
        };
        for pair in [(0, 1), (1, 2)] {
            m.couplers.insert(
                pair,
                CouplerNoise {
                    error: 0.0,
                    duration: 100.0,
                },
            );
        }
        m
    }

    fn ibm() -> Pulses {
        Pulses::native(|g| matches!(g, Gate::Rz(_) | Gate::SX | Gate::X)).expect("x and rz")
    }

    fn cz(a: u32, b: u32) -> Instruction {
        Instruction::gate(Gate::Z, &[Qubit(b)], &[Control::one(Qubit(a))])
    }

    fn x(q: u32) -> Instruction {
        Instruction::gate(Gate::X, &[Qubit(q)], &[])
    }

    /// cz(0,1); `k` X on q1; cz(0,1): q0 waits `50 k` ns between the CZs.
    fn waiting(k: usize) -> Circuit {
        let mut c = Circuit::with_plain_qubits(3, 1);
        c.push(cz(0, 1));
        for _ in 0..k {
            c.push(x(1));
        }
        c.push(cz(0, 1));
        c
    }

    /// Start times of the instructions on q0 other than the CZs, with what they are.
    fn q0_timeline(c: &Circuit) -> Vec<(String, f64)> {
        let p = NoisyProgram::new(c, &model()).expect("valid");
        c.instructions()
            .iter()
            .enumerate()
            .filter(|(_, i)| i.op.qubits().as_slice() == [Qubit(0)])
            .map(|(k, i)| {
                let what = match &i.op {
                    Op::Delay { duration, .. } => format!("delay {duration}"),
                    Op::Gate { gate, .. } => gate.name().to_string(),
                    other => format!("{other:?}"),
                };
                (what, p.schedule().start(k))
            })
            .collect()
    }

    /// A 500 ns window (CZ ends at 100, the next starts at 600) with XX: free time 400, so
    /// delays 100, 200, 100 and the X pulses at 200 and 450; the CZs keep their times.
    #[test]
    fn a_long_window_gets_exactly_the_xx_pulses_at_their_times() {
        let c = waiting(10);
        let (out, insertions, report) =
            decouple(&c, &model(), DdSequence::Xx, &ibm()).expect("valid");
        assert_eq!((report.windows, report.pulses), (1, 2));
        assert_eq!(insertions.len(), 1);
        assert_eq!(insertions[0].before, 11);
        assert_eq!(
            q0_timeline(&out),
            vec![
                ("delay 100".to_string(), 100.0),
                ("x".to_string(), 200.0),
                ("delay 200".to_string(), 250.0),
                ("x".to_string(), 450.0),
                ("delay 100".to_string(), 500.0),
            ]
        );
        let before = NoisyProgram::new(&c, &model()).expect("valid");
        let after = NoisyProgram::new(&out, &model()).expect("valid");
        assert_eq!(before.schedule().length(), after.schedule().length());
        assert_eq!(after.schedule().start(out.instructions().len() - 1), 600.0);
    }

    /// XY4 on the same window: free time 500 - 4 * 50 = 300, delays 37.5, 75, 75, 75, 37.5; Y
    /// is rz(pi) then x.
    #[test]
    fn xy4_spaces_four_pulses_an_eighth_and_quarters() {
        let (out, _, report) =
            decouple(&waiting(10), &model(), DdSequence::Xy4, &ibm()).expect("valid");
        assert_eq!(report.pulses, 4);
        let names: Vec<String> = q0_timeline(&out).into_iter().map(|(w, _)| w).collect();
        assert_eq!(
            names,
            [
                "delay 37.5",
                "x",
                "delay 75",
                "rz",
                "x",
                "delay 75",
                "x",
                "delay 75",
                "rz",
                "x",
                "delay 37.5"
            ]
        );
    }

    /// The threshold is twice the pulses' duration (200 ns for XX): a 150 ns window gets
    /// nothing, a 200 ns one is filled.
    #[test]
    fn a_window_below_the_threshold_gets_none() {
        let (out, _, report) =
            decouple(&waiting(3), &model(), DdSequence::Xx, &ibm()).expect("valid");
        assert_eq!(report.windows, 0);
        assert_eq!(out, waiting(3));
        let (_, _, report) =
            decouple(&waiting(4), &model(), DdSequence::Xx, &ibm()).expect("valid");
        assert_eq!(report.windows, 1);
    }

    /// The same wait inside a feed-forward block gets no pulse; unconditioned, it does.
    #[test]
    fn a_window_inside_an_if_block_gets_none() {
        let build = |conditioned: bool| {
            let mut c = Circuit::with_plain_qubits(3, 1);
            c.push(x(2));
            c.push(Instruction::new(Op::Measure {
                qubit: Qubit(2),
                clbit: Clbit(0),
            }));
            let mut body = vec![cz(0, 1)];
            body.extend((0..10).map(|_| x(1)));
            body.push(cz(0, 1));
            for i in body {
                c.push(if conditioned {
                    i.with_condition(Condition {
                        clbit: Clbit(0),
                        value: true,
                    })
                } else {
                    i
                });
            }
            c
        };
        let (_, _, report) =
            decouple(&build(true), &model(), DdSequence::Xx, &ibm()).expect("valid");
        assert_eq!(report.windows, 0);
        let (_, _, report) =
            decouple(&build(false), &model(), DdSequence::Xx, &ibm()).expect("valid");
        assert_eq!(report.windows, 1);
        // The first CZ unconditioned, the rest a block: q0's window ends inside the block, so
        // it is cut at the block's start, where the CZ (as late as possible) ends: nothing left.
        let mut c = build(true);
        c.instructions_mut()[2].condition = None;
        let (_, _, report) = decouple(&c, &model(), DdSequence::Xx, &ibm()).expect("valid");
        assert_eq!(report.windows, 0);
    }

    /// A window right after a measurement of the qubit (a basis state) gets none. (The
    /// measurement is held early by a gate conditioned on its bit; the window before it, which
    /// as late as possible the schedule would make, is another matter.)
    #[test]
    fn a_window_after_a_measurement_gets_none() {
        let mut c = Circuit::with_plain_qubits(3, 1);
        c.push(cz(0, 1));
        c.push(Instruction::new(Op::Measure {
            qubit: Qubit(0),
            clbit: Clbit(0),
        }));
        c.push(x(1).with_condition(Condition {
            clbit: Clbit(0),
            value: true,
        }));
        for _ in 0..10 {
            c.push(x(1));
        }
        c.push(cz(0, 1));
        let (_, _, report) = decouple(&c, &model(), DdSequence::Xx, &ibm()).expect("valid");
        assert_eq!(report.windows, 0);
    }

    /// Each sequence's pulses multiply to the identity up to a global phase, in both native
    /// forms of X (x, and two sx).
    #[test]
    fn the_pulses_multiply_to_the_identity() {
        let sx_only = Pulses::native(|g| matches!(g, Gate::Rz(_) | Gate::SX)).expect("sx and rz");
        assert_eq!(sx_only.x, vec![Gate::SX, Gate::SX]);
        for pulses in [ibm(), sx_only] {
            for sequence in [DdSequence::Xx, DdSequence::Xy4] {
                let (ops, _) = fill(sequence, &pulses, Qubit(0), 1e4, &model()).expect("long");
                let mut c = Circuit::with_plain_qubits(1, 0);
                for op in ops {
                    c.push(Instruction::new(op));
                }
                let u = c.unitary().expect("unitary");
                let phase = u.get(0, 0);
                assert!((phase.norm() - 1.0).abs() < 1e-12, "{sequence:?}: {u:?}");
                assert!(u.get(0, 1).norm() < 1e-12 && u.get(1, 0).norm() < 1e-12);
                assert!((u.get(1, 1) - phase).norm() < 1e-12, "{sequence:?}");
            }
            // And each pulse is the Pauli it stands for: X maps |0> to |1>, Y too (phase i).
            let mut c = Circuit::with_plain_qubits(1, 0);
            for &g in &pulses.y {
                c.push(Instruction::gate(g, &[Qubit(0)], &[]));
            }
            let u = c.unitary().expect("unitary");
            // Y = [[0, -i], [i, 0]] up to a phase: u(1,0) / u(0,1) = -1.
            assert!((u.get(1, 0) / u.get(0, 1) + 1.0).norm() < 1e-12);
        }
        assert!(Pulses::native(|g| matches!(g, Gate::Rz(_))).is_none());
        // X without a Z rotation writes no Y.
        assert!(Pulses::native(|g| g == Gate::X).is_none());
    }
}

#[cfg(test)]
mod delay_tests {
    use crate::noise::channels::{relaxation_process_fidelity, truncated_t2};
    use crate::noise::{NoiseModel, NoisyProgram, QubitNoise};
    use qc_ir::{Circuit, Gate, Instruction, Op, Qubit};

    /// A delay has its own duration in the schedule, and the success probability with time
    /// counts the qubit's relaxation over it: x; delay 1000 ns; x is the two gates' factors
    /// times the relaxation's process fidelity over 1000 ns.
    #[test]
    fn a_delay_is_timed_and_relaxes_its_qubit() {
        let q = QubitNoise {
            t1: 50_000.0,
            t2: 30_000.0,
            gate_duration: 40.0,
            ..QubitNoise::default()
        };
        let model = NoiseModel {
            qubits: vec![q],
            ..NoiseModel::default()
        };
        let build = |delay: Option<f64>| {
            let mut c = Circuit::with_plain_qubits(1, 0);
            c.push(Instruction::gate(Gate::X, &[Qubit(0)], &[]));
            if let Some(d) = delay {
                c.push(Instruction::new(Op::Delay {
                    qubit: Qubit(0),
                    duration: d,
                }));
            }
            c.push(Instruction::gate(Gate::X, &[Qubit(0)], &[]));
            c
        };
        let with = NoisyProgram::new(&build(Some(1000.0)), &model).expect("valid");
        let without = NoisyProgram::new(&build(None), &model).expect("valid");
        assert_eq!(with.schedule().length(), 1080.0);
        assert_eq!(with.schedule().start(2), 1040.0);
        let relax = relaxation_process_fidelity(q.t1, truncated_t2(q.t1, q.t2), 1000.0);
        assert!(relax < 0.99);
        assert!((with.success_probability() - without.success_probability() * relax).abs() < 1e-12);
    }
}
