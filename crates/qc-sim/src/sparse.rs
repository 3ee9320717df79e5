//! The fast sparse simulator, the default engine for games.
//!
//! The state is a `Vec` of `(key, amplitude)` entries with distinct keys, in no particular order;
//! a key holds the qubits in superposition (see [`crate::slots`]), every other qubit is a classical
//! bit. Monomial gates (X, Z, S, iSWAP, SWAP and their controlled forms) rewrite keys and
//! amplitudes in place in one branchless pass (the `monomial` module): a permutation of distinct
//! keys keeps them distinct, so there is nothing to merge. Gates that branch (H, sqrt-iSWAP,
//! rotations) live in the `branch` module: onto a qubit that was classical they expand each entry
//! on its own; when the basis states the gate mixes already sit side by side (a merge after a
//! split) they mix them in place; otherwise a radix sort brings those states together first.
//! Every path prunes amplitudes below [`qc_ir::AMPLITUDE_EPSILON`].
//!
//! Parallel (rayon) above [`SparseSim::parallel_threshold`] entries; every order-sensitive step
//! (sums, sorts, concatenation of parallel outputs) is independent of the thread count, so results
//! are bit-identical on any number of threads. Every growth is checked against a [`MemoryLimit`].

use crate::memory::{check_beside_saved, try_reserve, Held, MemoryLimit, SavedBytes};
use crate::slots::{Slot, SlotTable};
use crate::table::SmallGate;
use qc_ir::{
    Backend, BackendError, Complex64, Control, Gate, Matrix, MeasureChoice, Qubit,
    IMPOSSIBLE_PROBABILITY,
};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// One basis state: the bits of the qubits in superposition, and its amplitude.
pub type Entry = (u128, Complex64);

mod branch;
mod general;
mod monomial;
mod radix;
mod watch;
use branch::kept;
use watch::Watch;

/// The OR and AND of a set of keys: a qubit whose bit is 0 in the OR or 1 in the AND is constant
/// over them (and can leave the keys). Every pass that rewrites keys accumulates it on the way.
type KeyBits = (u128, u128);

/// The OR and AND of no keys.
const NO_KEYS: KeyBits = (0, u128::MAX);

/// Combines the key bits of two sets of keys (exact and order-free).
fn combine(a: KeyBits, b: KeyBits) -> KeyBits {
    (a.0 | b.0, a.1 & b.1)
}

/// Default number of entries above which passes run on rayon (chosen by benchmark, see
/// `docs/performance.md`).
pub const DEFAULT_PARALLEL_THRESHOLD: usize = 1 << 14;

/// Entries per parallel work item for passes that build a new vector (also how often a pass
/// looks at the step's interrupt: [`qc_ir::interrupt::CHECK_EVERY`]).
const BUILD_CHUNK: usize = qc_ir::interrupt::CHECK_EVERY;

/// What an interrupted gate says it was doing.
const GATE: &str = "a gate on the sparse state";

/// How many branching gates took each path (see the `branch` module); for benchmarks and tests.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BranchPaths {
    /// A target was classical: each entry expanded on its own, no sort.
    pub expanded: u64,
    /// The entries the gate mixes were already side by side: mixed in place, no sort.
    pub in_place: u64,
    /// Sorted first, then mixed in place (no group grew).
    pub sorted_in_place: u64,
    /// Sorted first, then written into the scratch buffer (some group grew).
    pub sorted_built: u64,
}

/// The fast sparse simulator. Starts in |0...0>.
#[derive(Debug)]
pub struct SparseSim {
    slots: SlotTable,
    entries: Vec<Entry>,
    /// The second buffer of branching gates (radix sort and output), kept across gates so its
    /// pages are already mapped; its contents are meaningless between gates.
    scratch: Vec<Entry>,
    limit: MemoryLimit,
    /// The bytes this simulator's live snapshots hold (an undo history keeps one per move):
    /// they count against `limit` with the state.
    saved: SavedBytes,
    parallel_threshold: usize,
    paths: BranchPaths,
    /// The interrupt of the step under way (read from the thread when the step starts).
    watch: Watch,
}

impl Clone for SparseSim {
    /// Copies the state, not the scratch buffer (a copy should not double the memory); the
    /// copy is a simulator of its own, with its own account of snapshots.
    fn clone(&self) -> Self {
        SparseSim {
            slots: self.slots.clone(),
            entries: self.entries.clone(),
            scratch: Vec::new(),
            limit: self.limit,
            saved: SavedBytes::default(),
            parallel_threshold: self.parallel_threshold,
            paths: self.paths,
            watch: Watch::default(),
        }
    }
}

