//! How far a program's noise moves the distribution of some of its bits (a game's board), to
//! first order: the figure a device compiler can rank its routings by when what counts is the
//! board a run reads, not the chance that no error happens at all.
//!
//! The success probability with time ([`NoisyProgram::success_probability`]) multiplies the
//! probability that each noise event does nothing, so it counts every error as a failure. Many
//! are not: a Z before a measurement, a bit flip of a qubit about to be reset, an error on a
//! square the board then reads the same. Others cost more than their share, such as an error on
//! a qubit that is measured, reset and used again. This module weighs each event by what it does
//! to the distribution of the chosen bits: with `P0` the noiseless distribution and `P_e` the
//! distribution when event `e` alone happens (probability `p_e`), the noisy distribution is, to
//! first order in the `p_e`,
//!
//! `P = P0 + sum_e p_e (P_e - P0)`, and the figure is its total variation distance to `P0`,
//! `(1/2) sum_x |sum_e p_e (P_e(x) - P0(x))|`.
//!
//! **The events** are the trajectories' ([`super::trajectory`]), each as one exact operation
//! inserted into the program: after a gate, each Pauli of its depolarising error (the two-qubit
//! ones either on one qubit or on both); the thermal relaxation of each qubit over a gate's,
//! reset's or delay's duration and over every idle window, as its reset to |0> and its Z when
//! `T2 <= T1` ([`Relaxation::Mixture`], exact) or as its Pauli twirl otherwise; a reset that
//! leaves |1> (an X after it); and a readout flip (an X before the measurement and one after,
//! so the bit is read wrong and the qubit keeps the outcome it collapsed to; at the mean of
//! P(1|0) and P(0|1)). Events on the same qubit at the same place are merged (their first-order
//! effects add). Each `P_e` is an exact distribution ([`qc_ir::exec`]), so the figure is
//! deterministic: two routings compare without sampling noise.
//!
//! The work is one exact simulation per distinct event, bounded by the caller: past the bound
//! the figure is not computed.

use super::channels::Relaxation;
use super::program::{Kind, NoisyProgram};
use crate::SparseSim;
use qc_ir::exec::{exact_distribution_within, Distribution, ExactLimits, ExecError};
use qc_ir::{BackendError, Circuit, Gate, Guard, Instruction, Op, Qubit};
use std::collections::BTreeMap;

/// One operation an event inserts: a gate on one or two qubits, or a reset.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Insert {
    /// Pauli gates (X, Y or Z) on their qubits.
    Paulis([Option<(Gate, Qubit)>; 2]),
    /// A reset to |0> (relaxation's jump).
    Reset(Qubit),
    /// A readout flip of the measurement at this place: X before it and X after it.
    Flip(Qubit),
}

/// Where an event happens: before instruction `position` (the end of the list for after the
/// last), under the condition of instruction `condition_of` when it is conditioned (an error of
/// a conditioned gate happens only when the gate runs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    position: usize,
    condition_of: Option<usize>,
}

/// The events of a program, merged: per place and operation, the sum of their probabilities.
#[derive(Default)]
struct Events {
    list: Vec<(Place, Insert, f64)>,
    /// Index into `list` of each (place, operation key).
    index: BTreeMap<(Place, Vec<(u8, u32)>), usize>,
}

impl Events {
    fn add(&mut self, place: Place, insert: Insert, probability: f64) {
        if probability <= 0.0 || probability.is_nan() {
            return;
        }
        let key = match insert {
            Insert::Paulis(ops) => ops
                .iter()
                .flatten()
                .map(|(g, q)| (pauli_code(*g), q.0))
                .collect(),
            Insert::Reset(q) => vec![(4, q.0)],
            Insert::Flip(q) => vec![(5, q.0)],
        };
        match self.index.get(&(place, key.clone())) {
            Some(&i) => self.list[i].2 += probability,
            None => {
                self.index.insert((place, key), self.list.len());
                self.list.push((place, insert, probability));
            }
        }
    }

    /// One Pauli on `q`.
    fn pauli(&mut self, place: Place, gate: Gate, q: Qubit, probability: f64) {
        self.add(place, Insert::Paulis([Some((gate, q)), None]), probability);
    }

    /// The relaxation of `q` over `t` at `place`, as exact events where the trajectories'
    /// channel is a mixture (reset, Z), else as its Pauli twirl.
    fn relax(&mut self, place: Place, q: Qubit, (t1, t2): (f64, f64), t: f64) {
        match Relaxation::over(t1, t2, t) {
            None => {}
            Some(Relaxation::Mixture { reset, phase_flip }) => {
                self.add(place, Insert::Reset(q), reset);
                self.pauli(place, Gate::Z, q, phase_flip);
            }
            Some(Relaxation::Damping { .. }) => {
                let a = -(-t / t1).exp_m1();
                let b = -(-t / t2).exp_m1();
                self.pauli(place, Gate::X, q, a / 4.0);
                self.pauli(place, Gate::Y, q, a / 4.0);
                self.pauli(place, Gate::Z, q, (b / 2.0 - a / 4.0).max(0.0));
            }
        }
    }
}

