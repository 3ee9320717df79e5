//! Every entangler against independent truth: hand-derived counts of the standard gates,
//! random circuits of k native gates (never counted above k), Haar-random gates, and a brute-force
//! search for the √iSWAP two-gate region. Every synthesis is checked exact to 1e-9 up to a
//! global phase, with exactly the counted number of native gates.

use super::*;
use crate::kak::core;
use crate::linalg::{hadamard, paulis, ry, rz};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

const EXACT: f64 = 1e-9;

/// The order of the counts in the tables below.
const ORDER: [Entangler; 7] = Entangler::ALL;

/// A Haar-random unitary of size `N` (QR of a complex Gaussian matrix, phases fixed).
fn haar<const N: usize>(rng: &mut ChaCha8Rng) -> [[C; N]; N] {
    let mut gauss = || {
        // Box-Muller.
        let (u, v): (f64, f64) = (rng.gen_range(1e-12..1.0), rng.gen_range(0.0..1.0));
        let r = (-2.0 * u.ln()).sqrt();
        C::new(r * (2.0 * PI * v).cos(), r * (2.0 * PI * v).sin())
    };
    let mut cols: [[C; N]; N] = [[C::new(0.0, 0.0); N]; N];
    for col in cols.iter_mut() {
        for x in col.iter_mut() {
            *x = gauss();
        }
    }
    // Gram-Schmidt, column by column (the phase of each column is Haar too).
    for j in 0..N {
        for k in 0..j {
            let dot: C = (0..N).map(|i| cols[k][i].conj() * cols[j][i]).sum();
            let earlier = cols[k];
            for (x, v) in cols[j].iter_mut().zip(earlier) {
                *x -= dot * v;
            }
        }
        let norm = cols[j].iter().map(|x| x.norm_sqr()).sum::<f64>().sqrt();
        for x in cols[j].iter_mut() {
            *x /= norm;
        }
    }
    let mut out = [[C::new(0.0, 0.0); N]; N];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = cols[j][i];
        }
    }
    out
}

fn haar4(rng: &mut ChaCha8Rng) -> Mat4 {
    Mat4(haar::<4>(rng))
}

fn haar2(rng: &mut ChaCha8Rng) -> Mat2 {
    Mat2(haar::<2>(rng))
}

fn random_local(rng: &mut ChaCha8Rng) -> Mat4 {
    Mat2::kron(&haar2(rng), &haar2(rng))
}

/// Synthesises `u` in `e`, checks it exact with `expect` native gates (and `count` agreeing),
/// and returns the circuit.
fn check(e: Entangler, u: &Mat4, expect: u8, what: &str) -> Vec<Prim> {
    assert_eq!(e.count(u), expect, "{e:?} {what}: count");
    let prims = e
        .synthesize(u)
        .unwrap_or_else(|| panic!("{e:?} {what}: no synthesis"));
    assert_eq!(
        two_qubit_gates(&prims),
        usize::from(expect),
        "{e:?} {what}: gates written"
    );
    assert!(
        circuit_unitary(&prims).eq_up_to_phase(u, EXACT),
        "{e:?} {what}: not exact"
    );
    for p in &prims {
        let ok = matches!(
            (e, p),
            (_, Prim::One(..))
                | (Entangler::Cz, Prim::Two(Native::Cz))
                | (Entangler::Cx, Prim::Two(Native::Cx))
                | (Entangler::Ecr, Prim::Two(Native::Ecr))
                | (Entangler::ISwap, Prim::Two(Native::ISwap))
                | (Entangler::SqrtISwap, Prim::Two(Native::SqrtISwap))
                | (Entangler::Rzz, Prim::Two(Native::Rzz(_)))
                | (Entangler::Rxx, Prim::Two(Native::Rxx(_)))
        );
        assert!(ok, "{e:?} {what}: wrote {p:?}");
    }
    prims
}

fn cphase(phi: f64) -> Mat4 {
    let mut m = Mat4::IDENTITY;
    m.0[3][3] = C::from_polar(1.0, phi);
    m
}

