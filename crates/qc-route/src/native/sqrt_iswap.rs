//! The square root of iSWAP, `S = exp(i pi/8 (XX + YY))` (Google's Sycamore): Weyl point
//! `(pi/8, pi/8, 0)`.
//!
//! Counts, from the Weyl coordinates `(x, y, z)` (Huang et al., "Towards ultra-high fidelity
//! quantum operations: SQiSW gate as a native two-qubit gate", arXiv:2105.06074, Lemma 1):
//!
//! - 0 for a local gate, 1 for `S`'s own class;
//! - 2 exactly on the region `x >= y + |z|` (CZ, CNOT, every controlled phase, iSWAP, the B
//!   gate; about 78% of Haar-random gates). The tests check both directions by brute force:
//!   every `S (a (x) b) S` of random `a`, `b` lands in it, a bounded random search over the middle
//!   gates reaches points inside and not points outside, and every point inside is written;
//! - 3 for the rest (SWAP, `SWAP S`, ...).
//!
//! Two gates: `S (k0 (x) k1) S` with `k0 = Rz(-g) Rx(-a) Rz(-g)` and `k1 = Rx(-b)` reaches
//! `(x, y, z)` for the closed-form angles of the paper (Eqs. 4 and 6-8, its angles scaled by -2
//! for the usual `R(theta) = exp(-i theta P/2)`); the gates before and after come from matching
//! the canonical forms of the target and of that product.
//!
//! Three gates: the core splits into two commuting cores, `N(c) = N(t) N(c - t)`, with `t` one of
//! the twelve signed permutations of `(pi/8, pi/8, 0)` (each `S` between Cliffords) and `c - t`
//! in the two-gate region. The twelve are tried and the one deepest inside the region is kept (a
//! bounded choice; the tests check that one always lies inside, down to SWAP on its boundary).

use super::{conjugate_core, locals, Native, Prim};
use crate::kak::{self, COORD_TOL};
use crate::linalg::{rx, rz};
use crate::weyl::{self, canonical_coords, same_point};
use std::f64::consts::FRAC_PI_8;

/// `S`'s Weyl point.
const POINT: [f64; 3] = [FRAC_PI_8, FRAC_PI_8, 0.0];

/// How far inside the two-gate region `x >= y + |z|` the canonical point `c` lies (negative:
/// outside).
pub(crate) fn slack(c: [f64; 3]) -> f64 {
    c[0] - c[1] - c[2].abs()
}

/// The fewest √iSWAP gates for Weyl coordinates `c`.
pub(super) fn count(c: [f64; 3]) -> u8 {
    if c.iter().all(|x| x.abs() < COORD_TOL) {
        0
    } else if same_point(c, POINT) {
        1
    } else if slack(c) > -COORD_TOL {
        2
    } else {
        3
    }
}

/// The core `N(c)` (canonical `c`) with the fewest √iSWAP gates.
pub(super) fn core(c: [f64; 3]) -> Option<Vec<Prim>> {
    match count(c) {
        0 => Some(Vec::new()),
        1 => Some(vec![Prim::Two(Native::SqrtISwap)]),
        2 => two(c),
        _ => three(c),
    }
}

/// The angles `(alpha, beta, gamma)` of the middle gates at canonical `c` in the two-gate
/// region, in closed form. The paper's `cos alpha = cos 2x - cos 2y + cos 2z + 2 sqrt(PQ)` (and
/// `beta` with `-`) loses half the digits where `alpha` is near 0 (every controlled phase) or
/// `beta` near `pi` (CZ): here the half angles come from `sin^2(alpha/2) = ((sqrt P - sqrt Q)^2 +
/// (2 cos y sin z)^2) / 2` and `sin^2(beta/2)` with `sqrt P + sqrt Q`, for `P = sin^2 x -
/// sin^2(y - z)`, `Q = sin^2 x - sin^2(y + z)` (the paper's product of four sines is `PQ`), sums of
/// squares without cancellation; [`refine`] takes the rest.
fn closed_form(c: [f64; 3]) -> [f64; 3] {
    let [x, y, z] = c;
    let sin2 = |t: f64| t.sin().powi(2);
    // Both are >= 0 in the region (x >= y + |z| >= |y -+ z|); rounding can make them -1e-17.
    let (p, q) = (
        (sin2(x) - sin2(y - z)).max(0.0),
        (sin2(x) - sin2(y + z)).max(0.0),
    );
    let cross = (2.0 * y.cos() * z.sin()).powi(2);
    let half = |s2: f64| {
        let s2 = (s2 / 2.0).clamp(0.0, 1.0);
        2.0 * s2.sqrt().atan2((1.0 - s2).sqrt())
    };
    let alpha = half((p.sqrt() - q.sqrt()).powi(2) + cross);
    let beta = half((p.sqrt() + q.sqrt()).powi(2) + cross);
    let f = 4.0 * (x.cos() * z.cos() * y.sin()).powi(2);
    let g = ((2.0 * x).cos() * (2.0 * y).cos() * (2.0 * z).cos()).max(0.0);
    // f + g = 0 only at CNOT's point (pi/4, 0, 0), where any gamma does.
    let gamma = if f + g > 0.0 {
        (z.signum() * (f / (f + g)).sqrt()).clamp(-1.0, 1.0).acos()
    } else {
        0.0
    };
    [alpha, beta, gamma]
}

