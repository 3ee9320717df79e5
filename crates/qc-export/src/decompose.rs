//! Exact single-qubit algebra: Euler angles of a 2x2 unitary, the ZSX and ZYZ forms targets use,
//! and the controlled-gate (ABC) construction.

use qc_ir::{Complex64, Gate, Matrix};
use std::f64::consts::PI;

const EPS: f64 = 1e-12;

/// `(theta, phi, lambda, gamma)` with `m == e^{i gamma} U(theta, phi, lambda)` exactly.
pub fn u_params(m: &Matrix) -> (f64, f64, f64, f64) {
    let (m00, m01, m10, m11) = (m.get(0, 0), m.get(0, 1), m.get(1, 0), m.get(1, 1));
    let theta = 2.0 * m10.norm().atan2(m00.norm());
    if m00.norm() > EPS {
        let gamma = m00.arg();
        if m10.norm() > EPS {
            let phi = m10.arg() - gamma;
            let lambda = (-m01).arg() - gamma;
            (theta, phi, lambda, gamma)
        } else {
            (theta, 0.0, m11.arg() - gamma, gamma)
        }
    } else {
        let gamma = (-m01).arg();
        (theta, m10.arg() - gamma, 0.0, gamma)
    }
}

/// True when `m` is the identity up to a global phase.
pub fn is_identity_up_to_phase(m: &Matrix) -> bool {
    m.approx_eq_up_to_phase(&Matrix::identity(2), 1e-10)
}

/// `m` as `rz(a) ry(b) rz(c)` in time order (up to global phase).
pub fn zyz(m: &Matrix) -> Vec<Gate> {
    let (theta, phi, lambda, _) = u_params(m);
    let mut out = Vec::new();
    if theta.abs() < EPS {
        push_rz(&mut out, phi + lambda);
        return out;
    }
    push_rz(&mut out, lambda);
    out.push(Gate::Ry(theta));
    push_rz(&mut out, phi);
    out
}

/// `m` as `rz sx rz sx rz` in time order (up to global phase), with the usual shortcuts.
pub fn zsx(m: &Matrix) -> Vec<Gate> {
    let (theta, phi, lambda, _) = u_params(m);
    let mut out = Vec::new();
    if theta.abs() < EPS {
        push_rz(&mut out, phi + lambda);
        return out;
    }
    if (theta - PI / 2.0).abs() < EPS {
        push_rz(&mut out, lambda - PI / 2.0);
        out.push(Gate::SX);
        push_rz(&mut out, phi + PI / 2.0);
        return out;
    }
    push_rz(&mut out, lambda);
    out.push(Gate::SX);
    push_rz(&mut out, theta + PI);
    out.push(Gate::SX);
    push_rz(&mut out, phi + PI);
    out
}

fn push_rz(out: &mut Vec<Gate>, angle: f64) {
    let a = normalize(angle);
    if a.abs() > EPS {
        out.push(Gate::Rz(a));
    }
}

/// The angle in (-pi, pi].
pub fn normalize(angle: f64) -> f64 {
    let mut a = angle % (2.0 * PI);
    if a > PI {
        a -= 2.0 * PI;
    }
    if a <= -PI {
        a += 2.0 * PI;
    }
    a
}

/// One step of a controlled-V decomposition over CNOT and single-qubit gates.
#[derive(Clone, Debug, PartialEq)]
pub enum AbcStep {
    /// A single-qubit gate on the target.
    Target(Gate),
    /// A single-qubit gate on the control.
    Control(Gate),
    /// CNOT from the control to the target.
    Cx,
}

/// Exact controlled-`m` (phase included) as `C; cx; B; cx; A` on the target and a phase on the
/// control (Nielsen & Chuang, corollary 4.2).
pub fn controlled_abc(m: &Matrix) -> Vec<AbcStep> {
    let (theta, phi, lambda, gamma) = u_params(m);
    // m = e^{i(gamma + (phi+lambda)/2)} Rz(phi) Ry(theta) Rz(lambda)
    let alpha = gamma + (phi + lambda) / 2.0;
    let (beta, g, delta) = (phi, theta, lambda);
    let mut steps = vec![
        AbcStep::Target(Gate::Rz((delta - beta) / 2.0)),
        AbcStep::Cx,
        AbcStep::Target(Gate::Rz(-(delta + beta) / 2.0)),
        AbcStep::Target(Gate::Ry(-g / 2.0)),
        AbcStep::Cx,
        AbcStep::Target(Gate::Ry(g / 2.0)),
        AbcStep::Target(Gate::Rz(beta)),
    ];
    if normalize(alpha).abs() > EPS {
        steps.push(AbcStep::Control(Gate::Phase(normalize(alpha))));
    }
    steps
}

/// The 2x2 product `b * a` (apply `a` first).
pub fn then(a: &Matrix, b: &Matrix) -> Matrix {
    b.mul(a)
}

/// `e^{i x}`.
pub fn expi(x: f64) -> Complex64 {
    Complex64::from_polar(1.0, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product(gates: &[Gate]) -> Matrix {
        gates
            .iter()
            .fold(Matrix::identity(2), |acc, g| then(&acc, &g.matrix()))
    }

    fn samples() -> Vec<Matrix> {
        let mut v: Vec<Matrix> = Gate::examples()
            .filter(|g| g.num_targets() == 1)
            .map(|g| g.matrix())
            .collect();
        v.push(Gate::U(PI, 0.3, -1.0).matrix());
        v.push(Gate::U(PI / 2.0, 0.3, -1.0).matrix());
        v.push(Gate::Ry(PI).matrix().mul(&Gate::T.matrix()));
        v
    }

    #[test]
    fn u_params_are_exact() {
        for m in samples() {
            let (t, p, l, g) = u_params(&m);
            let back = Gate::U(t, p, l).matrix().scale(expi(g));
            assert!(back.approx_eq(&m, 1e-12), "{m:?}");
        }
    }

    #[test]
    fn zyz_and_zsx_agree_up_to_phase() {
        for m in samples() {
            assert!(
                product(&zyz(&m)).approx_eq_up_to_phase(&m, 1e-10),
                "zyz {m:?}"
            );
            assert!(
                product(&zsx(&m)).approx_eq_up_to_phase(&m, 1e-10),
                "zsx {m:?}"
            );
        }
    }
}
