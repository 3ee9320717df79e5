//! The dense simulator: a state vector over the qubits in superposition, in complex128
//! (`DenseSim`, i.e. `DenseSim<f64>`) or complex64 (`DenseSim<f32>`, see [`crate::precision`]).
//!
//! A qubit joins the vector (as its new most significant bit) only when a gate could make it
//! non-classical; until then it is a classical bit, and monomial gates on classical targets
//! update that bit and a global phase. Measurement, reset and free take the qubit out again,
//! squeezing the vector to half its length in the same pass that renormalises it. So a chess
//! game with k quantum squares costs 2^k amplitudes.
//!
//! Gates run as specialised kernels from [`crate::kernels`] that touch only the amplitudes the
//! controls select; runs of gates handed over at once ([`Backend::apply_gates`], which
//! [`qc_ir::exec`] uses for every run of consecutive gates) fuse into one matrix pass when they
//! act on a few qubits (see [`crate::fusion`]).

use crate::kernels;
use crate::memory::{check_beside_saved, try_reserve, Held, MemoryLimit, SavedBytes};
use crate::precision::Real;
use crate::table::SmallGate;
use num_complex::Complex;
use qc_ir::{
    Backend, BackendError, Complex64, Control, Gate, GateCall, GateRunError, Matrix, MeasureChoice,
    Qubit,
};
use rayon::prelude::*;

/// Largest number of qubits in the vector (2^40 amplitudes is far beyond any memory limit).
pub const MAX_DENSE_QUBITS: usize = 40;

/// Default vector length above which kernels use rayon (chosen by benchmark).
pub const DEFAULT_DENSE_PARALLEL_THRESHOLD: usize = 1 << 14;

const ONE: Complex64 = Complex64::new(1.0, 0.0);
const ZERO: Complex64 = Complex64::new(0.0, 0.0);

/// 1 in the amplitudes' precision.
fn one<F: Real>() -> Complex<F> {
    Complex::new(F::one(), F::zero())
}

/// 0 in the amplitudes' precision.
fn zero<F: Real>() -> Complex<F> {
    Complex::default()
}

/// Where a qubit lives in the dense simulator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Place {
    Classical(bool),
    Dense(u8),
}

/// The dense simulator. Starts in |0...0> with no qubit in the vector. `F` is the real type of
/// the amplitudes: `f64` (complex128, the default) or `f32` (complex64).
#[derive(Clone, Debug)]
pub struct DenseSim<F: Real = f64> {
    places: Vec<Place>,
    /// Bit i of an amplitude index is qubit `order[i]`.
    order: Vec<Qubit>,
    amps: Vec<Complex<F>>,
    /// Global phase from gates applied to classical qubits, kept apart so they cost no sweep.
    phase: Complex64,
    limit: MemoryLimit,
    /// The bytes this simulator's live snapshots hold: they count against `limit` with the
    /// vector.
    saved: SavedBytes,
    parallel_threshold: usize,
    pub(crate) fuse_max: usize,
    pub(crate) fuse_min_amplitudes: usize,
    /// Fused blocks of two or more gates applied so far (kept across `restore`).
    fused_blocks: u64,
}

impl Default for DenseSim {
    fn default() -> Self {
        DenseSim::new()
    }
}

/// Snapshot of a [`DenseSim`]: where each qubit is, the vector and the global phase, counted
/// against the simulator's memory limit while it lives.
#[derive(Clone, Debug)]
pub struct DenseSnapshot<F: Real = f64> {
    places: Vec<Place>,
    order: Vec<Qubit>,
    amps: Vec<Complex<F>>,
    phase: Complex64,
    held: Held,
}

impl DenseSim<f64> {
    /// The all-zero state in complex128 with the default memory limit.
    pub fn new() -> DenseSim {
        DenseSim::with_limit(MemoryLimit::default())
    }