fn pauli_code(g: Gate) -> u8 {
    match g {
        Gate::X => 1,
        Gate::Y => 2,
        _ => 3,
    }
}

const PAULIS: [Gate; 3] = [Gate::X, Gate::Y, Gate::Z];

/// Every noise event of `program`, merged by place and operation.
fn events(program: &NoisyProgram) -> Events {
    let mut events = Events::default();
    let instructions = &program.instructions;
    let after = |j: usize| Place {
        position: j + 1,
        condition_of: instructions[j].condition.as_ref().map(|_| j),
    };
    for (j, step) in program.steps.iter().enumerate() {
        let t = program.schedule.duration(j);
        let relax = |events: &mut Events, q: Qubit| {
            events.relax(after(j), q, program.relaxation[q.index()], t);
        };
        match step.kind {
            Kind::Single(q) => {
                for g in PAULIS {
                    events.pauli(after(j), g, q, step.pauli_error / 3.0);
                }
                relax(&mut events, q);
            }
            Kind::Two(a, b) => {
                // The 15 Paulis other than the identity, each with an equal share.
                let share = step.pauli_error / 15.0;
                for ga in [None, Some(Gate::X), Some(Gate::Y), Some(Gate::Z)] {
                    for gb in [None, Some(Gate::X), Some(Gate::Y), Some(Gate::Z)] {
                        if ga.is_none() && gb.is_none() {
                            continue;
                        }
                        let ops = [ga.map(|g| (g, a)), gb.map(|g| (g, b))];
                        let ops = match ops {
                            [None, second] => [second, None],
                            both => both,
                        };
                        events.add(after(j), Insert::Paulis(ops), share);
                    }
                }
                relax(&mut events, a);
                relax(&mut events, b);
            }
            Kind::Reset(q) => {
                events.pauli(after(j), Gate::X, q, program.readout[q.index()].2);
                relax(&mut events, q);
            }
            Kind::Delay(q) => relax(&mut events, q),
            Kind::Measure(q) => {
                let (p1_given_0, p0_given_1, _) = program.readout[q.index()];
                let place = Place {
                    position: j,
                    condition_of: instructions[j].condition.as_ref().map(|_| j),
                };
                events.add(place, Insert::Flip(q), (p1_given_0 + p0_given_1) / 2.0);
            }
            Kind::Virtual | Kind::Bookkeeping => {}
        }
    }
    for window in program.schedule.idle_windows(instructions) {
        let place = Place {
            position: window.before,
            condition_of: None,
        };
        events.relax(
            place,
            window.qubit,
            program.relaxation[window.qubit.index()],
            window.duration,
        );
    }
    events
}

/// The program with one event's operation inserted.
fn with_event(program: &NoisyProgram, place: Place, insert: Insert) -> Circuit {
    let condition: Option<Guard> = place
        .condition_of
        .and_then(|j| program.instructions[j].condition.clone());
    let conditioned = |mut instr: Instruction| {
        instr.condition = condition.clone();
        instr
    };
    let x = |q: Qubit| Instruction::gate(Gate::X, &[q], &[]);
    let mut circuit =
        Circuit::with_plain_qubits(program.num_qubits as u32, program.num_clbits as u32);
    for (i, instr) in program.instructions.iter().enumerate() {
        if i == place.position {
            if let Insert::Flip(q) = insert {
                circuit.push(conditioned(x(q)));
                circuit.push(instr.clone());
                circuit.push(conditioned(x(q)));
                continue;
            }
            push_insert(&mut circuit, insert, &conditioned);
        }
        circuit.push(instr.clone());
    }
    if place.position >= program.instructions.len() {
        push_insert(&mut circuit, insert, &conditioned);
    }
    circuit
}

fn push_insert(
    circuit: &mut Circuit,
    insert: Insert,
    conditioned: &dyn Fn(Instruction) -> Instruction,
) {
    match insert {
        Insert::Paulis(ops) => {
            for (gate, q) in ops.into_iter().flatten() {
                circuit.push(conditioned(Instruction::gate(gate, &[q], &[])));
            }
        }
        Insert::Reset(q) => circuit.push(conditioned(Instruction::new(Op::Reset { qubit: q }))),
        // A flip is written around its measurement, in `with_event`.
        Insert::Flip(_) => {}
    }
}

