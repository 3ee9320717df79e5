//! The kernel of a fused block: a dense `D x D` complex matrix (`D = 2^s`, s = 2, 3 or 4
//! qubits) applied to every group of `D` amplitudes, fast enough that one fused pass costs less
//! than the passes of the gates it replaces.
//!
//! The matrix lives in stack arrays of a size fixed at compile time, laid out by column so that
//! the product vectorises over the *rows*, whatever bit positions the block acts on: for each
//! input amplitude `v = x + iy` of the group, the output (rows interleaved as re, im, re, im, ...)
//! gains `x * column_re + y * column_im`, where `column_re` holds `(re, im)` of the column's
//! entries and `column_im` holds `(-im, re)`. That is `2D` independent multiply-adds per input,
//! with no shuffle, which the compiler turns into full-width vector instructions (checked in the
//! generated code: `vfmadd...pd ymm` / `...ps ymm` in the AVX2 path). On x86-64 with AVX2 and
//! FMA (detected at run time) the loop is compiled for them; elsewhere the same code runs with
//! the baseline instructions and separate multiply and add. One code path serves `f64` and
//! `f32` (the amplitudes' precision; the matrix is rounded to it once).
//!
//! Larger blocks (5 qubits) use the generic [`kernels::matrix`](crate::kernels::matrix).

use crate::kernels::{Amps, Groups};
use crate::precision::Real;
use num_complex::Complex;
use qc_ir::Complex64;

/// A `D x D` matrix by column, each column as two interleaved vectors of length `W = 2D`
/// (`re`: `(m.re, m.im)` per row, `im`: `(-m.im, m.re)` per row). `W` is a parameter of its own
/// because array lengths cannot be computed from `D` on stable Rust.
struct Columns<F, const D: usize, const W: usize> {
    re: [[F; W]; D],
    im: [[F; W]; D],
}

impl<F: Real, const D: usize, const W: usize> Columns<F, D, W> {
    /// Lays out the row-major `m` (`D * D` entries), rounded to `F`.
    fn new(m: &[Complex64]) -> Self {
        assert!(
            W == 2 * D && m.len() == D * D,
            "fused kernel: bad dimensions"
        );
        let mut re = [[F::zero(); W]; D];
        let mut im = [[F::zero(); W]; D];
        for c in 0..D {
            for r in 0..D {
                let z = m[r * D + c];
                re[c][2 * r] = F::from_f64(z.re);
                re[c][2 * r + 1] = F::from_f64(z.im);
                im[c][2 * r] = F::from_f64(-z.im);
                im[c][2 * r + 1] = F::from_f64(z.re);
            }
        }
        Columns { re, im }
    }
}

/// The matrix for [`apply_lanes`], by column: entry `(r, c)` is `re[c][r]` and `im[c][r]`, two
/// vectors of `W2 = 2L` values that multiply `L` consecutive amplitudes at once,
/// `(re, re, ...)` and `(-im, im, -im, im, ...)`.
struct Lanes<F, const D: usize, const W2: usize> {
    re: [[[F; W2]; D]; D],
    im: [[[F; W2]; D]; D],
}

impl<F: Real, const D: usize, const W2: usize> Lanes<F, D, W2> {
    /// Lays out the row-major `m` (`D * D` entries), rounded to `F`.
    fn new(m: &[Complex64]) -> Self {
        assert!(
            m.len() == D * D && W2.is_multiple_of(2),
            "fused kernel: bad dimensions"
        );
        let mut re = [[[F::zero(); W2]; D]; D];
        let mut im = [[[F::zero(); W2]; D]; D];
        for c in 0..D {
            for r in 0..D {
                let z = m[r * D + c];
                for k in 0..W2 {
                    re[c][r][k] = F::from_f64(z.re);
                    im[c][r][k] = F::from_f64(if k % 2 == 0 { -z.im } else { z.im });
                }
            }
        }
        Lanes { re, im }
    }
}

/// The matrix applied to the `L = W2 / 2` consecutive groups at `i..i + L` at once: each of the
/// `D` inputs is `L` consecutive amplitudes (one full vector register: `L` = 2 in double, 4 in
/// single precision), so loads, stores and arithmetic all run at full width. Input by input
/// (so only the `D` row accumulators and one input stay in registers), row `r` gains
/// `re[c][r] * v + im[c][r] * swap(v)` (`swap` exchanges the real and imaginary parts).
///
/// # Safety
/// As [`apply_group`], for each of the `L` groups.
#[inline(always)]
unsafe fn apply_lanes<F: Real, const D: usize, const W2: usize, const FMA: bool>(
    a: Amps<F>,
    i: usize,
    offsets: &[usize; D],
    m: &Lanes<F, D, W2>,
) {
    let mut acc = [[F::zero(); W2]; D];
    for ((&o, re), im) in offsets.iter().zip(&m.re).zip(&m.im) {
        // SAFETY: the caller's contract.
        let v: [F; W2] = unsafe { a.get_flat(i + o) };
        let swapped: [F; W2] = std::array::from_fn(|k| v[k ^ 1]);
        for ((acc, x), y) in acc.iter_mut().zip(re).zip(im) {
            for k in 0..W2 {
                acc[k] = madd::<F, FMA>(x[k], v[k], madd::<F, FMA>(y[k], swapped[k], acc[k]));
            }
        }
    }
    for (&o, acc) in offsets.iter().zip(acc) {
        // SAFETY: the caller's contract.
        unsafe { a.set_flat(i + o, acc) }
    }
}

