//! Fixed-size complex matrices for one and two qubits: what routing and re-synthesis multiply,
//! compare and decompose thousands of times (qc-ir's `Matrix` is sized at run time).
//!
//! Convention (as qc-ir's gate matrices): in a [`Mat4`] on the ordered pair `(hi, lo)`, `hi` is
//! the most significant bit of the basis index; `Mat2::kron(a, b)` puts `a` on `hi`.

use num_complex::Complex64;
use qc_ir::Matrix;

/// A complex number.
pub type C = Complex64;

const ZERO: C = C::new(0.0, 0.0);
const ONE: C = C::new(1.0, 0.0);

/// A 2x2 complex matrix (a single-qubit gate).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Mat2(pub [[C; 2]; 2]);

/// A 4x4 complex matrix (a two-qubit gate; see the module docs for the order).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Mat4(pub [[C; 4]; 4]);

impl Mat2 {
    /// The identity.
    pub const IDENTITY: Mat2 = Mat2([[ONE, ZERO], [ZERO, ONE]]);

    /// From rows of real and imaginary parts.
    pub fn new(rows: [[(f64, f64); 2]; 2]) -> Mat2 {
        Mat2(rows.map(|r| r.map(|(re, im)| C::new(re, im))))
    }

    /// From a qc-ir 2x2 matrix (`None` for another size).
    pub fn from_matrix(m: &Matrix) -> Option<Mat2> {
        m.is_square_of(2)
            .then(|| Mat2([[m.get(0, 0), m.get(0, 1)], [m.get(1, 0), m.get(1, 1)]]))
    }

    /// As a qc-ir matrix.
    pub fn to_matrix(&self) -> Matrix {
        Matrix::from_rows(self.0)
    }

    /// The product `self * rhs` (`rhs` acts first).
    pub fn mul(&self, rhs: &Mat2) -> Mat2 {
        let mut out = [[ZERO; 2]; 2];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.0[i][0] * rhs.0[0][j] + self.0[i][1] * rhs.0[1][j];
            }
        }
        Mat2(out)
    }

    /// The conjugate transpose.
    pub fn adjoint(&self) -> Mat2 {
        let m = &self.0;
        Mat2([
            [m[0][0].conj(), m[1][0].conj()],
            [m[0][1].conj(), m[1][1].conj()],
        ])
    }

    /// `self` times `factor`.
    pub fn scale(&self, factor: C) -> Mat2 {
        Mat2(self.0.map(|r| r.map(|v| v * factor)))
    }

    /// The determinant.
    pub fn det(&self) -> C {
        self.0[0][0] * self.0[1][1] - self.0[0][1] * self.0[1][0]
    }

    /// The unitary closest to `self` in the form `e^{i phi} [[a, -b*], [b, a*]]` with
    /// `|a|^2 + |b|^2 = 1`: products and decompositions drift from unitarity by rounding, and
    /// what is written out must be exactly a gate.
    pub fn unitarized(&self) -> Mat2 {
        let det = self.det();
        if det.norm() < 1e-300 {
            return *self;
        }
        let phase = det.sqrt();
        let su = self.scale(phase.inv());
        let a = (su.0[0][0] + su.0[1][1].conj()) / 2.0;
        let b = (su.0[1][0] - su.0[0][1].conj()) / 2.0;
        let norm = (a.norm_sqr() + b.norm_sqr()).sqrt();
        if norm < 1e-300 {
            return *self;
        }
        let (a, b) = (a / norm, b / norm);
        Mat2([[a, -b.conj()], [b, a.conj()]]).scale(phase / phase.norm())
    }

    /// `a (x) b`: `a` on the high qubit.
    pub fn kron(a: &Mat2, b: &Mat2) -> Mat4 {
        let mut out = [[ZERO; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = a.0[i >> 1][j >> 1] * b.0[i & 1][j & 1];
            }
        }
        Mat4(out)
    }

    /// True when `self = e^{i phi} other` within `tol` for some phase.
    pub fn eq_up_to_phase(&self, other: &Mat2, tol: f64) -> bool {
        eq_up_to_phase(self.0.as_flattened(), other.0.as_flattened(), tol)
    }

    /// True when `self` is the identity up to a global phase, within `tol`.
    pub fn is_identity(&self, tol: f64) -> bool {
        self.eq_up_to_phase(&Mat2::IDENTITY, tol)
    }

    /// When `self` maps the basis state `|value>` to one basis state up to a phase: that state.
    pub fn maps_basis_state(&self, value: bool, tol: f64) -> Option<bool> {
        let col = usize::from(value);
        let (to0, to1) = (self.0[0][col].norm(), self.0[1][col].norm());
        if to1 <= tol {
            Some(false)
        } else if to0 <= tol {
            Some(true)
        } else {
            None
        }
    }
}

impl Mat4 {
    /// The identity.
    pub const IDENTITY: Mat4 = Mat4([
        [ONE, ZERO, ZERO, ZERO],
        [ZERO, ONE, ZERO, ZERO],
        [ZERO, ZERO, ONE, ZERO],
        [ZERO, ZERO, ZERO, ONE],
    ]);

