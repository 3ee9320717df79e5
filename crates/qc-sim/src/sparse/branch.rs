//! Branching gates for [`SparseSim`] (H-like and sqrt-iSWAP-like: one basis state becomes
//! several). Three paths, cheapest first: when a target was classical just before, each entry
//! expands on its own into one preallocated vector (no sort); when the entries the gate mixes
//! already sit side by side (a merge after a split), the gate runs in place; otherwise the
//! entries are sorted so that they are adjacent (a radix sort, see `radix`) and the new state is
//! written group by group. Every path also returns the OR and AND of the new keys, so finding
//! qubits that became constant costs no extra pass.

use super::{combine, row_bits, Entry, KeyBits, SparseSim, BUILD_CHUNK, GATE, NO_KEYS};
use crate::memory::{try_reserve, MemoryLimit};
use crate::table::SmallGate;
use qc_ir::{BackendError, Complex64, AMPLITUDE_EPSILON};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// What every path of a branching gate needs: the target bits, the control test, the matrix,
/// and for each set of input columns the set of rows the gate sends it to.
struct GroupPlan {
    bits: [u8; 2],
    k: usize,
    tmask: u128,
    mask: u128,
    value: u128,
    table: SmallGate,
    row_keys: [u128; 4],
    /// `reach[p]`: the rows with a nonzero entry in some column of the column set `p`.
    reach: [u8; 16],
}

impl GroupPlan {
    fn new(bits: &[u8], table: &SmallGate, (mask, value): (u128, u128)) -> GroupPlan {
        let dim = table.dim();
        let mut row_keys = [0u128; 4];
        for (r, rk) in row_keys.iter_mut().enumerate().take(dim) {
            *rk = row_bits(r, bits);
        }
        let mut reach = [0u8; 16];
        for (p, rows) in reach.iter_mut().enumerate().take(1 << dim) {
            for r in 0..dim {
                if (0..dim).any(|c| p & (1 << c) != 0 && table.get(r, c) != ZERO) {
                    *rows |= 1 << r;
                }
            }
        }
        let mut b = [0u8; 2];
        b[..bits.len()].copy_from_slice(bits);
        GroupPlan {
            bits: b,
            k: bits.len(),
            tmask: bits.iter().map(|&b| 1u128 << b).fold(0, |a, b| a | b),
            mask,
            value,
            table: *table,
            row_keys,
            reach,
        }
    }

    /// The column of `key` in the gate's matrix (first target = most significant bit).
    #[inline]
    fn column(&self, key: u128) -> usize {
        if self.k == 2 {
            (((key >> self.bits[0]) as usize & 1) << 1) | ((key >> self.bits[1]) as usize & 1)
        } else {
            (key >> self.bits[0]) as usize & 1
        }
    }

    /// The key without the target bits: entries the gate mixes share it.
    #[inline]
    fn rest(&self, key: u128) -> u128 {
        key & !self.tmask
    }

    /// Whether the controls select the entries with this rest.
    #[inline]
    fn selected(&self, rest: u128) -> bool {
        rest & self.mask == self.value
    }

    /// The end of the run of adjacent entries from `i` that share a rest.
    #[inline]
    fn run_end(&self, entries: &[Entry], i: usize) -> usize {
        let rest = self.rest(entries[i].0);
        let mut j = i + 1;
        while j < entries.len() && self.rest(entries[j].0) == rest {
            j += 1;
        }
        j
    }

    /// The amplitudes of a run by column, and the set of columns present.
    #[inline]
    fn gather(&self, run: &[Entry]) -> ([Complex64; 4], usize) {
        let mut input = [ZERO; 4];
        let mut present = 0usize;
        for e in run {
            let c = self.column(e.0);
            input[c] = e.1;
            present |= 1 << c;
        }
        (input, present)
    }

    /// Whether a run's columns are closed under the gate: it then maps them onto themselves,
    /// and (the matrix being unitary) no column outside sends anything into them, so the run
    /// can be mixed on its own wherever its partners are, and never grows.
    #[inline]
    fn closed(&self, present: usize) -> bool {
        usize::from(self.reach[present]) == present
    }

    /// How many entries a run can become.
    #[inline]
    fn bound(&self, run: &[Entry]) -> usize {
        if self.selected(self.rest(run[0].0)) {
            self.reach[self.gather(run).1].count_ones() as usize
        } else {
            run.len()
        }
    }