/// Google's fSim(theta, phi): `|01>, |10>` turned by `theta` (with `-i sin`), `|11>` phased
/// by `-phi`.
fn fsim(theta: f64, phi: f64) -> Mat4 {
    let (c, s) = (C::new(theta.cos(), 0.0), C::new(0.0, -theta.sin()));
    let mut m = Mat4::IDENTITY;
    m.0[1][1] = c;
    m.0[1][2] = s;
    m.0[2][1] = s;
    m.0[2][2] = c;
    m.0[3][3] = C::from_polar(1.0, -phi);
    m
}

/// The standard gates and their counts in [`ORDER`] (CZ, CX, ECR, iSWAP, √iSWAP, RZZ, RXX),
/// derived by hand from their Weyl points: CZ-like 0/1/2 (a zero coordinate)/3, iSWAP the same
/// with its own class for 1, √iSWAP 2 exactly when x >= y + |z|, RZZ one per non-zero coordinate.
fn standard_gates() -> Vec<(&'static str, Mat4, [u8; 7])> {
    let iswap = Native::ISwap.matrix();
    let sqrt_iswap = Native::SqrtISwap.matrix();
    let [x, y, _] = paulis();
    vec![
        ("identity", Mat4::IDENTITY, [0; 7]),
        ("H (x) Y", Mat2::kron(&hadamard(), &y), [0; 7]),
        ("CZ", Mat4::CZ, [1, 1, 1, 2, 2, 1, 1]),
        ("CNOT", Mat4::CX_HI_LO, [1, 1, 1, 2, 2, 1, 1]),
        ("CNOT reversed", Mat4::CX_LO_HI, [1, 1, 1, 2, 2, 1, 1]),
        ("ECR", Native::Ecr.matrix(), [1, 1, 1, 2, 2, 1, 1]),
        // (pi/4, pi/4, 0)
        ("iSWAP", iswap, [2, 2, 2, 1, 2, 2, 2]),
        ("iSWAP dagger", iswap.adjoint(), [2, 2, 2, 1, 2, 2, 2]),
        (
            "DCNOT",
            Mat4::CX_HI_LO.mul(&Mat4::CX_LO_HI),
            [2, 2, 2, 1, 2, 2, 2],
        ),
        ("SWAP CZ", Mat4::SWAP.mul(&Mat4::CZ), [2, 2, 2, 1, 2, 2, 2]),
        // (pi/8, pi/8, 0)
        ("sqrt iSWAP", sqrt_iswap, [2, 2, 2, 2, 1, 2, 2]),
        (
            "sqrt iSWAP dagger",
            sqrt_iswap.adjoint(),
            [2, 2, 2, 2, 1, 2, 2],
        ),
        // (pi/4, pi/4, pi/4)
        ("SWAP", Mat4::SWAP, [3; 7]),
        // (pi/8, pi/8, pi/8): x < y + |z|
        ("sqrt SWAP", core([FRAC_PI_4 / 2.0; 3]), [3; 7]),
        // SWAP sqrt(iSWAP) = (3pi/8, 3pi/8, pi/4) ~ (pi/4, pi/8, pi/8): on the boundary x = y + |z|
        (
            "SWAP sqrt iSWAP",
            Mat4::SWAP.mul(&sqrt_iswap),
            [3, 3, 3, 3, 2, 3, 3],
        ),
        // (phi/4, 0, 0)
        ("CP(0.7)", cphase(0.7), [2, 2, 2, 2, 2, 1, 1]),
        ("CP(pi/2)", cphase(FRAC_PI_2), [2, 2, 2, 2, 2, 1, 1]),
        ("CP(-2.9)", cphase(-2.9), [2, 2, 2, 2, 2, 1, 1]),
        ("CP(pi)", cphase(PI), [1, 1, 1, 2, 2, 1, 1]),
        // fSim(theta, phi) ~ (theta/2, theta/2, phi/4)
        (
            "fSim(pi/2, pi/6) (Sycamore)",
            fsim(FRAC_PI_2, PI / 6.0),
            [3, 3, 3, 3, 3, 3, 3],
        ),
        ("fSim(pi/2, 0)", fsim(FRAC_PI_2, 0.0), [2, 2, 2, 1, 2, 2, 2]),
        ("fSim(pi/4, 0)", fsim(FRAC_PI_4, 0.0), [2, 2, 2, 2, 1, 2, 2]),
        ("fSim(0.4, 0)", fsim(0.4, 0.0), [2, 2, 2, 2, 2, 2, 2]),
        ("fSim(0, 1.1)", fsim(0.0, 1.1), [2, 2, 2, 2, 2, 1, 1]),
        ("fSim(0.9, 0.5)", fsim(0.9, 0.5), [3, 3, 3, 3, 3, 3, 3]),
        // fSim(0.3, 2.4) ~ (0.15, 0.15, 0.6) ~ (0.6, 0.15, 0.15): x >= y + |z|
        ("fSim(0.3, 2.4)", fsim(0.3, 2.4), [3, 3, 3, 3, 2, 3, 3]),
        // B gate (pi/4, pi/8, 0)
        (
            "B",
            core([FRAC_PI_4, FRAC_PI_4 / 2.0, 0.0]),
            [2, 2, 2, 2, 2, 2, 2],
        ),
        (
            "X (x) X core",
            core([0.3, 0.0, 0.0]).mul(&Mat2::kron(&x, &x)),
            [2, 2, 2, 2, 2, 1, 1],
        ),
    ]
}

