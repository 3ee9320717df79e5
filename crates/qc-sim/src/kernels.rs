//! Dense state-vector kernels: a local operation applied to every group of amplitudes that share
//! the bits outside a fixed set of positions (targets and controls).
//!
//! Groups are enumerated by depositing a counter into the free bit positions; the lowest fixed
//! bit `p0` leaves runs of `2^p0` consecutive indices, which the inner loop walks linearly. Work
//! items touch disjoint amplitudes, so they run on rayon without locks; each amplitude is computed
//! by the same arithmetic whatever the split, hence bit-identical results on any thread count.
//!
//! Every kernel is generic over the amplitudes' real type ([`Real`]: `f64` or `f32`); the same
//! code serves both precisions.

use crate::precision::Real;
use num_complex::Complex;
use rayon::prelude::*;

/// Groups per parallel work item (large, so each item streams a good stretch of memory).
const GROUPS_PER_ITEM: usize = 1 << 14;

/// A raw pointer to the amplitudes, shared by work items that touch disjoint indices.
#[derive(Copy, Clone)]
pub struct Amps<F>(*mut Complex<F>);

// SAFETY: `for_each_group` hands each index of a group to exactly one work item, so no two
// threads access the same amplitude.
unsafe impl<F: Send> Send for Amps<F> {}
// SAFETY: as above.
unsafe impl<F: Sync> Sync for Amps<F> {}

impl<F: Real> Amps<F> {
    /// The pointer to `amps`; valid while `amps` is borrowed by the kernel that made it.
    pub fn of(amps: &mut [Complex<F>]) -> Amps<F> {
        Amps(amps.as_mut_ptr())
    }

    /// Reads amplitude `i`.
    ///
    /// # Safety
    /// `i` is in bounds and no other thread touches it.
    #[inline(always)]
    pub unsafe fn get(self, i: usize) -> Complex<F> {
        // SAFETY: the caller's contract.
        unsafe { *self.0.add(i) }
    }

    /// Reads amplitudes `i..i + W2 / 2` as `W2` reals (re, im, re, im, ...) in one load.
    ///
    /// # Safety
    /// The amplitudes are in bounds and no other thread touches them.
    #[inline(always)]
    pub unsafe fn get_flat<const W2: usize>(self, i: usize) -> [F; W2] {
        // SAFETY: the caller's contract; `Complex<F>` is `repr(C)` `{ re, im }`, so `W2 / 2`
        // consecutive amplitudes are `W2` consecutive reals.
        unsafe { std::ptr::read_unaligned(self.0.add(i).cast::<[F; W2]>()) }
    }

    /// Writes amplitudes `i..i + W2 / 2` from `W2` reals (re, im, re, im, ...) in one store.
    ///
    /// # Safety
    /// As [`Amps::get_flat`].
    #[inline(always)]
    pub unsafe fn set_flat<const W2: usize>(self, i: usize, v: [F; W2]) {
        // SAFETY: as in `get_flat`.
        unsafe { std::ptr::write_unaligned(self.0.add(i).cast::<[F; W2]>(), v) }
    }

    /// Writes amplitude `i`.
    ///
    /// # Safety
    /// `i` is in bounds and no other thread touches it.
    #[inline(always)]
    pub unsafe fn set(self, i: usize, v: Complex<F>) {
        // SAFETY: the caller's contract.
        unsafe { *self.0.add(i) = v }
    }
}

/// Inserts a zero bit at each of `fixed` (ascending) into `g`.
#[inline(always)]
fn deposit(mut g: usize, fixed: &[u8]) -> usize {
    for &p in fixed {
        let low = g & ((1usize << p) - 1);
        g = ((g >> p) << (p + 1)) | low;
    }
    g
}

/// How the groups of a kernel are laid out: `groups` of them, numbered `0..groups`, whose
/// indices are found by depositing the group number into the bits outside `fixed` (ascending)
/// and or-ing `base`; `run` consecutive group numbers map to consecutive indices.
#[derive(Copy, Clone, Debug)]
pub struct Groups<'a> {
    /// The fixed bit positions, ascending.
    pub fixed: &'a [u8],
    /// The value of the fixed bits that the groups select.
    pub base: usize,
    /// How many groups there are.
    pub groups: usize,
    /// How many consecutive group numbers have consecutive base indices (`2^fixed[0]`).
    pub run: usize,
}

