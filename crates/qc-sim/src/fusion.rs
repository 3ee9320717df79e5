//! Gate fusion for the dense simulator: runs of consecutive gates whose qubits (targets and
//! controls) fit in a small set are multiplied into one `2^s x 2^s` matrix and applied in a single
//! sweep of the vector, as qsim and Aer do. Single gates keep their specialised kernels.

use crate::dense::DenseSim;
use qc_ir::exec::{apply_instruction, ExecError};
use qc_ir::{
    Backend, BackendError, Circuit, ClassicalRecord, Complex64, Control, Gate, Instruction, Op,
    OutcomePolicy, Qubit,
};

/// Default largest qubit set of a fused block: 1, i.e. fusion off. Measured in
/// `docs/performance.md`, the generic fused-matrix kernel loses to the specialised per-gate
/// kernels at n = 26 and 28 (it is compute-bound, not vectorised); turn it on with
/// [`DenseSim::set_fuse_max`].
pub const DEFAULT_FUSE_MAX: usize = 1;
/// Hard cap: the matrix kernel holds at most 32 amplitudes per group.
pub const FUSE_LIMIT: usize = 5;

/// A block being fused: its qubits (local bit j = `qubits[j]`) and its gates in order.
#[derive(Default)]
struct Block<'a> {
    qubits: Vec<Qubit>,
    gates: Vec<(Gate, &'a [Qubit], &'a [Control])>,
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

impl<F: crate::precision::Real> DenseSim<F> {
    fn flush(&mut self, block: &mut Block<'_>) -> Result<(), BackendError> {
        match block.gates.len() {
            0 => {}
            1 => {
                let (g, t, c) = block.gates[0];
                self.apply_gate(g, t, c)?;
            }
            _ => {
                let d = 1usize << block.qubits.len();
                let mut u: Vec<Complex64> = (0..d * d)
                    .map(|i| Complex64::new(if i % (d + 1) == 0 { 1.0 } else { 0.0 }, 0.0))
                    .collect();
                for &(g, t, c) in &block.gates {
                    u = multiply(&embed(&block.qubits, g, t, c), &u, d);
                }
                let mut positions = Vec::with_capacity(block.qubits.len());
                for &q in &block.qubits {
                    positions.push(self.join(q)?);
                }
                self.apply_block(&positions, &u);
            }
        }
        block.qubits.clear();
        block.gates.clear();
        Ok(())
    }

    /// Runs `instructions`, fusing runs of unconditioned gates whose qubits are all in the vector
    /// and together number at most the fusion limit (see [`DenseSim::set_fuse_max`]); everything
    /// else runs one instruction at a time as [`qc_ir::exec::run_instructions`] does.
    ///
    /// # Errors
    /// The first instruction that fails, with its index.
    pub fn run_instructions_fused(
        &mut self,
        instructions: &[Instruction],
        record: &mut ClassicalRecord,
        policy: &mut dyn OutcomePolicy,
    ) -> Result<(), ExecError> {
        let mut block = Block::default();
        let mut block_start = 0usize;
        for (index, instr) in instructions.iter().enumerate() {
            let fail = |at: usize, source| ExecError {
                index: at,
                origin: instructions[at].origin.clone(),
                source,
            };
            let fusable = match (&instr.op, instr.condition) {
                (
                    Op::Gate {
                        gate,
                        targets,
                        controls,
                    },
                    None,
                ) if self.fuse_max >= 2 => {
                    let qubits: Vec<Qubit> = targets
                        .iter()
                        .copied()
                        .chain(controls.iter().map(|c| c.qubit))
                        .collect();
                    if qubits.iter().all(|&q| self.dense_position(q).is_some()) {
                        Some((*gate, &targets[..], &controls[..], qubits))
                    } else {
                        None
                    }
                }
                _ => None,
            };
            match fusable {
                Some((gate, targets, controls, qubits)) => {
                    let mut union = block.qubits.clone();
                    for q in qubits {
                        if !union.contains(&q) {
                            union.push(q);
                        }
                    }
                    if union.len() > self.fuse_max {
                        self.flush(&mut block).map_err(|e| fail(block_start, e))?;
                        block_start = index;
                        union.retain(|q| {
                            targets.contains(q) || controls.iter().any(|c| c.qubit == *q)
                        });
                    }
                    if block.gates.is_empty() {
                        block_start = index;
                    }
                    block.qubits = union;
                    block.gates.push((gate, targets, controls));
                }
                None => {
                    self.flush(&mut block).map_err(|e| fail(block_start, e))?;
                    apply_instruction(self, instr, record, policy).map_err(|e| fail(index, e))?;
                }
            }
        }
        self.flush(&mut block)
            .map_err(|e| fail_at(instructions, block_start, e))
    }

    /// Runs a whole circuit with gate fusion; returns the classical record.
    ///
    /// # Errors
    /// The first instruction that fails, with its index.
    pub fn run_circuit(
        &mut self,
        circuit: &Circuit,
        policy: &mut dyn OutcomePolicy,
    ) -> Result<ClassicalRecord, ExecError> {
        let mut record = ClassicalRecord::new(circuit.num_clbits());
        self.run_instructions_fused(circuit.instructions(), &mut record, policy)?;
        Ok(record)
    }
}

fn fail_at(instructions: &[Instruction], index: usize, source: BackendError) -> ExecError {
    ExecError {
        index,
        origin: instructions.get(index).and_then(|i| i.origin.clone()),
        source,
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