/// A saved state of a [`SparseSim`]: its entries and qubit table, counted against the
/// simulator's memory limit while it lives.
#[derive(Clone, Debug)]
pub struct SparseSnapshot {
    slots: SlotTable,
    entries: Vec<Entry>,
    paths: BranchPaths,
    held: Held,
}

impl Default for SparseSim {
    fn default() -> Self {
        SparseSim::new()
    }
}

/// Controls on quantum qubits as a test `key & mask == value`; `None` when a classical control
/// already disables the gate.
fn control_test(slots: &SlotTable, controls: &[Control]) -> Option<(u128, u128)> {
    let mut mask = 0u128;
    let mut value = 0u128;
    for c in controls {
        match slots.get(c.qubit) {
            Slot::Classical(v) => {
                if v != c.on.value() {
                    return None;
                }
            }
            Slot::Quantum(bit) => {
                mask |= 1 << bit;
                if c.on.value() {
                    value |= 1 << bit;
                }
            }
        }
    }
    Some((mask, value))
}

/// The key bits for row `row` of a gate on `bits`.
fn row_bits(row: usize, bits: &[u8]) -> u128 {
    let k = bits.len();
    bits.iter()
        .enumerate()
        .map(|(j, &b)| (((row >> (k - 1 - j)) & 1) as u128) << b)
        .fold(0, |a, b| a | b)
}

impl SparseSim {
    /// The all-zero state, with the default memory limit.
    pub fn new() -> SparseSim {
        SparseSim::with_limit(MemoryLimit::default())
    }

    /// The all-zero state with the given memory limit.
    pub fn with_limit(limit: MemoryLimit) -> SparseSim {
        SparseSim {
            slots: SlotTable::default(),
            entries: vec![(0, Complex64::new(1.0, 0.0))],
            scratch: Vec::new(),
            limit,
            saved: SavedBytes::default(),
            parallel_threshold: DEFAULT_PARALLEL_THRESHOLD,
            paths: BranchPaths::default(),
            watch: Watch::default(),
        }
    }

    /// Sets the number of entries above which passes use rayon (results do not depend on it).
    pub fn set_parallel_threshold(&mut self, entries: usize) {
        self.parallel_threshold = entries;
    }

    /// The number of entries above which passes use rayon.
    pub fn parallel_threshold(&self) -> usize {
        self.parallel_threshold
    }

    /// How many branching gates took each path so far.
    pub fn branch_paths(&self) -> BranchPaths {
        self.paths
    }

    /// The memory limit.
    pub fn memory_limit(&self) -> MemoryLimit {
        self.limit
    }

    /// Bytes one basis state takes (key and amplitude).
    pub const fn bytes_per_entry() -> usize {
        std::mem::size_of::<Entry>()
    }

    /// Bytes the state currently holds (allocated capacity, with the scratch buffer branching
    /// gates reuse).
    pub fn memory_bytes(&self) -> usize {
        (self.entries.capacity() + self.scratch.capacity()) * Self::bytes_per_entry()
    }

    /// Bytes this simulator's live snapshots hold (wherever they are kept), which count against
    /// its memory limit with the state.
    pub fn saved_bytes(&self) -> usize {
        self.saved.total()
    }

    /// Errors when `bytes` (what an operation will hold, the state's own buffers included) do
    /// not fit in the memory limit beside the live snapshots.
    pub(crate) fn check_room(&self, what: &str, bytes: u128) -> Result<(), BackendError> {
        check_beside_saved(self.limit, what, bytes, self.saved.total())
    }

    /// A copy of the entries sorted by key, counted against the memory limit beside the state
    /// (for comparing two states).
    fn sorted_copy(&self) -> Result<Vec<Entry>, BackendError> {
        let bytes = (self.memory_bytes() + self.entries.len() * Self::bytes_per_entry()) as u128;
        self.check_room("a sorted copy of the sparse state", bytes)?;
        let mut copy = Vec::new();
        try_reserve(
            &mut copy,
            self.entries.len(),
            "a sorted copy of the sparse state",
            self.limit,
        )?;
        copy.extend_from_slice(&self.entries);
        copy.sort_unstable_by_key(|e| e.0);
        Ok(copy)
    }

    /// The entries, in no particular order (bit positions are private to the simulator; use
    /// [`Backend::basis_states`] for qubit names).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of qubits currently in superposition.
    pub fn quantum_qubits(&self) -> usize {
        self.slots.quantum().count()
    }

