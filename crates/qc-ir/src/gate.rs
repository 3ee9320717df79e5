//! The gate set: one `Copy` enum with its angles, its kind ([`GateKind`], the key of the gate
//! table in [`crate::gate_data`]), and the facts that depend on the angles: the exact matrix and
//! the inverse, as exhaustive matches (adding a variant fails to compile until they are stated).
//! Names, arity, OpenQASM spellings and definitions live in the table. Controls are not part of a gate: CNOT is `X` with one control (see
//! [`crate::Control`]).
//!
//! Matrix convention: for a two-qubit gate applied to targets `[a, b]`, the basis is
//! `|a b> = |00>, |01>, |10>, |11>` with `a` the most significant bit (Kronecker order, as in
//! `circuits.md`). Every two-qubit gate here is symmetric in its targets, so the order never
//! changes the result.

use crate::gate_data::GateInfo;
use crate::matrix::{c64, Matrix};
use num_complex::Complex64;
use serde::{Deserialize, Serialize};
use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_4};
use std::fmt;

/// A unitary gate without controls. Parameterised gates carry their angles in radians.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "gate", content = "params", rename_all = "snake_case")]
pub enum Gate {
    /// Identity.
    I,
    /// Pauli X (NOT). With one control it is CNOT.
    X,
    /// Pauli Y.
    Y,
    /// Pauli Z.
    Z,
    /// Hadamard.
    H,
    /// Phase gate S = diag(1, i).
    S,
    /// S dagger = diag(1, -i).
    Sdg,
    /// T = diag(1, e^{i pi/4}).
    T,
    /// T dagger.
    Tdg,
    /// Square root of X: (1/2)[[1+i, 1-i], [1-i, 1+i]].
    SX,
    /// Inverse of SX.
    SXdg,
    /// Rotation about X: exp(-i theta X / 2).
    Rx(f64),
    /// Rotation about Y: exp(-i theta Y / 2).
    Ry(f64),
    /// Rotation about Z: exp(-i theta Z / 2) = diag(e^{-i theta/2}, e^{i theta/2}).
    Rz(f64),
    /// Phase: diag(1, e^{i lambda}).
    Phase(f64),
    /// General single-qubit gate U(theta, phi, lambda) as OpenQASM 3 defines it:
    /// [[cos(t/2), -e^{i l} sin(t/2)], [e^{i p} sin(t/2), e^{i(p+l)} cos(t/2)]].
    U(f64, f64, f64),
    /// SWAP.
    Swap,
    /// iSWAP: |01> -> i|10>, |10> -> i|01>.
    ISwap,
    /// Inverse iSWAP: |01> -> -i|10>, |10> -> -i|01>.
    ISwapDg,
    /// Square root of iSWAP: |01> -> (|01> + i|10>)/sqrt2, |10> -> (i|01> + |10>)/sqrt2.
    SqrtISwap,
    /// Inverse square root of iSWAP.
    SqrtISwapDg,
    /// ZZ rotation exp(-i theta/2 Z(x)Z) = diag(e^{-i theta/2}, e^{i theta/2}, e^{i theta/2},
    /// e^{-i theta/2}): the continuous-angle entangler of trapped-ion devices.
    Rzz(f64),
    /// IBM's echoed cross-resonance gate, `(X(x)I - Y(x)X)/sqrt2` with the first target (the
    /// driven qubit) on the left: `exp(i pi/4 Z(x)X) (X(x)I)`, locally a CNOT, its own inverse.
    /// Qiskit's `ecr q0, q1`.
    Ecr,
}

