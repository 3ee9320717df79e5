//! User gates applied as one matrix: a gate an OpenQASM program defines (`gate g a, b { ... }`)
//! on one to [`MAX_USER_GATE_QUBITS`] qubits whose body is no gate of the table. It keeps the
//! user's name and the body it was defined by (primitive gate instructions on its own qubits
//! `0..n`) together with the body's unitary, so that simulators apply one small matrix, export
//! (every target) writes the body gate by gate, and drawings show one named box.
//!
//! The matrix follows the gate table's convention: the first target is the most significant
//! bit of the row and column index. It is computed from the body when the gate is built
//! ([`UserGate::new`]); a gate read from JSON is checked by the verifier ([`UserGate::check`]):
//! the size before anything is computed, then unitarity and agreement with the body within
//! [`USER_GATE_TOLERANCE`].

use crate::circuit::Circuit;
use crate::guard::Guard;
use crate::ids::Qubit;
use crate::instruction::{Control, Instruction, Op};
use crate::matrix::Matrix;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The most qubits a user gate may act on (its matrix is at most 8 x 8).
pub const MAX_USER_GATE_QUBITS: usize = 3;

/// The most body instructions a user gate may hold (a body is a handful of gates; the bound keeps
/// checking a gate read from a file cheap).
pub const MAX_USER_GATE_BODY: usize = 4096;

/// The longest user gate name.
pub const MAX_USER_GATE_NAME: usize = 64;

/// Largest entry-wise difference accepted between the matrix and the body's unitary, and from
/// unitarity (a body of exact gates differs from its product by rounding, about 1e-15).
pub const USER_GATE_TOLERANCE: f64 = 1e-9;

/// What is wrong with a user gate.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum UserGateError {
    /// The name is empty, too long, or not an identifier (letters, digits, `_`; no digit first).
    #[error("user gate name `{0}` is not an identifier of at most 64 characters")]
    BadName(String),
    /// Zero qubits or more than [`MAX_USER_GATE_QUBITS`].
    #[error("user gate `{name}` acts on {qubits} qubit(s); 1 to 3 are allowed")]
    QubitCount {
        /// The gate's name.
        name: String,
        /// Its number of qubits.
        qubits: usize,
    },
    /// The body is longer than [`MAX_USER_GATE_BODY`].
    #[error("user gate `{name}` has {len} body instructions; at most 4096 are allowed")]
    BodyTooLong {
        /// The gate's name.
        name: String,
        /// The body's length.
        len: usize,
    },
    /// A body instruction is not an unconditioned table gate on the gate's own qubits.
    #[error("user gate `{name}`: body instruction {index} is not an unconditioned gate on distinct qubits among its {qubits}")]
    BadBody {
        /// The gate's name.
        name: String,
        /// Index of the body instruction.
        index: usize,
        /// The gate's number of qubits.
        qubits: usize,
    },
    /// A recorded angle is NaN or infinite.
    #[error("user gate `{name}` has a non-finite angle")]
    NonFiniteParam {
        /// The gate's name.
        name: String,
    },
    /// The matrix is not `2^n x 2^n` for the gate's `n` qubits.
    #[error("user gate `{name}`: its matrix is not {dim} x {dim}")]
    MatrixSize {
        /// The gate's name.
        name: String,
        /// The dimension it must have.
        dim: usize,
    },
    /// The matrix is not unitary within [`USER_GATE_TOLERANCE`].
    #[error("user gate `{name}`: its matrix is not unitary")]
    NotUnitary {
        /// The gate's name.
        name: String,
    },
    /// The matrix is not the body's unitary within [`USER_GATE_TOLERANCE`].
    #[error("user gate `{name}`: its matrix is not the unitary of its body")]
    BodyMismatch {
        /// The gate's name.
        name: String,
    },
}

/// A user gate: name, body and the body's unitary (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserGate {
    name: String,
    /// The angles of the call (`g(pi/2, 0.3)`), for drawings; the body has them applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    params: Vec<f64>,
    num_qubits: usize,
    body: Vec<Instruction>,
    matrix: Matrix,
}