    /// Builds a state directly: `qubits[k]` is bit k of each key; amplitudes are taken as given
    /// (for benchmarks and tests). Zero amplitudes are dropped; keys must be distinct.
    ///
    /// # Errors
    /// More than 128 qubits, a repeated key, or over the memory limit.
    pub fn from_entries(
        qubits: &[Qubit],
        entries: Vec<Entry>,
        limit: MemoryLimit,
    ) -> Result<SparseSim, BackendError> {
        // The entries and a sorted copy of their keys (to find a repeated one).
        let key_bytes = std::mem::size_of::<u128>();
        limit.check(
            "sparse state",
            (entries.len() * (Self::bytes_per_entry() + key_bytes)) as u128,
        )?;
        let mut sim = SparseSim::with_limit(limit);
        for &q in qubits {
            sim.slots.promote(q)?;
        }
        let mut entries = entries;
        entries.retain(|(_, a)| kept(*a));
        let mut keys: Vec<u128> = Vec::new();
        try_reserve(&mut keys, entries.len(), "keys of a sparse state", limit)?;
        keys.extend(entries.iter().map(|e| e.0));
        keys.sort_unstable();
        if keys.windows(2).any(|w| w[0] == w[1]) {
            return Err(BackendError::InvalidSnapshot(
                "repeated key in from_entries",
            ));
        }
        sim.entries = entries;
        let all: Vec<Qubit> = qubits.to_vec();
        sim.demote_constant(&all);
        Ok(sim)
    }

    fn parallel(&self) -> bool {
        self.entries.len() >= self.parallel_threshold
    }

    /// Gives `qubit` a bit position; a classical 1 sets the bit in every key. Returns the bit
    /// and, if the qubit was classical, the value every key now has there.
    fn promote(&mut self, qubit: Qubit) -> Result<(u8, Option<bool>), BackendError> {
        let (bit, was) = self.slots.promote(qubit)?;
        if was == Some(true) {
            let mask = 1u128 << bit;
            self.for_each_entry(|e| e.0 |= mask);
        }
        Ok((bit, was))
    }

    fn for_each_entry(&mut self, f: impl Fn(&mut Entry) + Sync + Send) {
        if self.parallel() {
            self.entries.par_iter_mut().for_each(f);
        } else {
            self.entries.iter_mut().for_each(f);
        }
    }

    /// OR and AND of all keys.
    fn key_or_and(&self) -> KeyBits {
        let fold = |acc: KeyBits, e: &Entry| combine(acc, (e.0, e.0));
        if self.parallel() {
            self.entries
                .par_iter()
                .fold(|| NO_KEYS, fold)
                .reduce(|| NO_KEYS, combine)
        } else {
            self.entries.iter().fold(NO_KEYS, fold)
        }
    }

    /// Makes the listed qubits classical where they are constant over the support.
    fn demote_constant(&mut self, qubits: &[Qubit]) {
        if self.entries.is_empty() {
            return;
        }
        let (or, and) = self.key_or_and();
        self.demote_given(qubits, or, and);
    }

    fn demote_given(&mut self, qubits: &[Qubit], or: u128, and: u128) {
        let mut clear = 0u128;
        for &q in qubits {
            if let Slot::Quantum(bit) = self.slots.get(q) {
                let mask = 1u128 << bit;
                if or & mask == 0 {
                    self.slots.demote(q, false);
                } else if and & mask != 0 {
                    self.slots.demote(q, true);
                    clear |= mask;
                }
            }
        }
        if clear != 0 {
            self.for_each_entry(|e| e.0 &= !clear);
        }
    }

    /// A monomial gate whose targets are all classical needs no slot: with no quantum control
    /// it flips classical bits and multiplies by a global phase; a diagonal one with quantum
    /// controls is a phase on the entries the controls select. Returns false when the gate
    /// needs the targets in superposition.
    fn apply_on_classical(
        &mut self,
        monomial: Option<([usize; 4], [Complex64; 4])>,
        targets: &[Qubit],
        (mask, value): (u128, u128),
    ) -> bool {
        let Some((rows, factors)) = monomial else {
            return false;
        };
        let mut col = 0usize;
        for &t in targets {
            match self.slots.get(t) {
                Slot::Classical(v) => col = (col << 1) | usize::from(v),
                Slot::Quantum(_) => return false,
            }
        }
        let row = rows[col];
        let factor = factors[col];
        if mask != 0 && row != col {
            return false;
        }
        let k = targets.len();
        for (j, &t) in targets.iter().enumerate() {
            self.slots.demote(t, (row >> (k - 1 - j)) & 1 == 1);
        }
        if factor != Complex64::new(1.0, 0.0) {
            self.for_each_entry(|e| {
                if e.0 & mask == value {
                    e.1 *= factor;
                }
            });
        }
        true
    }