#[test]
fn the_standard_gates_are_written_at_their_known_counts() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for (name, g, counts) in standard_gates() {
        for (e, &n) in ORDER.iter().zip(&counts) {
            check(*e, &g, n, name);
            // Local gates on either side change nothing.
            for _ in 0..5 {
                let u = random_local(&mut rng).mul(&g).mul(&random_local(&mut rng));
                check(*e, &u, n, &format!("{name} between local gates"));
            }
        }
    }
}

/// A random circuit of `k` native gates of `e` (random angles for RZZ and RXX) between random
/// local gates.
fn random_circuit(e: Entangler, k: usize, rng: &mut ChaCha8Rng) -> Mat4 {
    let mut u = random_local(rng);
    for _ in 0..k {
        let angle = rng.gen_range(-PI..PI);
        let g = match e {
            Entangler::Rzz => Native::Rzz(angle),
            Entangler::Rxx => Native::Rxx(angle),
            fixed => fixed.fixed_gate().expect("a fixed gate"),
        };
        u = random_local(rng).mul(&g.matrix()).mul(&u);
    }
    u
}

/// The lower bound by construction: a circuit of k native gates never counts more than k (and
/// one of one or two random ones exactly that many); with the synthesis writing every gate at
/// its count, the count is the minimum.
#[test]
fn circuits_of_k_native_gates_count_at_most_k() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for e in Entangler::ALL {
        for k in 0..=3 {
            for i in 0..150 {
                let u = random_circuit(e, k, &mut rng);
                let n = e.count(&u);
                let what = format!("{e:?}: {k} gates, circuit {i}");
                if k <= 2 {
                    assert_eq!(usize::from(n), k, "{what}");
                } else {
                    assert!(usize::from(n) <= k, "{what}: counted {n}");
                }
                check(e, &u, n, &what);
            }
        }
    }
}

#[test]
fn haar_random_gates_are_written_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut two_sqrt_iswaps = 0;
    let n = 1000;
    for i in 0..n {
        let u = haar4(&mut rng);
        for e in Entangler::ALL {
            let count = e.count(&u);
            if e == Entangler::SqrtISwap {
                two_sqrt_iswaps += usize::from(count == 2);
            } else {
                assert_eq!(count, 3, "{e:?}: haar {i}");
            }
            check(e, &u, count, &format!("haar {i}"));
        }
    }
    // About 78% of Haar-random gates lie in x >= y + |z| (the region's Haar measure).
    let share = two_sqrt_iswaps as f64 / n as f64;
    assert!((0.72..0.84).contains(&share), "{share}");
}

/// The canonical point of `S (a (x) b) S` for middle gates from six angles.
fn two_gate_point(angles: &[f64; 6]) -> [f64; 3] {
    let k0 = rz(angles[0]).mul(&ry(angles[1])).mul(&rz(angles[2]));
    let k1 = rz(angles[3]).mul(&ry(angles[4])).mul(&rz(angles[5]));
    let s = Native::SqrtISwap.matrix();
    let v = s.mul(&Mat2::kron(&k0, &k1)).mul(&s);
    weyl::coordinates(&v).expect("unitary")
}

