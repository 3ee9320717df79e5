//! Two-qubit gates in their KAK (Cartan) form and re-synthesised with the fewest CZ gates.
//!
//! Every two-qubit unitary is `U = e^{i phi} (A1 (x) A0) N(a, b, c) (B1 (x) B0)` with
//! single-qubit `A`, `B` and the non-local core `N(a, b, c) = exp(i (a XX + b YY + c ZZ))`. In
//! the magic basis (Kraus and Cirac) local gates are real orthogonal matrices and `N` is
//! diagonal, so the decomposition is one eigenproblem: `M^T M` for `M = U` in the magic basis is
//! symmetric and unitary, its real and imaginary parts commute and share real eigenvectors
//! (Jacobi rotations on a generic combination of the two). The coordinates, each brought into
//! `[-pi/4, pi/4]` (a shift by `pi/2` is a local Pauli pair, absorbed into `B`), give the CZ count
//! (Shende, Bullock and Markov): none when all are 0, one when one is `pi/4` and the others 0,
//! two when one is 0, three otherwise. The core is then written with that many CZ gates from
//! exact identities (checked by the tests), and the whole result is multiplied back and compared
//! with `U` before it is used: a decomposition that fails the check is never returned.

use crate::linalg::{expi, hadamard, paulis, rx, ry, rz, symmetric_eigen, Mat2, Mat4, C};
use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_4};

/// A coordinate within this of 0 or of `pi/4` counts as exactly that (gates built from exact
/// angles differ from them by rounding only, about 1e-15).
pub(crate) const COORD_TOL: f64 = 1e-9;

/// How far (entry-wise, up to a global phase) a synthesis may be from the gate it replaces.
pub const SYNTH_TOL: f64 = 1e-8;

/// One step of a synthesised two-qubit circuit, on the pair `(hi, lo)`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Prim {
    /// A single-qubit gate on the high (`true`) or low (`false`) qubit.
    One(bool, Mat2),
    /// CZ between the two.
    Cz,
}

/// The KAK form of a two-qubit gate (see the module docs): `U = e^{i phi} after N(coords)
/// before`, each of `after` and `before` a pair `[hi, lo]` of single-qubit gates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Kak {
    /// The single-qubit gates after the core, `[hi, lo]`.
    pub after: [Mat2; 2],
    /// `(a, b, c)`, each in `[-pi/4, pi/4]`.
    pub coords: [f64; 3],
    /// The single-qubit gates before the core, `[hi, lo]`.
    pub before: [Mat2; 2],
}

/// The magic basis, column by column: Phi+, i Psi+, Psi-, i Phi-.
fn magic() -> Mat4 {
    let h = FRAC_1_SQRT_2;
    let (r, i, z) = (C::new(h, 0.0), C::new(0.0, h), C::new(0.0, 0.0));
    Mat4([[r, z, z, i], [z, i, r, z], [z, i, -r, z], [r, z, z, -i]])
}

/// `exp(i (a XX + b YY + c ZZ))`.
pub fn core(coords: [f64; 3]) -> Mat4 {
    let [a, b, c] = coords;
    // Diagonal in the magic basis: the Bell states are joint eigenstates of XX, YY and ZZ.
    let d = [a - b + c, a + b - c, -a - b - c, -a + b + c].map(expi);
    let m = magic();
    let mut diag = Mat4::IDENTITY;
    for (k, v) in d.into_iter().enumerate() {
        diag.0[k][k] = v;
    }
    m.mul(&diag).mul(&m.adjoint())
}