    /// Keeps the entries with `key & mask == want`, rescaled by `scale` and with the measured bit
    /// cleared, in one in-place pass (parallel over fixed chunks, closed up in order); returns
    /// the OR and AND of the kept keys.
    fn collapse(&mut self, mask: u128, want: u128, scale: f64) -> KeyBits {
        // Branchless: every entry is written at the cursor, which only advances past kept ones
        // (an outcome is a coin toss per entry, a branch would mispredict half the time).
        let keep = |chunk: &mut [Entry]| -> (usize, KeyBits) {
            let (mut w, mut or, mut and) = (0usize, 0u128, u128::MAX);
            for i in 0..chunk.len() {
                let (key, amp) = chunk[i];
                let kept = key & mask == want;
                let all = u128::from(kept).wrapping_neg();
                let key = key & !mask;
                chunk[w] = (key, amp * scale);
                w += usize::from(kept);
                or |= key & all;
                and &= key | !all;
            }
            (w, (or, and))
        };
        let lengths: Vec<usize> = self
            .entries
            .chunks(BUILD_CHUNK)
            .map(<[Entry]>::len)
            .collect();
        let written: Vec<(usize, KeyBits)> = if self.parallel() {
            self.entries.par_chunks_mut(BUILD_CHUNK).map(keep).collect()
        } else {
            self.entries.chunks_mut(BUILD_CHUNK).map(keep).collect()
        };
        let (len, keys) = branch::close_up(&mut self.entries, &lengths, &written);
        self.entries.truncate(len);
        keys
    }

    /// `P(bit = 1)` normalised by the total weight, from separate sums (see the dense twin).
    fn probability_of_mask(&self, mask: u128) -> f64 {
        let (p0, p1) = self.weights_of_mask(mask);
        crate::par::normalised_one(p0, p1)
    }

    /// The summed weights `(P(bit = 0), P(bit = 1))`, each summed on its own.
    fn weights_of_mask(&self, mask: u128) -> (f64, f64) {
        crate::par::det_sum_split(&self.entries, self.parallel(), |e| {
            (e.0 & mask != 0, e.1.norm_sqr())
        })
    }

    /// The key of the basis state in which exactly `ones` are 1, or `None` if a classical qubit
    /// disagrees (the amplitude is then 0).
    fn key_of(&self, ones: &[Qubit]) -> Option<u128> {
        for q in self.slots.classical_ones() {
            if !ones.contains(&q) {
                return None;
            }
        }
        let mut key = 0u128;
        for &q in ones {
            match self.slots.get(q) {
                Slot::Classical(true) => {}
                Slot::Classical(false) => return None,
                Slot::Quantum(bit) => key |= 1 << bit,
            }
        }
        Some(key)
    }

    /// For each of `qubits`: a constant contribution to the pattern (classical 1s) and the key
    /// bit that feeds pattern bit k.
    fn pattern_plan(&self, qubits: &[Qubit]) -> (u128, Vec<(usize, u8)>) {
        let mut constant = 0u128;
        let mut from_key = Vec::new();
        for (k, &q) in qubits.iter().enumerate() {
            match self.slots.get(q) {
                Slot::Classical(true) => constant |= 1 << k,
                Slot::Classical(false) => {}
                Slot::Quantum(bit) => from_key.push((k, bit)),
            }
        }
        (constant, from_key)
    }
}

fn pattern(key: u128, constant: u128, from_key: &[(usize, u8)]) -> u128 {
    from_key
        .iter()
        .fold(constant, |p, &(k, bit)| p | (((key >> bit) & 1) << k))
}

/// Marginals over at most this many qubits in superposition are summed in an array indexed by
/// their values (2^10 sums per chunk of the state) rather than in a map.
const DENSE_MARGINAL_BITS: usize = 10;

impl SparseSim {
    /// [`Backend::marginal`] summed in a map from pattern to probability (`constant`: the
    /// pattern's classical 1 bits; `from_key`: each pattern bit read from a key bit).
    fn marginal_map(&self, constant: u128, from_key: &[(usize, u8)]) -> Vec<(u128, f64)> {
        let chunk_dist = |chunk: &[Entry]| {
            let mut d = BTreeMap::<u128, f64>::new();
            for e in chunk {
                *d.entry(pattern(e.0, constant, from_key)).or_default() += e.1.norm_sqr();
            }
            d
        };
        let parts = crate::par::det_chunks(&self.entries, self.parallel(), chunk_dist);
        let mut dist = BTreeMap::<u128, f64>::new();
        for part in parts {
            for (p, v) in part {
                *dist.entry(p).or_default() += v;
            }
        }
        dist.into_iter()
            .filter(|(_, p)| *p >= IMPOSSIBLE_PROBABILITY)
            .collect()
    }