impl UserGate {
    /// The gate `name` on `num_qubits` qubits defined by `body` (table gates on qubits
    /// `0..num_qubits`, no conditions); its matrix is the body's unitary.
    ///
    /// # Errors
    /// A bad name, qubit count or body ([`UserGateError`]).
    pub fn new(
        name: &str,
        num_qubits: usize,
        body: Vec<Instruction>,
    ) -> Result<UserGate, UserGateError> {
        check_shape(name, num_qubits, &body)?;
        let matrix = body_matrix(num_qubits, &body);
        Ok(UserGate {
            name: name.to_string(),
            params: Vec::new(),
            num_qubits,
            body,
            matrix,
        })
    }

    /// The same gate, recording the angles the call gave the definition's parameters (the body
    /// already has them applied; they are kept so that a drawing can tell `g(0.1)` from `g(0.2)`).
    pub fn with_params(mut self, params: &[f64]) -> UserGate {
        self.params = params.to_vec();
        self
    }

    /// The user's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The angles of the call (empty for a gate without parameters).
    pub fn params(&self) -> &[f64] {
        &self.params
    }

    /// The number of qubits (targets) it acts on.
    pub fn num_qubits(&self) -> usize {
        self.num_qubits
    }

    /// The body: table gates on the gate's own qubits `0..num_qubits`.
    pub fn body(&self) -> &[Instruction] {
        &self.body
    }

    /// The unitary (first target = most significant bit).
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The inverse: named `NAME_inv`, body reversed with each gate inverted, matrix adjoint.
    pub fn inverse(&self) -> UserGate {
        let body = self
            .body
            .iter()
            .rev()
            .map(|i| match &i.op {
                Op::Gate {
                    gate,
                    targets,
                    controls,
                } => Instruction::gate(gate.inverse(), targets, controls),
                _ => i.clone(),
            })
            .collect();
        let mut name = format!("{}_inv", self.name);
        name.truncate(MAX_USER_GATE_NAME);
        UserGate {
            name,
            params: self.params.clone(),
            num_qubits: self.num_qubits,
            body,
            matrix: self.matrix.adjoint(),
        }
    }

    /// The body as instructions of a circuit: local qubit `k` becomes `targets[k]`, every
    /// instruction gets `controls` added and `condition` set. Applying them one by one does what
    /// the gate does (the inlined form).
    pub fn inlined(
        &self,
        targets: &[Qubit],
        controls: &[Control],
        condition: Option<&Guard>,
    ) -> Vec<Instruction> {
        self.body
            .iter()
            .filter_map(|i| match &i.op {
                Op::Gate {
                    gate,
                    targets: t,
                    controls: c,
                } => {
                    let t: Vec<Qubit> = t.iter().map(|q| targets[q.index()]).collect();
                    let mut all: Vec<Control> = c
                        .iter()
                        .map(|c| Control {
                            qubit: targets[c.qubit.index()],
                            on: c.on,
                        })
                        .collect();
                    all.extend_from_slice(controls);
                    let mut instr = Instruction::gate(*gate, &t, &all);
                    instr.condition = condition.cloned();
                    Some(instr)
                }
                _ => None,
            })
            .collect()
    }

    /// Checks a gate that was not built by [`UserGate::new`] (read from JSON): name, qubit count
    /// and body first, then the matrix's size before any arithmetic, then unitarity and agreement
    /// with the body.
    ///
    /// # Errors
    /// The first problem found.
    pub fn check(&self) -> Result<(), UserGateError> {
        check_shape(&self.name, self.num_qubits, &self.body)?;
        if !self.params.iter().all(|p| p.is_finite()) {
            return Err(UserGateError::NonFiniteParam {
                name: self.name.clone(),
            });
        }
        let dim = 1usize << self.num_qubits;
        if !self.matrix.is_square_of(dim) {
            return Err(UserGateError::MatrixSize {
                name: self.name.clone(),
                dim,
            });
        }
        if !self.matrix.is_unitary(USER_GATE_TOLERANCE) {
            return Err(UserGateError::NotUnitary {
                name: self.name.clone(),
            });
        }
        if !body_matrix(self.num_qubits, &self.body).approx_eq(&self.matrix, USER_GATE_TOLERANCE) {
            return Err(UserGateError::BodyMismatch {
                name: self.name.clone(),
            });
        }
        Ok(())
    }
}