/// Writes a local 4x4 gate as `a (x) b`, or `None` when it is not local.
fn factor_local(l: &Mat4) -> Option<[Mat2; 2]> {
    let block = |i: usize, k: usize| {
        Mat2([
            [l.0[2 * i][2 * k], l.0[2 * i][2 * k + 1]],
            [l.0[2 * i + 1][2 * k], l.0[2 * i + 1][2 * k + 1]],
        ])
    };
    let norm = |m: &Mat2| m.0.as_flattened().iter().map(|v| v.norm_sqr()).sum::<f64>();
    let (bi, bk) = (0..4)
        .map(|n| (n / 2, n % 2))
        .max_by(|x, y| norm(&block(x.0, x.1)).total_cmp(&norm(&block(y.0, y.1))))?;
    let big = block(bi, bk);
    let det = big.det();
    if det.norm() < 1e-6 {
        return None;
    }
    let b = big.scale(det.sqrt().inv());
    let mut a = Mat2::IDENTITY;
    for i in 0..2 {
        for k in 0..2 {
            let blk = block(i, k);
            let bd = b.adjoint();
            a.0[i][k] = (bd.0[0][0] * blk.0[0][0]
                + bd.0[0][1] * blk.0[1][0]
                + bd.0[1][0] * blk.0[0][1]
                + bd.0[1][1] * blk.0[1][1])
                / 2.0;
        }
    }
    Mat2::kron(&a, &b).eq_up_to_phase(l, 1e-9).then_some([a, b])
}

/// `u` scaled to determinant 1 in the magic basis (`M`), and `M^T M`; `None` when `u` is not
/// unitary (the start of both [`kak`] and [`cz_count`]).
fn magic_form(u: &Mat4) -> Option<(Mat4, Mat4)> {
    let det = u.det();
    if (det.norm() - 1.0).abs() > 1e-6 {
        return None;
    }
    let su = u.scale(det.powf(-0.25));
    let m = magic();
    let up = m.adjoint().mul(&su).mul(&m);
    let sym = up.transpose().mul(&up);
    Some((up, sym))
}

/// The KAK form of `u`, or `None` when `u` is not unitary or the numerics fail the final check.
pub fn kak(u: &Mat4) -> Option<Kak> {
    let (up, sym) = magic_form(u)?;
    let m = magic();
    // Real and imaginary parts commute; a generic real combination has their joint eigenvectors.
    let mut found = None;
    // Arbitrary numbers far from any ratio the gates of a program produce.
    for r in [
        0.577_215_664_9,
        1.303_577_269,
        -0.732_050_807_5,
        2.471_893_3,
        0.363_805_5,
    ] {
        let mut s = [[0.0; 4]; 4];
        for (i, row) in s.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = sym.0[i][j].re + r * sym.0[i][j].im;
            }
        }
        let (_, p) = symmetric_eigen(s);
        let pc = Mat4(p.map(|row| row.map(|x| C::new(x, 0.0))));
        let d = pc.transpose().mul(&sym).mul(&pc);
        let off = (0..4)
            .flat_map(|i| (0..4).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| d.0[i][j].norm())
            .fold(0.0, f64::max);
        if off < 1e-9 {
            found = Some((pc, d));
            break;
        }
    }
    let (mut p, d) = found?;
    if p.det().re < 0.0 {
        for row in p.0.iter_mut() {
            row[0] = -row[0];
        }
    }
    let mut theta: [f64; 4] = std::array::from_fn(|k| d.0[k][k].arg() / 2.0);
    let total: f64 = theta.iter().sum();
    // det S must be 1 so that the outer factors are rotations (local gates), not reflections.
    if expi(total).re < 0.0 {
        theta[0] += std::f64::consts::PI;
    }
    let mut s_inv = Mat4::IDENTITY;
    for (k, t) in theta.iter().enumerate() {
        s_inv.0[k][k] = expi(-t);
    }
    let k1 = up.mul(&p).mul(&s_inv);
    let k2 = p.transpose();
    let after = factor_local(&m.mul(&k1).mul(&m.adjoint()))?;
    let mut before = factor_local(&m.mul(&k2).mul(&m.adjoint()))?;
    let raw = [
        (theta[0] + theta[1] - theta[2] - theta[3]) / 4.0,
        (-theta[0] + theta[1] - theta[2] + theta[3]) / 4.0,
        (theta[0] - theta[1] - theta[2] + theta[3]) / 4.0,
    ];
    // N(x + n pi/2) = N(x) (i P (x) P)^n: the Pauli pair joins the gates before the core.
    let mut coords = [0.0; 3];
    for (axis, (x, out)) in raw.iter().zip(coords.iter_mut()).enumerate() {
        let n = (x / FRAC_PI_2).round();
        *out = x - n * FRAC_PI_2;
        if (n as i64).rem_euclid(2) == 1 {
            let pauli = paulis()[axis];
            before = [pauli.mul(&before[0]), pauli.mul(&before[1])];
        }
    }
    let result = Kak {
        after,
        coords,
        before,
    };
    result.product().eq_up_to_phase(u, 1e-8).then_some(result)
}

