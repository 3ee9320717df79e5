//! Which qubits are in a known state, in every branch of the program: the fact that lets the
//! compiler free a qubit's physical place. A qubit that is not entangled with anything holds a
//! known pure state, which any physical qubit can be prepared in again with one single-qubit
//! gate, where and when it is next needed: it needs no SWAP to move, and its physical qubit
//! serves others meanwhile. Chess makes this common: a square whose piece has left, a split
//! piece merged back, a measured ancilla reset, a square a piece moved onto classically.
//!
//! The [`Oracle`] runs the program exactly on a simulator ([`qc_ir::Backend`]) next to the
//! planner ([`crate::plan`]), which tells it what runs: gates on live qubits, measurements,
//! resets, a qubit set aside (its simulated qubit turned back to |0> and projected there, so
//! set-aside qubits cost the simulation nothing) or taken up again. Every branch is kept: a
//! measurement copies the qubit onto a fresh record qubit with a CNOT (the deferred measurement
//! principle: the other qubits' states are those of the program averaged over the outcomes), a
//! condition becomes a control on that record, a reset swaps the qubit with a fresh one that
//! keeps the discarded value. A qubit is in a known state when its reduced density matrix is
//! pure. The oracle stops answering (everything counts as unknown from there) when the state
//! grows beyond a bound or the simulator refuses a step, so its work is bounded.

use crate::linalg::{Mat2, C};
use crate::program::{Cond, Program, StepOp};
use qc_ir::{Backend, Control, Gate, MeasureChoice, Polarity, Qubit};

/// The oracle stops when the simulator holds more basis states than this.
pub const MAX_STATES: usize = 1 << 15;

/// A reduced density matrix whose determinant (the product of its eigenvalues) is below this is
/// pure. Amplitudes of the circuits qchess writes are exact up to rounding (about 1e-15), so a
/// pure state's smaller eigenvalue is about 1e-30; a real mixture this close to pure would need
/// an amplitude below 1e-10.
pub const PURE: f64 = 1e-20;

/// The exact simulation behind the planner (see the module docs).
pub struct Oracle<'b, B: Backend> {
    backend: &'b mut B,
    alive: bool,
    /// Program qubits `0..n`; records of bits from `n`; spare qubits for resets after them.
    num_qubits: usize,
    next_spare: usize,
    /// Bits a condition reads (their measurements need a record).
    read_bits: Vec<bool>,
}

