//! Monomial gates for [`SparseSim`] (X, Z, S, iSWAP, SWAP and their controlled forms): each
//! basis state goes to one basis state with a phase, so keys and amplitudes are rewritten in
//! place in one pass. A permutation of distinct keys keeps them distinct: nothing to merge.
//!
//! The loop has no data-dependent branch: whether the controls select an entry is a coin toss
//! on typical states, and a mispredicted branch per entry cost more than the rest of the work.
//! Unselected entries take slots 4..8 of the tables (no flip, factor exactly 1). When every bit the
//! gate reads or writes is among the low 64 key bits (the usual case: bit positions are handed
//! out from 0), the pass works on the low word alone, which halves the integer work.

use super::{combine, row_bits, Entry, KeyBits, SparseSim, BUILD_CHUNK, NO_KEYS};
use qc_ir::Complex64;
use rayon::prelude::*;
use std::ops::{BitAnd, BitOr, BitXor};

/// The part of a key a pass works on: the whole `u128`, or its low `u64`.
trait KeyWord:
    Copy + Send + Sync + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self>
{
    const ZERO: Self;
    const ONES: Self;
    /// The word of `key` (every mask the pass uses must survive this).
    fn narrow(key: u128) -> Self;
    /// Writes the word back into `key`, leaving the rest of the key as it was.
    fn put(self, key: &mut u128);
    /// The OR and AND accumulators as whole keys (bits outside the word: OR 0, AND 1; the
    /// caller reads only the target bits, which lie inside the word).
    fn widen(or: Self, and: Self) -> KeyBits;
}

impl KeyWord for u128 {
    const ZERO: Self = 0;
    const ONES: Self = u128::MAX;
    fn narrow(key: u128) -> Self {
        key
    }
    fn put(self, key: &mut u128) {
        *key = self;
    }
    fn widen(or: Self, and: Self) -> KeyBits {
        (or, and)
    }
}

const LOW: u128 = u64::MAX as u128;

impl KeyWord for u64 {
    const ZERO: Self = 0;
    const ONES: Self = u64::MAX;
    fn narrow(key: u128) -> Self {
        key as u64
    }
    fn put(self, key: &mut u128) {
        *key = (*key & !LOW) | u128::from(self);
    }
    fn widen(or: Self, and: Self) -> KeyBits {
        (u128::from(or), u128::from(and) | !LOW)
    }
}

/// A monomial gate as bit tests and lookup tables over one key word.
#[derive(Copy, Clone)]
struct Tables<W> {
    /// The control test: `key & mask == value`.
    mask: W,
    value: W,
    /// The first and second target bit (the same bit twice for a one-target gate, whose
    /// columns 0 and 1 then land in slots 0 and 3).
    first: W,
    second: W,
    /// Per slot, the bits to flip and the factor; slots 4..8 (not selected): none and 1.
    flip: [W; 8],
    factor: [Complex64; 8],
}

impl<W: KeyWord> Tables<W> {
    fn narrow(t: &Tables<u128>) -> Tables<W> {
        Tables {
            mask: W::narrow(t.mask),
            value: W::narrow(t.value),
            first: W::narrow(t.first),
            second: W::narrow(t.second),
            flip: t.flip.map(W::narrow),
            factor: t.factor,
        }
    }

    /// One sequential loop over a chunk, with OR/AND accumulators the compiler keeps in
    /// registers.
    fn pass(&self, chunk: &mut [Entry]) -> KeyBits {
        // Locals, not field reads, so everything the loop needs sits in registers.
        let Tables {
            mask,
            value,
            first,
            second,
            flip,
            factor,
        } = *self;
        let (mut or, mut and) = (W::ZERO, W::ONES);
        for e in chunk {
            let key = W::narrow(e.0);
            // Arithmetic, not `if`: the compiler turned an `if` into a branch. `& 7` tells it
            // the index is in range.
            let c =
                (usize::from(key & first != W::ZERO) << 1) | usize::from(key & second != W::ZERO);
            let slot = (c | (usize::from(key & mask != value) << 2)) & 7;
            let new = key ^ flip[slot];
            new.put(&mut e.0);
            e.1 *= factor[slot];
            or = or | new;
            and = and & new;
        }
        W::widen(or, and)
    }
}

impl SparseSim {
    /// A monomial gate on `bits` (`rows[c]`, `factors[c]`: where column c goes and its factor)
    /// under the control test `(mask, value)`. Returns the OR and AND of the new keys at the
    /// target bits.
    pub(super) fn apply_monomial(
        &mut self,
        bits: &[u8],
        rows: [usize; 4],
        factors: [Complex64; 4],
        (mask, value): (u128, u128),
    ) -> KeyBits {
        let (first, second, slot_of_column) = match *bits {
            [a, b] => (1u128 << a, 1u128 << b, 1),
            [a] => (1u128 << a, 1u128 << a, 3),
            _ => unreachable!("gates have one or two targets"),
        };
        let mut tables = Tables {
            mask,
            value,
            first,
            second,
            flip: [0u128; 8],
            factor: [Complex64::new(1.0, 0.0); 8],
        };
        for c in 0..1 << bits.len() {
            tables.flip[c * slot_of_column] = row_bits(c, bits) ^ row_bits(rows[c], bits);
            tables.factor[c * slot_of_column] = factors[c];
        }
        let touched = tables
            .flip
            .iter()
            .fold(mask | value | first | second, |a, f| a | f);
        if touched & !LOW == 0 {
            self.monomial_pass(&Tables::<u64>::narrow(&tables))
        } else {
            self.monomial_pass(&tables)
        }
    }

    /// Runs the pass over the state, in parallel over fixed chunks above the threshold; chunks
    /// combine with OR/AND, which are exact and order-free.
    fn monomial_pass<W: KeyWord>(&mut self, tables: &Tables<W>) -> KeyBits {
        if self.parallel() {
            // In place: chunks after a stop are skipped, and the gate then fails
            // (`Watch::check`), its half-applied state to be restored.
            let watch = &self.watch;
            self.entries
                .par_chunks_mut(BUILD_CHUNK)
                .map(|chunk| {
                    if watch.stops(chunk.len()) {
                        return NO_KEYS;
                    }
                    tables.pass(chunk)
                })
                .reduce(|| NO_KEYS, combine)
        } else {
            tables.pass(&mut self.entries)
        }
    }
}