    /// The all-zero state in complex128 with the given memory limit.
    pub fn with_limit(limit: MemoryLimit) -> DenseSim {
        DenseSim::zero_state(limit)
    }

    /// |0...0> in complex128 with qubits `0..n` already in the vector; see
    /// [`DenseSim::zero_state_dense`].
    ///
    /// # Errors
    /// Over the memory limit or [`MAX_DENSE_QUBITS`].
    pub fn with_dense_qubits(n: u32, limit: MemoryLimit) -> Result<DenseSim, BackendError> {
        DenseSim::zero_state_dense(n, limit)
    }
}

impl<F: Real> DenseSim<F> {
    /// The all-zero state in precision `F` with the given memory limit
    /// (`DenseSim::<f32>::zero_state(limit)` for complex64).
    pub fn zero_state(limit: MemoryLimit) -> DenseSim<F> {
        DenseSim {
            places: Vec::new(),
            order: Vec::new(),
            amps: vec![one()],
            phase: ONE,
            limit,
            saved: SavedBytes::default(),
            parallel_threshold: DEFAULT_DENSE_PARALLEL_THRESHOLD,
            fuse_max: crate::fusion::DEFAULT_FUSE_MAX,
            fuse_min_amplitudes: crate::fusion::DEFAULT_FUSE_MIN_AMPLITUDES,
            fused_blocks: 0,
        }
    }

    /// |0...0> in precision `F` with qubits `0..n` already in the vector (2^n amplitudes), as a
    /// full state-vector simulator starts; used by benchmarks to compare like with like.
    ///
    /// # Errors
    /// Over the memory limit or [`MAX_DENSE_QUBITS`].
    pub fn zero_state_dense(n: u32, limit: MemoryLimit) -> Result<DenseSim<F>, BackendError> {
        let mut sim = DenseSim::zero_state(limit);
        let len = sim.checked_len(n as usize)?;
        let mut amps = Vec::new();
        try_reserve(&mut amps, len, "dense state vector", limit)?;
        amps.resize(len, zero());
        amps[0] = one();
        sim.amps = amps;
        for q in 0..n {
            sim.set_place(Qubit(q), Place::Dense(q as u8));
            sim.order.push(Qubit(q));
        }
        Ok(sim)
    }

    /// Sets the vector length above which kernels use rayon (results do not depend on it).
    pub fn set_parallel_threshold(&mut self, amplitudes: usize) {
        self.parallel_threshold = amplitudes;
    }

    /// Sets the largest number of qubits a fused block may act on (0 or 1 turns fusion off; the
    /// default is [`crate::DEFAULT_FUSE_MAX`], at most [`crate::FUSE_LIMIT`]).
    pub fn set_fuse_max(&mut self, qubits: usize) {
        self.fuse_max = qubits.min(crate::fusion::FUSE_LIMIT);
    }

    /// Sets the smallest vector, in amplitudes, on which gates fuse (default
    /// [`crate::fusion::DEFAULT_FUSE_MIN_AMPLITUDES`]; results do not depend on it).
    pub fn set_fuse_min_amplitudes(&mut self, amplitudes: usize) {
        self.fuse_min_amplitudes = amplitudes;
    }

    /// How many fused blocks (of two gates or more, applied as one matrix pass) this simulator
    /// has applied since it was made; restoring a snapshot does not reset the count.
    pub fn fused_blocks(&self) -> u64 {
        self.fused_blocks
    }

    /// Length of the vector.
    pub(crate) fn amps_len(&self) -> usize {
        self.amps.len()
    }

    /// Number of qubits in the vector.
    pub fn dense_qubits(&self) -> usize {
        self.order.len()
    }

    /// Bytes per amplitude.
    pub const fn bytes_per_amplitude() -> usize {
        std::mem::size_of::<Complex<F>>()
    }

    /// Bytes the vector holds.
    pub fn memory_bytes(&self) -> usize {
        self.amps.capacity() * Self::bytes_per_amplitude()
    }

