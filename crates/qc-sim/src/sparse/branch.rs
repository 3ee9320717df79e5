//! Branching gates for [`SparseSim`] (H-like and sqrt-iSWAP-like: one basis state becomes
//! several). Two paths: when a target was classical just before, each entry expands on its own
//! into one preallocated vector (no sort); otherwise the entries are sorted so that the basis
//! states the gate mixes are adjacent (a radix sort, see `radix`), and the new state is written group
//! by group. Both write into the simulator's scratch buffer and swap it with the state.

use super::{column, row_bits, Entry, SparseSim, BUILD_CHUNK};
use crate::memory::{try_reserve, MemoryLimit};
use crate::table::SmallGate;
use qc_ir::{BackendError, Complex64, AMPLITUDE_EPSILON};
use rayon::prelude::*;

impl SparseSim {
    /// A branching gate: sort so each group of keys the gate mixes is contiguous, then write the
    /// new state group by group.
    ///
    /// `constant[j]` is the value target j has in every key if it was classical just before;
    /// when that leaves each output basis state fed by one input at most, no sort is needed.
    pub(super) fn apply_branching(
        &mut self,
        bits: &[u8],
        constant: &[Option<bool>],
        table: &SmallGate,
        test: (u128, u128),
    ) -> Result<(), BackendError> {
        let (mask, value) = test;
        let tmask: u128 = bits.iter().map(|&b| 1u128 << b).fold(0, |a, b| a | b);
        if let Some(present) = independent_columns(table, constant) {
            return self.expand_independent(bits, table, present, test);
        }
        // Group members only need to be contiguous; a stable radix sort on the other bits does
        // that in a few linear passes, with a result independent of the thread count.
        let parallel = self.parallel();
        let n = self.entries.len();
        self.limit.check(
            "sparse state while sorting for a branching gate",
            (2 * n as u128) * Self::bytes_per_entry() as u128,
        )?;
        let sort_bits = self.slots.used_mask() & !tmask;
        super::radix::sort_by_bits(&mut self.entries, &mut self.scratch, sort_bits, parallel);
        // Work items end on group boundaries; they depend only on the data.
        let mut bounds = vec![0usize];
        let mut at = BUILD_CHUNK;
        while at < n {
            let rest = self.entries[at - 1].0 & !tmask;
            while at < n && self.entries[at].0 & !tmask == rest {
                at += 1;
            }
            if at < n {
                bounds.push(at);
            }
            at += BUILD_CHUNK;
        }
        bounds.push(n);
        let dim = table.dim();
        let weight = table.max_column_weight();
        let entries = &self.entries;
        let bound_of = |lo: usize, hi: usize| -> usize {
            let mut total = 0;
            let mut i = lo;
            while i < hi {
                let rest = entries[i].0 & !tmask;
                let mut j = i + 1;
                while j < hi && entries[j].0 & !tmask == rest {
                    j += 1;
                }
                total += if rest & mask == value {
                    ((j - i) * weight).min(dim)
                } else {
                    j - i
                };
                i = j;
            }
            total
        };
        let ranges: Vec<(usize, usize)> = bounds.windows(2).map(|w| (w[0], w[1])).collect();
        let caps: Vec<usize> = if parallel {
            ranges.par_iter().map(|&(a, b)| bound_of(a, b)).collect()
        } else {
            ranges.iter().map(|&(a, b)| bound_of(a, b)).collect()
        };
        let needed: usize = caps.iter().sum();
        let bytes = Self::bytes_per_entry() as u128;
        self.limit.check(
            "sparse state after a branching gate",
            (n as u128 + needed as u128) * bytes,
        )?;
        let mut row_keys = [0u128; 4];
        for (r, rk) in row_keys.iter_mut().enumerate().take(dim) {
            *rk = row_bits(r, bits);
        }
        // Each work item writes into its own upper-bound-sized slice of the scratch buffer
        // (whose pages earlier gates already mapped); the slices are then closed up in order.
        let build = |(&(lo, hi), out): (&(usize, usize), &mut [Entry])| -> usize {
            let mut w = 0;
            let mut i = lo;
            while i < hi {
                let rest = entries[i].0 & !tmask;
                let mut j = i + 1;
                while j < hi && entries[j].0 & !tmask == rest {
                    j += 1;
                }
                if rest & mask != value {
                    out[w..w + (j - i)].copy_from_slice(&entries[i..j]);
                    w += j - i;
                } else {
                    let mut input = [ZERO; 4];
                    let mut present = 0usize;
                    for e in &entries[i..j] {
                        let c = column(e.0, bits);
                        input[c] = e.1;
                        present |= 1 << c;
                    }
                    for (r, &rk) in row_keys.iter().enumerate().take(dim) {
                        let mut acc = ZERO;
                        for (c, &a) in input.iter().enumerate().take(dim) {
                            if present & (1 << c) != 0 {
                                let m = table.get(r, c);
                                if m != ZERO {
                                    acc += m * a;
                                }
                            }
                        }
                        if kept(acc) {
                            out[w] = (rest | rk, acc);
                            w += 1;
                        }
                    }
                }
                i = j;
            }
            w
        };
        let mut out = take_scratch(&mut self.scratch, self.limit, needed)?;
        let slices = split_by_lengths(&mut out, &caps);
        let written: Vec<usize> = if parallel && ranges.len() > 1 {
            ranges.par_iter().zip(slices).map(build).collect()
        } else {
            ranges.iter().zip(slices).map(build).collect()
        };
        let mut w = 0;
        let mut start = 0;
        for (&cap, &count) in caps.iter().zip(&written) {
            out.copy_within(start..start + count, w);
            w += count;
            start += cap;
        }
        out.truncate(w);
        self.scratch = std::mem::replace(&mut self.entries, out);
        Ok(())
    }