impl<'b, B: Backend> Oracle<'b, B> {
    /// An oracle for `program` on `backend` (fresh, all |0>).
    pub fn new(program: &Program, backend: &'b mut B) -> Oracle<'b, B> {
        let mut read_bits = vec![false; program.num_clbits];
        for s in &program.steps {
            if let Some((clbit, _)) = s.cond {
                if let Some(r) = read_bits.get_mut(clbit) {
                    *r = true;
                }
            }
        }
        Oracle {
            backend,
            alive: true,
            num_qubits: program.num_qubits,
            next_spare: program.num_qubits + program.num_clbits,
            read_bits,
        }
    }

    /// True while the oracle answers.
    pub fn alive(&self) -> bool {
        self.alive
    }

    /// The simulator's state size now.
    pub fn state_size(&self) -> usize {
        self.backend.state_size()
    }

    fn check(&mut self, result: Result<(), qc_ir::BackendError>) {
        self.alive = self.alive && result.is_ok() && self.backend.state_size() <= MAX_STATES;
    }

    fn record(&self, clbit: usize) -> Qubit {
        Qubit((self.num_qubits + clbit) as u32)
    }

    fn controls(&self, cond: Cond) -> Vec<Control> {
        cond.map(|(clbit, value)| Control {
            qubit: self.record(clbit),
            on: if value { Polarity::One } else { Polarity::Zero },
        })
        .into_iter()
        .collect()
    }

    /// Runs a gate step (on live qubits).
    pub fn gate(&mut self, op: &StepOp, cond: Cond) {
        if !self.alive {
            return;
        }
        let controls = self.controls(cond);
        let q = |x: usize| Qubit(x as u32);
        let result = match *op {
            StepOp::One { q: x, m } => {
                self.backend
                    .apply_matrix(&m.to_matrix(), &[q(x)], &controls)
            }
            StepOp::Two { hi, lo, m } => {
                self.backend
                    .apply_matrix(&m.to_matrix(), &[q(hi), q(lo)], &controls)
            }
            _ => Ok(()),
        };
        self.check(result);
    }

    /// Runs a measurement of qubit `q` into `clbit`; `used_later`: the qubit has operations
    /// after it (a measurement changes nothing else, so a last one needs no record unless its
    /// bit is read).
    pub fn measure(&mut self, q: usize, clbit: usize, used_later: bool) {
        if !self.alive {
            return;
        }
        if used_later || self.read_bits.get(clbit).copied().unwrap_or(false) {
            let result = self.backend.apply_gate(
                Gate::X,
                &[self.record(clbit)],
                &[Control::one(Qubit(q as u32))],
            );
            self.check(result);
        }
    }

    /// Runs a reset of qubit `q`.
    pub fn reset(&mut self, q: usize) {
        if !self.alive {
            return;
        }
        let spare = Qubit(self.next_spare as u32);
        self.next_spare += 1;
        let result = self
            .backend
            .apply_gate(Gate::Swap, &[Qubit(q as u32), spare], &[]);
        self.check(result);
    }

    /// The state of qubit `q` when it is pure (not entangled): a gate `V` with `V|0>` that
    /// state; `None` when mixed or when the oracle has stopped.
    pub fn pure_state(&self, q: usize) -> Option<Mat2> {
        if !self.alive {
            return None;
        }
        let qubit = Qubit(q as u32);
        let p1 = self.backend.probability_one(qubit);
        if p1 <= PURE.sqrt() * 1e-2 {
            return Some(Mat2::IDENTITY);
        }
        if p1 >= 1.0 - PURE.sqrt() * 1e-2 {
            return Some(crate::linalg::paulis()[0]);
        }
        let rho = self.backend.reduced_density_matrix(&[qubit]);
        let (r00, r01, r11) = (rho.get(0, 0).re, rho.get(0, 1), rho.get(1, 1).re);
        if (r00 * r11 - r01.norm_sqr()).abs() > PURE {
            return None;
        }
        // rho = |psi><psi| with psi = (sqrt(r00), r10 / sqrt(r00)).
        let a = r00.max(0.0).sqrt();
        let b = if a > 0.0 {
            rho.get(1, 0) / a
        } else {
            C::new(r11.sqrt(), 0.0)
        };
        let a = C::new(a, 0.0);
        Some(Mat2([[a, -b.conj()], [b, a.conj()]]).unitarized())
    }

    /// Sets qubit `q` aside: its simulated qubit, in the pure state `V|0>`, is turned back to
    /// |0> (and projected there, which drops rounding residue).
    pub fn retire(&mut self, q: usize, v: &Mat2) {
        if !self.alive {
            return;
        }
        let qubit = Qubit(q as u32);
        let undo = self
            .backend
            .apply_matrix(&v.adjoint().to_matrix(), &[qubit], &[]);
        self.check(undo);
        if self.alive {
            let projected = self
                .backend
                .measure(qubit, MeasureChoice::Forced(false))
                .map(|_| ());
            self.check(projected);
        }
    }

    /// Takes qubit `q` up again in the state `V|0>`.
    pub fn materialise(&mut self, q: usize, v: &Mat2) {
        if !self.alive || v.is_identity(1e-15) {
            return;
        }
        let result = self
            .backend
            .apply_matrix(&v.to_matrix(), &[Qubit(q as u32)], &[]);
        self.check(result);
    }
}
