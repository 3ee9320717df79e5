//! Two-qubit gates brought into the Weyl chamber: the KAK form of [`crate::kak`] with its
//! coordinates made canonical, so that two gates are locally equivalent exactly when their
//! coordinates are equal, and every native-gate count ([`crate::native`]) is a function of them.
//!
//! The chamber is `pi/4 >= a >= b >= |c|`, with `c >= 0` when `a = pi/4`. Three exact local
//! identities take any coordinates there, each changing only the single-qubit gates around the
//! core `N(a, b, c) = exp(i (a XX + b YY + c ZZ))`:
//!
//! - a permutation of two axes is a Clifford `W` on both qubits that exchanges their Paulis
//!   (`S` for X and Y, `H` for X and Z, `Rx(pi/2)` for Y and Z): `N(c) = (W^dagger (x) W^dagger)
//!   N(c') (W (x) W)`;
//! - the signs of two coordinates flip under the third axis's Pauli on one qubit, which
//!   anticommutes with the other two: `N(c) = (P (x) I) N(c') (P (x) I)`;
//! - a coordinate moves by `pi/2` at the cost of a Pauli pair: `N(c) = N(c') (i P (x) P)` for
//!   `c' = c + pi/2` on that axis.
//!
//! The coordinates are sorted by size, made non-negative two at a time, and on the face `a =
//! pi/4` (where `(pi/4, b, c)` and `(pi/4, b, -c)` are the same class: shift `a` to `-pi/4`,
//! flip `a` and `c`) `c` is made non-negative. The result is multiplied back and compared with
//! the gate before it is returned.

use crate::kak::{self, Kak, COORD_TOL};
use crate::linalg::{hadamard, paulis, rx, Mat2, Mat4};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};

/// The KAK form of a gate with its coordinates in the Weyl chamber: `U = e^{i phi} after
/// N(coords) before`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Canonical {
    /// The single-qubit gates after the core, `[hi, lo]`.
    pub after: [Mat2; 2],
    /// `(a, b, c)` with `pi/4 >= a >= b >= |c|`, and `c >= 0` when `a = pi/4` (within
    /// [`COORD_TOL`]).
    pub coords: [f64; 3],
    /// The single-qubit gates before the core, `[hi, lo]`.
    pub before: [Mat2; 2],
}

impl Canonical {
    /// `after N(coords) before`.
    pub fn product(&self) -> Mat4 {
        self.as_kak().product()
    }

    fn as_kak(&self) -> Kak {
        Kak {
            after: self.after,
            coords: self.coords,
            before: self.before,
        }
    }

    /// `W` on both qubits around the core, taking axis `i` to `j` (and `j` to `i`).
    fn permute(&mut self, i: usize, j: usize) {
        let s = Mat2::new([[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, 1.0)]]);
        let w = match (i.min(j), i.max(j)) {
            (0, 1) => s,
            (0, 2) => hadamard(),
            _ => rx(FRAC_PI_2),
        };
        let wd = w.adjoint();
        self.after = [self.after[0].mul(&wd), self.after[1].mul(&wd)];
        self.before = [w.mul(&self.before[0]), w.mul(&self.before[1])];
        self.coords.swap(i, j);
    }

    /// The Pauli of the axis other than `i` and `j` on the high qubit on both sides: the signs of
    /// coordinates `i` and `j` flip.
    fn flip(&mut self, i: usize, j: usize) {
        let k = 3 - i - j;
        let p = paulis()[k];
        self.after[0] = self.after[0].mul(&p);
        self.before[0] = p.mul(&self.before[0]);
        self.coords[i] = -self.coords[i];
        self.coords[j] = -self.coords[j];
    }

    /// Coordinate `i` moved by `-pi/2`: `N(c) = N(c - pi/2 e_i) (i P_i (x) P_i)`.
    fn shift_down(&mut self, i: usize) {
        let p = paulis()[i];
        self.before = [p.mul(&self.before[0]), p.mul(&self.before[1])];
        self.coords[i] -= FRAC_PI_2;
    }
}

/// `coords` (each in `[-pi/4, pi/4]`) brought into the chamber, recording the local gates each
/// step adds to `form`.
fn into_chamber(form: &mut Canonical) {
    // Sorted by size, largest first (three compare-and-exchange steps).
    for (i, j) in [(0, 1), (1, 2), (0, 1)] {
        if form.coords[j].abs() > form.coords[i].abs() {
            form.permute(i, j);
        }
    }
    if form.coords[0] < 0.0 {
        form.flip(0, 2);
    }
    if form.coords[1] < 0.0 {
        form.flip(1, 2);
    }
    // On the face a = pi/4, (pi/4, b, c) ~ (pi/4, b, -c): take c >= 0.
    if form.coords[0] > FRAC_PI_4 - COORD_TOL && form.coords[2] < 0.0 {
        form.shift_down(0);
        form.flip(0, 2);
    }
}