/// `a * b + c`, as one fused instruction when `FMA` (only inside code compiled for it: without
/// the instruction `mul_add` is a slow library call), else as a multiply and an add.
#[inline(always)]
fn madd<F: Real, const FMA: bool>(a: F, b: F, c: F) -> F {
    if FMA {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// The matrix applied to the group at `i`: reads its `D` amplitudes, writes `D` new ones.
///
/// # Safety
/// The group owns `i + offsets[c]` for every `c` (no other thread touches them) and they are in
/// bounds.
#[inline(always)]
unsafe fn apply_group<F: Real, const D: usize, const W: usize, const FMA: bool>(
    a: Amps<F>,
    i: usize,
    offsets: &[usize; D],
    m: &Columns<F, D, W>,
) {
    let mut out = [F::zero(); W];
    for ((&o, re), im) in offsets.iter().zip(&m.re).zip(&m.im) {
        // SAFETY: the caller's contract.
        let v = unsafe { a.get(i + o) };
        for ((acc, &x), &y) in out.iter_mut().zip(re).zip(im) {
            *acc = madd::<F, FMA>(x, v.re, madd::<F, FMA>(y, v.im, *acc));
        }
    }
    for (r, &o) in offsets.iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { a.set(i + o, Complex::new(out[2 * r], out[2 * r + 1])) }
    }
}

/// Both layouts of a block's matrix: by lanes of consecutive groups, and by column for
/// groups that have no consecutive neighbour (a block on the lowest bits).
struct Matrices<F, const D: usize, const W: usize, const W2: usize> {
    lanes: Lanes<F, D, W2>,
    columns: Columns<F, D, W>,
}

/// The groups numbered `lo..hi`, with the instructions of the machine the crate is built for:
/// `L = W2 / 2` consecutive groups at a time where the stretch allows, the rest one by one.
#[inline(always)]
fn apply_range<F: Real, const D: usize, const W: usize, const W2: usize, const FMA: bool>(
    a: Amps<F>,
    groups: &Groups<'_>,
    (lo, hi): (usize, usize),
    offsets: &[usize; D],
    m: &Matrices<F, D, W, W2>,
) {
    let lanes = W2 / 2;
    groups.walk_runs(lo, hi, |start, len| {
        let mut j = 0;
        // SAFETY (both calls): `Groups` hands out each group's base once; the offsets are made
        // of fixed bits, so the groups' amplitudes are disjoint and in bounds.
        while j + lanes <= len {
            unsafe { apply_lanes::<F, D, W2, FMA>(a, start + j, offsets, &m.lanes) };
            j += lanes;
        }
        while j < len {
            unsafe { apply_group::<F, D, W, FMA>(a, start + j, offsets, &m.columns) };
            j += 1;
        }
    });
}

/// [`apply_range`] compiled for AVX2 and FMA.
///
/// # Safety
/// The CPU supports AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn apply_range_avx2<F: Real, const D: usize, const W: usize, const W2: usize>(
    a: Amps<F>,
    groups: &Groups<'_>,
    range: (usize, usize),
    offsets: &[usize; D],
    m: &Matrices<F, D, W, W2>,
) {
    apply_range::<F, D, W, W2, true>(a, groups, range, offsets, m);
}