/// The distribution of `bits` (clbit indices) in `full`.
fn marginal(full: &Distribution, bits: &[usize]) -> BitsDistribution {
    let mut out = BTreeMap::new();
    for (key, p) in full {
        let board: Vec<bool> = bits
            .iter()
            .map(|&b| key.get(b).copied().unwrap_or(false))
            .collect();
        *out.entry(board).or_insert(0.0) += p;
    }
    out
}

/// A distribution of some bits: each value of the bits (in the order asked for) and its
/// probability.
pub type BitsDistribution = BTreeMap<Vec<bool>, f64>;

/// A program's distribution of some bits without noise and, to first order, with it.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstOrder {
    /// Without noise (exact).
    pub noiseless: BitsDistribution,
    /// With the noise, to first order in the events' probabilities (see the module docs): sums
    /// to 1; an entry may be slightly negative where the first order overshoots.
    pub noisy: BitsDistribution,
}

impl FirstOrder {
    /// The total variation distance between the two.
    pub fn distance(&self) -> f64 {
        let mut total = 0.0;
        for (key, p) in &self.noisy {
            total += (p - self.noiseless.get(key).copied().unwrap_or(0.0)).abs();
        }
        for (key, p) in &self.noiseless {
            if !self.noisy.contains_key(key) {
                total += p.abs();
            }
        }
        total / 2.0
    }
}

/// The first-order distance of `program`'s distribution of `bits` (clbit indices) under its
/// noise to the noiseless one ([`first_order`]'s [`FirstOrder::distance`]), or `None` past
/// `max_work`.
///
/// # Errors
/// As [`first_order`].
pub fn board_error(
    program: &NoisyProgram,
    bits: &[usize],
    max_work: u64,
) -> Result<Option<f64>, ExecError> {
    Ok(first_order(program, bits, max_work)?.map(|f| f.distance()))
}

/// `program`'s distribution of `bits` (clbit indices) without noise and, to first order, with
/// it (see the module docs), or `None` when computing it would take more than `max_work`
/// amplitude updates.
///
/// The bound is shared out before anything runs: one exact run for the noiseless program and
/// one per event, each allowed an equal share of `max_work` (a run past its share gives `None`,
/// so the whole takes at most `max_work` updates whatever the states do). A program whose runs
/// could not each apply its instructions within their share is refused without simulating.
///
/// # Errors
/// The simulator's on the noiseless program (its memory limit, a branch limit).
pub fn first_order(
    program: &NoisyProgram,
    bits: &[usize],
    max_work: u64,
) -> Result<Option<FirstOrder>, ExecError> {
    let events = events(program).list;
    let runs = events.len() as u64 + 1;
    let noiseless = program_circuit(program);
    // Every run costs at least its instructions: a program too long for the bound is refused
    // before anything is simulated, and the noiseless run may take only its share.
    let length = noiseless.instructions().len().max(1) as u64;
    if runs.saturating_mul(length) > max_work {
        return Ok(None);
    }
    let share = max_work / runs;
    let Some(p0) = exact_within(&noiseless, share)? else {
        return Ok(None);
    };
    let p0 = marginal(&p0, bits);
    let mut noisy = p0.clone();
    for (place, insert, probability) in events {
        let circuit = with_event(program, place, insert);
        let Some(pe) = exact_within(&circuit, share)? else {
            return Ok(None);
        };
        for (key, p) in marginal(&pe, bits) {
            *noisy.entry(key).or_insert(0.0) += probability * p;
        }
        for (key, p) in &p0 {
            *noisy.entry(key.clone()).or_insert(0.0) -= probability * p;
        }
    }
    Ok(Some(FirstOrder {
        noiseless: p0,
        noisy,
    }))
}

/// The exact distribution of `circuit`, or `None` past `max_updates` amplitude updates.
fn exact_within(circuit: &Circuit, max_updates: u64) -> Result<Option<Distribution>, ExecError> {
    let mut sim = SparseSim::new();
    let limits = ExactLimits {
        max_amplitude_updates: Some(max_updates),
        ..ExactLimits::default()
    };
    match exact_distribution_within(&mut sim, circuit, limits) {
        Ok(d) => Ok(Some(d)),
        Err(ExecError {
            source: BackendError::TooMuchWork { .. },
            ..
        }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The noiseless program as a circuit.
fn program_circuit(program: &NoisyProgram) -> Circuit {
    let mut circuit =
        Circuit::with_plain_qubits(program.num_qubits as u32, program.num_clbits as u32);
    circuit.extend(program.instructions.iter().cloned());
    circuit
}