impl Kak {
    /// `after N(coords) before`.
    pub fn product(&self) -> Mat4 {
        Mat2::kron(&self.after[0], &self.after[1])
            .mul(&core(self.coords))
            .mul(&Mat2::kron(&self.before[0], &self.before[1]))
    }

    /// Which coordinates are 0 and whether the others are all `pi/4`.
    fn shape(&self) -> ([bool; 3], bool) {
        let zero = self.coords.map(|x| x.abs() < COORD_TOL);
        let quarter = self
            .coords
            .iter()
            .zip(zero)
            .all(|(x, z)| z || (x.abs() - FRAC_PI_4).abs() < COORD_TOL);
        (zero, quarter)
    }

    /// The number of CZ gates the gate needs (0 to 3).
    pub fn cz_count(&self) -> u8 {
        match self.shape() {
            ([true, true, true], _) => 0,
            (zero, true) if zero.iter().filter(|z| **z).count() == 2 => 1,
            (zero, _) if zero.iter().any(|z| *z) => 2,
            _ => 3,
        }
    }

    /// The gate written with [`Kak::cz_count`] CZ gates and single-qubit gates, in time order.
    pub fn circuit(&self) -> Vec<Prim> {
        self.circuit_with(self.cz_count()).unwrap_or_default()
    }

    /// The gate written with exactly `count` CZ gates, in time order; `None` when it cannot be:
    /// fewer than [`Kak::cz_count`], two without a zero coordinate, or more than three. (A gate
    /// that needs fewer may be written with more: the iSWAP synthesis of [`crate::native`] writes
    /// a CZ-class gate with two CZ, each becoming an iSWAP.)
    pub fn circuit_with(&self, count: u8) -> Option<Vec<Prim>> {
        let mut out = vec![
            Prim::One(true, self.before[0]),
            Prim::One(false, self.before[1]),
        ];
        out.extend(core_circuit(self.coords, self.shape(), count)?);
        out.extend([
            Prim::One(true, self.after[0]),
            Prim::One(false, self.after[1]),
        ]);
        Some(out)
    }
}

/// A local gate `w` on both qubits around `inner`: `(w (x) w) inner (w^dagger (x) w^dagger)`.
fn conjugated(w: Mat2, inner: Vec<Prim>) -> Vec<Prim> {
    let mut out = vec![Prim::One(true, w.adjoint()), Prim::One(false, w.adjoint())];
    out.extend(inner);
    out.extend([Prim::One(true, w), Prim::One(false, w)]);
    out
}

/// CNOT from the high qubit to the low one.
fn cx_hi_lo() -> [Prim; 3] {
    [
        Prim::One(false, hadamard()),
        Prim::Cz,
        Prim::One(false, hadamard()),
    ]
}

/// CNOT from the low qubit to the high one.
fn cx_lo_hi() -> [Prim; 3] {
    [
        Prim::One(true, hadamard()),
        Prim::Cz,
        Prim::One(true, hadamard()),
    ]
}

/// `S`.
fn s_gate() -> Mat2 {
    Mat2::new([[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, 1.0)]])
}

