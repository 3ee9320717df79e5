//! Gate fusion for the dense simulator: gates whose qubits (targets and controls) fit in a small
//! set are multiplied into one `2^s x 2^s` matrix and applied in a single sweep of the vector by
//! the vectorised [`crate::fused_kernel`], as qsim and Aer do; a gate may join a block past
//! later gates on other qubits (they commute). A block of
//! one gate keeps that gate's specialised kernel. [`qc_ir::exec`] hands every run of consecutive
//! gates to [`Backend::apply_gates`], so `qchess run` and games fuse too.

use crate::dense::DenseSim;
use qc_ir::exec::ExecError;
use qc_ir::{
    Backend, Circuit, ClassicalRecord, Complex64, Control, Gate, GateCall, GateRunError,
    OutcomePolicy, Qubit,
};
use std::collections::VecDeque;

/// Default largest qubit set of a fused block: 3, chosen by the measurements in
/// `docs/performance.md`, "Fusion" (a 3-qubit block costs about one sweep of the vector, a
/// 4-qubit one several); [`DenseSim::set_fuse_max`] changes it, 1 turns fusion off.
pub const DEFAULT_FUSE_MAX: usize = 3;
/// Hard cap: the matrix kernel holds at most 32 amplitudes per group.
pub const FUSE_LIMIT: usize = 5;
/// Default smallest vector (amplitudes) on which gates fuse: below it, multiplying the gates'
/// matrices costs about as much as the passes it saves.
pub const DEFAULT_FUSE_MIN_AMPLITUDES: usize = 1 << 12;

/// The most fused blocks waiting to be applied (a gate may still join any of them).
const MAX_PENDING_BLOCKS: usize = 32;

/// A block being fused: its qubits (local bit j = `qubits[j]`), its gates in order, and the
/// index in the run of its first gate.
struct Block<'a> {
    qubits: Vec<Qubit>,
    gates: Vec<GateCall<'a>>,
    first: usize,
}

/// The full matrix of one gate (with its controls) on the block's qubits.
fn embed(qubits: &[Qubit], gate: Gate, targets: &[Qubit], controls: &[Control]) -> Vec<Complex64> {
    let d = 1usize << qubits.len();
    let local = |q: Qubit| qubits.iter().position(|x| *x == q).unwrap_or(0);
    let m = gate.matrix();
    let k = targets.len();
    let tbits: Vec<usize> = targets.iter().map(|&t| local(t)).collect();
    let mut g = vec![Complex64::new(0.0, 0.0); d * d];
    for c in 0..d {
        let enabled = controls
            .iter()
            .all(|ctl| ((c >> local(ctl.qubit)) & 1 == 1) == ctl.on.value());
        if !enabled {
            g[c * d + c] = Complex64::new(1.0, 0.0);
            continue;
        }
        let tcol = tbits
            .iter()
            .fold(0usize, |acc, &b| (acc << 1) | ((c >> b) & 1));
        let rest = tbits.iter().fold(c, |acc, &b| acc & !(1 << b));
        for trow in 0..(1usize << k) {
            let v = m.get(trow, tcol);
            if v == Complex64::new(0.0, 0.0) {
                continue;
            }
            let r = tbits.iter().enumerate().fold(rest, |acc, (j, &b)| {
                acc | (((trow >> (k - 1 - j)) & 1) << b)
            });
            g[r * d + c] = v;
        }
    }
    g
}

fn multiply(a: &[Complex64], b: &[Complex64], d: usize) -> Vec<Complex64> {
    let mut out = vec![Complex64::new(0.0, 0.0); d * d];
    for r in 0..d {
        for k in 0..d {
            let x = a[r * d + k];
            if x == Complex64::new(0.0, 0.0) {
                continue;
            }
            for c in 0..d {
                out[r * d + c] += x * b[k * d + c];
            }
        }
    }
    out
}

/// Every qubit a gate reads or writes.
fn qubits_of<'a>(call: &GateCall<'a>) -> impl Iterator<Item = Qubit> + 'a {
    call.targets
        .iter()
        .copied()
        .chain(call.controls.iter().map(|c| c.qubit))
}