    /// Mixes one selected run and hands each kept output entry to `emit`.
    ///
    /// Each output row is a full dot product with the run's amplitudes (absent columns hold
    /// exact zeros, which change no sum): no branch per matrix entry.
    #[inline]
    fn mix(
        &self,
        rest: u128,
        (input, present): ([Complex64; 4], usize),
        mut emit: impl FnMut(Entry),
    ) {
        let dim = self.table.dim();
        let rows = self.reach[present];
        for (r, &rk) in self.row_keys.iter().enumerate().take(dim) {
            if rows & (1 << r) == 0 {
                continue;
            }
            let row = &self.table.m[r * dim..(r + 1) * dim];
            let acc = row
                .iter()
                .zip(&input)
                .fold(ZERO, |acc, (&m, &a)| acc + m * a);
            if kept(acc) {
                emit((rest | rk, acc));
            }
        }
    }

    /// Expands one entry on its own (when no two inputs meet); the count pass and the fill pass
    /// of [`SparseSim::expand_independent`] both go through here, so they agree.
    #[inline]
    fn expand_one(&self, &(key, amp): &Entry, mut emit: impl FnMut(Entry)) {
        let rest = self.rest(key);
        if !self.selected(rest) {
            emit((key, amp));
            return;
        }
        let c = self.column(key);
        for (r, &rk) in self.row_keys.iter().enumerate().take(self.table.dim()) {
            let m = self.table.get(r, c);
            if m != ZERO {
                let a = m * amp;
                if kept(a) {
                    emit((rest | rk, a));
                }
            }
        }
    }

    /// Work items of about `BUILD_CHUNK` entries that end on run boundaries; they depend only
    /// on the data, never on the thread count.
    fn work_ranges(&self, entries: &[Entry]) -> Vec<(usize, usize)> {
        let n = entries.len();
        let mut ranges = Vec::with_capacity(n / BUILD_CHUNK + 1);
        let mut lo = 0;
        while lo < n {
            let mut hi = (lo + BUILD_CHUNK).min(n);
            if hi < n {
                hi = self.run_end(entries, hi - 1);
            }
            ranges.push((lo, hi));
            lo = hi;
        }
        ranges
    }
}

impl SparseSim {
    /// A branching gate. Returns the OR and AND of the new keys.
    ///
    /// `constant[j]` is the value target j has in every key if it was classical just before;
    /// when that leaves each output basis state fed by one input at most, each entry expands on
    /// its own. Otherwise the entries the gate mixes must be found together: if they already
    /// sit side by side (a split writes its two halves next to each other and monomial gates
    /// keep positions, so a merge finds them so), the gate runs in place; if not, a radix sort
    /// brings them together first.
    pub(super) fn apply_branching(
        &mut self,
        bits: &[u8],
        constant: &[Option<bool>],
        table: &SmallGate,
        test: (u128, u128),
    ) -> Result<KeyBits, BackendError> {
        if let Some(present) = independent_columns(table, constant) {
            self.paths.expanded += 1;
            return self.expand_independent(bits, table, present, test);
        }
        let plan = GroupPlan::new(bits, table, test);
        if let Some(keys) = self.mix_in_place(&plan) {
            self.paths.in_place += 1;
            return Ok(keys);
        }
        // `mix_in_place` also gives up, with the state untouched, when the step is stopped.
        self.watch.check(GATE)?;
        self.check_room(
            "sparse state while sorting for a branching gate",
            (2 * self.entries.len() as u128) * Self::bytes_per_entry() as u128,
        )?;
        // Group members only need to be contiguous; a stable radix sort on the other bits does
        // that in a few linear passes, with a result independent of the thread count.
        let sort_bits = self.slots.used_mask() & !plan.tmask;
        let parallel = self.parallel();
        super::radix::sort_by_bits(
            &mut self.entries,
            &mut self.scratch,
            sort_bits,
            parallel,
            self.limit,
        )?;
        self.watch.check(GATE)?;
        if let Some(keys) = self.mix_in_place(&plan) {
            self.paths.sorted_in_place += 1;
            return Ok(keys);
        }
        self.watch.check(GATE)?;
        self.paths.sorted_built += 1;
        self.mix_into_scratch(&plan)
    }