/// The canonical KAK form of `u`, or `None` when `u` is not unitary or the numerics fail the
/// check against `u`.
pub fn canonical(u: &Mat4) -> Option<Canonical> {
    let k = kak::kak(u)?;
    let mut form = Canonical {
        after: k.after,
        coords: k.coords,
        before: k.before,
    };
    into_chamber(&mut form);
    form.product().eq_up_to_phase(u, 1e-8).then_some(form)
}

/// The Weyl-chamber coordinates of `u` (`None` when it is not unitary).
pub fn coordinates(u: &Mat4) -> Option<[f64; 3]> {
    canonical(u).map(|c| c.coords)
}

/// Coordinates `coords` (any real numbers) brought into the chamber, without the gates.
pub fn canonical_coords(coords: [f64; 3]) -> [f64; 3] {
    // Each coordinate into [-pi/4, pi/4] first (a shift by pi/2 is local).
    let reduced = coords.map(|x| x - (x / FRAC_PI_2).round() * FRAC_PI_2);
    let mut form = Canonical {
        after: [Mat2::IDENTITY; 2],
        coords: reduced,
        before: [Mat2::IDENTITY; 2],
    };
    into_chamber(&mut form);
    form.coords
}

/// True when `a` and `b` are within [`COORD_TOL`] of each other, coordinate by coordinate.
pub fn same_point(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < COORD_TOL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kak::{core, random_unitary4};
    use rand::SeedableRng;
    use std::f64::consts::FRAC_PI_8;

    fn in_chamber(c: [f64; 3]) -> bool {
        let [a, b, z] = c;
        let t = 1e-12;
        a <= FRAC_PI_4 + t
            && a + t >= b
            && b + t >= z.abs()
            && (a < FRAC_PI_4 - COORD_TOL || z >= -t)
    }

    #[test]
    fn every_gate_lands_in_the_chamber_and_multiplies_back() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for i in 0..500 {
            let u = random_unitary4(&mut rng);
            let c = canonical(&u).unwrap_or_else(|| panic!("gate {i}: no form"));
            assert!(in_chamber(c.coords), "gate {i}: {:?}", c.coords);
            assert!(c.product().eq_up_to_phase(&u, 1e-9), "gate {i}");
        }
    }

    /// Every symmetry of the chamber, applied to the core by hand, gives the same point: the
    /// permutations and sign pairs of the coordinates, shifts by pi/2, and the face a = pi/4.
    #[test]
    fn locally_equivalent_cores_have_one_point() {
        let points = [
            [0.3, 0.2, 0.1],
            [0.3, 0.2, -0.1],
            [FRAC_PI_4, 0.2, 0.1],
            [FRAC_PI_4, FRAC_PI_4, FRAC_PI_4],
            [FRAC_PI_8, FRAC_PI_8, 0.0],
            [FRAC_PI_4, 0.0, 0.0],
            [0.0, 0.0, 0.0],
        ];
        for p in points {
            let [a, b, c] = p;
            let variants = [
                [b, a, c],
                [c, b, a],
                [a, c, b],
                [-a, -b, c],
                [a, -b, -c],
                [-a, b, -c],
                [a + FRAC_PI_2, b, c],
                [a, b - FRAC_PI_2, c],
                [FRAC_PI_2 - a, b, -c],
            ];
            for v in variants {
                let got = coordinates(&core(v)).expect("form");
                assert!(same_point(got, p), "{v:?}: {got:?}, not {p:?}");
                assert!(same_point(canonical_coords(v), p), "{v:?} by coordinates");
            }
        }
    }

    #[test]
    fn mirror_images_stay_apart_except_on_the_face() {
        // (a, b, c) and (a, b, -c) are different classes unless a = pi/4, where (pi/2 - a, b,
        // -c) ~ (a, b, c) makes them one.
        let p = coordinates(&core([0.3, 0.2, 0.1])).expect("form");
        let m = coordinates(&core([0.3, 0.2, -0.1])).expect("form");
        assert!(!same_point(p, m));
        let p = coordinates(&core([FRAC_PI_4, 0.2, 0.1])).expect("form");
        let m = coordinates(&core([FRAC_PI_4, 0.2, -0.1])).expect("form");
        assert!(same_point(p, m), "{p:?} {m:?}");
    }
}
