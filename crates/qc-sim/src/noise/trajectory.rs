//! One Monte-Carlo trajectory: the program run once on a simulator with the noise channels
//! sampled as it goes, giving one shot. Everything goes through [`qc_ir::Backend`], so it runs on
//! the sparse and the dense simulators alike; every channel is a Pauli gate, a reset, a
//! measurement or (the no-jump branch of amplitude damping) a controlled rotation onto a spare
//! qubit that is then measured, so the state stays as sparse as the noiseless one.

use super::channels::Relaxation;
use super::program::{Kind, NoisyProgram};
use qc_ir::exec::{ClassicalRecord, ExecError};
use qc_ir::{
    Backend, BackendError, Control, Gate, Instruction, MeasureChoice, Op, Qubit,
    IMPOSSIBLE_PROBABILITY,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A simulator, a random source and the program: what the channels act with.
struct Run<'a, B> {
    program: &'a NoisyProgram,
    backend: &'a mut B,
    rng: &'a mut ChaCha8Rng,
}

impl<B: Backend> Run<'_, B> {
    fn uniform(&mut self) -> f64 {
        self.rng.gen::<f64>()
    }

    /// Thermal relaxation of `qubit` over `t` (see [`Relaxation`]).
    fn relax(&mut self, qubit: Qubit, t: f64) -> Result<(), BackendError> {
        let (t1, t2) = self.program.relaxation[qubit.index()];
        match Relaxation::over(t1, t2, t) {
            None => Ok(()),
            Some(Relaxation::Mixture { reset, phase_flip }) => {
                let u = self.uniform();
                if u < reset {
                    let choice = MeasureChoice::Random(self.uniform());
                    self.backend.reset(qubit, choice).map(|_| ())
                } else if u < reset + phase_flip {
                    self.backend.apply_gate(Gate::Z, &[qubit], &[])
                } else {
                    Ok(())
                }
            }
            Some(Relaxation::Damping { probability, gamma }) => {
                if self.uniform() < probability {
                    self.damp(qubit, gamma)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Amplitude damping of strength `gamma` by the quantum-jump method: the jump (|1> -> |0>,
    /// Kraus operator `sqrt(gamma) |0><1|`) happens with probability `gamma P(1)`; otherwise the
    /// state becomes `K0 psi / |K0 psi|` with `K0 = diag(1, sqrt(1 - gamma))`, which is applied
    /// as a rotation `Ry(2 asin(sqrt(gamma)))` of the spare qubit controlled by `qubit`, the
    /// spare then found in |0> (a forced measurement renormalises exactly). On a qubit that is
    /// certainly 0 or 1 the no-jump branch changes nothing.
    fn damp(&mut self, qubit: Qubit, gamma: f64) -> Result<(), BackendError> {
        let p1 = self.backend.probability_one(qubit);
        if p1 < IMPOSSIBLE_PROBABILITY {
            return Ok(());
        }
        if self.uniform() < gamma * p1 {
            self.backend.measure(qubit, MeasureChoice::Forced(true))?;
            return self.backend.apply_gate(Gate::X, &[qubit], &[]);
        }
        if p1 > 1.0 - IMPOSSIBLE_PROBABILITY {
            return Ok(());
        }
        let spare = self.program.ancilla;
        let theta = 2.0 * gamma.sqrt().asin();
        self.backend
            .apply_gate(Gate::Ry(theta), &[spare], &[Control::one(qubit)])?;
        self.backend
            .measure(spare, MeasureChoice::Forced(false))
            .map(|_| ())
    }

    /// The depolarising error after a gate on `qubits`: with probability `p`, one of the Paulis
    /// other than the identity, uniformly.
    fn depolarise(&mut self, qubits: &[Qubit], p: f64) -> Result<(), BackendError> {
        if p <= 0.0 || self.uniform() >= p {
            return Ok(());
        }
        let others = (1u32 << (2 * qubits.len())) - 1;
        let pauli = 1 + self.rng.gen_range(0..others);
        for (j, &q) in qubits.iter().enumerate() {
            let gate = match (pauli >> (2 * j)) & 3 {
                1 => Gate::X,
                2 => Gate::Y,
                3 => Gate::Z,
                _ => continue,
            };
            self.backend.apply_gate(gate, &[q], &[])?;
        }
        Ok(())
    }

    /// Applies the instruction's operation (its condition already checked), then its noise.
    fn step(
        &mut self,
        index: usize,
        instr: &Instruction,
        record: &mut ClassicalRecord,
    ) -> Result<(), BackendError> {
        let step = self.program.steps[index];
        let duration = self.program.schedule.duration(index);
        match &instr.op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => self.backend.apply_gate(*gate, targets, controls)?,
            Op::UserGate {
                gate,
                targets,
                controls,
            } => self
                .backend
                .apply_matrix(gate.matrix(), targets, controls)?,
            Op::Measure { qubit, clbit } => {
                let choice = MeasureChoice::Random(self.uniform());
                let outcome = self.backend.measure(*qubit, choice)?;
                let (p1_given_0, p0_given_1, _) = self.program.readout[qubit.index()];
                let flip = if outcome { p0_given_1 } else { p1_given_0 };
                // The bit as read: conditions later in the program see the misread value too.
                record.set(*clbit, outcome ^ (self.uniform() < flip));
            }
            Op::Reset { qubit } => {
                let choice = MeasureChoice::Random(self.uniform());
                self.backend.reset(*qubit, choice)?;
                let (_, _, reset_error) = self.program.readout[qubit.index()];
                if self.uniform() < reset_error {
                    self.backend.apply_gate(Gate::X, &[*qubit], &[])?;
                }
            }
            Op::Alloc { qubit } => self.backend.alloc(*qubit)?,
            // Noise may leave an ancilla dirty; a device does not check, nor does this.
            Op::Free { .. } => {}
            // The wait itself is the identity; its relaxation follows with the noise.
            Op::Delay { .. } => {}
        }
        match step.kind {
            Kind::Single(q) => {
                self.depolarise(&[q], step.pauli_error)?;
                self.relax(q, duration)
            }
            Kind::Two(a, b) => {
                self.depolarise(&[a, b], step.pauli_error)?;
                self.relax(a, duration)?;
                self.relax(b, duration)
            }
            Kind::Reset(q) | Kind::Delay(q) => self.relax(q, duration),
            Kind::Virtual | Kind::Measure(_) | Kind::Bookkeeping => Ok(()),
        }
    }
}

/// Runs one trajectory of `program` on `backend` (fresh, in |0...0>) with the random source
/// `rng`, and returns the shot: every classical bit as read (unwritten bits are 0).
///
/// Before each instruction its qubits relax over the time since their previous instruction
/// ended (per the schedule; an instruction whose condition is false does not run, and its window
/// is part of that time); a qubit no instruction has touched yet is |0> and does not relax.
///
/// # Errors
/// The simulator's, with the instruction that failed (its memory limit, most often).
pub fn run_trajectory<B: Backend>(
    program: &NoisyProgram,
    backend: &mut B,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<bool>, ExecError> {
    let mut record = ClassicalRecord::new(program.num_clbits);
    // When each qubit's last instruction ended; NaN before its first.
    let mut free_at = vec![f64::NAN; program.num_qubits];
    let mut run = Run {
        program,
        backend,
        rng,
    };
    for (index, instr) in program.instructions.iter().enumerate() {
        if let Some(guard) = &instr.condition {
            if !guard.holds(|bit| record.get(bit).unwrap_or(false)) {
                continue;
            }
        }
        let fail = |source| ExecError {
            index,
            origin: instr.origin.clone(),
            source,
        };
        let start = program.schedule.start(index);
        let end = program.schedule.end(index);
        for q in instr.op.qubits() {
            let last = free_at[q.index()];
            if !last.is_nan() {
                run.relax(q, start - last).map_err(fail)?;
            }
            free_at[q.index()] = end;
        }
        run.step(index, instr, &mut record).map_err(fail)?;
    }
    Ok(record.values(program.num_clbits))
}
