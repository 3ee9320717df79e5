//! One-axis entanglers with a continuous angle, ion traps' gates: `RZZ(theta) = exp(-i theta/2
//! Z Z)` and the Mølmer-Sørensen `RXX(theta) = exp(-i theta/2 X X)` (the same family under a
//! Hadamard on each qubit).
//!
//! The canonical core is a product of commuting one-axis terms, `N(a, b, c) = exp(i a XX)
//! exp(i b YY) exp(i c ZZ)`, and each is the native gate between Cliffords `W (x) W` that take
//! its axis to the native one: one gate per non-zero coordinate. That is the fewest: one gate is
//! `(a, 0, 0)` up to local gates, and two, of any angles, keep a coordinate 0 (a controlled phase
//! is one gate; the tests check the two-gate claim against random circuits).

use super::{Native, Prim};
use crate::kak::COORD_TOL;
use crate::linalg::{hadamard, rx, Mat2};
use std::f64::consts::FRAC_PI_2;

/// The native gate's axis.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Axis {
    /// `RXX`.
    X,
    /// `RZZ`.
    Z,
}

/// The fewest native gates for Weyl coordinates `c`: one per non-zero coordinate.
pub(super) fn count(c: [f64; 3]) -> u8 {
    c.iter().filter(|x| x.abs() >= COORD_TOL).count() as u8
}

/// `W` with `W P_k W^dagger = +-P_axis` for the Pauli `P_k` of axis `k` (X, Y, Z).
fn to_axis(k: usize, axis: Axis) -> Mat2 {
    let sdg = Mat2::new([[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, -1.0)]]);
    match (axis, k) {
        (Axis::Z, 0) | (Axis::X, 2) => hadamard(),
        // Rx(pi/2) turns Y into Z; S^dagger turns Y into X.
        (Axis::Z, 1) => rx(FRAC_PI_2),
        (Axis::X, 1) => sdg,
        _ => Mat2::IDENTITY,
    }
}

/// The core `N(c)`: for each non-zero coordinate, `exp(i c_k P_k P_k) = (W^dagger (x) W^dagger)
/// exp(i c_k P P) (W (x) W)`, and `exp(i c_k P P)` is the native gate at angle `-2 c_k`.
pub(super) fn core(c: [f64; 3], axis: Axis) -> Vec<Prim> {
    let mut out = Vec::new();
    for (k, &x) in c.iter().enumerate() {
        if x.abs() < COORD_TOL {
            continue;
        }
        let w = to_axis(k, axis);
        let gate = match axis {
            Axis::Z => Native::Rzz(-2.0 * x),
            Axis::X => Native::Rxx(-2.0 * x),
        };
        out.extend([Prim::One(true, w), Prim::One(false, w), Prim::Two(gate)]);
        out.extend([Prim::One(true, w.adjoint()), Prim::One(false, w.adjoint())]);
    }
    out
}