    /// The memory limit.
    pub fn memory_limit(&self) -> MemoryLimit {
        self.limit
    }

    /// The raw amplitudes (bit i of the index = the i-th dense qubit), without the global phase.
    pub fn raw_amplitudes(&self) -> &[Complex<F>] {
        &self.amps
    }

    fn checked_len(&self, qubits: usize) -> Result<usize, BackendError> {
        if qubits > MAX_DENSE_QUBITS {
            return Err(BackendError::TooManyQubits {
                needed: qubits,
                limit: MAX_DENSE_QUBITS,
            });
        }
        let len = 1usize << qubits;
        check_beside_saved(
            self.limit,
            &format!("dense state vector of {qubits} qubits"),
            (len as u128) * Self::bytes_per_amplitude() as u128,
            self.saved.total(),
        )?;
        Ok(len)
    }

    /// Bytes this simulator's live snapshots hold (wherever they are kept), which count against
    /// its memory limit with the vector.
    pub fn saved_bytes(&self) -> usize {
        self.saved.total()
    }

    /// The overlap `<snapshot|current>` when the two place the qubits differently: each of the
    /// snapshot's amplitudes is matched to the current index holding the same basis state (a
    /// qubit in the vector on one side and classical on the other must have the classical value
    /// there), with no list of basis states built.
    fn overlap_across_places(&self, other: &DenseSnapshot<F>) -> Complex64 {
        let zero = Complex64::new(0.0, 0.0);
        let known =
            |places: &[Place], q: usize| places.get(q).copied().unwrap_or(Place::Classical(false));
        // Bits of the current index fixed by the snapshot's classical qubits, and how each of
        // the snapshot's vector bits lands in it (or what it must be, where the current state
        // has the qubit classical).
        let (mut fixed, mut moves) = (0usize, Vec::new());
        let (mut must_mask, mut must_value) = (0usize, 0usize);
        for q in 0..self.places.len().max(other.places.len()) {
            match (known(&other.places, q), known(&self.places, q)) {
                (Place::Classical(a), Place::Classical(b)) if a != b => return zero,
                (Place::Classical(_), Place::Classical(_)) => {}
                (Place::Classical(a), Place::Dense(to)) => fixed |= usize::from(a) << to,
                (Place::Dense(from), Place::Classical(b)) => {
                    must_mask |= 1 << from;
                    must_value |= usize::from(b) << from;
                }
                (Place::Dense(from), Place::Dense(to)) => moves.push((from, to)),
            }
        }
        other
            .amps
            .iter()
            .enumerate()
            .filter(|&(i, _)| i & must_mask == must_value)
            .map(|(i, a)| {
                let j = moves
                    .iter()
                    .fold(fixed, |j, &(from, to)| j | ((i >> from) & 1) << to);
                (F::widen(*a) * other.phase).conj() * F::widen(self.amps[j]) * self.phase
            })
            .sum()
    }

    fn parallel(&self) -> bool {
        self.amps.len() >= self.parallel_threshold
    }

    fn place(&self, q: Qubit) -> Place {
        self.places
            .get(q.index())
            .copied()
            .unwrap_or(Place::Classical(false))
    }

    fn set_place(&mut self, q: Qubit, p: Place) {
        if self.places.len() <= q.index() {
            self.places.resize(q.index() + 1, Place::Classical(false));
        }
        self.places[q.index()] = p;
    }

    /// Brings `q` into the vector as the new top bit; returns its bit position.
    pub(crate) fn join(&mut self, q: Qubit) -> Result<u8, BackendError> {
        let value = match self.place(q) {
            Place::Dense(p) => return Ok(p),
            Place::Classical(v) => v,
        };
        let old = self.amps.len();
        let len = self.checked_len(self.order.len() + 1)?;
        try_reserve(&mut self.amps, len - old, "dense state vector", self.limit)?;
        self.amps.resize(len, zero());
        if value {
            let (low, high) = self.amps.split_at_mut(old);
            high.copy_from_slice(low);
            low.fill(zero());
        }
        let pos = self.order.len() as u8;
        self.order.push(q);
        self.set_place(q, Place::Dense(pos));
        Ok(pos)
    }

