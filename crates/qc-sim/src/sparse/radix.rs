//! Grouping the entries a branching gate mixes: a stable LSD radix sort of the entries by their
//! key with the gate's target bits masked out, into a reusable scratch buffer.
//!
//! A comparison sort of 10^6 entries was most of the cost of a merge move. Keys are compact (the
//! simulator hands out bit positions from 0 upwards), so only the 11-bit digits that hold bits in
//! use are sorted on; a typical 10^6-entry state needs two passes. The sort is stable,
//! so its result is unique and does not depend on the thread count: each work item histograms
//! and scatters a fixed-size chunk into precomputed, disjoint output ranges.

use super::Entry;
use crate::memory::{try_reserve, MemoryLimit};
use qc_ir::BackendError;
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Bits per digit: 2048 buckets, whose counters fit in L1 next to the write cursors.
const DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << DIGIT_BITS;
/// Entries per work item of a parallel pass (fixed, so the output does not depend on threads).
const CHUNK: usize = 1 << 16;

/// A raw pointer into the output buffer that chunks write through at disjoint indices.
#[derive(Clone, Copy)]
struct Out(*mut MaybeUninit<Entry>);
// SAFETY: every chunk writes to a distinct set of indices (its own range of each bucket), so
// no two threads touch the same element, and the buffer outlives the parallel pass.
unsafe impl Send for Out {}
// SAFETY: as above; the pointer is only written through at disjoint indices.
unsafe impl Sync for Out {}

impl Out {
    /// The pointer, through a method so closures capture the whole (Send) wrapper.
    fn ptr(self) -> *mut MaybeUninit<Entry> {
        self.0
    }
}

/// Sorts `entries` stably by `key & sort_bits` (`sort_bits`: the bits in which keys may
/// differ, minus those to ignore), using `scratch` (emptied, grown as needed within `limit`) as
/// the second buffer. Afterwards `entries` holds the sorted state and `scratch` the other buffer.
///
/// # Errors
/// The allocator refuses the second buffer.
pub(super) fn sort_by_bits(
    entries: &mut Vec<Entry>,
    scratch: &mut Vec<Entry>,
    sort_bits: u128,
    parallel: bool,
    limit: MemoryLimit,
) -> Result<(), BackendError> {
    let n = entries.len();
    if n < 2 || sort_bits == 0 {
        return Ok(());
    }
    let top = 128 - sort_bits.leading_zeros();
    let mut shift = sort_bits.trailing_zeros();
    while shift < top {
        let digit_mask = ((BUCKETS as u128) - 1) << shift;
        if sort_bits & digit_mask != 0 {
            scratch.clear();
            try_reserve(scratch, n, "sparse state while sorting", limit)?;
            pass(
                entries,
                &mut scratch.spare_capacity_mut()[..n],
                sort_bits,
                shift,
                parallel,
            );
            // SAFETY: a pass writes every index of its destination once (the prefix sums give
            // the n entries n distinct indices, 0..n), so all n slots are initialised.
            unsafe { scratch.set_len(n) };
            std::mem::swap(entries, scratch);
        }
        shift += DIGIT_BITS;
    }
    Ok(())
}

#[inline]
fn digit(key: u128, keep: u128, shift: u32) -> usize {
    (((key & keep) >> shift) as usize) & (BUCKETS - 1)
}

/// One stable counting-sort pass of `src` into `dst` on the digit at `shift`.
fn pass(src: &[Entry], dst: &mut [MaybeUninit<Entry>], keep: u128, shift: u32, parallel: bool) {
    let histogram = |chunk: &[Entry]| {
        let mut h = vec![0usize; BUCKETS];
        for e in chunk {
            h[digit(e.0, keep, shift)] += 1;
        }
        h
    };
    let mut cursors: Vec<Vec<usize>> = if parallel {
        src.par_chunks(CHUNK).map(histogram).collect()
    } else {
        src.chunks(CHUNK).map(histogram).collect()
    };
    // Bucket-major, chunk-minor prefix sums: chunk c's entries of bucket d follow those of
    // earlier chunks, which is what makes the pass stable.
    let mut at = 0usize;
    for d in 0..BUCKETS {
        for h in cursors.iter_mut() {
            let count = h[d];
            h[d] = at;
            at += count;
        }
    }
    if !parallel {
        for (chunk, cursor) in src.chunks(CHUNK).zip(cursors.iter_mut()) {
            for &e in chunk {
                let d = digit(e.0, keep, shift);
                dst[cursor[d]].write(e);
                cursor[d] += 1;
            }
        }
        return;
    }
    let out = Out(dst.as_mut_ptr());
    let len = dst.len();
    src.par_chunks(CHUNK)
        .zip(cursors.into_par_iter())
        .for_each(|(chunk, mut cursor)| {
            for &e in chunk {
                let d = digit(e.0, keep, shift);
                let i = cursor[d];
                assert!(i < len, "radix scatter index out of range");
                // SAFETY: `i < len`; the prefix sums give each (chunk, bucket) pair its own
                // range of `dst`, so no other chunk writes index `i`.
                unsafe { (*out.ptr().add(i)).write(e) };
                cursor[d] += 1;
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_ir::Complex64;

    #[test]
    fn sorts_stably_by_the_unmasked_bits_on_any_thread_count() {
        // Keys with high bits (beyond one digit) and a masked bit 3 that must not affect order.
        let entries: Vec<Entry> = (0..200_000u128)
            .map(|i| {
                let key = ((i * 2_654_435_761) % 1_000_003) | ((i % 5) << 40);
                (key, Complex64::new(i as f64, 0.0))
            })
            .collect();
        let mut unique = entries.clone();
        unique.sort_by_key(|e| e.0);
        unique.dedup_by_key(|e| e.0);
        let ignore = 1u128 << 3;
        let mut expected = unique.clone();
        expected.sort_by_key(|e| e.0 & !ignore); // std's sort is stable: the independent truth
        for parallel in [false, true] {
            let mut got = unique.clone();
            let mut scratch = vec![(7, Complex64::new(1.0, 0.0)); 3]; // stale contents
            let bits = ((1 << 43) - 1) & !ignore;
            sort_by_bits(
                &mut got,
                &mut scratch,
                bits,
                parallel,
                MemoryLimit::unlimited(),
            )
            .unwrap();
            assert_eq!(got, expected, "parallel = {parallel}");
        }
    }
}
