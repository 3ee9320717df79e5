//! Entanglers locally equivalent to CZ (CZ, CX, ECR) or to SWAP times CZ (iSWAP): written
//! through the CZ synthesis of [`crate::kak`], each CZ then replaced by the native gate.
//!
//! A CZ is `A G B` for a gate `G` of CZ's class (single-qubit `A`, `B` from the two gates'
//! canonical forms). iSWAP is `SWAP CZ` up to local gates, so `CZ = A SWAP iSWAP B`: a circuit of
//! `k` CZ for `SWAP^k U` becomes one of `k` iSWAP for `U` once each SWAP is carried to the end
//! (every single-qubit gate after it changes qubit, and the `k` carried SWAPs cancel the `SWAP^k`
//! in front). So the counts are those of CZ, on the gate itself or on `SWAP U`:
//!
//! - 0 for a local gate, 1 for the entangler's own class;
//! - 2 when a coordinate is 0 (Shende, Bullock and Markov for CZ; for iSWAP two gates reach the
//!   same set, `SWAP^2 = I`, the plane `c = 0`);
//! - 3 otherwise (three CZ write any gate, `SWAP U` included).

use super::{Entangler, Native, Prim, Synthesis};
use crate::kak::{self, COORD_TOL};
use crate::linalg::Mat4;
use crate::weyl;

/// The native gate of a CZ-like entangler.
fn native(e: Entangler) -> Native {
    e.fixed_gate().unwrap_or(Native::Cz)
}

/// True when the entangler is SWAP times CZ (each CZ written with it brings a SWAP).
fn swaps(e: Entangler) -> bool {
    e == Entangler::ISwap
}

/// The fewest native gates for Weyl coordinates `c`.
pub(super) fn count(e: Entangler, c: [f64; 3]) -> u8 {
    let zero = |x: f64| x.abs() < COORD_TOL;
    let own = if swaps(e) {
        [
            std::f64::consts::FRAC_PI_4,
            std::f64::consts::FRAC_PI_4,
            0.0,
        ]
    } else {
        [std::f64::consts::FRAC_PI_4, 0.0, 0.0]
    };
    if c.iter().all(|x| zero(*x)) {
        0
    } else if weyl::same_point(c, own) {
        1
    } else if zero(c[2]) {
        2
    } else {
        3
    }
}

/// The core `N(c)` with the fewest native gates (more only if the numerics refuse the fewest,
/// which the tests have not seen).
pub(super) fn core(e: Entangler, c: [f64; 3]) -> Option<Vec<Prim>> {
    let g = native(e).matrix();
    let class = if swaps(e) { Mat4::SWAP.mul(&g) } else { g };
    // CZ = a (SWAP^s G) b.
    let (cz, gf) = (weyl::canonical(&Mat4::CZ)?, weyl::canonical(&class)?);
    let a = [0, 1].map(|k| cz.after[k].mul(&gf.after[k].adjoint()));
    let b = [0, 1].map(|k| gf.before[k].adjoint().mul(&cz.before[k]));
    let n = kak::core(c);
    (count(e, c)..=3).find_map(|k| {
        let w = if swaps(e) && k % 2 == 1 {
            Mat4::SWAP.mul(&n)
        } else {
            n
        };
        let prims = kak::synthesize_with(&w, k)?;
        let mut out = Vec::with_capacity(prims.len() + 4 * usize::from(k));
        // Odd while an odd number of SWAPs has been carried past.
        let mut flipped = false;
        for p in prims {
            match p {
                kak::Prim::One(hi, m) => out.push(Prim::One(hi != flipped, m)),
                kak::Prim::Cz => {
                    out.extend([Prim::One(!flipped, b[0]), Prim::One(flipped, b[1])]);
                    out.push(Prim::Two(native(e)));
                    flipped ^= swaps(e);
                    out.extend([Prim::One(!flipped, a[0]), Prim::One(flipped, a[1])]);
                }
            }
        }
        Some(out)
    })
}