    /// Makes every qubit whose bit is the same in all amplitudes of magnitude at least
    /// `AMPLITUDE_EPSILON` classical again (one pass to find them, one `leave` each).
    pub(crate) fn evict_constant_qubits(&mut self) {
        if self.order.is_empty() {
            return;
        }
        let (any_one, all_one) = self
            .amps
            .iter()
            .enumerate()
            .filter(|(_, a)| F::norm_sqr_f64(**a) >= F::IMPOSSIBLE_PROBABILITY)
            .fold((0usize, usize::MAX), |(or, and), (i, _)| (or | i, and & i));
        for pos in (0..self.order.len()).rev() {
            let bit = 1usize << pos;
            if any_one & bit == 0 {
                self.leave(pos as u8, false, 1.0);
            } else if all_one & bit != 0 {
                self.leave(pos as u8, true, 1.0);
            }
        }
    }

    /// Takes the qubit at bit `pos` out of the vector, keeping the half where it is `value` and
    /// scaling it by `scale`, in one pass.
    fn leave(&mut self, pos: u8, value: bool, scale: f64) {
        let half = self.amps.len() / 2;
        let p = pos as usize;
        let low_mask = (1usize << p) - 1;
        let pick = usize::from(value) << p;
        let src = |i: usize| ((i >> p) << (p + 1)) | (i & low_mask) | pick;
        let scale = F::from_f64(scale);
        // In place, ascending: source index >= destination index, and every source read lies
        // above every destination already written.
        for i in 0..half {
            self.amps[i] = self.amps[src(i)] * scale;
        }
        self.amps.truncate(half);
        self.amps.shrink_to_fit();
        let q = self.order.remove(p);
        self.set_place(q, Place::Classical(value));
        for (i, &other) in self.order.clone().iter().enumerate().skip(p) {
            self.set_place(other, Place::Dense(i as u8));
        }
    }

    /// `P(bit = 1)`, from separate sums over both halves so that an outcome whose amplitudes are
    /// all exactly zero gets probability exactly zero (not `1 - (1 - 2e-16)`).
    /// The summed weights `(P(bit = 0), P(bit = 1))`, each summed on its own (in `f64`); a weight
    /// below [`Real::IMPOSSIBLE_PROBABILITY`] of the total is rounding noise and reads as 0.
    fn weights_of_bit(&self, pos: u8) -> (f64, f64) {
        let (p0, p1) = self.summed_weights_of_bit(pos);
        let noise = F::IMPOSSIBLE_PROBABILITY * (p0 + p1);
        let clean = |p: f64| if p < noise { 0.0 } else { p };
        (clean(p0), clean(p1))
    }

    fn summed_weights_of_bit(&self, pos: u8) -> (f64, f64) {
        let mask = 1usize << pos;
        let chunk = crate::par::REDUCE_CHUNK;
        let partial = |(c, block): (usize, &[Complex<F>])| {
            block
                .iter()
                .enumerate()
                .fold((0.0f64, 0.0f64), |(p0, p1), (j, a)| {
                    if (c * chunk + j) & mask != 0 {
                        (p0, p1 + F::norm_sqr_f64(*a))
                    } else {
                        (p0 + F::norm_sqr_f64(*a), p1)
                    }
                })
        };
        let partials: Vec<(f64, f64)> = if self.parallel() {
            self.amps
                .par_chunks(chunk)
                .enumerate()
                .map(partial)
                .collect()
        } else {
            self.amps.chunks(chunk).enumerate().map(partial).collect()
        };
        partials
            .into_iter()
            .fold((0.0, 0.0), |(a, b), (c, d)| (a + c, b + d))
    }