/// Declares [`GateKind`] and its list of all kinds at once, so the list cannot miss a variant.
macro_rules! gate_kinds {
    ($($(#[$doc:meta])* $kind:ident,)*) => {
        /// The kind of a [`Gate`] without its angles: the key of the gate table
        /// ([`crate::gate_data::GATES`]).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GateKind {
            $($(#[$doc])* $kind,)*
        }

        impl GateKind {
            /// Every kind, in declaration order (`ALL[k as usize] == k`).
            pub const ALL: [GateKind; GateKind::COUNT] = [$(GateKind::$kind,)*];
            /// The number of kinds.
            pub const COUNT: usize = [$(stringify!($kind),)*].len();
        }
    };
}

gate_kinds! {
    /// [`Gate::I`].
    I,
    /// [`Gate::X`].
    X,
    /// [`Gate::Y`].
    Y,
    /// [`Gate::Z`].
    Z,
    /// [`Gate::H`].
    H,
    /// [`Gate::S`].
    S,
    /// [`Gate::Sdg`].
    Sdg,
    /// [`Gate::T`].
    T,
    /// [`Gate::Tdg`].
    Tdg,
    /// [`Gate::SX`].
    SX,
    /// [`Gate::SXdg`].
    SXdg,
    /// [`Gate::Rx`].
    Rx,
    /// [`Gate::Ry`].
    Ry,
    /// [`Gate::Rz`].
    Rz,
    /// [`Gate::Phase`].
    Phase,
    /// [`Gate::U`].
    U,
    /// [`Gate::Swap`].
    Swap,
    /// [`Gate::ISwap`].
    ISwap,
    /// [`Gate::ISwapDg`].
    ISwapDg,
    /// [`Gate::SqrtISwap`].
    SqrtISwap,
    /// [`Gate::SqrtISwapDg`].
    SqrtISwapDg,
    /// [`Gate::Rzz`].
    Rzz,
    /// [`Gate::Ecr`].
    Ecr,
}

/// Representative angles for examples and tests (distinct, not multiples of pi/2).
const EXAMPLE_ANGLES: [f64; 3] = [0.7, -1.3, 1.9];

impl GateKind {
    /// The gate of this kind with `params` (radians); `None` when the number of angles is wrong.
    pub fn with_params(self, params: &[f64]) -> Option<Gate> {
        let gate = match (self, params) {
            (GateKind::I, []) => Gate::I,
            (GateKind::X, []) => Gate::X,
            (GateKind::Y, []) => Gate::Y,
            (GateKind::Z, []) => Gate::Z,
            (GateKind::H, []) => Gate::H,
            (GateKind::S, []) => Gate::S,
            (GateKind::Sdg, []) => Gate::Sdg,
            (GateKind::T, []) => Gate::T,
            (GateKind::Tdg, []) => Gate::Tdg,
            (GateKind::SX, []) => Gate::SX,
            (GateKind::SXdg, []) => Gate::SXdg,
            (GateKind::Rx, [a]) => Gate::Rx(*a),
            (GateKind::Ry, [a]) => Gate::Ry(*a),
            (GateKind::Rz, [a]) => Gate::Rz(*a),
            (GateKind::Phase, [a]) => Gate::Phase(*a),
            (GateKind::U, [a, b, c]) => Gate::U(*a, *b, *c),
            (GateKind::Swap, []) => Gate::Swap,
            (GateKind::ISwap, []) => Gate::ISwap,
            (GateKind::ISwapDg, []) => Gate::ISwapDg,
            (GateKind::SqrtISwap, []) => Gate::SqrtISwap,
            (GateKind::SqrtISwapDg, []) => Gate::SqrtISwapDg,
            (GateKind::Rzz, [a]) => Gate::Rzz(*a),
            (GateKind::Ecr, []) => Gate::Ecr,
            _ => return None,
        };
        Some(gate)
    }

    /// The gate of this kind with representative angles (for examples and tests).
    pub fn example(self) -> Gate {
        let n = self.info().params;
        self.with_params(&EXAMPLE_ANGLES[..n])
            .expect("the table's parameter count matches `with_params`")
    }
}

impl Gate {
    /// One gate of every kind with representative angles: what tests that must cover every gate
    /// iterate over (it enumerates [`GateKind::ALL`], so it cannot miss a gate).
    pub fn examples() -> impl Iterator<Item = Gate> {
        GateKind::ALL.into_iter().map(GateKind::example)
    }

    /// The kind of this gate (its key in the gate table).
    pub const fn kind(self) -> GateKind {
        match self {
            Gate::I => GateKind::I,
            Gate::X => GateKind::X,
            Gate::Y => GateKind::Y,
            Gate::Z => GateKind::Z,
            Gate::H => GateKind::H,
            Gate::S => GateKind::S,
            Gate::Sdg => GateKind::Sdg,
            Gate::T => GateKind::T,
            Gate::Tdg => GateKind::Tdg,
            Gate::SX => GateKind::SX,
            Gate::SXdg => GateKind::SXdg,
            Gate::Rx(_) => GateKind::Rx,
            Gate::Ry(_) => GateKind::Ry,
            Gate::Rz(_) => GateKind::Rz,
            Gate::Phase(_) => GateKind::Phase,
            Gate::U(..) => GateKind::U,
            Gate::Swap => GateKind::Swap,
            Gate::ISwap => GateKind::ISwap,
            Gate::ISwapDg => GateKind::ISwapDg,
            Gate::SqrtISwap => GateKind::SqrtISwap,
            Gate::SqrtISwapDg => GateKind::SqrtISwapDg,
            Gate::Rzz(_) => GateKind::Rzz,
            Gate::Ecr => GateKind::Ecr,
        }
    }

    /// This gate's record in the gate table.
    pub fn info(self) -> &'static GateInfo {
        self.kind().info()
    }

    /// The name users see (IR text, drawings, docs), e.g. `siswap`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Number of target qubits.
    pub fn num_targets(self) -> usize {
        self.info().targets
    }

    /// The angles of a parameterised gate (empty for fixed gates).
    pub fn params(self) -> Vec<f64> {
        match self {
            Gate::Rx(a) | Gate::Ry(a) | Gate::Rz(a) | Gate::Phase(a) | Gate::Rzz(a) => vec![a],
            Gate::U(a, b, c) => vec![a, b, c],
            Gate::I
            | Gate::X
            | Gate::Y
            | Gate::Z
            | Gate::H
            | Gate::S
            | Gate::Sdg
            | Gate::T
            | Gate::Tdg
            | Gate::SX
            | Gate::SXdg
            | Gate::Swap
            | Gate::ISwap
            | Gate::ISwapDg
            | Gate::SqrtISwap
            | Gate::SqrtISwapDg
            | Gate::Ecr => Vec::new(),
        }
    }

    /// Builds a gate from its IR name (or an older spelling such as `sqiswap`) and parameters;
    /// `None` if the name is unknown or the number of parameters is wrong.
    pub fn from_name(name: &str, params: &[f64]) -> Option<Gate> {
        GateKind::from_ir_name(name)?.with_params(params)
    }

    /// The inverse gate: `g.inverse().matrix() == g.matrix().adjoint()`.
    pub const fn inverse(self) -> Gate {
        match self {
            Gate::I => Gate::I,
            Gate::X => Gate::X,
            Gate::Y => Gate::Y,
            Gate::Z => Gate::Z,
            Gate::H => Gate::H,
            Gate::S => Gate::Sdg,
            Gate::Sdg => Gate::S,
            Gate::T => Gate::Tdg,
            Gate::Tdg => Gate::T,
            Gate::SX => Gate::SXdg,
            Gate::SXdg => Gate::SX,
            Gate::Rx(a) => Gate::Rx(-a),
            Gate::Ry(a) => Gate::Ry(-a),
            Gate::Rz(a) => Gate::Rz(-a),
            Gate::Phase(a) => Gate::Phase(-a),
            Gate::U(theta, phi, lambda) => Gate::U(-theta, -lambda, -phi),
            Gate::Swap => Gate::Swap,
            Gate::ISwap => Gate::ISwapDg,
            Gate::ISwapDg => Gate::ISwap,
            Gate::SqrtISwap => Gate::SqrtISwapDg,
            Gate::SqrtISwapDg => Gate::SqrtISwap,
            Gate::Rzz(a) => Gate::Rzz(-a),
            Gate::Ecr => Gate::Ecr,
        }
    }

    /// True when the matrix has exactly one nonzero entry per column (a permutation with phases):
    /// such a gate maps each basis state to one basis state, so a sparse state never grows.
    pub fn is_monomial(self) -> bool {
        self.info().monomial
    }

    /// True when the matrix is diagonal.
    pub fn is_diagonal(self) -> bool {
        self.info().diagonal
    }

    /// True when every parameter is a finite number.
    pub fn params_finite(self) -> bool {
        self.params().iter().all(|p| p.is_finite())
    }

    /// The exact unitary matrix (2x2 or 4x4, see the module docs for the basis order).
    pub fn matrix(self) -> Matrix {
        let o = c64(0.0, 0.0);
        let l = c64(1.0, 0.0);
        let i = c64(0.0, 1.0);
        let r = c64(FRAC_1_SQRT_2, 0.0);
        let ri = c64(0.0, FRAC_1_SQRT_2);
        let expi = |a: f64| Complex64::from_polar(1.0, a);
        match self {
            Gate::I => Matrix::from_rows([[l, o], [o, l]]),
            Gate::X => Matrix::from_rows([[o, l], [l, o]]),
            Gate::Y => Matrix::from_rows([[o, -i], [i, o]]),
            Gate::Z => Matrix::from_rows([[l, o], [o, -l]]),
            Gate::H => Matrix::from_rows([[r, r], [r, -r]]),
            Gate::S => Matrix::from_rows([[l, o], [o, i]]),
            Gate::Sdg => Matrix::from_rows([[l, o], [o, -i]]),
            Gate::T => Matrix::from_rows([[l, o], [o, expi(FRAC_PI_4)]]),
            Gate::Tdg => Matrix::from_rows([[l, o], [o, expi(-FRAC_PI_4)]]),
            Gate::SX => {
                let a = c64(0.5, 0.5);
                let b = c64(0.5, -0.5);
                Matrix::from_rows([[a, b], [b, a]])
            }
            Gate::SXdg => {
                let a = c64(0.5, -0.5);
                let b = c64(0.5, 0.5);
                Matrix::from_rows([[a, b], [b, a]])
            }
            Gate::Rx(theta) => {
                let c = c64((theta / 2.0).cos(), 0.0);
                let s = c64(0.0, -(theta / 2.0).sin());
                Matrix::from_rows([[c, s], [s, c]])
            }
            Gate::Ry(theta) => {
                let c = c64((theta / 2.0).cos(), 0.0);
                let s = c64((theta / 2.0).sin(), 0.0);
                Matrix::from_rows([[c, -s], [s, c]])
            }
            Gate::Rz(theta) => Matrix::from_rows([[expi(-theta / 2.0), o], [o, expi(theta / 2.0)]]),
            Gate::Phase(lambda) => Matrix::from_rows([[l, o], [o, expi(lambda)]]),
            Gate::U(theta, phi, lambda) => {
                let c = (theta / 2.0).cos();
                let s = (theta / 2.0).sin();
                Matrix::from_rows([
                    [c64(c, 0.0), -expi(lambda) * s],
                    [expi(phi) * s, expi(phi + lambda) * c],
                ])
            }
            Gate::Swap => {
                Matrix::from_rows([[l, o, o, o], [o, o, l, o], [o, l, o, o], [o, o, o, l]])
            }
            Gate::ISwap => {
                Matrix::from_rows([[l, o, o, o], [o, o, i, o], [o, i, o, o], [o, o, o, l]])
            }
            Gate::ISwapDg => {
                Matrix::from_rows([[l, o, o, o], [o, o, -i, o], [o, -i, o, o], [o, o, o, l]])
            }
            Gate::SqrtISwap => {
                Matrix::from_rows([[l, o, o, o], [o, r, ri, o], [o, ri, r, o], [o, o, o, l]])
            }
            Gate::SqrtISwapDg => {
                Matrix::from_rows([[l, o, o, o], [o, r, -ri, o], [o, -ri, r, o], [o, o, o, l]])
            }
            Gate::Rzz(theta) => {
                let (m, p) = (expi(-theta / 2.0), expi(theta / 2.0));
                Matrix::from_rows([[m, o, o, o], [o, p, o, o], [o, o, p, o], [o, o, o, m]])
            }
            Gate::Ecr => {
                Matrix::from_rows([[o, o, r, ri], [o, o, ri, r], [r, -ri, o, o], [-ri, r, o, o]])
            }
        }
    }
}

impl fmt::Display for Gate {
    /// Prints the canonical name with parameters, e.g. `rx(0.5)`; angles use the shortest text
    /// that parses back to the same `f64` (multiples of pi/8 print as `pi/4`, `-3*pi/8`, ...).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        let params = self.params();
        if !params.is_empty() {
            f.write_str("(")?;
            for (k, p) in params.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(&crate::angle::format_angle(*p))?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gate_is_unitary_and_inverse_inverts() {
        for g in Gate::examples() {
            let m = g.matrix();
            assert_eq!(m.dim(), 1 << g.num_targets(), "{g}");
            assert!(m.is_unitary(1e-14), "{g} is not unitary");
            let inv = g.inverse().matrix();
            assert!(
                inv.approx_eq(&m.adjoint(), 1e-14),
                "{g}: inverse is not the adjoint"
            );
            assert!(
                m.mul(&inv).approx_eq(&Matrix::identity(m.dim()), 1e-14),
                "{g}"
            );
        }
    }

    #[test]
    fn names_round_trip_through_from_name() {
        for g in Gate::examples() {
            assert_eq!(Gate::from_name(g.name(), &g.params()), Some(g));
        }
        assert_eq!(Gate::from_name("rx", &[]), None);
        assert_eq!(Gate::from_name("cnot", &[]), None);
    }

    /// The two-qubit matrices exactly as `circuits.md` sec. 0 writes them.
    #[test]
    fn iswap_family_matches_the_spec() {
        let o = c64(0.0, 0.0);
        let l = c64(1.0, 0.0);
        let i = c64(0.0, 1.0);
        let h = 1.0 / 2f64.sqrt();
        let iswap = Matrix::from_rows([[l, o, o, o], [o, o, i, o], [o, i, o, o], [o, o, o, l]]);
        let sq = Matrix::from_rows([
            [l, o, o, o],
            [o, c64(h, 0.0), c64(0.0, h), o],
            [o, c64(0.0, h), c64(h, 0.0), o],
            [o, o, o, l],
        ]);
        assert!(Gate::ISwap.matrix().approx_eq(&iswap, 1e-15));
        assert!(Gate::SqrtISwap.matrix().approx_eq(&sq, 1e-15));
        // SQISWAP^2 = ISWAP; daggers are the same matrices with i -> -i.
        assert!(sq.mul(&sq).approx_eq(&iswap, 1e-15));
        assert!(Gate::ISwapDg.matrix().approx_eq(&iswap.adjoint(), 1e-15));
        assert!(Gate::SqrtISwapDg.matrix().approx_eq(&sq.adjoint(), 1e-15));
    }

    /// RZZ written out by hand: the phase is e^{-i t/2} where the two bits agree.
    #[test]
    fn rzz_is_the_zz_rotation() {
        let t = 0.7_f64;
        let o = c64(0.0, 0.0);
        let m = c64((t / 2.0).cos(), -(t / 2.0).sin());
        let p = c64((t / 2.0).cos(), (t / 2.0).sin());
        let want = Matrix::from_rows([[m, o, o, o], [o, p, o, o], [o, o, p, o], [o, o, o, m]]);
        assert!(Gate::Rzz(t).matrix().approx_eq(&want, 1e-15));
        assert!(Gate::Rzz(t)
            .inverse()
            .matrix()
            .approx_eq(&want.adjoint(), 1e-15));
        assert_eq!(Gate::from_name("rzz", &[t]), Some(Gate::Rzz(t)));
    }

    /// ECR written out from its definition by hand, `exp(i pi/4 Z(x)X) (X(x)I)`: the matrix
    /// Qiskit prints for `ECRGate` with its two qubits exchanged (Qiskit's first qubit is the
    /// low bit, checked against `Operator(ECRGate())`).
    #[test]
    fn ecr_is_the_echoed_cross_resonance_gate() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let (o, r, i) = (c64(0.0, 0.0), c64(h, 0.0), c64(0.0, h));
        let want = Matrix::from_rows([[o, o, r, i], [o, o, i, r], [r, -i, o, o], [-i, r, o, o]]);
        assert!(Gate::Ecr.matrix().approx_eq(&want, 1e-15));
        // exp(i pi/4 ZX) = (I + i Z(x)X)/sqrt2, times X on the first qubit.
        let l = c64(1.0, 0.0);
        let rot = Matrix::from_rows([[r, i, o, o], [i, r, o, o], [o, o, r, -i], [o, o, -i, r]]);
        let x1 = Matrix::from_rows([[o, o, l, o], [o, o, o, l], [l, o, o, o], [o, l, o, o]]);
        let one = Matrix::identity(4);
        assert!(rot.mul(&x1).approx_eq(&want, 1e-15));
        assert!(Gate::Ecr
            .matrix()
            .mul(&Gate::Ecr.matrix())
            .approx_eq(&one, 1e-15));
        assert_eq!(Gate::Ecr.inverse(), Gate::Ecr);
        assert_eq!(Gate::from_name("ecr", &[]), Some(Gate::Ecr));
    }

    #[test]
    fn monomial_and_diagonal_flags_agree_with_matrices() {
        for g in Gate::examples() {
            let m = g.matrix();
            let n = m.dim();
            let monomial =
                (0..n).all(|c| (0..n).filter(|&r| m.get(r, c).norm() > 1e-14).count() == 1);
            let diagonal = (0..n).all(|r| (0..n).all(|c| r == c || m.get(r, c).norm() < 1e-14));
            assert_eq!(g.is_monomial(), monomial, "{g}");
            assert_eq!(g.is_diagonal(), diagonal, "{g}");
        }
    }

    #[test]
    fn named_single_qubit_gates_agree_with_rotations() {
        use std::f64::consts::PI;
        let close = |a: Gate, b: Gate| a.matrix().approx_eq_up_to_phase(&b.matrix(), 1e-14);
        assert!(close(Gate::S, Gate::Phase(PI / 2.0)));
        assert!(close(Gate::T, Gate::Rz(PI / 4.0)));
        assert!(close(Gate::X, Gate::Rx(PI)));
        assert!(close(Gate::Y, Gate::Ry(PI)));
        assert!(close(Gate::SX, Gate::Rx(PI / 2.0)));
        assert!(Gate::U(PI, 0.0, PI)
            .matrix()
            .approx_eq(&Gate::X.matrix(), 1e-15));
        assert!(Gate::U(PI / 2.0, 0.0, PI)
            .matrix()
            .approx_eq(&Gate::H.matrix(), 1e-15));
        assert!(Gate::SX
            .matrix()
            .mul(&Gate::SX.matrix())
            .approx_eq(&Gate::X.matrix(), 1e-15));
    }
}