/// A bounded brute-force search: the closest `S (a (x) b) S` gets to `target` (distance between
/// canonical points), from `starts` random middle gates each refined by a shrinking-step
/// coordinate descent of at most `rounds` rounds.
fn closest_two_gate_point(
    target: [f64; 3],
    starts: usize,
    rounds: usize,
    rng: &mut ChaCha8Rng,
) -> f64 {
    let distance = |a: &[f64; 6]| {
        let p = two_gate_point(a);
        (0..3)
            .map(|k| (p[k] - target[k]).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let mut best = f64::INFINITY;
    for _ in 0..starts {
        let mut a: [f64; 6] = std::array::from_fn(|_| rng.gen_range(-PI..PI));
        let mut d = distance(&a);
        let mut step = 0.5;
        for _ in 0..rounds {
            let mut moved = false;
            for k in 0..6 {
                for sign in [1.0, -1.0] {
                    let mut b = a;
                    b[k] += sign * step;
                    let e = distance(&b);
                    if e < d {
                        (a, d, moved) = (b, e, true);
                    }
                }
            }
            if !moved {
                step /= 2.0;
                if step < 1e-7 {
                    break;
                }
            }
        }
        best = best.min(d);
    }
    best
}

/// Two √iSWAP gates reach exactly `x >= y + |z|`: every product of random middle gates lands
/// there; the brute-force search reaches points inside and stays away from points outside; and
/// every point inside is written with two (at the boundary too).
#[test]
fn two_sqrt_iswaps_reach_exactly_x_at_least_y_plus_abs_z() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..3000 {
        let angles: [f64; 6] = std::array::from_fn(|_| rng.gen_range(-PI..PI));
        let p = two_gate_point(&angles);
        assert!(sqrt_iswap::slack(p) > -1e-9, "{p:?} outside");
    }
    let eighth = FRAC_PI_4 / 2.0;
    let inside = [
        [0.5, 0.2, 0.1],
        [0.4, 0.25, -0.1],
        [FRAC_PI_4, eighth, eighth],
    ];
    let outside = [
        [0.5, 0.35, 0.3],
        [0.3, 0.3, 0.2],
        [FRAC_PI_4, FRAC_PI_4, FRAC_PI_4],
    ];
    for p in inside {
        let d = closest_two_gate_point(p, 8, 200, &mut rng);
        assert!(d < 1e-4, "{p:?} inside: search got within {d}");
    }
    for p in outside {
        let d = closest_two_gate_point(p, 8, 200, &mut rng);
        assert!(d > 0.02, "{p:?} outside: search got within {d}");
    }
    // Sufficiency: random points of the chamber inside the region, written with two.
    let mut written = 0;
    while written < 1000 {
        let x = rng.gen_range(0.0..FRAC_PI_4);
        let y = rng.gen_range(0.0..=x);
        let z = rng.gen_range(-y..=y);
        if x < y + z.abs() {
            continue;
        }
        // Exactly on the boundary, every tenth point.
        let z = if written % 10 == 0 {
            (x - y) * z.signum()
        } else {
            z
        };
        let u = random_local(&mut rng)
            .mul(&core([x, y, z]))
            .mul(&random_local(&mut rng));
        check(Entangler::SqrtISwap, &u, 2, &format!("({x}, {y}, {z})"));
        written += 1;
    }
}

/// Points just outside the region need three, and the split into one √iSWAP and a two-gate
/// rest finds a rest inside for each (SWAP sits on the boundary of what that split leaves).
#[test]
fn just_outside_the_region_three_sqrt_iswaps_are_written() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (x, y) in [(0.5, 0.3), (FRAC_PI_4, 0.5), (0.3, 0.2), (0.2, 0.2)] {
        for gap in [1e-6, 1e-3, 0.05] {
            let z = (x - y + gap).min(y);
            if x >= y + z - 1e-12 {
                continue;
            }
            let u = random_local(&mut rng)
                .mul(&core([x, y, z]))
                .mul(&random_local(&mut rng));
            check(Entangler::SqrtISwap, &u, 3, &format!("({x}, {y}, {z})"));
            let u = core([x, y, -z]);
            check(Entangler::SqrtISwap, &u, 3, &format!("({x}, {y}, -{z})"));
        }
    }
}