    fn probability_of_bit(&self, pos: u8) -> f64 {
        let (p0, p1) = self.weights_of_bit(pos);
        crate::par::normalised_one(p0, p1)
    }

    /// Resolves controls: `None` if a classical control disables the gate, else the dense
    /// control positions and the (mask, value) they must match.
    fn control_bits(&self, controls: &[Control]) -> Option<(Vec<u8>, usize)> {
        let mut positions = Vec::with_capacity(controls.len());
        let mut value = 0usize;
        for c in controls {
            match self.place(c.qubit) {
                Place::Classical(v) => {
                    if v != c.on.value() {
                        return None;
                    }
                }
                Place::Dense(p) => {
                    positions.push(p);
                    if c.on.value() {
                        value |= 1 << p;
                    }
                }
            }
        }
        Some((positions, value))
    }

    /// See `SparseSim::apply_on_classical`: monomial gates on classical targets need no join.
    fn apply_on_classical(
        &mut self,
        table: &SmallGate,
        targets: &[Qubit],
        controls: &(Vec<u8>, usize),
    ) -> bool {
        let Some((rows, factors)) = table.monomial() else {
            return false;
        };
        let mut col = 0usize;
        for &t in targets {
            match self.place(t) {
                Place::Classical(v) => col = (col << 1) | usize::from(v),
                Place::Dense(_) => return false,
            }
        }
        let (row, factor) = (rows[col], factors[col]);
        let (positions, value) = controls;
        if !positions.is_empty() && row != col {
            return false;
        }
        let k = targets.len();
        for (j, &t) in targets.iter().enumerate() {
            self.set_place(t, Place::Classical((row >> (k - 1 - j)) & 1 == 1));
        }
        if factor != ONE {
            if positions.is_empty() {
                self.phase *= factor;
            } else {
                let mut fixed = positions.clone();
                fixed.sort_unstable();
                let parallel = self.parallel();
                kernels::phase(
                    &mut self.amps,
                    &fixed,
                    *value,
                    0,
                    F::complex(factor),
                    parallel,
                );
            }
        }
        true
    }

    /// Applies a gate whose targets and dense controls are at the given bit positions.
    fn apply_kernel(&mut self, table: &SmallGate, tpos: &[u8], cpos: &[u8], cval: usize) {
        let mut fixed: Vec<u8> = tpos.iter().chain(cpos).copied().collect();
        fixed.sort_unstable();
        let parallel = self.parallel();
        let amps = &mut self.amps;
        // Decisions on the exact (f64) table; the kernels get the entries in precision `F`.
        let m = &table.m;
        let c = |z: Complex64| F::complex(z);
        if table.k == 1 {
            let o = 1usize << tpos[0];
            if m[1] == ZERO && m[2] == ZERO {
                for (offset, f) in [(0, m[0]), (o, m[3])] {
                    if f != ONE {
                        kernels::phase(amps, &fixed, cval, offset, c(f), parallel);
                    }
                }
            } else if m[0] == ZERO && m[3] == ZERO {
                kernels::swap_phase(amps, &fixed, cval, (0, o), (c(m[1]), c(m[2])), parallel);
            } else {
                kernels::pair(
                    amps,
                    &fixed,
                    cval,
                    (0, o),
                    [c(m[0]), c(m[1]), c(m[2]), c(m[3])],
                    parallel,
                );
            }
            return;
        }
        let (a, b) = (1usize << tpos[0], 1usize << tpos[1]);
        let offsets = [0, b, a, a | b];
        let block_only = m[0] == ONE
            && m[15] == ONE
            && [1, 2, 3, 4, 7, 8, 11, 12, 13, 14]
                .iter()
                .all(|&i| m[i] == ZERO);
        if block_only {
            // SWAP and the iSWAP family act on |01>, |10> only.
            let (m11, m12, m21, m22) = (m[5], m[6], m[9], m[10]);
            if m11 == ZERO && m22 == ZERO {
                kernels::swap_phase(amps, &fixed, cval, (b, a), (c(m12), c(m21)), parallel);
            } else {
                let block = [c(m11), c(m12), c(m21), c(m22)];
                kernels::pair(amps, &fixed, cval, (b, a), block, parallel);
            }
        } else {
            let full: [Complex<F>; 16] = std::array::from_fn(|i| c(m[i]));
            kernels::matrix(amps, &fixed, cval, &offsets, &full, parallel);
        }
    }