    /// [`Backend::marginal`] summed in an array indexed by the values of the `from_key` bits
    /// (at most [`DENSE_MARGINAL_BITS`] of them): no map insertion per basis state, which made
    /// the legal moves of a big superposition (one marginal per candidate move) slow. Each
    /// pattern's probability is summed in the same order as [`SparseSim::marginal_map`] sums it
    /// (the chunk's entries in order from 0, then the chunks in order from 0; adding the 0 of a
    /// pattern a chunk lacks changes nothing), so the two agree bit for bit; patterns come out
    /// in increasing order since index bit j lands on pattern bit `from_key[j].0`, increasing
    /// with j.
    fn marginal_dense(&self, constant: u128, from_key: &[(usize, u8)]) -> Vec<(u128, f64)> {
        let size = 1usize << from_key.len();
        let chunk_dist = |chunk: &[Entry]| {
            let mut d = vec![0.0f64; size];
            for e in chunk {
                let index = from_key
                    .iter()
                    .enumerate()
                    .fold(0usize, |i, (j, &(_, bit))| {
                        i | ((((e.0 >> bit) & 1) as usize) << j)
                    });
                d[index] += e.1.norm_sqr();
            }
            d
        };
        let parts = crate::par::det_chunks(&self.entries, self.parallel(), chunk_dist);
        let mut dist = vec![0.0f64; size];
        for part in parts {
            for (sum, v) in dist.iter_mut().zip(part) {
                *sum += v;
            }
        }
        dist.into_iter()
            .enumerate()
            .filter(|(_, p)| *p >= IMPOSSIBLE_PROBABILITY)
            .map(|(index, p)| (crate::marginal::unpack(index, constant, from_key), p))
            .collect()
    }
}

impl Backend for SparseSim {
    type Snapshot = SparseSnapshot;