    /// SWAP.
    pub const SWAP: Mat4 = Mat4([
        [ONE, ZERO, ZERO, ZERO],
        [ZERO, ZERO, ONE, ZERO],
        [ZERO, ONE, ZERO, ZERO],
        [ZERO, ZERO, ZERO, ONE],
    ]);

    /// CZ (symmetric).
    pub const CZ: Mat4 = Mat4([
        [ONE, ZERO, ZERO, ZERO],
        [ZERO, ONE, ZERO, ZERO],
        [ZERO, ZERO, ONE, ZERO],
        [ZERO, ZERO, ZERO, C::new(-1.0, 0.0)],
    ]);

    /// CNOT with the high qubit as control.
    pub const CX_HI_LO: Mat4 = Mat4([
        [ONE, ZERO, ZERO, ZERO],
        [ZERO, ONE, ZERO, ZERO],
        [ZERO, ZERO, ZERO, ONE],
        [ZERO, ZERO, ONE, ZERO],
    ]);

    /// CNOT with the low qubit as control.
    pub const CX_LO_HI: Mat4 = Mat4([
        [ONE, ZERO, ZERO, ZERO],
        [ZERO, ZERO, ZERO, ONE],
        [ZERO, ZERO, ONE, ZERO],
        [ZERO, ONE, ZERO, ZERO],
    ]);

    /// From a qc-ir 4x4 matrix (`None` for another size).
    pub fn from_matrix(m: &Matrix) -> Option<Mat4> {
        if !m.is_square_of(4) {
            return None;
        }
        let mut out = [[ZERO; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = m.get(i, j);
            }
        }
        Some(Mat4(out))
    }

    /// As a qc-ir matrix.
    pub fn to_matrix(&self) -> Matrix {
        Matrix::from_rows(self.0)
    }

    /// The product `self * rhs` (`rhs` acts first).
    pub fn mul(&self, rhs: &Mat4) -> Mat4 {
        let mut out = [[ZERO; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = (0..4).map(|k| self.0[i][k] * rhs.0[k][j]).sum();
            }
        }
        Mat4(out)
    }

    /// The conjugate transpose.
    pub fn adjoint(&self) -> Mat4 {
        let mut out = [[ZERO; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.0[j][i].conj();
            }
        }
        Mat4(out)
    }

    /// The transpose.
    pub fn transpose(&self) -> Mat4 {
        let mut out = [[ZERO; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.0[j][i];
            }
        }
        Mat4(out)
    }

    /// `self` times `factor`.
    pub fn scale(&self, factor: C) -> Mat4 {
        Mat4(self.0.map(|r| r.map(|v| v * factor)))
    }

    /// The same gate with its two qubits exchanged (`SWAP self SWAP`).
    pub fn swapped(&self) -> Mat4 {
        const P: [usize; 4] = [0, 2, 1, 3];
        let mut out = [[ZERO; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.0[P[i]][P[j]];
            }
        }
        Mat4(out)
    }

    /// `a` on the high qubit, identity on the low one.
    pub fn on_hi(a: &Mat2) -> Mat4 {
        Mat2::kron(a, &Mat2::IDENTITY)
    }

    /// `b` on the low qubit, identity on the high one.
    pub fn on_lo(b: &Mat2) -> Mat4 {
        Mat2::kron(&Mat2::IDENTITY, b)
    }

