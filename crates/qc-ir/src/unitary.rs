//! `Circuit::unitary()`: the full matrix of a small measurement-free circuit, computed directly
//! from the gate table. It is the independent reference that simulators are tested against, so it
//! shares no code with them.
//!
//! Basis order: qubit k is bit k of the basis index (Qiskit order). `alloc`/`free` are identities
//! here (an ancilla is |0> at both ends when the circuit is correct).

use crate::circuit::Circuit;
use crate::error::IrError;
use crate::gate::Gate;
use crate::ids::Qubit;
use crate::instruction::{Control, Op};
use crate::matrix::Matrix;
use num_complex::Complex64;

/// Largest circuit `unitary()` accepts (a 4096 x 4096 matrix).
pub const UNITARY_QUBIT_LIMIT: usize = 12;

/// Applies `gate` with `controls` to the state vector `state` (qubit k = bit k of the index).
/// This is the reference kernel: simple loops, no cleverness.
pub fn apply_gate_reference(
    state: &mut [Complex64],
    gate: Gate,
    targets: &[Qubit],
    controls: &[Control],
) {
    apply_matrix_reference(state, &gate.matrix(), targets, controls);
}

/// Applies `matrix` (first target = most significant bit) with `controls` to `state` (qubit k =
/// bit k of the index), as [`apply_gate_reference`] does for a gate.
pub fn apply_matrix_reference(
    state: &mut [Complex64],
    matrix: &Matrix,
    targets: &[Qubit],
    controls: &[Control],
) {
    let k = targets.len();
    let mut out = vec![Complex64::new(0.0, 0.0); state.len()];
    for (basis, &amp) in state.iter().enumerate() {
        if amp == Complex64::new(0.0, 0.0) {
            continue;
        }
        let enabled = controls
            .iter()
            .all(|c| ((basis >> c.qubit.index()) & 1 == 1) == c.on.value());
        if !enabled {
            out[basis] += amp;
            continue;
        }
        // Sub-index over targets, first target = most significant bit.
        let mut sub = 0usize;
        for t in targets {
            sub = (sub << 1) | ((basis >> t.index()) & 1);
        }
        for row in 0..(1usize << k) {
            let factor = matrix.get(row, sub);
            if factor == Complex64::new(0.0, 0.0) {
                continue;
            }
            let mut target_basis = basis;
            for (j, t) in targets.iter().enumerate() {
                let bit = (row >> (k - 1 - j)) & 1;
                target_basis = (target_basis & !(1 << t.index())) | (bit << t.index());
            }
            out[target_basis] += factor * amp;
        }
    }
    state.copy_from_slice(&out);
}