    /// Position of a qubit that is in the vector.
    pub(crate) fn dense_position(&self, q: Qubit) -> Option<u8> {
        match self.place(q) {
            Place::Dense(p) => Some(p),
            Place::Classical(_) => None,
        }
    }

    /// Applies a fused block: a `2^s x 2^s` matrix (row-major, local bit j = `positions[j]`) to
    /// dense qubits, with the vectorised [`crate::fused_kernel`] (a 2x2 with the pair kernel).
    pub(crate) fn apply_block(&mut self, positions: &[u8], m: &[Complex64]) {
        self.fused_blocks += 1;
        self.apply_block_where(positions, m, &[], 0);
    }

    /// [`DenseSim::apply_block`] on the amplitudes whose bits at the dense control positions
    /// `cpos` equal those of `cval` (a controlled user gate; fused blocks have no controls).
    fn apply_block_where(&mut self, positions: &[u8], m: &[Complex64], cpos: &[u8], cval: usize) {
        let mut fixed: Vec<u8> = positions.iter().chain(cpos).copied().collect();
        fixed.sort_unstable();
        let parallel = self.parallel();
        if let [p] = positions {
            let m = [m[0], m[1], m[2], m[3]].map(F::complex);
            kernels::pair(&mut self.amps, &fixed, cval, (0, 1usize << p), m, parallel);
            return;
        }
        let offsets: Vec<usize> = (0..1usize << positions.len())
            .map(|c| {
                positions
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| (c >> j) & 1 == 1)
                    .map(|(_, &p)| 1usize << p)
                    .sum()
            })
            .collect();
        crate::fused_kernel::apply(&mut self.amps, &fixed, cval, &offsets, m, parallel);
    }

    fn index_of(&self, ones: &[Qubit]) -> Option<usize> {
        for (i, p) in self.places.iter().enumerate() {
            if *p == Place::Classical(true) && !ones.contains(&Qubit(i as u32)) {
                return None;
            }
        }
        let mut index = 0usize;
        for &q in ones {
            match self.place(q) {
                Place::Classical(true) => {}
                Place::Classical(false) => return None,
                Place::Dense(p) => index |= 1 << p,
            }
        }
        Some(index)
    }
}

impl<F: Real> Backend for DenseSim<F> {
    type Snapshot = DenseSnapshot<F>;

