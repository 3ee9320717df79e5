//! A program prepared for noisy simulation: its schedule, and for each instruction the noise
//! that goes with it, derived once from the model and shared by every trajectory.

use super::channels::{
    depolarising_parameter, pauli_error_probability, relaxation_process_fidelity, truncated_t2,
};
use super::model::{NoiseError, NoiseModel};
use qc_ir::passes::{schedule_alap, Schedule};
use qc_ir::{Circuit, Instruction, Op, Qubit};

/// What an instruction is, for the noise model.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    /// A single-qubit Z rotation (a diagonal single-qubit gate other than the identity): virtual
    /// on the devices qchess targets, so instantaneous and exact.
    Virtual,
    /// A gate on one qubit (the identity `id` included: on IBM's devices it is a pulse of a
    /// single-qubit gate's length).
    Single(Qubit),
    /// A gate on two qubits (targets and controls together), on a coupler.
    Two(Qubit, Qubit),
    /// A measurement.
    Measure(Qubit),
    /// A reset.
    Reset(Qubit),
    /// A delay: the qubit waits (and relaxes) for the delay's own duration, as over an idle
    /// window.
    Delay(Qubit),
    /// An ancilla's allocation or release: no time, no noise (a device has no such operation;
    /// a qubit that noise left dirty stays dirty).
    Bookkeeping,
}

/// One instruction's noise.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Step {
    /// What it is.
    pub kind: Kind,
    /// For a gate: the probability of a Pauli error other than the identity after it
    /// (depolarising, [`pauli_error_probability`]).
    pub pauli_error: f64,
}

/// A program ready for noisy trajectories: the circuit as written, its as-late-as-possible
/// schedule with the model's durations, and each instruction's noise.
#[derive(Clone, Debug)]
pub struct NoisyProgram {
    pub(crate) instructions: Vec<Instruction>,
    pub(crate) schedule: Schedule,
    pub(crate) steps: Vec<Step>,
    /// `(T1, T2)` per qubit of the model, `T2` truncated to `2 T1`.
    pub(crate) relaxation: Vec<(f64, f64)>,
    /// `(P(read 1 | 0), P(read 0 | 1), P(reset leaves 1))` per qubit.
    pub(crate) readout: Vec<(f64, f64, f64)>,
    /// A qubit no instruction uses, for the no-jump branch of amplitude damping.
    pub(crate) ancilla: Qubit,
    pub(crate) num_qubits: usize,
    pub(crate) num_clbits: usize,
}

/// What `instr` (number `index`) is for the noise model, its qubits checked against it.
fn kind(index: usize, instr: &Instruction, model: &NoiseModel) -> Result<Kind, NoiseError> {
    let qubits = instr.op.qubits();
    if let Some(q) = qubits.iter().find(|q| q.index() >= model.qubits.len()) {
        return Err(NoiseError::QubitOutOfRange {
            index,
            qubit: q.index(),
            qubits: model.qubits.len(),
        });
    }
    Ok(match &instr.op {
        Op::Gate { gate, .. } if qubits.len() == 1 => {
            if gate.is_diagonal() && *gate != qc_ir::Gate::I {
                Kind::Virtual
            } else {
                Kind::Single(qubits[0])
            }
        }
        Op::UserGate { gate, .. } if qubits.len() == 1 => {
            let m = gate.matrix();
            if m.get(0, 1).norm() == 0.0 && m.get(1, 0).norm() == 0.0 {
                Kind::Virtual
            } else {
                Kind::Single(qubits[0])
            }
        }
        Op::Gate { .. } | Op::UserGate { .. } => match qubits[..] {
            [a, b] => {
                if model.coupler(a.index(), b.index()).is_none() {
                    return Err(NoiseError::NotCoupled {
                        index,
                        a: a.index(),
                        b: b.index(),
                    });
                }
                Kind::Two(a, b)
            }
            _ => {
                return Err(NoiseError::TooWide {
                    index,
                    qubits: qubits.len(),
                })
            }
        },
        Op::Measure { qubit, .. } => Kind::Measure(*qubit),
        Op::Reset { qubit } => Kind::Reset(*qubit),
        Op::Delay { qubit, .. } => Kind::Delay(*qubit),
        Op::Alloc { .. } | Op::Free { .. } => Kind::Bookkeeping,
    })
}

