//! A general small matrix on the sparse state: a user gate ([`qc_ir::Op::UserGate`]) of up to
//! three targets, with any controls. The table gates have their specialised paths (`monomial`,
//! `branch`); this one serves any unitary: a radix sort brings the entries that share every
//! bit but the targets together (a group), and each group selected by the controls is gathered
//! into a vector of `2^k` amplitudes, multiplied by the matrix and written back without the
//! amplitudes that became zero. Groups the controls do not select are copied as they are.
//!
//! Deterministic: the sort is stable and the rest is one sequential pass, so the result does not
//! depend on the thread count.

use super::branch::kept;
use super::{combine, Entry, KeyBits, SparseSim, NO_KEYS};
use crate::memory::{try_push, try_reserve};
use qc_ir::{BackendError, Complex64, Matrix};

/// The most targets: the gathered vector of a group has `2^3` amplitudes.
const MAX_TARGETS: usize = qc_ir::user_gate::MAX_USER_GATE_QUBITS;

impl SparseSim {
    /// Applies `matrix` (first target = most significant bit) to the targets at key bits `bits`
    /// on the entries with `key & mask == value`; returns the OR and AND of the new keys.
    pub(super) fn apply_general(
        &mut self,
        matrix: &Matrix,
        bits: &[u8],
        (mask, value): (u128, u128),
    ) -> Result<KeyBits, BackendError> {
        qc_ir::backend::check_matrix_size(matrix, bits.len())?;
        let k = bits.len();
        let dim = 1usize << k;
        let tmask = bits.iter().fold(0u128, |m, &b| m | (1u128 << b));
        // A selected group of n entries may grow to 2^k: bound the new state before sorting.
        let worst = (self.entries.len() as u128).saturating_mul(dim as u128 + 1);
        self.check_room(
            "sparse state for a user gate",
            worst.saturating_mul(Self::bytes_per_entry() as u128),
        )?;
        let parallel = self.parallel();
        super::radix::sort_by_bits(
            &mut self.entries,
            &mut self.scratch,
            self.slots.used_mask() & !tmask,
            parallel,
            self.limit,
        )?;
        let column = |key: u128| {
            bits.iter()
                .fold(0usize, |c, &b| (c << 1) | ((key >> b) & 1) as usize)
        };
        let row_key = |rest: u128, row: usize| {
            bits.iter().enumerate().fold(rest, |key, (j, &b)| {
                key | ((((row >> (k - 1 - j)) & 1) as u128) << b)
            })
        };
        // The new state grows from the size of the old one (its growth was bounded above).
        let what = "sparse state for a user gate";
        let mut out: Vec<Entry> = Vec::new();
        try_reserve(&mut out, self.entries.len(), what, self.limit)?;
        let mut keys = NO_KEYS;
        let mut start = 0;
        while start < self.entries.len() {
            let rest = self.entries[start].0 & !tmask;
            let end = start
                + self.entries[start..]
                    .iter()
                    .take_while(|e| e.0 & !tmask == rest)
                    .count();
            let group = &self.entries[start..end];
            start = end;
            if rest & mask != value {
                for &e in group {
                    keys = combine(keys, (e.0, e.0));
                    try_push(&mut out, e, what, self.limit)?;
                }
                continue;
            }
            let mut v = [Complex64::new(0.0, 0.0); 1 << MAX_TARGETS];
            for &(key, amp) in group {
                v[column(key)] = amp;
            }
            for row in 0..dim {
                let amp: Complex64 = (0..dim).map(|c| matrix.get(row, c) * v[c]).sum();
                if kept(amp) {
                    let key = row_key(rest, row);
                    keys = combine(keys, (key, key));
                    try_push(&mut out, (key, amp), what, self.limit)?;
                }
            }
        }
        self.entries = out;
        Ok(keys)
    }
}