/// The core `N(coords)` (up to a global phase) with exactly `count` CZ gates, when that many
/// can write it: none for the identity, one for the CZ class, two when a coordinate is 0, three
/// for any.
fn core_circuit(coords: [f64; 3], shape: ([bool; 3], bool), count: u8) -> Option<Vec<Prim>> {
    let [a, b, c] = coords;
    let zeros = shape.0.iter().filter(|z| **z).count();
    Some(match (count, zeros, shape.1) {
        (0, 3, _) => Vec::new(),
        (1, 2, true) => {
            // exp(+-i pi/4 ZZ) = CZ (S^dagger (x) S^dagger) or CZ (S (x) S), up to phase; the
            // other axes by a Clifford that takes Z there (H: X, S H: Y).
            let axis = shape.0.iter().position(|z| !*z).unwrap_or(2);
            let sign = coords[axis].signum();
            let s = if sign > 0.0 {
                s_gate().adjoint()
            } else {
                s_gate()
            };
            let zz = vec![Prim::One(true, s), Prim::One(false, s), Prim::Cz];
            match axis {
                0 => conjugated(hadamard(), zz),
                1 => conjugated(s_gate().mul(&hadamard()), zz),
                _ => zz,
            }
        }
        (2, z, _) if z >= 1 => {
            // exp(i (x XX + y ZZ)) = CX (Rx(-2x) (x) Rz(-2y)) CX; the other pairs of axes by a
            // Clifford on both qubits (Rx(pi/2): Z to Y; S: X to Y).
            let two = |x: f64, y: f64| {
                let mut out = cx_hi_lo().to_vec();
                out.extend([
                    Prim::One(true, rx(-2.0 * x)),
                    Prim::One(false, rz(-2.0 * y)),
                ]);
                out.extend(cx_hi_lo());
                out
            };
            if shape.0[1] {
                two(a, c)
            } else if shape.0[2] {
                conjugated(rx(FRAC_PI_2), two(a, b))
            } else {
                conjugated(s_gate(), two(b, c))
            }
        }
        (3, _, _) => {
            // Vatan and Williams: three CNOTs, two angles between them (an identity for any
            // coordinates).
            let (t1, t2, t3) = (
                FRAC_PI_2 - 2.0 * c,
                2.0 * a - FRAC_PI_2,
                FRAC_PI_2 - 2.0 * b,
            );
            let mut out = vec![Prim::One(false, rz(-FRAC_PI_2))];
            out.extend(cx_lo_hi());
            out.extend([Prim::One(true, rz(t1)), Prim::One(false, ry(t2))]);
            out.extend(cx_hi_lo());
            out.push(Prim::One(false, ry(t3)));
            out.extend(cx_lo_hi());
            out.push(Prim::One(true, rz(FRAC_PI_2)));
            out
        }
        _ => return None,
    })
}

/// The unitary of a synthesised circuit.
pub fn circuit_unitary(prims: &[Prim]) -> Mat4 {
    prims.iter().fold(Mat4::IDENTITY, |acc, p| {
        let step = match p {
            Prim::One(true, m) => Mat4::on_hi(m),
            Prim::One(false, m) => Mat4::on_lo(m),
            Prim::Cz => Mat4::CZ,
        };
        step.mul(&acc)
    })
}

/// The number of CZ gates `u` needs (3 when it is not unitary), from the local invariants of
/// Shende, Bullock and Markov without a decomposition: with `u` scaled to determinant 1 and `M`
/// it in the magic basis, `G = M^T M` is `+-I` for a local gate, has trace 0 and square `-I`
/// for one CZ, and a real trace for two. Where a test is neither clearly met nor clearly failed
/// (a controlled phase of 1e-9 rad), the decomposition decides, as [`Kak::cz_count`] does with
/// its own tolerance; so the count is always the decomposition's (the tests compare them), for a
/// fraction of the time: routing prices many blocks and writes few.
pub fn cz_count(u: &Mat4) -> u8 {
    /// A test deviating less than this is met (rounding is about 1e-15).
    const MET: f64 = 1e-11;
    /// A test deviating more than this fails; in between, the decomposition decides.
    const FAILED: f64 = 1e-6;
    let Some((_, g)) = magic_form(u) else {
        return 3;
    };
    let trace: C = (0..4).map(|k| g.0[k][k]).sum();
    let distance = |a: &Mat4, b: &Mat4| {
        a.0.iter()
            .flatten()
            .zip(b.0.iter().flatten())
            .map(|(x, y)| (x - y).norm())
            .fold(0.0, f64::max)
    };
    let minus_identity = Mat4::IDENTITY.scale(C::new(-1.0, 0.0));
    let tests = [
        distance(&g, &Mat4::IDENTITY).min(distance(&g, &minus_identity)),
        trace.norm().max(distance(&g.mul(&g), &minus_identity)),
        trace.im.abs(),
    ];
    for (count, deviation) in (0u8..).zip(tests) {
        if deviation < MET {
            return count;
        }
        if deviation <= FAILED {
            return kak(u).map_or(3, |k| k.cz_count());
        }
    }
    3
}