    fn name(&self) -> &'static str {
        "dense"
    }

    fn apply_gate(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError> {
        let Some(ctrl) = self.control_bits(controls) else {
            return Ok(());
        };
        if gate == Gate::I {
            return Ok(());
        }
        let table = SmallGate::new(gate);
        if self.apply_on_classical(&table, targets, &ctrl) {
            return Ok(());
        }
        let ctrl = if targets
            .iter()
            .any(|t| matches!(self.place(*t), Place::Classical(_)))
        {
            // The vector is about to grow: first let every qubit that is constant again leave,
            // so a long game keeps only the qubits really in superposition. This is a pass over
            // the whole vector, so it runs only when a qubit must join (not for the X-wraps of
            // 0-controls, which stay classical), and before bit positions are computed, since
            // leaving renumbers them.
            self.evict_constant_qubits();
            let Some(ctrl) = self.control_bits(controls) else {
                return Ok(());
            };
            if self.apply_on_classical(&table, targets, &ctrl) {
                return Ok(());
            }
            ctrl
        } else {
            ctrl
        };
        let mut tpos = [0u8; 2];
        for (j, &t) in targets.iter().enumerate().take(2) {
            tpos[j] = self.join(t)?;
        }
        let (cpos, cval) = ctrl;
        self.apply_kernel(&table, &tpos[..targets.len().min(2)], &cpos, cval);
        Ok(())
    }

    fn apply_gates(&mut self, gates: &[GateCall<'_>]) -> Result<(), GateRunError> {
        self.apply_gates_fused(gates)
    }

    fn apply_matrix(
        &mut self,
        matrix: &Matrix,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError> {
        qc_ir::backend::check_matrix_size(matrix, targets.len())?;
        if self.control_bits(controls).is_none() {
            return Ok(());
        }
        if targets
            .iter()
            .any(|t| matches!(self.place(*t), Place::Classical(_)))
        {
            // As in `apply_gate`: constant qubits leave before the vector grows.
            self.evict_constant_qubits();
        }
        let Some((cpos, cval)) = self.control_bits(controls) else {
            return Ok(());
        };
        // Joining appends at the top, so the control positions stay valid.
        let mut positions = Vec::with_capacity(targets.len());
        for &t in targets {
            positions.push(self.join(t)?);
        }
        // The matrix's first target is its most significant bit; the block's local bit j is
        // `positions[j]`, least significant first.
        positions.reverse();
        self.apply_block_where(&positions, matrix.as_slice(), &cpos, cval);
        Ok(())
    }

    fn measure(&mut self, qubit: Qubit, choice: MeasureChoice) -> Result<bool, BackendError> {
        match self.place(qubit) {
            Place::Classical(v) => choice.resolve_classical(qubit, v),
            Place::Dense(pos) => {
                let (p_zero, p_one) = self.weights_of_bit(pos);
                let outcome = choice.resolve(qubit, p_zero, p_one)?;
                let p = (if outcome { p_one } else { p_zero }) / (p_zero + p_one);
                self.leave(pos, outcome, 1.0 / p.sqrt());
                Ok(outcome)
            }
        }
    }

    fn free(&mut self, qubit: Qubit) -> Result<(), BackendError> {
        qc_ir::backend::check_clean(qubit, self.probability_one(qubit))?;
        if let Place::Dense(pos) = self.place(qubit) {
            self.leave(pos, false, 1.0);
        }
        Ok(())
    }

    fn basis_states(&self) -> Vec<(Vec<Qubit>, Complex64)> {
        let classical: Vec<Qubit> = self
            .places
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == Place::Classical(true))
            .map(|(i, _)| Qubit(i as u32))
            .collect();
        let mut result: Vec<(Vec<Qubit>, Complex64)> = self
            .amps
            .iter()
            .enumerate()
            .filter(|(_, a)| F::norm_sqr_f64(**a) >= F::IMPOSSIBLE_PROBABILITY)
            .map(|(index, &a)| {
                let mut ones = classical.clone();
                ones.extend(
                    self.order
                        .iter()
                        .enumerate()
                        .filter(|(p, _)| (index >> p) & 1 == 1)
                        .map(|(_, q)| *q),
                );
                ones.sort();
                (ones, F::widen(a) * self.phase)
            })
            .collect();
        result.sort_by(|a, b| a.0.cmp(&b.0));
        result
    }

    fn state_size(&self) -> usize {
        self.amps
            .iter()
            .filter(|a| F::norm_sqr_f64(**a) >= F::IMPOSSIBLE_PROBABILITY)
            .count()
    }

    fn amplitudes_held(&self) -> usize {
        self.amps.len()
    }

    fn snapshot(&self) -> Result<DenseSnapshot<F>, BackendError> {
        let bytes = self.amps.len() * Self::bytes_per_amplitude();
        let what = "a snapshot of the dense state vector (to take a move back)";
        check_beside_saved(
            self.limit,
            what,
            (self.memory_bytes() + bytes) as u128,
            self.saved.total(),
        )?;
        let mut amps = Vec::new();
        try_reserve(&mut amps, self.amps.len(), what, self.limit)?;
        amps.extend_from_slice(&self.amps);
        Ok(DenseSnapshot {
            places: self.places.clone(),
            order: self.order.clone(),
            amps,
            phase: self.phase,
            held: self.saved.hold(bytes),
        })
    }

    fn restore(&mut self, snapshot: &DenseSnapshot<F>) -> Result<(), BackendError> {
        let len = snapshot.amps.len();
        if len > self.amps.capacity() {
            let what = "the dense state vector restored from a snapshot";
            check_beside_saved(
                self.limit,
                what,
                (self.memory_bytes() + len * Self::bytes_per_amplitude()) as u128,
                self.saved.total(),
            )?;
            let mut amps = Vec::new();
            try_reserve(&mut amps, len, what, self.limit)?;
            self.amps = amps;
        }
        self.amps.clear();
        self.amps.extend_from_slice(&snapshot.amps);
        self.places.clone_from(&snapshot.places);
        self.order.clone_from(&snapshot.order);
        self.phase = snapshot.phase;
        Ok(())
    }

    fn restore_owned(&mut self, snapshot: DenseSnapshot<F>) {
        self.amps = snapshot.amps;
        self.places = snapshot.places;
        self.order = snapshot.order;
        self.phase = snapshot.phase;
    }

    fn snapshot_bytes(snapshot: &DenseSnapshot<F>) -> usize {
        snapshot.held.bytes()
    }

    fn memory_limit_bytes(&self) -> Option<u128> {
        Some(self.limit.limit_bytes())
    }

    fn state_bytes(&self) -> usize {
        // The vector and the snapshots the limit counts with it.
        self.memory_bytes() + self.saved.total()
    }

    fn fidelity(&self, snapshot: &DenseSnapshot<F>) -> Result<f64, BackendError> {
        let other = snapshot;
        if self.order == other.order && self.places == other.places {
            let overlap: Complex64 = other
                .amps
                .iter()
                .zip(&self.amps)
                .map(|(a, b)| F::widen(*a).conj() * F::widen(*b))
                .sum();
            return Ok(overlap.norm_sqr());
        }
        Ok(self.overlap_across_places(other).norm_sqr())
    }

    fn probability_one(&self, qubit: Qubit) -> f64 {
        match self.place(qubit) {
            Place::Classical(v) => f64::from(u8::from(v)),
            Place::Dense(pos) => self.probability_of_bit(pos),
        }
    }

    fn marginal(&self, qubits: &[Qubit]) -> Vec<(u128, f64)> {
        assert!(qubits.len() <= 128, "marginal over more than 128 qubits");
        let mut constant = 0u128;
        let mut from_index = Vec::new();
        for (k, &q) in qubits.iter().enumerate() {
            match self.place(q) {
                Place::Classical(true) => constant |= 1 << k,
                Place::Classical(false) => {}
                Place::Dense(p) => from_index.push((k, p)),
            }
        }
        let positions: Vec<u8> = from_index.iter().map(|&(_, p)| p).collect();
        let parallel = self.amps.len() >= self.parallel_threshold;
        let sums = crate::marginal::dense_marginal(&self.amps, &positions, parallel);
        let mut dist: Vec<(u128, f64)> = sums
            .into_iter()
            .enumerate()
            .filter(|(_, p)| *p >= F::IMPOSSIBLE_PROBABILITY)
            .map(|(packed, p)| (crate::marginal::unpack(packed, constant, &from_index), p))
            .collect();
        dist.sort_unstable_by_key(|(pattern, _)| *pattern);
        dist
    }

    fn amplitude(&self, ones: &[Qubit]) -> Complex64 {
        let mut wanted = ones.to_vec();
        wanted.sort();
        wanted.dedup();
        self.index_of(&wanted)
            .map_or(ZERO, |i| F::widen(self.amps[i]) * self.phase)
    }
}