    /// Runs the gate in place if every run of adjacent entries sharing a rest is closed under
    /// it (see [`GroupPlan::closed`]); `None`, with the state untouched, if one is not, or if
    /// the step was stopped while that was looked at.
    fn mix_in_place(&mut self, plan: &GroupPlan) -> Option<KeyBits> {
        let parallel = self.parallel();
        let ranges = plan.work_ranges(&self.entries);
        let entries = &self.entries;
        let watch = &self.watch;
        let all_closed = |&(lo, hi): &(usize, usize)| {
            let chunk = &entries[lo..hi];
            if parallel && watch.stops(chunk.len()) {
                return false;
            }
            let mut i = 0;
            while i < chunk.len() {
                let j = plan.run_end(chunk, i);
                if plan.selected(plan.rest(chunk[i].0)) && !plan.closed(plan.gather(&chunk[i..j]).1)
                {
                    return false;
                }
                i = j;
            }
            true
        };
        let closed = if parallel {
            ranges.par_iter().all(all_closed)
        } else {
            ranges.iter().all(all_closed)
        };
        if !closed {
            return None;
        }
        // A closed run never grows, so each run's outputs fit where its inputs were.
        let apply = |chunk: &mut [Entry]| -> (usize, KeyBits) {
            let (mut w, mut or, mut and) = (0usize, 0u128, u128::MAX);
            let mut i = 0;
            while i < chunk.len() {
                let j = plan.run_end(chunk, i);
                let rest = plan.rest(chunk[i].0);
                if plan.selected(rest) {
                    let run = plan.gather(&chunk[i..j]);
                    plan.mix(rest, run, |e| {
                        chunk[w] = e;
                        w += 1;
                        or |= e.0;
                        and &= e.0;
                    });
                } else {
                    for at in i..j {
                        let e = chunk[at];
                        chunk[w] = e;
                        w += 1;
                        or |= e.0;
                        and &= e.0;
                    }
                }
                i = j;
            }
            (w, (or, and))
        };
        let lengths: Vec<usize> = ranges.iter().map(|&(lo, hi)| hi - lo).collect();
        let slices = split_by_lengths(&mut self.entries, &lengths);
        let written: Vec<(usize, KeyBits)> = if parallel && slices.len() > 1 {
            slices.into_par_iter().map(apply).collect()
        } else {
            slices.into_iter().map(apply).collect()
        };
        let (len, keys) = close_up(&mut self.entries, &lengths, &written);
        self.entries.truncate(len);
        Some(keys)
    }

    /// Writes the new state run by run into the scratch buffer (entries sorted so that runs are
    /// whole groups) and swaps it in.
    fn mix_into_scratch(&mut self, plan: &GroupPlan) -> Result<KeyBits, BackendError> {
        let parallel = self.parallel();
        let n = self.entries.len();
        let ranges = plan.work_ranges(&self.entries);
        let entries = &self.entries;
        let watch = &self.watch;
        let bound_of = |&(lo, hi): &(usize, usize)| -> usize {
            let chunk = &entries[lo..hi];
            if parallel && watch.stops(chunk.len()) {
                return 0;
            }
            let (mut total, mut i) = (0, 0);
            while i < chunk.len() {
                let j = plan.run_end(chunk, i);
                total += plan.bound(&chunk[i..j]);
                i = j;
            }
            total
        };
        let caps: Vec<usize> = if parallel {
            ranges.par_iter().map(bound_of).collect()
        } else {
            ranges.iter().map(bound_of).collect()
        };
        // Nothing is written yet: a stop found while bounding costs nothing to undo.
        self.watch.check(GATE)?;
        let needed: usize = caps.iter().sum();
        self.check_room(
            "sparse state after a branching gate",
            (n as u128 + needed as u128) * Self::bytes_per_entry() as u128,
        )?;
        // Each work item writes into its own upper-bound-sized slice of the scratch buffer
        // (whose pages earlier gates already mapped); the slices are then closed up in order.
        let build =
            |(&(lo, hi), out): (&(usize, usize), &mut [MaybeUninit<Entry>])| -> (usize, KeyBits) {
                let chunk = &entries[lo..hi];
                let (mut w, mut or, mut and) = (0usize, 0u128, u128::MAX);
                let mut i = 0;
                while i < chunk.len() {
                    let j = plan.run_end(chunk, i);
                    let rest = plan.rest(chunk[i].0);
                    let mut emit = |e: Entry| {
                        out[w].write(e);
                        w += 1;
                        or |= e.0;
                        and &= e.0;
                    };
                    if plan.selected(rest) {
                        plan.mix(rest, plan.gather(&chunk[i..j]), emit);
                    } else {
                        chunk[i..j].iter().for_each(|&e| emit(e));
                    }
                    i = j;
                }
                (w, (or, and))
            };
        let mut out = take_scratch(&mut self.scratch, self.limit, needed)?;
        let room = &mut out.spare_capacity_mut()[..needed];
        let written: Vec<(usize, KeyBits)> = if parallel && ranges.len() > 1 {
            let slices = split_by_lengths(room, &caps);
            ranges.par_iter().zip(slices).map(build).collect()
        } else {
            let slices = split_by_lengths(room, &caps);
            ranges.iter().zip(slices).map(build).collect()
        };
        let (len, keys) = close_up(room, &caps, &written);
        // SAFETY: `close_up` moved the `written` entries of every work item, each written by
        // `build` before, to the front of the room: slots 0..len are initialised.
        unsafe { out.set_len(len) };
        self.scratch = std::mem::replace(&mut self.entries, out);
        Ok(keys)
    }