#[test]
fn a_controlled_phase_is_one_rzz_of_half_its_angle() {
    for phi in [0.3, -1.2, FRAC_PI_2, 2.9] {
        for e in [Entangler::Rzz, Entangler::Rxx] {
            let prims = check(e, &cphase(phi), 1, &format!("CP({phi})"));
            let angle = prims.iter().find_map(|p| match p {
                Prim::Two(Native::Rzz(t) | Native::Rxx(t)) => Some(*t),
                _ => None,
            });
            let angle = angle.expect("one gate");
            assert!(
                (angle.abs() - phi.abs() / 2.0).abs() < 1e-9,
                "{e:?} CP({phi}): {angle}"
            );
        }
    }
}

/// The IR gates the routed circuit is written with are the native matrices, in the IR's qubit
/// order (the low qubit of a pair is qubit 0 of the two-qubit circuit).
#[test]
fn native_instructions_are_the_native_matrices() {
    for e in Entangler::ALL {
        let Some(instr) = e.instruction(1, 0) else {
            continue;
        };
        let mut c = qc_ir::Circuit::with_plain_qubits(2, 0);
        c.push(instr.clone());
        let u = c.unitary().expect("unitary");
        let m = Mat4::from_matrix(&u).expect("4x4");
        let native = e.fixed_gate().expect("an IR gate is a fixed one");
        assert!(m.eq_up_to_phase(&native.matrix(), 1e-12), "{e:?}");
        match &instr.op {
            qc_ir::Op::Gate { gate, controls, .. } => assert!(e.is_gate(*gate, controls.len())),
            other => panic!("{other:?}"),
        }
    }
    assert!(!Entangler::SqrtISwap.is_gate(Gate::Z, 1));
    assert!(!Entangler::Cz.is_gate(Gate::X, 1));
    assert!(!Entangler::Cz.is_gate(Gate::Z, 0));
    assert!(!Entangler::Ecr.is_gate(Gate::X, 1));
    // RZZ is continuous: every angle is its gate, with no control and on no other entangler.
    assert!(Entangler::Rzz.is_gate(Gate::Rzz(0.3), 0));
    assert!(!Entangler::Rzz.is_gate(Gate::Rzz(0.3), 1));
    assert!(!Entangler::Rzz.is_gate(Gate::Z, 1));
    assert!(!Entangler::Cz.is_gate(Gate::Rzz(0.3), 0));
}

#[test]
fn names_read_back_and_directed_entanglers_are_cx_and_ecr() {
    for e in Entangler::ALL {
        assert_eq!(Entangler::from_name(e.name()), Some(e));
        assert_eq!(e.directed(), matches!(e, Entangler::Cx | Entangler::Ecr));
    }
    assert_eq!(Entangler::from_name("cnot"), None);
    // ECR is locally a CNOT with its first qubit (high) the control: one CZ-class gate.
    assert_eq!(Entangler::Cz.count(&Native::Ecr.matrix()), 1);
}

#[test]
fn a_non_unitary_matrix_counts_three_and_is_not_written() {
    let m = Mat4::CZ.scale(C::new(2.0, 0.0));
    for e in Entangler::ALL {
        assert_eq!(e.count(&m), 3, "{e:?}");
        assert!(e.synthesize(&m).is_none(), "{e:?}");
    }
}

#[test]
fn counts_are_cached_per_entangler() {
    let mut cache = CountCache::new(Entangler::SqrtISwap);
    assert_eq!(cache.count(&Mat4::CZ), 2);
    assert_eq!(cache.count(&Native::SqrtISwap.matrix()), 1);
    assert_eq!(cache.count(&Mat4::CZ), 2);
    assert_eq!(cache.entangler(), Entangler::SqrtISwap);
}

/// `Native::Rzz(t)` is written as the IR's `rzz(t)`, with the same matrix (phase included).
#[test]
fn native_rzz_is_written_as_the_ir_rzz() {
    for theta in [0.7, -1.3, std::f64::consts::FRAC_PI_2] {
        let instr = Native::Rzz(theta)
            .instruction(1, 0)
            .expect("the IR has rzz");
        let mut c = qc_ir::Circuit::with_plain_qubits(2, 0);
        c.push(instr);
        let u = c.unitary().expect("unitary");
        let m = Mat4::from_matrix(&u).expect("4x4");
        assert!(
            m.eq_up_to_phase(&Native::Rzz(theta).matrix(), 1e-12),
            "{theta}"
        );
    }
}