impl<F: crate::precision::Real> DenseSim<F> {
    fn flush(&mut self, block: &mut Block<'_>) -> Result<(), GateRunError> {
        let fail = |source| GateRunError {
            index: block.first,
            source,
        };
        match block.gates.len() {
            0 => {}
            1 => {
                let call = block.gates[0];
                self.apply_gate(call.gate, call.targets, call.controls)
                    .map_err(fail)?;
            }
            _ => {
                let d = 1usize << block.qubits.len();
                let mut u: Vec<Complex64> = (0..d * d)
                    .map(|i| Complex64::new(if i % (d + 1) == 0 { 1.0 } else { 0.0 }, 0.0))
                    .collect();
                for call in &block.gates {
                    let g = embed(&block.qubits, call.gate, call.targets, call.controls);
                    u = multiply(&g, &u, d);
                }
                let mut positions = Vec::with_capacity(block.qubits.len());
                for &q in &block.qubits {
                    positions.push(self.join(q).map_err(fail)?);
                }
                self.apply_block(&positions, &u);
            }
        }
        block.qubits.clear();
        block.gates.clear();
        Ok(())
    }

    /// Whether `call` may join a fused block: fusion is on, the vector is large enough, and every
    /// qubit of the gate is already in the vector (a gate on a classical qubit has cheaper
    /// paths: a bit flip, a phase, or a skipped gate).
    fn fusable(&self, call: &GateCall<'_>) -> bool {
        self.fuse_max >= 2
            && self.amps_len() >= self.fuse_min_amplitudes
            && qubits_of(call).all(|q| self.dense_position(q).is_some())
    }

    /// [`Backend::apply_gates`] for the dense simulator: fuses gates whose qubits are all in the
    /// vector into blocks of at most the fusion limit (see [`DenseSim::set_fuse_max`]); other
    /// gates run one at a time.
    ///
    /// A gate joins the latest pending block that touches one of its qubits when their qubits
    /// together stay within the limit; otherwise it opens a new block. That moves the gate
    /// before the blocks after that one, which is exact: those touch none of its qubits, so they
    /// commute with it. Blocks are applied in order, the oldest first when more than
    /// [`MAX_PENDING_BLOCKS`] wait.
    pub(crate) fn apply_gates_fused(&mut self, gates: &[GateCall<'_>]) -> Result<(), GateRunError> {
        let mut pending: VecDeque<Block<'_>> = VecDeque::new();
        for (index, call) in gates.iter().enumerate() {
            if !self.fusable(call) {
                while let Some(mut block) = pending.pop_front() {
                    self.flush(&mut block)?;
                }
                self.apply_gate(call.gate, call.targets, call.controls)
                    .map_err(|source| GateRunError { index, source })?;
                continue;
            }
            let touches = |block: &Block<'_>| qubits_of(call).any(|q| block.qubits.contains(&q));
            let joined = match pending.iter().rposition(touches) {
                Some(last) => {
                    let block = &mut pending[last];
                    let mut union = block.qubits.clone();
                    union.extend(qubits_of(call).filter(|q| !block.qubits.contains(q)));
                    if union.len() <= self.fuse_max {
                        block.qubits = union;
                        block.gates.push(*call);
                        true
                    } else {
                        false
                    }
                }
                None => false,
            };
            if !joined {
                pending.push_back(Block {
                    qubits: qubits_of(call).collect(),
                    gates: vec![*call],
                    first: index,
                });
                if pending.len() > MAX_PENDING_BLOCKS {
                    if let Some(mut block) = pending.pop_front() {
                        self.flush(&mut block)?;
                    }
                }
            }
        }
        while let Some(mut block) = pending.pop_front() {
            self.flush(&mut block)?;
        }
        Ok(())
    }

    /// Runs a whole circuit (with gate fusion, as every run of gates on this simulator);
    /// returns the classical record.
    ///
    /// # Errors
    /// The first instruction that fails, with its index.
    pub fn run_circuit(
        &mut self,
        circuit: &Circuit,
        policy: &mut dyn OutcomePolicy,
    ) -> Result<ClassicalRecord, ExecError> {
        let mut record = ClassicalRecord::new(circuit.num_clbits());
        qc_ir::exec::run_instructions(self, circuit.instructions(), &mut record, policy)?;
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_cnot_with_zero_control_is_the_expected_permutation() {
        // qubits [c, t]: local bit 0 = c, bit 1 = t; X on t when c = 0.
        let g = embed(
            &[Qubit(0), Qubit(1)],
            Gate::X,
            &[Qubit(1)],
            &[Control::zero(Qubit(0))],
        );
        let one = Complex64::new(1.0, 0.0);
        // c=0: t flips (0 <-> 2); c=1: identity (1, 3).
        let mut expected = vec![Complex64::new(0.0, 0.0); 16];
        expected[2 * 4] = one;
        expected[2] = one;
        expected[4 + 1] = one;
        expected[3 * 4 + 3] = one;
        assert_eq!(g, expected);
    }
}