    /// A branching gate where every output basis state has one input at most: each entry expands
    /// on its own, written in input order (parallel over fixed chunks, concatenated in order).
    fn expand_independent(
        &mut self,
        bits: &[u8],
        table: &SmallGate,
        present: usize,
        test: (u128, u128),
    ) -> Result<KeyBits, BackendError> {
        let plan = GroupPlan::new(bits, table, test);
        let weight = (0..table.dim())
            .filter(|c| present & (1 << c) != 0)
            .map(|c| plan.reach[1 << c].count_ones() as u128)
            .max()
            .unwrap_or(1);
        let n = self.entries.len() as u128;
        self.check_room(
            "sparse state after a branching gate",
            n * (1 + weight) * Self::bytes_per_entry() as u128,
        )?;
        let parallel = self.parallel();
        let watch = &self.watch;
        let count = |chunk: &[Entry]| {
            let mut n = 0usize;
            if parallel && watch.stops(chunk.len()) {
                return 0;
            }
            for e in chunk {
                plan.expand_one(e, |_| n += 1);
            }
            n
        };
        let counts: Vec<usize> = if parallel {
            self.entries.par_chunks(BUILD_CHUNK).map(count).collect()
        } else {
            self.entries.chunks(BUILD_CHUNK).map(count).collect()
        };
        // Nothing is written yet: a stop found while counting costs nothing to undo.
        self.watch.check(GATE)?;
        let total: usize = counts.iter().sum();
        let mut out = take_scratch(&mut self.scratch, self.limit, total)?;
        let slices = split_by_lengths(&mut out.spare_capacity_mut()[..total], &counts);
        let fill = |(chunk, dst): (&[Entry], &mut [MaybeUninit<Entry>])| -> KeyBits {
            let (mut w, mut or, mut and) = (0usize, 0u128, u128::MAX);
            for e in chunk {
                plan.expand_one(e, |x| {
                    dst[w].write(x);
                    w += 1;
                    or |= x.0;
                    and &= x.0;
                });
            }
            assert_eq!(w, dst.len(), "count and fill passes disagree");
            (or, and)
        };
        let keys = if parallel {
            self.entries
                .par_chunks(BUILD_CHUNK)
                .zip(slices.into_par_iter())
                .map(fill)
                .reduce(|| NO_KEYS, combine)
        } else {
            self.entries
                .chunks(BUILD_CHUNK)
                .zip(slices)
                .map(fill)
                .fold(NO_KEYS, combine)
        };
        // SAFETY: the slices cover 0..total, and `fill` asserts it wrote each of its slice's
        // slots (it writes them in order, so `w == len` means all).
        unsafe { out.set_len(total) };
        self.scratch = std::mem::replace(&mut self.entries, out);
        Ok(keys)
    }
}

/// Moves each work item's output (`written[i].0` entries at the start of its `lengths[i]`-long
/// slice) down to follow the previous one, truncates, and combines the key bits.
/// Returns the total written and the combined key bits.
pub(super) fn close_up<T: Copy>(
    buffer: &mut [T],
    lengths: &[usize],
    written: &[(usize, KeyBits)],
) -> (usize, KeyBits) {
    let (mut w, mut start) = (0, 0);
    let mut keys = NO_KEYS;
    for (&len, &(count, item_keys)) in lengths.iter().zip(written) {
        if w != start {
            buffer.copy_within(start..start + count, w);
        }
        w += count;
        start += len;
        keys = combine(keys, item_keys);
    }
    (w, keys)
}

/// Not pruned: `|a| >= AMPLITUDE_EPSILON`, tested on `|a|^2` (no square root in the hot loop).
#[inline]
pub(super) fn kept(a: Complex64) -> bool {
    a.norm_sqr() >= AMPLITUDE_EPSILON * AMPLITUDE_EPSILON
}

const ZERO: Complex64 = Complex64::new(0.0, 0.0);

/// The columns a gate can see when the targets in `constant` have a known value in every key, if
/// with those columns every row has one nonzero entry at most (so no two inputs meet).
/// Takes the reusable scratch buffer, emptied, with room for `len` entries within the memory
/// limit. The room is written through `spare_capacity_mut` and never zeroed first: zeroing
/// would be one more pass over memory that is about to be overwritten.
fn take_scratch(
    scratch: &mut Vec<Entry>,
    limit: MemoryLimit,
    len: usize,
) -> Result<Vec<Entry>, BackendError> {
    let mut out = std::mem::take(scratch);
    out.clear();
    try_reserve(&mut out, len, "sparse state", limit)?;
    Ok(out)
}

/// Splits `buffer` into consecutive slices of the given lengths (one per chunk of work).
pub(super) fn split_by_lengths<'a, T>(buffer: &'a mut [T], lengths: &[usize]) -> Vec<&'a mut [T]> {
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