    fn name(&self) -> &'static str {
        "sparse"
    }

    fn apply_gate(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError> {
        self.watch = Watch::start(GATE)?;
        let Some(test) = control_test(&self.slots, controls) else {
            return Ok(());
        };
        if gate == Gate::I {
            return Ok(());
        }
        let table = SmallGate::new(gate);
        let monomial = table.monomial();
        if self.apply_on_classical(monomial, targets, test) {
            return Ok(());
        }
        let mut bits = [0u8; 2];
        let mut constant = [None; 2];
        for (j, &t) in targets.iter().enumerate().take(2) {
            (bits[j], constant[j]) = self.promote(t)?;
        }
        let bits = &bits[..targets.len().min(2)];
        if let Some((rows, factors)) = monomial {
            let (or, and) = self.apply_monomial(bits, rows, factors, test);
            self.watch.check(GATE)?;
            self.demote_given(targets, or, and);
        } else {
            let (or, and) = self.apply_branching(bits, &constant[..bits.len()], &table, test)?;
            if !self.entries.is_empty() {
                self.demote_given(targets, or, and);
            }
        }
        Ok(())
    }

    fn apply_matrix(
        &mut self,
        matrix: &Matrix,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError> {
        qc_ir::backend::check_matrix_size(matrix, targets.len())?;
        self.watch = Watch::start(GATE)?;
        let Some(test) = control_test(&self.slots, controls) else {
            return Ok(());
        };
        let mut bits = Vec::with_capacity(targets.len());
        for &t in targets {
            bits.push(self.promote(t)?.0);
        }
        let (or, and) = self.apply_general(matrix, &bits, test)?;
        if !self.entries.is_empty() {
            self.demote_given(targets, or, and);
        }
        Ok(())
    }

    fn measure(&mut self, qubit: Qubit, choice: MeasureChoice) -> Result<bool, BackendError> {
        self.watch = Watch::start("a measurement")?;
        match self.slots.get(qubit) {
            Slot::Classical(v) => choice.resolve_classical(qubit, v),
            Slot::Quantum(bit) => {
                let mask = 1u128 << bit;
                let (p_zero, p_one) = self.weights_of_mask(mask);
                let outcome = choice.resolve(qubit, p_zero, p_one)?;
                let p = (if outcome { p_one } else { p_zero }) / (p_zero + p_one);
                let scale = 1.0 / p.sqrt();
                let want = if outcome { mask } else { 0 };
                let (or, and) = self.collapse(mask, want, scale);
                self.slots.demote(qubit, outcome);
                // Qubits entangled with the measured one may be constant now: they leave the keys.
                if !self.entries.is_empty() {
                    let quantum: Vec<Qubit> = self.slots.quantum().map(|(q, _)| q).collect();
                    self.demote_given(&quantum, or, and);
                }
                Ok(outcome)
            }
        }
    }

    fn basis_states(&self) -> Vec<(Vec<Qubit>, Complex64)> {
        self.slots.basis_states(self.entries.iter().copied())
    }

    fn state_size(&self) -> usize {
        self.entries.len()
    }

    fn snapshot(&self) -> Result<SparseSnapshot, BackendError> {
        let bytes = self.entries.len() * Self::bytes_per_entry() + self.slots.heap_bytes();
        let what = "a snapshot of the sparse state (to take a move back)";
        self.check_room(what, (self.memory_bytes() + bytes) as u128)?;
        let mut entries = Vec::new();
        try_reserve(&mut entries, self.entries.len(), what, self.limit)?;
        entries.extend_from_slice(&self.entries);
        Ok(SparseSnapshot {
            slots: self.slots.clone(),
            entries,
            paths: self.paths,
            held: self.saved.hold(bytes),
        })
    }

    fn restore(&mut self, snapshot: &SparseSnapshot) -> Result<(), BackendError> {
        // Into the state's own buffer when it is large enough; otherwise a new one, held beside
        // the scratch buffer and the snapshots while it is filled.
        let len = snapshot.entries.len();
        if len > self.entries.capacity() {
            let what = "the sparse state restored from a snapshot";
            let bytes = self.memory_bytes() + len * Self::bytes_per_entry();
            self.check_room(what, bytes as u128)?;
            let mut entries = Vec::new();
            try_reserve(&mut entries, len, what, self.limit)?;
            self.entries = entries;
        }
        self.entries.clear();
        self.entries.extend_from_slice(&snapshot.entries);
        self.slots = snapshot.slots.clone();
        self.paths = snapshot.paths;
        Ok(())
    }

    fn restore_owned(&mut self, snapshot: SparseSnapshot) {
        // The snapshot's entries become the state (no longer counted as saved when `held`
        // drops); the state they replace is freed.
        self.entries = snapshot.entries;
        self.slots = snapshot.slots;
        self.paths = snapshot.paths;
    }

    fn snapshot_bytes(snapshot: &SparseSnapshot) -> usize {
        // The entries and the qubit table (a game's undo history keeps one of each per move).
        snapshot.held.bytes()
    }

    fn memory_limit_bytes(&self) -> Option<u128> {
        Some(self.limit.limit_bytes())
    }

    fn state_bytes(&self) -> usize {
        // The state, the qubit table and the snapshots the limit counts with them.
        self.memory_bytes() + self.slots.heap_bytes() + self.saved.total()
    }

    fn fidelity(&self, snapshot: &SparseSnapshot) -> Result<f64, BackendError> {
        // The snapshot's keys read in this state's table (the same keys when the tables are the
        // same), each looked up in one sorted copy of the current entries and summed in the
        // snapshot's order: one copy of one state, where sorting copies of both (and, across
        // tables, ordering the snapshot by its lists of qubits) took three.
        Watch::start("comparing the state with a snapshot")?;
        let Some(map) = self.slots.key_map_from(&snapshot.slots) else {
            return Ok(0.0);
        };
        let same = self.slots == snapshot.slots;
        let current = self.sorted_copy()?;
        let mut overlap = Complex64::new(0.0, 0.0);
        for &(key, a) in &snapshot.entries {
            let here = if same { Some(key) } else { map.apply(key) };
            let found = here.and_then(|k| current.binary_search_by_key(&k, |e| e.0).ok());
            if let Some(i) = found {
                overlap += a.conj() * current[i].1;
            }
        }
        Ok(overlap.norm_sqr())
    }

    fn probability_one(&self, qubit: Qubit) -> f64 {
        match self.slots.get(qubit) {
            Slot::Classical(v) => f64::from(u8::from(v)),
            Slot::Quantum(bit) => self.probability_of_mask(1 << bit),
        }
    }

    fn probabilities_one(&self, qubits: &[Qubit]) -> Vec<f64> {
        // Each quantum bit's two weights summed as `probability_one` sums them (fixed chunks,
        // in order), so the results are bit for bit the same, in one pass for all the bits.
        let bits: Vec<u8> = qubits
            .iter()
            .filter_map(|&q| match self.slots.get(q) {
                Slot::Quantum(bit) => Some(bit),
                Slot::Classical(_) => None,
            })
            .collect();
        let partial = |chunk: &[Entry]| {
            let mut sums = vec![(0.0f64, 0.0f64); bits.len()];
            for e in chunk {
                let w = e.1.norm_sqr();
                for (sum, &bit) in sums.iter_mut().zip(&bits) {
                    if (e.0 >> bit) & 1 == 1 {
                        sum.1 += w;
                    } else {
                        sum.0 += w;
                    }
                }
            }
            sums
        };
        let partials = crate::par::det_chunks(&self.entries, self.parallel(), partial);
        let mut sums = vec![(0.0f64, 0.0f64); bits.len()];
        for part in partials {
            for (sum, (p0, p1)) in sums.iter_mut().zip(part) {
                sum.0 += p0;
                sum.1 += p1;
            }
        }
        let mut quantum = sums.into_iter();
        qubits
            .iter()
            .map(|&q| match self.slots.get(q) {
                Slot::Classical(v) => f64::from(u8::from(v)),
                Slot::Quantum(_) => quantum
                    .next()
                    .map_or(0.0, |(p0, p1)| crate::par::normalised_one(p0, p1)),
            })
            .collect()
    }

    fn constant_values(&self, qubits: &[Qubit]) -> Vec<Option<bool>> {
        let (or, and) = if self.entries.is_empty() {
            (0, 0)
        } else {
            self.key_or_and()
        };
        qubits
            .iter()
            .map(|&q| match self.slots.get(q) {
                Slot::Classical(v) => Some(v),
                Slot::Quantum(bit) if or >> bit & 1 == 0 => Some(false),
                Slot::Quantum(bit) if and >> bit & 1 == 1 => Some(true),
                Slot::Quantum(_) => None,
            })
            .collect()
    }

    fn state_hash(&self) -> u64 {
        // Each key bit's share of the hash, and the classical ones' share of every state's.
        let mut bit_hash = [0u64; 128];
        for (q, bit) in self.slots.quantum() {
            bit_hash[usize::from(bit)] = qc_ir::backend::qubit_hash(q);
        }
        let classical = self
            .slots
            .classical_ones()
            .fold(0u64, |h, q| h ^ qc_ir::backend::qubit_hash(q));
        let term = |e: &Entry| {
            let mut key = e.0;
            let mut h = classical;
            while key != 0 {
                h ^= bit_hash[key.trailing_zeros() as usize];
                key &= key - 1;
            }
            qc_ir::backend::state_hash_term(h, e.1)
        };
        // A wrapping sum does not depend on the order, so the chunks may run anywhere.
        if self.parallel() {
            self.entries
                .par_chunks(crate::par::REDUCE_CHUNK)
                .map(|c| c.iter().map(term).fold(0u64, u64::wrapping_add))
                .reduce(|| 0, u64::wrapping_add)
        } else {
            self.entries.iter().map(term).fold(0u64, u64::wrapping_add)
        }
    }

    fn marginal(&self, qubits: &[Qubit]) -> Vec<(u128, f64)> {
        assert!(qubits.len() <= 128, "marginal over more than 128 qubits");
        let (constant, from_key) = self.pattern_plan(qubits);
        if from_key.len() <= DENSE_MARGINAL_BITS {
            self.marginal_dense(constant, &from_key)
        } else {
            self.marginal_map(constant, &from_key)
        }
    }

    fn reduced_density_matrix(&self, qubits: &[Qubit]) -> Matrix {
        let (constant, from_key) = self.pattern_plan(qubits);
        let kept: u128 = from_key
            .iter()
            .map(|&(_, b)| 1u128 << b)
            .fold(0, |a, b| a | b);
        let mut items: Vec<(u128, usize, Complex64)> = self
            .entries
            .iter()
            .map(|e| (e.0 & !kept, pattern(e.0, constant, &from_key) as usize, e.1))
            .collect();
        items.sort_unstable_by_key(|x| (x.0, x.1));
        let mut rho = Matrix::zeros(1 << qubits.len());
        for group in items.chunk_by(|a, b| a.0 == b.0) {
            for &(_, i, a) in group {
                for &(_, j, b) in group {
                    rho.set(i, j, rho.get(i, j) + a * b.conj());
                }
            }
        }
        rho
    }

    fn amplitude(&self, ones: &[Qubit]) -> Complex64 {
        let zero = Complex64::new(0.0, 0.0);
        let Some(key) = self.key_of(ones) else {
            return zero;
        };
        self.entries
            .iter()
            .find(|e| e.0 == key)
            .map_or(zero, |e| e.1)
    }
}

#[cfg(test)]
mod marginal_tests {
    use super::SparseSim;
    use qc_ir::{Backend, Gate, Qubit};

    /// Uneven amplitudes on 13 qubits (8,192 basis states, two chunks of the reduction): a
    /// rotation of a different angle on each qubit.
    fn uneven() -> SparseSim {
        let mut sim = SparseSim::new();
        for q in 0..13u32 {
            sim.alloc(Qubit(q)).expect("alloc");
            sim.apply_gate(Gate::Ry(0.3 + 0.17 * f64::from(q)), &[Qubit(q)], &[])
                .expect("ry");
        }
        sim
    }

    /// The array and the map give the same patterns with the same probabilities bit for bit,
    /// on one thread and on rayon, for marginals with classical and quantum qubits.
    #[test]
    fn dense_and_map_marginals_agree_bit_for_bit() {
        for threshold in [usize::MAX, 1] {
            let mut sim = uneven();
            sim.set_parallel_threshold(threshold);
            for qubits in [
                vec![Qubit(3)],
                vec![Qubit(0), Qubit(5), Qubit(40), Qubit(12)],
                (0..10).map(Qubit).collect::<Vec<_>>(),
            ] {
                let (constant, from_key) = sim.pattern_plan(&qubits);
                let dense = sim.marginal_dense(constant, &from_key);
                assert_eq!(dense, sim.marginal_map(constant, &from_key), "{qubits:?}");
                assert_eq!(dense, sim.marginal(&qubits), "{qubits:?}");
                assert!(!dense.is_empty());
            }
        }
    }
}

#[cfg(test)]
mod fidelity_tests {
    use super::SparseSim;
    use qc_ir::{Backend, Complex64, Control, Gate, MeasureChoice, Qubit};
    use std::collections::BTreeMap;

    /// The fidelity as read from the two lists of basis states: the current state's amplitude
    /// looked up for each of the snapshot's basis states, in the snapshot's order.
    fn by_lists(current: &SparseSim, snapshot: &SparseSim) -> f64 {
        let now: BTreeMap<Vec<Qubit>, Complex64> = current.basis_states().into_iter().collect();
        let overlap: Complex64 = snapshot
            .basis_states()
            .into_iter()
            .filter_map(|(ones, a)| now.get(&ones).map(|b| a.conj() * b))
            .sum();
        overlap.norm_sqr()
    }

    /// States whose qubit tables differ (a qubit promoted, one measured and demoted, a classical
    /// qubit flipped, qubits entangled): the fidelity is the one the lists give (to rounding:
    /// the sums run in another order), both ways round.
    #[test]
    fn fidelity_across_qubit_tables_is_the_one_of_the_lists() {
        let mut sim = SparseSim::new();
        for q in 0..6u32 {
            sim.apply_gate(Gate::Ry(0.4 + 0.21 * f64::from(q)), &[Qubit(q * 3)], &[])
                .expect("ry");
        }
        let steps: [fn(&mut SparseSim); 5] = [
            |s| {
                s.apply_gate(Gate::Ry(0.7), &[Qubit(40)], &[])
                    .expect("promote")
            },
            |s| {
                s.measure(Qubit(3), MeasureChoice::Forced(true))
                    .expect("measure");
            },
            |s| s.apply_gate(Gate::X, &[Qubit(7)], &[]).expect("flip"),
            |s| {
                s.apply_gate(Gate::X, &[Qubit(10)], &[Control::one(Qubit(0))])
                    .expect("cx")
            },
            |s| {
                s.apply_gate(Gate::SqrtISwap, &[Qubit(6), Qubit(41)], &[])
                    .expect("mix")
            },
        ];
        let mut nonzero = 0;
        for step in &steps {
            let before = sim.clone();
            step(&mut sim);
            assert_ne!(sim.slots, before.slots);
            for (a, b) in [(&sim, &before), (&before, &sim)] {
                let want = by_lists(a, b);
                let got = a
                    .fidelity(&b.snapshot().expect("snapshot"))
                    .expect("fidelity");
                assert!((got - want).abs() <= 1e-12, "{got} against {want}");
                nonzero += usize::from(want > 0.0);
            }
        }
        assert!(nonzero >= 4, "{nonzero}");
    }
}