    /// A branching gate where every output basis state has one input at most: each entry expands
    /// on its own, written in input order (parallel over fixed chunks, concatenated in order).
    fn expand_independent(
        &mut self,
        bits: &[u8],
        table: &SmallGate,
        present: usize,
        (mask, value): (u128, u128),
    ) -> Result<(), BackendError> {
        let tmask: u128 = bits.iter().map(|&b| 1u128 << b).fold(0, |a, b| a | b);
        let dim = table.dim();
        let weight = (0..dim)
            .filter(|c| present & (1 << c) != 0)
            .map(|c| (0..dim).filter(|&r| table.get(r, c) != ZERO).count())
            .max()
            .unwrap_or(1);
        let n = self.entries.len();
        let bytes = Self::bytes_per_entry() as u128;
        self.limit.check(
            "sparse state after a branching gate",
            (n as u128) * (1 + weight as u128) * bytes,
        )?;
        let mut row_keys = [0u128; 4];
        for (r, rk) in row_keys.iter_mut().enumerate().take(dim) {
            *rk = row_bits(r, bits);
        }
        // Count, allocate once, fill disjoint slices: no per-chunk vectors and no concatenation.
        let expand = |&(key, amp): &Entry, out: &mut [Entry], mut at: usize| -> usize {
            if key & mask != value {
                if let Some(slot) = out.get_mut(at) {
                    *slot = (key, amp);
                }
                return at + 1;
            }
            let c = column(key, bits);
            let rest = key & !tmask;
            for (r, &rk) in row_keys.iter().enumerate().take(dim) {
                let m = table.get(r, c);
                if m != ZERO {
                    let a = m * amp;
                    if kept(a) {
                        if let Some(slot) = out.get_mut(at) {
                            *slot = (rest | rk, a);
                        }
                        at += 1;
                    }
                }
            }
            at
        };
        let parallel = self.parallel();
        let count = |chunk: &[Entry]| chunk.iter().fold(0, |at, e| expand(e, &mut [], at));
        let counts: Vec<usize> = if parallel {
            self.entries.par_chunks(BUILD_CHUNK).map(count).collect()
        } else {
            self.entries.chunks(BUILD_CHUNK).map(count).collect()
        };
        let total: usize = counts.iter().sum();
        let mut out = take_scratch(&mut self.scratch, self.limit, total)?;
        let slices = split_by_lengths(&mut out, &counts);
        let fill = |(chunk, dst): (&[Entry], &mut [Entry])| {
            chunk.iter().fold(0, |at, e| expand(e, dst, at));
        };
        if parallel {
            self.entries
                .par_chunks(BUILD_CHUNK)
                .zip(slices.into_par_iter())
                .for_each(fill);
        } else {
            self.entries.chunks(BUILD_CHUNK).zip(slices).for_each(fill);
        }
        self.scratch = std::mem::replace(&mut self.entries, out);
        Ok(())
    }
}

/// Not pruned: `|a| >= AMPLITUDE_EPSILON`, tested on `|a|^2` (no square root in the hot loop).
#[inline]
pub(super) fn kept(a: Complex64) -> bool {
    a.norm_sqr() >= AMPLITUDE_EPSILON * AMPLITUDE_EPSILON
}

const ZERO: Complex64 = Complex64::new(0.0, 0.0);

/// The columns a gate can see when the targets in `constant` have a known value in every key, if
/// with those columns every row has one nonzero entry at most (so no two inputs meet).
/// Takes the reusable scratch buffer, sized to `len` entries within the memory limit (its old
/// contents are left in place: every entry is written before it is read).
fn take_scratch(
    scratch: &mut Vec<Entry>,
    limit: MemoryLimit,
    len: usize,
) -> Result<Vec<Entry>, BackendError> {
    let mut out = std::mem::take(scratch);
    out.truncate(len);
    let missing = len - out.len();
    try_reserve(&mut out, missing, "sparse state", limit)?;
    super::radix::set_len_reusing(&mut out, len);
    Ok(out)
}

/// Splits `buffer` into consecutive slices of the given lengths (one per chunk of work).
fn split_by_lengths<'a>(buffer: &'a mut [Entry], lengths: &[usize]) -> Vec<&'a mut [Entry]> {
    let mut slices = Vec::with_capacity(lengths.len());
    let mut tail = buffer;
    for &len in lengths {
        let (head, rest) = tail.split_at_mut(len);
        slices.push(head);
        tail = rest;
    }
    slices
}

fn independent_columns(table: &SmallGate, constant: &[Option<bool>]) -> Option<usize> {
    let k = constant.len();
    let dim = table.dim();
    let mut present = 0usize;
    for c in 0..dim {
        let fits = constant
            .iter()
            .enumerate()
            .all(|(j, v)| v.is_none_or(|v| ((c >> (k - 1 - j)) & 1 == 1) == v));
        if fits {
            present |= 1 << c;
        }
    }
    let independent = (0..dim).all(|r| {
        (0..dim)
            .filter(|&c| present & (1 << c) != 0 && table.get(r, c) != ZERO)
            .count()
            <= 1
    });
    independent.then_some(present)
}