impl<'a> Groups<'a> {
    /// The groups of a vector of `len` amplitudes for the fixed bits `fixed` set to `base`.
    ///
    /// # Panics
    /// If `fixed` is not ascending or reaches beyond the vector (a programming error).
    pub fn new(len: usize, fixed: &'a [u8], base: usize) -> Groups<'a> {
        assert!(
            fixed.windows(2).all(|w| w[0] < w[1]),
            "fixed bits must ascend"
        );
        assert!(len.is_power_of_two(), "state length must be a power of two");
        assert!(
            fixed.last().is_none_or(|&p| (1usize << p) < len),
            "fixed bit beyond the state"
        );
        let groups = len >> fixed.len();
        let run = fixed.first().map_or(groups, |&p| (1usize << p).min(groups));
        Groups {
            fixed,
            base,
            groups,
            run,
        }
    }

    /// Calls `f(base_index)` for the groups numbered `lo..hi`, in order. Inlined into its
    /// caller, so a kernel compiled for wider vector instructions keeps them in this loop.
    #[inline(always)]
    pub fn walk(&self, lo: usize, hi: usize, mut f: impl FnMut(usize)) {
        let mut g = lo;
        while g < hi {
            let start = deposit(g, self.fixed) | self.base;
            let len = self.run.min(hi - g);
            for j in 0..len {
                f(start + j);
            }
            g += len;
        }
    }

    /// Calls `f(start, len)` for each stretch of consecutive base indices
    /// `start..start + len` of the groups numbered `lo..hi`, in order; inlined like
    /// [`Groups::walk`].
    #[inline(always)]
    pub fn walk_runs(&self, lo: usize, hi: usize, mut f: impl FnMut(usize, usize)) {
        let mut g = lo;
        while g < hi {
            let len = self.run.min(hi - g);
            f(deposit(g, self.fixed) | self.base, len);
            g += len;
        }
    }

    /// Calls `item(lo, hi)` on ranges of group numbers that cover every group once: on rayon in
    /// fixed-size ranges when `parallel` and there are enough groups, else once for all.
    pub fn for_each_item(&self, parallel: bool, item: impl Fn(usize, usize) + Sync) {
        let groups = self.groups;
        if parallel && groups > GROUPS_PER_ITEM {
            let items = groups.div_ceil(GROUPS_PER_ITEM);
            (0..items)
                .into_par_iter()
                .for_each(|i| item(i * GROUPS_PER_ITEM, ((i + 1) * GROUPS_PER_ITEM).min(groups)));
        } else {
            item(0, groups);
        }
    }
}

/// Calls `f(amps, base_index)` for every group: `base_index` has `base` at the fixed positions
/// and every combination of the other bits. `f` may touch `base_index + o` for offsets `o` made
/// of fixed target bits only.
///
/// # Panics
/// If `fixed` is not ascending or reaches beyond the vector (a programming error).
pub fn for_each_group<F: Real, K>(
    amps: &mut [Complex<F>],
    fixed: &[u8],
    base: usize,
    parallel: bool,
    f: K,
) where
    K: Fn(Amps<F>, usize) + Sync,
{
    let groups = Groups::new(amps.len(), fixed, base);
    let ptr = Amps::of(amps);
    groups.for_each_item(parallel, |lo, hi| groups.walk(lo, hi, |i| f(ptr, i)));
}

/// A 2x2 matrix on the amplitude pair `(i + o0, i + o1)` of every group.
pub fn pair<F: Real>(
    amps: &mut [Complex<F>],
    fixed: &[u8],
    base: usize,
    (o0, o1): (usize, usize),
    m: [Complex<F>; 4],
    parallel: bool,
) {
    for_each_group(amps, fixed, base, parallel, |a, i| {
        // SAFETY: the group owns indices i + o0 and i + o1 (offsets are fixed target bits).
        unsafe {
            let x = a.get(i + o0);
            let y = a.get(i + o1);
            a.set(i + o0, m[0] * x + m[1] * y);
            a.set(i + o1, m[2] * x + m[3] * y);
        }
    });
}

/// Swap of the pair with phases: `(x, y) -> (py * y, px * x)` (X, iSWAP block, SWAP block).
pub fn swap_phase<F: Real>(
    amps: &mut [Complex<F>],
    fixed: &[u8],
    base: usize,
    (o0, o1): (usize, usize),
    (p_to0, p_to1): (Complex<F>, Complex<F>),
    parallel: bool,
) {
    for_each_group(amps, fixed, base, parallel, |a, i| {
        // SAFETY: as in `pair`.
        unsafe {
            let x = a.get(i + o0);
            let y = a.get(i + o1);
            a.set(i + o0, p_to0 * y);
            a.set(i + o1, p_to1 * x);
        }
    });
}

/// Multiplies amplitude `i + o` of every group by `phase`.
pub fn phase<F: Real>(
    amps: &mut [Complex<F>],
    fixed: &[u8],
    base: usize,
    o: usize,
    phase: Complex<F>,
    parallel: bool,
) {
    for_each_group(amps, fixed, base, parallel, |a, i| {
        // SAFETY: as in `pair`.
        unsafe { a.set(i + o, phase * a.get(i + o)) }
    });
}

/// A general `d x d` matrix (d = offsets.len() <= 32) on `i + offsets[c]` of every group.
pub fn matrix<F: Real>(
    amps: &mut [Complex<F>],
    fixed: &[u8],
    base: usize,
    offsets: &[usize],
    m: &[Complex<F>],
    parallel: bool,
) {
    let d = offsets.len();
    assert!(d <= 32 && m.len() == d * d, "matrix kernel: bad dimensions");
    for_each_group(amps, fixed, base, parallel, |a, i| {
        let mut v = [Complex::<F>::default(); 32];
        for (c, &o) in offsets.iter().enumerate() {
            // SAFETY: as in `pair`.
            v[c] = unsafe { a.get(i + o) };
        }
        for (r, &o) in offsets.iter().enumerate() {
            let row = &m[r * d..(r + 1) * d];
            let mut acc = Complex::<F>::default();
            for c in 0..d {
                acc += row[c] * v[c];
            }
            // SAFETY: as in `pair`.
            unsafe { a.set(i + o, acc) }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_exactly_the_selected_indices() {
        // 5 qubits, fixed bits 1 and 3 with base selecting bit 3 = 1, bit 1 = 0.
        let mut amps = vec![Complex::<f64>::default(); 32];
        let seen = std::sync::Mutex::new(Vec::new());
        for_each_group(&mut amps, &[1, 3], 1 << 3, false, |_, i| {
            seen.lock().unwrap().push(i)
        });
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        let expected: Vec<usize> = (0..32).filter(|i| i & 0b1010 == 0b1000).collect();
        assert_eq!(seen, expected);
    }
}
