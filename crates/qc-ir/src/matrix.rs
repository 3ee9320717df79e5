//! A small dense complex matrix, enough for gate tables and `Circuit::unitary()` in tests.
//!
//! Row-major, square. Basis index convention for gate matrices: the first target is the most
//! significant bit (Kronecker order, as `circuits.md` writes `|s,t>`). For whole-circuit unitaries
//! (see [`crate::Circuit::unitary`]) qubit k is bit k of the basis index (Qiskit order).

use num_complex::Complex64;
use serde::{Deserialize, Serialize};

/// Shorthand for building complex numbers in tables.
pub const fn c64(re: f64, im: f64) -> Complex64 {
    Complex64::new(re, im)
}

/// A square complex matrix stored row-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matrix {
    dim: usize,
    data: Vec<Complex64>,
}

impl Matrix {
    /// The `dim x dim` identity.
    pub fn identity(dim: usize) -> Matrix {
        let mut m = Matrix::zeros(dim);
        for i in 0..dim {
            m.data[i * dim + i] = Complex64::new(1.0, 0.0);
        }
        m
    }

    /// The `dim x dim` zero matrix.
    pub fn zeros(dim: usize) -> Matrix {
        Matrix {
            dim,
            data: vec![Complex64::new(0.0, 0.0); dim * dim],
        }
    }

    /// Builds a matrix from rows; every row must have `rows.len()` entries.
    ///
    /// # Panics
    /// If the rows do not form a square matrix (a programming error in a table).
    pub fn from_rows<const N: usize>(rows: [[Complex64; N]; N]) -> Matrix {
        let mut data = Vec::with_capacity(N * N);
        for row in rows {
            data.extend_from_slice(&row);
        }
        Matrix { dim: N, data }
    }

    /// A `dim x dim` matrix from its entries, row by row.
    ///
    /// # Panics
    /// If `data` does not hold `dim * dim` entries (a programming error).
    pub fn from_row_major(dim: usize, data: Vec<Complex64>) -> Matrix {
        assert_eq!(data.len(), dim * dim, "a square matrix needs dim^2 entries");
        Matrix { dim, data }
    }

    /// Whether this is a well-formed `dim x dim` matrix (a matrix read from JSON may not be).
    pub fn is_square_of(&self, dim: usize) -> bool {
        self.dim == dim && dim.checked_mul(dim) == Some(self.data.len())
    }

    /// Number of rows (= columns).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Entry at `(row, col)`.
    #[inline]
    pub fn get(&self, row: usize, col: usize) -> Complex64 {
        self.data[row * self.dim + col]
    }

    /// Sets the entry at `(row, col)`.
    #[inline]
    pub fn set(&mut self, row: usize, col: usize, value: Complex64) {
        self.data[row * self.dim + col] = value;
    }

    /// Row-major entries.
    pub fn as_slice(&self) -> &[Complex64] {
        &self.data
    }

    /// Matrix product `self * rhs`.
    ///
    /// # Panics
    /// If the dimensions differ.
    pub fn mul(&self, rhs: &Matrix) -> Matrix {
        assert_eq!(self.dim, rhs.dim, "matrix dimensions differ");
        let n = self.dim;
        let mut out = Matrix::zeros(n);
        for i in 0..n {
            for k in 0..n {
                let a = self.data[i * n + k];
                if a == Complex64::new(0.0, 0.0) {
                    continue;
                }
                for j in 0..n {
                    out.data[i * n + j] += a * rhs.data[k * n + j];
                }
            }
        }
        out
    }

    /// Conjugate transpose.
    pub fn adjoint(&self) -> Matrix {
        let n = self.dim;
        let mut out = Matrix::zeros(n);
        for i in 0..n {
            for j in 0..n {
                out.data[j * n + i] = self.data[i * n + j].conj();
            }
        }
        out
    }

    /// Multiplies every entry by `factor`.
    pub fn scale(&self, factor: Complex64) -> Matrix {
        Matrix {
            dim: self.dim,
            data: self.data.iter().map(|v| v * factor).collect(),
        }
    }

    /// Largest entry-wise distance to `other`.
    pub fn max_distance(&self, other: &Matrix) -> f64 {
        assert_eq!(self.dim, other.dim, "matrix dimensions differ");
        self.data
            .iter()
            .zip(&other.data)
            .map(|(a, b)| (a - b).norm())
            .fold(0.0, f64::max)
    }

    /// True when every entry is within `tol` of `other`'s.
    pub fn approx_eq(&self, other: &Matrix, tol: f64) -> bool {
        self.dim == other.dim && self.max_distance(other) <= tol
    }

    /// True when `self = e^{i phi} other` for some global phase, within `tol`.
    pub fn approx_eq_up_to_phase(&self, other: &Matrix, tol: f64) -> bool {
        self.phase_relative_to(other, tol).is_some()
    }

    /// The global phase factor `e^{i phi}` with `self = e^{i phi} other` within `tol`, or `None`
    /// when the two differ by more than a phase (or in dimension).
    pub fn phase_relative_to(&self, other: &Matrix, tol: f64) -> Option<Complex64> {
        if self.dim != other.dim {
            return None;
        }
        // Fix the phase on the largest entry of `other`, then compare entry-wise.
        let Some((index, _)) = other
            .data
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.norm().total_cmp(&b.1.norm()))
        else {
            return Some(Complex64::new(1.0, 0.0));
        };
        if other.data[index].norm() < tol {
            return self
                .data
                .iter()
                .all(|v| v.norm() <= tol)
                .then_some(Complex64::new(1.0, 0.0));
        }
        let phase = self.data[index] / other.data[index];
        if (phase.norm() - 1.0).abs() > tol {
            return None;
        }
        self.approx_eq(&other.scale(phase), tol).then_some(phase)
    }

    /// True when `self * self^dagger = I` within `tol`.
    pub fn is_unitary(&self, tol: f64) -> bool {
        self.mul(&self.adjoint())
            .approx_eq(&Matrix::identity(self.dim), tol)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_and_adjoint() {
        let a = Matrix::from_rows([
            [c64(1.0, 0.0), c64(0.0, 1.0)],
            [c64(2.0, 0.0), c64(0.0, 0.0)],
        ]);
        let b = Matrix::from_rows([
            [c64(0.0, 0.0), c64(1.0, 0.0)],
            [c64(1.0, 0.0), c64(0.0, 0.0)],
        ]);
        let ab = a.mul(&b);
        let expected = Matrix::from_rows([
            [c64(0.0, 1.0), c64(1.0, 0.0)],
            [c64(0.0, 0.0), c64(2.0, 0.0)],
        ]);
        assert!(ab.approx_eq(&expected, 1e-15));
        assert_eq!(a.adjoint().get(0, 1), c64(2.0, 0.0));
        assert_eq!(a.adjoint().get(1, 0), c64(0.0, -1.0));
    }

    #[test]
    fn phase_equivalence() {
        let i2 = Matrix::identity(2);
        assert!(i2.scale(c64(0.0, 1.0)).approx_eq_up_to_phase(&i2, 1e-12));
        assert!(!i2.scale(c64(0.0, 1.0)).approx_eq(&i2, 1e-12));
        let z = Matrix::from_rows([
            [c64(1.0, 0.0), c64(0.0, 0.0)],
            [c64(0.0, 0.0), c64(-1.0, 0.0)],
        ]);
        assert!(!z.approx_eq_up_to_phase(&i2, 1e-12));
    }
}