/// Whether this CPU runs the AVX2 + FMA path (detected once, then cached by the standard
/// library).
pub fn uses_avx2_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Two consecutive groups at a time (`W2` = 4 reals: one 256-bit register of complex128, half
/// of one of complex64): measured faster in both precisions than four groups of complex64 at a
/// time, which spill registers.
fn apply_fixed<F: Real, const D: usize, const W: usize>(
    amps: &mut [Complex<F>],
    groups: &Groups<'_>,
    offsets: &[usize],
    m: &[Complex64],
    parallel: bool,
) {
    apply_fixed_lanes::<F, D, W, 4>(amps, groups, offsets, m, parallel);
}

fn apply_fixed_lanes<F: Real, const D: usize, const W: usize, const W2: usize>(
    amps: &mut [Complex<F>],
    groups: &Groups<'_>,
    offsets: &[usize],
    m: &[Complex64],
    parallel: bool,
) {
    // On the heap: the lane layout of a 4-qubit block in double precision is 16 KiB.
    let m = Box::new(Matrices::<F, D, W, W2> {
        lanes: Lanes::new(m),
        columns: Columns::new(m),
    });
    let offsets: [usize; D] = std::array::from_fn(|c| offsets[c]);
    let a = Amps::of(amps);
    let fast = uses_avx2_fma();
    groups.for_each_item(parallel, |lo, hi| {
        #[cfg(target_arch = "x86_64")]
        if fast {
            // SAFETY: AVX2 and FMA were detected on this CPU.
            unsafe { apply_range_avx2::<F, D, W, W2>(a, groups, (lo, hi), &offsets, &m) };
            return;
        }
        let _ = fast;
        apply_range::<F, D, W, W2, false>(a, groups, (lo, hi), &offsets, &m);
    });
}

/// Applies the row-major `d x d` matrix `m` (`d = offsets.len()`, a power of two up to 32) to
/// amplitudes `i + offsets[c]` of every group of the vector for the fixed bits `fixed`
/// (ascending: the block's qubits and any control qubits) set to `base` (the controls' values).
/// 4, 8 and 16 take the fast fixed-size path.
pub fn apply<F: Real>(
    amps: &mut [Complex<F>],
    fixed: &[u8],
    base: usize,
    offsets: &[usize],
    m: &[Complex64],
    parallel: bool,
) {
    let groups = Groups::new(amps.len(), fixed, base);
    match offsets.len() {
        4 => apply_fixed::<F, 4, 8>(amps, &groups, offsets, m, parallel),
        8 => apply_fixed::<F, 8, 16>(amps, &groups, offsets, m, parallel),
        16 => apply_fixed::<F, 16, 32>(amps, &groups, offsets, m, parallel),
        _ => {
            let m: Vec<Complex<F>> = m.iter().map(|&z| F::complex(z)).collect();
            crate::kernels::matrix(amps, fixed, base, offsets, &m, parallel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The product of a random `d x d` matrix with every group, written out by hand.
    fn by_hand(
        amps: &[Complex64],
        fixed: &[u8],
        offsets: &[usize],
        m: &[Complex64],
    ) -> Vec<Complex64> {
        let d = offsets.len();
        let mut out = amps.to_vec();
        for i in 0..amps.len() {
            if fixed.iter().any(|&p| i >> p & 1 == 1) {
                continue;
            }
            for r in 0..d {
                out[i + offsets[r]] = (0..d).map(|c| m[r * d + c] * amps[i + offsets[c]]).sum();
            }
        }
        out
    }

    fn pseudo_random(k: usize) -> Complex64 {
        let x = (k as f64 * 0.618_033_988_75).fract();
        let y = (k as f64 * 0.414_213_562_37).fract();
        Complex64::new(x - 0.5, y - 0.5)
    }

    #[test]
    fn every_size_and_both_paths_match_the_written_out_product() {
        // Bit positions out of order (the block's local bit 0 is state bit 3), so offsets are
        // not ascending; the lowest fixed bit 0 gives runs of one group.
        for (positions, n) in [
            (vec![3u8, 0], 6),
            (vec![4u8, 1, 2], 7),
            (vec![5u8, 0, 2, 3], 8),
            (vec![0u8, 1, 2, 3, 4], 7),
        ] {
            let d = 1usize << positions.len();
            let offsets: Vec<usize> = (0..d)
                .map(|c| {
                    (0..positions.len())
                        .filter(|j| c >> j & 1 == 1)
                        .map(|j| 1usize << positions[j])
                        .sum()
                })
                .collect();
            let mut fixed = positions.clone();
            fixed.sort_unstable();
            let m: Vec<Complex64> = (0..d * d).map(|k| pseudo_random(k + 7)).collect();
            let amps: Vec<Complex64> = (0..1usize << n).map(|k| pseudo_random(k + 1000)).collect();
            let want = by_hand(&amps, &fixed, &offsets, &m);
            for parallel in [false, true] {
                let mut got = amps.clone();
                apply(&mut got, &fixed, 0, &offsets, &m, parallel);
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).norm() < 1e-12, "d = {d}: {g} != {w}");
                }
                let mut single: Vec<Complex<f32>> = amps.iter().map(|&z| f32::complex(z)).collect();
                apply(&mut single, &fixed, 0, &offsets, &m, parallel);
                for (g, w) in single.iter().zip(&want) {
                    assert!(
                        (f32::widen(*g) - w).norm() < 1e-5,
                        "d = {d}, single: {g} != {w}"
                    );
                }
            }
            if d <= 16 {
                // The portable path (no AVX2) on its own, whatever this CPU has.
                let groups = Groups::new(amps.len(), &fixed, 0);
                let mut got = amps.clone();
                match d {
                    4 => portable::<4, 8>(&mut got, &groups, &offsets, &m),
                    8 => portable::<8, 16>(&mut got, &groups, &offsets, &m),
                    _ => portable::<16, 32>(&mut got, &groups, &offsets, &m),
                }
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).norm() < 1e-12, "d = {d}, portable: {g} != {w}");
                }
            }
        }
    }

    fn portable<const D: usize, const W: usize>(
        amps: &mut [Complex64],
        groups: &Groups<'_>,
        offsets: &[usize],
        m: &[Complex64],
    ) {
        let m = Matrices::<f64, D, W, 4> {
            lanes: Lanes::new(m),
            columns: Columns::new(m),
        };
        let offsets: [usize; D] = std::array::from_fn(|c| offsets[c]);
        let range = (0, groups.groups);
        apply_range::<f64, D, W, 4, false>(Amps::of(amps), groups, range, &offsets, &m);
    }
}