/// `u` with the fewest CZ gates, checked against `u`; `None` when the decomposition fails.
pub fn synthesize(u: &Mat4) -> Option<Vec<Prim>> {
    let k = kak(u)?;
    checked(k.circuit_with(k.cz_count())?, u)
}

/// `u` with exactly `count` CZ gates ([`Kak::circuit_with`]), checked against `u`.
pub fn synthesize_with(u: &Mat4, count: u8) -> Option<Vec<Prim>> {
    checked(kak(u)?.circuit_with(count)?, u)
}

/// `prims` when they multiply to `u` (up to a global phase, within [`SYNTH_TOL`]).
fn checked(prims: Vec<Prim>, u: &Mat4) -> Option<Vec<Prim>> {
    circuit_unitary(&prims)
        .eq_up_to_phase(u, SYNTH_TOL)
        .then_some(prims)
}

/// The phase-free single-qubit gate `e^{i x} m` is `m`; helper for tests that build gates.
#[cfg(test)]
pub(crate) fn random_unitary4(rng: &mut impl rand::Rng) -> Mat4 {
    // A product of random local gates and cores is dense enough for the tests.
    let local = |rng: &mut dyn rand::RngCore| {
        let mut angle = || rand::Rng::gen_range(rng, -3.2..3.2);
        rz(angle()).mul(&ry(angle())).mul(&rz(angle()))
    };
    let mut u = Mat4::IDENTITY;
    for _ in 0..3 {
        let (a, b) = (local(rng), local(rng));
        let coords = [
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        ];
        u = core(coords).mul(&Mat2::kron(&a, &b)).mul(&u);
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn check(u: &Mat4, expect: u8, what: &str) {
        let k = kak(u).unwrap_or_else(|| panic!("{what}: no KAK"));
        assert_eq!(k.cz_count(), expect, "{what}: coords {:?}", k.coords);
        assert_eq!(cz_count(u), expect, "{what}: by the invariants");
        let prims = synthesize(u).unwrap_or_else(|| panic!("{what}: no synthesis"));
        let cz = prims.iter().filter(|p| **p == Prim::Cz).count();
        assert_eq!(cz, usize::from(expect), "{what}");
        assert!(circuit_unitary(&prims).eq_up_to_phase(u, 1e-9), "{what}");
    }

    #[test]
    fn the_standard_gates_need_their_known_cz_counts() {
        let [x, y, z] = paulis();
        let h = hadamard();
        check(&Mat4::IDENTITY, 0, "identity");
        check(&Mat2::kron(&h, &y), 0, "local");
        check(&Mat4::CZ, 1, "cz");
        check(&Mat4::CX_HI_LO, 1, "cx");
        check(
            &Mat4::CX_LO_HI.mul(&Mat2::kron(&x, &z)),
            1,
            "cx after paulis",
        );
        check(&Mat4::SWAP, 3, "swap");
        check(&Mat4::SWAP.mul(&Mat4::CZ), 2, "swap cz (iswap class)");
        check(&Mat4::SWAP.mul(&Mat4::CX_HI_LO), 2, "swap cx");
        let iswap = core([FRAC_PI_4, FRAC_PI_4, 0.0]);
        check(&iswap, 2, "iswap");
        check(&Mat4::SWAP.mul(&iswap), 1, "swap iswap");
        let sqrt_iswap = core([FRAC_PI_4 / 2.0, FRAC_PI_4 / 2.0, 0.0]);
        check(&sqrt_iswap, 2, "sqrt iswap");
        check(&Mat4::SWAP.mul(&sqrt_iswap), 3, "swap sqrt iswap");
        for axis in 0..3 {
            for sign in [1.0, -1.0] {
                let mut c = [0.0; 3];
                c[axis] = sign * FRAC_PI_4;
                check(&core(c), 1, &format!("quarter on axis {axis}, sign {sign}"));
                c[(axis + 1) % 3] = 0.3;
                check(&core(c), 2, &format!("two on axis {axis}, sign {sign}"));
                let mut d = [0.2, -0.35, 0.1];
                d[axis] = 0.0;
                check(&core(d), 2, &format!("zero on axis {axis}"));
            }
        }
        check(&core([0.3, 0.2, 0.1]), 3, "generic");
        check(&core([2.0, -1.4, 0.7]), 3, "outside the chamber");
        check(&core([FRAC_PI_2, 0.0, 0.0]), 0, "a Pauli pair");
    }

    #[test]
    fn random_gates_decompose_exactly() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for i in 0..300 {
            let u = random_unitary4(&mut rng);
            check(&u, 3, &format!("random {i}"));
        }
    }

    /// Local gates on either side change no count: every class of the standard gates, between
    /// random local gates, counted by the invariants and by the decomposition.
    #[test]
    fn counts_ignore_local_gates_on_either_side() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut local = || {
            let mut angle = || rng.gen_range(-3.2..3.2);
            let a = rz(angle()).mul(&ry(angle())).mul(&rz(angle()));
            let b = rz(angle()).mul(&ry(angle())).mul(&rz(angle()));
            Mat2::kron(&a, &b)
        };
        let iswap = core([FRAC_PI_4, FRAC_PI_4, 0.0]);
        let sqrt_iswap = core([FRAC_PI_4 / 2.0, FRAC_PI_4 / 2.0, 0.0]);
        let classes = [
            (Mat4::IDENTITY, 0),
            (Mat4::CZ, 1),
            (Mat4::SWAP.mul(&iswap), 1),
            (iswap, 2),
            (sqrt_iswap, 2),
            (core([0.3, 0.0, 0.2]), 2),
            (Mat4::SWAP, 3),
            (Mat4::SWAP.mul(&sqrt_iswap), 3),
            (core([0.3, 0.2, 0.1]), 3),
        ];
        for (i, (g, expect)) in classes.iter().enumerate() {
            for _ in 0..40 {
                let u = local().mul(g).mul(&local());
                check(&u, *expect, &format!("class {i}"));
            }
        }
    }

    /// Controlled phases of every size down to 1e-12 rad, near where the decomposition's own
    /// tolerance turns two CZ into none: the invariants count as it does.
    #[test]
    fn tiny_controlled_phases_count_as_the_decomposition_does() {
        for k in 0..40 {
            let angle = std::f64::consts::PI / 2f64.powi(k);
            let mut cp = Mat4::IDENTITY;
            cp.0[3][3] = expi(angle);
            let by_kak = kak(&cp).map_or(3, |f| f.cz_count());
            assert_eq!(cz_count(&cp), by_kak, "pi / 2^{k}");
        }
    }

    /// A gate may be written with more CZ than it needs (the iSWAP synthesis asks for it), never
    /// fewer, and two only with a zero coordinate.
    #[test]
    fn a_gate_is_written_with_any_feasible_number_of_cz() {
        let iswap = core([FRAC_PI_4, FRAC_PI_4, 0.0]);
        for (g, feasible) in [
            (Mat4::IDENTITY, [true, false, true, true]),
            (Mat4::CZ, [false, true, true, true]),
            (iswap, [false, false, true, true]),
            (Mat4::SWAP, [false, false, false, true]),
        ] {
            for (count, ok) in (0u8..).zip(feasible) {
                let prims = synthesize_with(&g, count);
                assert_eq!(prims.is_some(), ok, "{count} CZ");
                if let Some(p) = prims {
                    assert_eq!(
                        p.iter().filter(|x| **x == Prim::Cz).count(),
                        usize::from(count)
                    );
                    assert!(circuit_unitary(&p).eq_up_to_phase(&g, 1e-9));
                }
            }
        }
    }

    #[test]
    fn a_non_unitary_matrix_has_no_form() {
        assert!(kak(&Mat4::CZ.scale(C::new(2.0, 0.0))).is_none());
        assert_eq!(cz_count(&Mat4::CZ.scale(C::new(0.5, 0.0))), 3);
    }
}