    /// The determinant (Gaussian elimination with partial pivoting).
    pub fn det(&self) -> C {
        let mut m = self.0;
        let mut det = ONE;
        for col in 0..4 {
            let pivot = (col..4)
                .max_by(|&a, &b| m[a][col].norm().total_cmp(&m[b][col].norm()))
                .unwrap_or(col);
            if m[pivot][col].norm() == 0.0 {
                return ZERO;
            }
            if pivot != col {
                m.swap(pivot, col);
                det = -det;
            }
            det *= m[col][col];
            let pivot_row = m[col];
            for row in m.iter_mut().skip(col + 1) {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
        det
    }

    /// True when `self = e^{i phi} other` within `tol` for some phase.
    pub fn eq_up_to_phase(&self, other: &Mat4, tol: f64) -> bool {
        eq_up_to_phase(self.0.as_flattened(), other.0.as_flattened(), tol)
    }

    /// The 2x2 block acting on the low qubit when the high one is the basis state `hi`, if the
    /// gate keeps the high qubit there (no amplitude leaves it, within `tol`).
    pub fn block_keeping_hi(&self, hi: bool, tol: f64) -> Option<Mat2> {
        let h = usize::from(hi) * 2;
        let o = 2 - h;
        let leaks = (0..2).any(|i| (0..2).any(|j| self.0[o + i][h + j].norm() > tol));
        (!leaks).then(|| {
            Mat2([
                [self.0[h][h], self.0[h][h + 1]],
                [self.0[h + 1][h], self.0[h + 1][h + 1]],
            ])
        })
    }
}

/// True when the row-major entries `a = e^{i phi} b` within `tol` for some phase.
fn eq_up_to_phase(a: &[C], b: &[C], tol: f64) -> bool {
    let Some(k) = (0..b.len()).max_by(|&i, &j| b[i].norm().total_cmp(&b[j].norm())) else {
        return true;
    };
    if b[k].norm() <= tol {
        return a.iter().all(|v| v.norm() <= tol);
    }
    let phase = a[k] / b[k];
    if (phase.norm() - 1.0).abs() > tol {
        return false;
    }
    a.iter().zip(b).all(|(x, y)| (x - y * phase).norm() <= tol)
}

/// `e^{i x}`.
pub fn expi(x: f64) -> C {
    C::from_polar(1.0, x)
}

/// `exp(-i theta X / 2)`.
pub fn rx(theta: f64) -> Mat2 {
    let (c, s) = ((theta / 2.0).cos(), (theta / 2.0).sin());
    Mat2([
        [C::new(c, 0.0), C::new(0.0, -s)],
        [C::new(0.0, -s), C::new(c, 0.0)],
    ])
}

/// `exp(-i theta Y / 2)`.
pub fn ry(theta: f64) -> Mat2 {
    let (c, s) = ((theta / 2.0).cos(), (theta / 2.0).sin());
    Mat2([
        [C::new(c, 0.0), C::new(-s, 0.0)],
        [C::new(s, 0.0), C::new(c, 0.0)],
    ])
}

/// `exp(-i theta Z / 2)`.
pub fn rz(theta: f64) -> Mat2 {
    Mat2([[expi(-theta / 2.0), ZERO], [ZERO, expi(theta / 2.0)]])
}

/// The Hadamard gate.
pub fn hadamard() -> Mat2 {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    Mat2::new([[(h, 0.0), (h, 0.0)], [(h, 0.0), (-h, 0.0)]])
}

/// The Pauli matrices X, Y, Z.
pub fn paulis() -> [Mat2; 3] {
    [
        Mat2::new([[(0.0, 0.0), (1.0, 0.0)], [(1.0, 0.0), (0.0, 0.0)]]),
        Mat2::new([[(0.0, 0.0), (0.0, -1.0)], [(0.0, 1.0), (0.0, 0.0)]]),
        Mat2::new([[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (-1.0, 0.0)]]),
    ]
}

/// The eigen decomposition of a real symmetric 4x4 matrix by cyclic Jacobi rotations:
/// `(values, vectors)` with `vectors[.][k]` (column `k`) the eigenvector of `values[k]`; the
/// columns are orthonormal. Converges quadratically; at most 64 sweeps.
pub fn symmetric_eigen(a: [[f64; 4]; 4]) -> ([f64; 4], [[f64; 4]; 4]) {
    let mut a = a;
    let mut v = [[0.0; 4]; 4];
    for (i, row) in v.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    let scale: f64 = a.as_flattened().iter().map(|x| x * x).sum::<f64>().sqrt();
    for _ in 0..64 {
        let off: f64 = (0..4)
            .flat_map(|i| (0..4).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum::<f64>()
            .sqrt();
        if off <= 1e-300 || off <= 1e-17 * scale {
            break;
        }
        for p in 0..3 {
            for q in p + 1..4 {
                if a[p][q] == 0.0 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (rp, rq) = (a[p], a[q]);
                for (k, (apk, aqk)) in rp.into_iter().zip(rq).enumerate() {
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    ([a[0][0], a[1][1], a[2][2], a[3][3]], v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kron_puts_the_first_factor_on_the_high_qubit() {
        let [x, _, z] = paulis();
        let xz = Mat2::kron(&x, &z);
        // |00> -> |10> (X on hi), |01> -> -|11>.
        assert_eq!(xz.0[2][0], ONE);
        assert_eq!(xz.0[3][1], C::new(-1.0, 0.0));
        assert!(Mat4::CX_HI_LO
            .swapped()
            .eq_up_to_phase(&Mat4::CX_LO_HI, 1e-12));
        let h = hadamard();
        let cx = Mat4::on_lo(&h).mul(&Mat4::CZ).mul(&Mat4::on_lo(&h));
        assert!(cx.eq_up_to_phase(&Mat4::CX_HI_LO, 1e-12));
        assert!((Mat4::SWAP.det() + ONE).norm() < 1e-12);
        assert!((Mat2::kron(&h, &x).det() - ONE).norm() < 1e-12);
    }

    #[test]
    fn jacobi_diagonalises_a_symmetric_matrix() {
        let a = [
            [2.0, 1.0, 0.5, 0.0],
            [1.0, 3.0, 0.0, 0.2],
            [0.5, 0.0, -1.0, 0.7],
            [0.0, 0.2, 0.7, 0.0],
        ];
        let (values, v) = symmetric_eigen(a);
        for k in 0..4 {
            for i in 0..4 {
                let av: f64 = (0..4).map(|j| a[i][j] * v[j][k]).sum();
                assert!((av - values[k] * v[i][k]).abs() < 1e-12);
            }
        }
    }
}