/// A user gate instruction written as its body: the body's gates on the call's targets, each with
/// the call's controls, condition and origin ([`UserGate::inlined`]); `None` for any other
/// instruction.
pub fn inline_instruction(instr: &Instruction) -> Option<Vec<Instruction>> {
    let Op::UserGate {
        gate,
        targets,
        controls,
    } = &instr.op
    else {
        return None;
    };
    let mut body = gate.inlined(targets, controls, instr.condition.as_ref());
    for i in &mut body {
        i.origin.clone_from(&instr.origin);
    }
    Some(body)
}

/// Whether `name` can name a user gate (an OpenQASM identifier of bounded length).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    name.len() <= MAX_USER_GATE_NAME
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Name, qubit count and body, checked before anything is computed from them.
fn check_shape(name: &str, num_qubits: usize, body: &[Instruction]) -> Result<(), UserGateError> {
    if !is_identifier(name) {
        return Err(UserGateError::BadName(name.to_string()));
    }
    if num_qubits == 0 || num_qubits > MAX_USER_GATE_QUBITS {
        return Err(UserGateError::QubitCount {
            name: name.to_string(),
            qubits: num_qubits,
        });
    }
    if body.len() > MAX_USER_GATE_BODY {
        return Err(UserGateError::BodyTooLong {
            name: name.to_string(),
            len: body.len(),
        });
    }
    for (index, instr) in body.iter().enumerate() {
        let good = match &instr.op {
            Op::Gate { gate, targets, .. } => {
                let qubits = instr.op.qubits();
                instr.condition.is_none()
                    && targets.len() == gate.num_targets()
                    && gate.params_finite()
                    && qubits.iter().all(|q| q.index() < num_qubits)
                    && (0..qubits.len()).all(|k| !qubits[..k].contains(&qubits[k]))
            }
            _ => false,
        };
        if !good {
            return Err(UserGateError::BadBody {
                name: name.to_string(),
                index,
                qubits: num_qubits,
            });
        }
    }
    Ok(())
}

/// The unitary of a checked body, first qubit = most significant bit. [`Circuit::unitary`]
/// numbers qubit `k` as bit `k`; the gate convention reverses the bits.
fn body_matrix(num_qubits: usize, body: &[Instruction]) -> Matrix {
    let mut circuit = Circuit::with_plain_qubits(num_qubits as u32, 0);
    circuit.extend(body.iter().cloned());
    let lsb_first = circuit
        .unitary()
        .expect("a checked body has at most 3 qubits, all in range, and only gates");
    let dim = 1usize << num_qubits;
    let reverse =
        |i: usize| (0..num_qubits).fold(0, |r, b| r | (((i >> b) & 1) << (num_qubits - 1 - b)));
    let mut m = Matrix::zeros(dim);
    for r in 0..dim {
        for c in 0..dim {
            m.set(reverse(r), reverse(c), lsb_first.get(r, c));
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::Gate;

    #[test]
    fn the_matrix_puts_the_first_qubit_in_the_most_significant_bit() {
        // X on local qubit 0 of two: |q0 q1> -> |(1-q0) q1>, i.e. row = col ^ 0b10.
        let g = UserGate::new("xi", 2, vec![Gate::X.on(&[Qubit(0)])]).unwrap();
        for c in 0..4 {
            assert_eq!(g.matrix().get(c ^ 0b10, c).re, 1.0);
        }
    }

    #[test]
    fn bad_shapes_are_refused() {
        let x0 = Gate::X.on(&[Qubit(0)]);
        assert!(matches!(
            UserGate::new("g", 4, vec![]),
            Err(UserGateError::QubitCount { qubits: 4, .. })
        ));
        assert!(matches!(
            UserGate::new("1g", 1, vec![]),
            Err(UserGateError::BadName(_))
        ));
        assert!(matches!(
            UserGate::new("g", 1, vec![Gate::X.on(&[Qubit(1)])]),
            Err(UserGateError::BadBody { index: 0, .. })
        ));
        assert!(matches!(
            UserGate::new("g", 1, vec![x0; MAX_USER_GATE_BODY + 1]),
            Err(UserGateError::BodyTooLong { .. })
        ));
    }
}
