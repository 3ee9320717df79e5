//! Bell-operator expectations and same/opposite correlation for a pair of squares
//! (`circuits.md` sec. 4), from the pair's reduced density matrix.

use qc_ir::{Complex64, Matrix};
use std::f64::consts::FRAC_1_SQRT_2;

/// The eight Bell-type states O1..O8 project on, as amplitudes over |sq1 sq2> = |00>, |01>,
/// |10>, |11> (sq1 the most significant).
fn bell_states() -> [[Complex64; 4]; 8] {
    let z = Complex64::new(0.0, 0.0);
    let r = Complex64::new(FRAC_1_SQRT_2, 0.0);
    let i = Complex64::new(0.0, FRAC_1_SQRT_2);
    [
        [z, r, r, z],  // Psi+  = (|01> + |10>)/sqrt2
        [z, r, -r, z], // Psi-
        [z, r, i, z],  // Psi+i = (|01> + i|10>)/sqrt2
        [z, r, -i, z], // Psi-i
        [r, z, z, r],  // Phi+  = (|00> + |11>)/sqrt2
        [r, z, z, -r], // Phi-
        [r, z, z, i],  // Phi+i
        [r, z, z, -i], // Phi-i
    ]
}

/// `<O1>..<O8>` from the reduced density matrix of (sq1, sq2) in the backend convention (basis
/// index bit 0 = sq1, bit 1 = sq2).
pub fn bell_expectations(rho: &Matrix) -> [f64; 8] {
    // Ket |x y> (x = sq1) is density-matrix index x + 2y.
    let index = |ket: usize| (ket >> 1) | ((ket & 1) << 1);
    let mut out = [0.0; 8];
    for (k, psi) in bell_states().iter().enumerate() {
        let mut acc = Complex64::new(0.0, 0.0);
        for a in 0..4 {
            for b in 0..4 {
                acc += psi[a].conj() * rho.get(index(a), index(b)) * psi[b];
            }
        }
        out[k] = acc.re;
    }
    out
}

/// `(same, opposite)`: s.s / (o.o + s.s) and o.o / (o.o + s.s), with o = O1..O4, s = O5..O8.
pub fn same_opposite(o: &[f64; 8]) -> (f64, f64) {
    let opp: f64 = o[..4].iter().map(|x| x * x).sum();
    let same: f64 = o[4..].iter().map(|x| x * x).sum();
    let total = opp + same;
    if total == 0.0 {
        return (0.0, 0.0);
    }
    (same / total, opp / total)
}