impl Circuit {
    /// The full unitary of a measurement-free, unconditioned circuit of at most
    /// [`UNITARY_QUBIT_LIMIT`] qubits.
    pub fn unitary(&self) -> Result<Matrix, IrError> {
        let n = self.num_qubits();
        if n > UNITARY_QUBIT_LIMIT {
            return Err(IrError::TooManyQubits {
                qubits: n,
                limit: UNITARY_QUBIT_LIMIT,
            });
        }
        for (index, instr) in self.instructions().iter().enumerate() {
            if instr.condition.is_some() {
                return Err(IrError::NotUnitary {
                    index,
                    what: "a classically conditioned instruction",
                });
            }
            match &instr.op {
                Op::Measure { .. } => {
                    return Err(IrError::NotUnitary {
                        index,
                        what: "a measurement",
                    })
                }
                Op::Reset { .. } => {
                    return Err(IrError::NotUnitary {
                        index,
                        what: "a reset",
                    })
                }
                _ => {}
            }
            for q in instr.op.qubits() {
                if q.index() >= n {
                    return Err(IrError::QubitOutOfRange { qubit: q, len: n });
                }
            }
        }
        let dim = 1usize << n;
        let mut result = Matrix::zeros(dim);
        let mut column = vec![Complex64::new(0.0, 0.0); dim];
        for col in 0..dim {
            column
                .iter_mut()
                .for_each(|v| *v = Complex64::new(0.0, 0.0));
            column[col] = Complex64::new(1.0, 0.0);
            for instr in self.instructions() {
                match &instr.op {
                    Op::Gate {
                        gate,
                        targets,
                        controls,
                    } => apply_gate_reference(&mut column, *gate, targets, controls),
                    Op::UserGate {
                        gate,
                        targets,
                        controls,
                    } => apply_matrix_reference(&mut column, gate.matrix(), targets, controls),
                    _ => {}
                }
            }
            for (row, v) in column.iter().enumerate() {
                result.set(row, col, *v);
            }
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instruction::Instruction;
    use crate::matrix::c64;

    fn circuit(n: u32, instrs: Vec<Instruction>) -> Circuit {
        let mut c = Circuit::with_plain_qubits(n, 0);
        c.extend(instrs);
        c
    }

    /// The controlled gate built by hand: identity where the controls fail, the gate where they hold.
    fn controlled_by_hand(gate: Gate, polarities: &[bool]) -> Matrix {
        // Qubit 0 is the target, qubits 1.. the controls.
        let n = 1 + polarities.len();
        let dim = 1 << n;
        let g = gate.matrix();
        let mut m = Matrix::identity(dim);
        for basis in 0..dim {
            let enabled = polarities
                .iter()
                .enumerate()
                .all(|(k, &p)| ((basis >> (k + 1)) & 1 == 1) == p);
            if enabled {
                let t = basis & 1;
                for out in 0..2 {
                    m.set(basis & !1 | out, basis, g.get(out, t));
                }
            }
        }
        m
    }

    #[test]
    fn every_polarity_pattern_on_one_to_three_controls() {
        for gate in [Gate::X, Gate::H, Gate::Ry(0.9), Gate::S] {
            for ncontrols in 1..=3usize {
                for pattern in 0..(1u32 << ncontrols) {
                    let polarities: Vec<bool> =
                        (0..ncontrols).map(|k| pattern >> k & 1 == 1).collect();
                    let controls: Vec<Control> = polarities
                        .iter()
                        .enumerate()
                        .map(|(k, &p)| {
                            let q = Qubit(k as u32 + 1);
                            if p {
                                Control::one(q)
                            } else {
                                Control::zero(q)
                            }
                        })
                        .collect();
                    let c = circuit(
                        1 + ncontrols as u32,
                        vec![Instruction::gate(gate, &[Qubit(0)], &controls)],
                    );
                    let expected = controlled_by_hand(gate, &polarities);
                    assert!(
                        c.unitary().unwrap().approx_eq(&expected, 1e-14),
                        "{gate} pattern {pattern:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn cnot_in_qiskit_order() {
        // Control q0, target q1: |01> (q0=1) -> |11>.
        let c = circuit(
            2,
            vec![Instruction::gate(
                Gate::X,
                &[Qubit(1)],
                &[Control::one(Qubit(0))],
            )],
        );
        let u = c.unitary().unwrap();
        assert_eq!(u.get(0b11, 0b01), c64(1.0, 0.0));
        assert_eq!(u.get(0b10, 0b10), c64(1.0, 0.0));
        assert_eq!(u.get(0b01, 0b11), c64(1.0, 0.0));
    }

    #[test]
    fn two_qubit_gate_embedding_uses_first_target_as_msb() {
        // A non-symmetric check: CNOT as a 2-target pattern via U on one target is symmetric, so
        // test with split = siswap(t1, s) on a lone piece: |s=1> -> (|s> + i|t1>)/sqrt2.
        let c = circuit(2, vec![Gate::SqrtISwap.on(&[Qubit(1), Qubit(0)])]);
        let u = c.unitary().unwrap();
        let h = 1.0 / 2f64.sqrt();
        assert!((u.get(0b01, 0b01) - c64(h, 0.0)).norm() < 1e-15);
        assert!((u.get(0b10, 0b01) - c64(0.0, h)).norm() < 1e-15);
    }

    #[test]
    fn inverse_times_circuit_is_identity() {
        let c = circuit(
            3,
            vec![
                Gate::H.on(&[Qubit(0)]),
                Instruction::gate(
                    Gate::SqrtISwap,
                    &[Qubit(1), Qubit(2)],
                    &[Control::zero(Qubit(0))],
                ),
                Gate::Rx(0.3).on(&[Qubit(2)]),
                Instruction::gate(
                    Gate::ISwap,
                    &[Qubit(0), Qubit(2)],
                    &[Control::one(Qubit(1))],
                ),
            ],
        );
        let u = c.unitary().unwrap();
        let v = c.inverse().unwrap().unitary().unwrap();
        assert!(v.mul(&u).approx_eq(&Matrix::identity(8), 1e-13));
        assert!(!u.approx_eq(&Matrix::identity(8), 1e-3));
    }
}