/// `S (k0 (x) k1) S` for the angles `(alpha, beta, gamma)`: `k0 = Rz(-gamma) Rx(-alpha)
/// Rz(-gamma)`, `k1 = Rx(-beta)`.
fn product(angles: [f64; 3]) -> Vec<Prim> {
    let [alpha, beta, gamma] = angles;
    let k0 = rz(-gamma).mul(&rx(-alpha)).mul(&rz(-gamma));
    let mut out = vec![Prim::Two(Native::SqrtISwap)];
    out.extend(locals([k0, rx(-beta)]));
    out.push(Prim::Two(Native::SqrtISwap));
    out
}

/// How far the product's canonical point is from `c`, per coordinate.
fn residual(angles: [f64; 3], c: [f64; 3]) -> Option<[f64; 3]> {
    let p = weyl::coordinates(&super::circuit_unitary(&product(angles)))?;
    Some([p[0] - c[0], p[1] - c[1], p[2] - c[2]])
}

fn norm(r: [f64; 3]) -> f64 {
    r.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// Gauss-Newton on the angles until the product's point is `c` to rounding, at most
/// [`REFINE_STEPS`] steps of a numerical Jacobian (damped, so a singular one at the region's
/// boundary still gives a step), each kept only when it brings the point closer.
fn refine(c: [f64; 3], start: [f64; 3]) -> [f64; 3] {
    /// Steps at most; the closed form is within 1e-8, and Newton doubles the digits per step.
    const REFINE_STEPS: usize = 6;
    /// Close enough: rounding of the decomposition itself.
    const DONE: f64 = 1e-14;
    let mut angles = start;
    let Some(mut r) = residual(angles, c) else {
        return angles;
    };
    for _ in 0..REFINE_STEPS {
        if norm(r) < DONE {
            break;
        }
        let h = 1e-6;
        let mut jac = [[0.0; 3]; 3];
        for k in 0..3 {
            let (mut up, mut down) = (angles, angles);
            up[k] += h;
            down[k] -= h;
            let (Some(ru), Some(rd)) = (residual(up, c), residual(down, c)) else {
                return angles;
            };
            for i in 0..3 {
                jac[i][k] = (ru[i] - rd[i]) / (2.0 * h);
            }
        }
        let Some(step) = damped_step(jac, r) else {
            break;
        };
        let next: [f64; 3] = std::array::from_fn(|k| angles[k] - step[k]);
        match residual(next, c) {
            Some(rn) if norm(rn) < norm(r) => (angles, r) = (next, rn),
            _ => break,
        }
    }
    angles
}

/// `(J^T J + mu I)^-1 J^T r` by Cramer's rule (`None` when even the damped system is singular).
fn damped_step(jac: [[f64; 3]; 3], r: [f64; 3]) -> Option<[f64; 3]> {
    let mut a = [[0.0; 3]; 3];
    let mut b = [0.0; 3];
    for i in 0..3 {
        for k in 0..3 {
            a[i][k] = (0..3).map(|m| jac[m][i] * jac[m][k]).sum();
        }
        b[i] = (0..3).map(|m| jac[m][i] * r[m]).sum();
    }
    let trace = a[0][0] + a[1][1] + a[2][2];
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-12 * trace.max(1e-300);
    }
    let det3 = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det3(a);
    if d.abs() < 1e-300 || !d.is_finite() {
        return None;
    }
    Some(std::array::from_fn(|k| {
        let mut m = a;
        for (row, v) in m.iter_mut().zip(b) {
            row[k] = v;
        }
        det3(m) / d
    }))
}

/// `N(c)` with two √iSWAP gates.
fn two(c: [f64; 3]) -> Option<Vec<Prim>> {
    let angles = refine(c, closed_form(c));
    let product = product(angles);
    let v = super::circuit_unitary(&product);
    conjugate_core(product, &v, &kak::core(c))
}

/// `N(c)` with three √iSWAP gates: one for a signed permutation `t` of `S`'s point, two for the
/// rest.
fn three(c: [f64; 3]) -> Option<Vec<Prim>> {
    let mut best: Option<(f64, [f64; 3])> = None;
    for zero in 0..3 {
        for signs in [[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]] {
            let mut t = [0.0; 3];
            let others = (0..3).filter(|&k| k != zero);
            for (k, sign) in others.zip(signs) {
                t[k] = sign * FRAC_PI_8;
            }
            let rest = [c[0] - t[0], c[1] - t[1], c[2] - t[2]];
            let s = slack(canonical_coords(rest));
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, t));
            }
        }
    }
    let (_, t) = best?;
    let rest = [c[0] - t[0], c[1] - t[1], c[2] - t[2]];
    let rest_point = canonical_coords(rest);
    let mut out = conjugate_core(two(rest_point)?, &kak::core(rest_point), &kak::core(rest))?;
    out.extend(conjugate_core(
        vec![Prim::Two(Native::SqrtISwap)],
        &Native::SqrtISwap.matrix(),
        &kak::core(t),
    )?);
    // N(c) = N(t) N(c - t): the cores commute.
    Some(out)
}