impl NoisyProgram {
    /// Prepares `circuit`, exactly as written (no optimisation: the gates are the pulses a device
    /// runs), for noisy simulation with `model`.
    ///
    /// # Errors
    /// A bad value in the model; an instruction on a qubit the model lacks, a two-qubit gate off
    /// its couplers, a gate on more than two qubits.
    pub fn new(circuit: &Circuit, model: &NoiseModel) -> Result<NoisyProgram, NoiseError> {
        model.check()?;
        let instructions = circuit.instructions().to_vec();
        let kinds = instructions
            .iter()
            .enumerate()
            .map(|(index, instr)| kind(index, instr, model))
            .collect::<Result<Vec<Kind>, NoiseError>>()?;
        let qubit = |q: Qubit| &model.qubits[q.index()];
        let duration = |k: Kind, op: &Op| match k {
            Kind::Delay(_) => match op {
                Op::Delay { duration, .. } => *duration,
                _ => 0.0,
            },
            Kind::Virtual | Kind::Bookkeeping => 0.0,
            Kind::Single(q) => qubit(q).gate_duration,
            Kind::Two(a, b) => model
                .coupler(a.index(), b.index())
                .map_or(0.0, |c| c.duration),
            Kind::Measure(q) => qubit(q).measure_duration,
            Kind::Reset(q) => qubit(q).reset_duration,
        };
        let mut next = 0;
        let schedule = schedule_alap(&instructions, |instr| {
            next += 1;
            duration(kinds[next - 1], &instr.op)
        });
        let relaxation: Vec<(f64, f64)> = model
            .qubits
            .iter()
            .map(|q| (q.t1, truncated_t2(q.t1, q.t2)))
            .collect();
        let process = |q: Qubit, t: f64| {
            let (t1, t2) = relaxation[q.index()];
            relaxation_process_fidelity(t1, t2, t)
        };
        let steps = kinds
            .iter()
            .map(|&kind| {
                let pauli_error = match kind {
                    Kind::Single(q) => {
                        let n = qubit(q);
                        let lambda =
                            depolarising_parameter(n.gate_error, process(q, n.gate_duration), 1);
                        pauli_error_probability(lambda, 1)
                    }
                    Kind::Two(a, b) => {
                        let c = model
                            .coupler(a.index(), b.index())
                            .copied()
                            .unwrap_or_default();
                        let relaxed = process(a, c.duration) * process(b, c.duration);
                        pauli_error_probability(depolarising_parameter(c.error, relaxed, 2), 2)
                    }
                    _ => 0.0,
                };
                Step { kind, pauli_error }
            })
            .collect();
        Ok(NoisyProgram {
            steps,
            schedule,
            relaxation,
            readout: model
                .qubits
                .iter()
                .map(|q| (q.p1_given_0, q.p0_given_1, q.reset_error))
                .collect(),
            ancilla: Qubit(circuit.num_qubits() as u32),
            num_qubits: circuit.num_qubits(),
            num_clbits: circuit.num_clbits(),
            instructions,
        })
    }

    /// The schedule the trajectories follow (the model's durations, as late as possible).
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The instructions, as written.
    pub fn instructions(&self) -> &[Instruction] {
        &self.instructions
    }

    /// The number of classical bits each shot has.
    pub fn num_clbits(&self) -> usize {
        self.num_clbits
    }

    /// The estimated success probability with time: the probability that no error of the model
    /// happens in a shot, the product over every noise event of its probability of doing nothing.
    /// A gate's is `1 - P(Pauli error)` (its depolarising error with the relaxation during the
    /// gate folded in); a measurement's `1 - (P(read 1 | 0) + P(read 0 | 1)) / 2`; a reset's
    /// `1 - P(reset leaves 1)`; and every idle window's (a qubit waiting on the schedule) the
    /// process fidelity of its T1/T2 relaxation over the window (a delay counts as such a window), which is `1 - P(error)` of the
    /// relaxation twirled into Pauli errors. Gates of a conditioned block count as if the branch
    /// were taken, as the gate-only estimate counts them. Without durations or finite T1/T2 this
    /// is the gate-and-readout estimate of the same model.
    ///
    /// Gate factors include the relaxation over the gate's own duration, as the trajectories
    /// apply it.
    pub fn success_probability(&self) -> f64 {
        let relaxed = |q: Qubit, t: f64| {
            let (t1, t2) = self.relaxation[q.index()];
            relaxation_process_fidelity(t1, t2, t)
        };
        let mut p = 1.0;
        for (index, step) in self.steps.iter().enumerate() {
            // The trajectories relax a gate's and a reset's qubits over its own duration too.
            let t = self.schedule.duration(index);
            p *= match step.kind {
                Kind::Single(q) => (1.0 - step.pauli_error) * relaxed(q, t),
                Kind::Two(a, b) => (1.0 - step.pauli_error) * relaxed(a, t) * relaxed(b, t),
                Kind::Measure(q) => {
                    let (p1_given_0, p0_given_1, _) = self.readout[q.index()];
                    1.0 - (p1_given_0 + p0_given_1) / 2.0
                }
                Kind::Reset(q) => (1.0 - self.readout[q.index()].2) * relaxed(q, t),
                Kind::Delay(q) => relaxed(q, t),
                Kind::Virtual | Kind::Bookkeeping => 1.0,
            };
        }
        for window in self.schedule.idle_windows(&self.instructions) {
            p *= relaxed(window.qubit, window.duration);
        }
        p.clamp(0.0, 1.0)
    }
}
