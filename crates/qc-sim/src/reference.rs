//! The reference sparse simulator: a `BTreeMap` from basis bitstring to amplitude.
//!
//! Exact to rounding: every gate is applied as `out[row] += M[row][col] * amp` over the
//! gate's matrix from the qc-ir table, amplitudes with magnitude below
//! [`qc_ir::AMPLITUDE_EPSILON`] (1e-12) are pruned after each step, and qubits that become constant
//! leave the bitstrings (see [`crate::slots`]). Deterministic: ordered maps, no threads.

use crate::memory::MemoryLimit;
use crate::slots::{Slot, SlotTable};
use qc_ir::{
    Backend, BackendError, Complex64, Control, Gate, Matrix, MeasureChoice, Qubit,
    AMPLITUDE_EPSILON,
};
use std::collections::BTreeMap;

/// The reference sparse simulator. Starts in |0...0>.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceSparse {
    slots: SlotTable,
    state: BTreeMap<u128, Complex64>,
    limit: MemoryLimit,
}

/// Bytes one basis state costs in the map, for the memory limit and the undo budget: key and
/// amplitude, and about as much again in B-tree node overhead.
const BYTES_PER_STATE: u128 = 2 * (size_of::<u128>() + size_of::<Complex64>()) as u128;

impl Default for ReferenceSparse {
    fn default() -> Self {
        ReferenceSparse::new()
    }
}

impl ReferenceSparse {
    /// The all-zero state, with the default memory limit.
    pub fn new() -> ReferenceSparse {
        ReferenceSparse::with_limit(MemoryLimit::default())
    }

    /// The all-zero state with the given memory limit: a gate whose result (with the state it
    /// replaces) would need more is refused with [`BackendError::CapacityExceeded`].
    pub fn with_limit(limit: MemoryLimit) -> ReferenceSparse {
        let mut state = BTreeMap::new();
        state.insert(0u128, Complex64::new(1.0, 0.0));
        ReferenceSparse {
            slots: SlotTable::default(),
            state,
            limit,
        }
    }

    /// Errors when `new_states` more basis states, next to the current ones, are over the limit
    /// (both live while a gate builds its result).
    fn check_room(&self, new_states: usize) -> Result<(), BackendError> {
        let states = (self.state.len() as u128).saturating_add(new_states as u128);
        self.limit
            .check("reference state", states.saturating_mul(BYTES_PER_STATE))
    }

    /// Number of qubits currently in superposition (holding a bit position).
    pub fn quantum_qubits(&self) -> usize {
        self.slots.quantum().count()
    }

    fn prune(&mut self) {
        self.state.retain(|_, a| a.norm() >= AMPLITUDE_EPSILON);
    }

    /// Makes every listed quantum qubit classical if it is constant over the support.
    fn demote_constant(&mut self, qubits: &[Qubit]) {
        for &q in qubits {
            if let Slot::Quantum(bit) = self.slots.get(q) {
                let mask = 1u128 << bit;
                let mut values = self.state.keys().map(|k| k & mask != 0);
                let Some(first) = values.next() else { continue };
                if values.all(|v| v == first) {
                    if first {
                        self.state = std::mem::take(&mut self.state)
                            .into_iter()
                            .map(|(k, a)| (k & !mask, a))
                            .collect();
                    }
                    self.slots.demote(q, first);
                }
            }
        }
    }

    fn promote(&mut self, qubit: Qubit) -> Result<u8, BackendError> {
        let (bit, was) = self.slots.promote(qubit)?;
        if was == Some(true) {
            let mask = 1u128 << bit;
            self.state = std::mem::take(&mut self.state)
                .into_iter()
                .map(|(k, a)| (k | mask, a))
                .collect();
        }
        Ok(bit)
    }

    fn probability_of_bit(&self, bit: u8) -> f64 {
        let mask = 1u128 << bit;
        self.state
            .iter()
            .filter(|(k, _)| *k & mask != 0)
            .map(|(_, a)| a.norm_sqr())
            .sum()
    }

    /// The state as a map from the sorted list of qubits that are 1 to the amplitude.
    fn canonical(&self) -> BTreeMap<Vec<Qubit>, Complex64> {
        self.basis_states().into_iter().collect()
    }
}

impl Backend for ReferenceSparse {
    type Snapshot = ReferenceSparse;

    fn name(&self) -> &'static str {
        "reference"
    }

    fn apply_gate(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError> {
        self.apply_matrix(&gate.matrix(), targets, controls)
    }

    fn apply_matrix(
        &mut self,
        matrix: &Matrix,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError> {
        qc_ir::backend::check_matrix_size(matrix, targets.len())?;
        // Classical controls decide at once; quantum ones become a (mask, value) test.
        let mut mask = 0u128;
        let mut value = 0u128;
        for c in controls {
            match self.slots.get(c.qubit) {
                Slot::Classical(v) => {
                    if v != c.on.value() {
                        return Ok(());
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
        let mut bits = Vec::with_capacity(targets.len());
        for &t in targets {
            bits.push(self.promote(t)?);
        }
        let k = bits.len();
        // Each basis state becomes at most `fanout` (the most nonzeros in a column of the
        // matrix): refuse before building a state that would not fit.
        let dim = 1usize << k;
        let fanout = (0..dim)
            .map(|col| {
                (0..dim)
                    .filter(|&row| matrix.get(row, col) != Complex64::new(0.0, 0.0))
                    .count()
            })
            .max()
            .unwrap_or(1);
        self.check_room(self.state.len().saturating_mul(fanout))?;
        let mut out: BTreeMap<u128, Complex64> = BTreeMap::new();
        for (&key, &amp) in &self.state {
            if key & mask != value {
                *out.entry(key).or_default() += amp;
                continue;
            }
            let mut col = 0usize;
            for &b in &bits {
                col = (col << 1) | ((key >> b) & 1) as usize;
            }
            for row in 0..(1usize << k) {
                let factor = matrix.get(row, col);
                if factor == Complex64::new(0.0, 0.0) {
                    continue;
                }
                let mut new_key = key;
                for (j, &b) in bits.iter().enumerate() {
                    let bit = ((row >> (k - 1 - j)) & 1) as u128;
                    new_key = (new_key & !(1u128 << b)) | (bit << b);
                }
                *out.entry(new_key).or_default() += factor * amp;
            }
        }
        self.state = out;
        self.prune();
        self.demote_constant(targets);
        Ok(())
    }

    fn measure(&mut self, qubit: Qubit, choice: MeasureChoice) -> Result<bool, BackendError> {
        match self.slots.get(qubit) {
            Slot::Classical(v) => choice.resolve_classical(qubit, v),
            Slot::Quantum(bit) => {
                let mask = 1u128 << bit;
                let (p_zero, p_one) = self.state.iter().fold((0.0, 0.0), |(z, o), (k, a)| {
                    if k & mask != 0 {
                        (z, o + a.norm_sqr())
                    } else {
                        (z + a.norm_sqr(), o)
                    }
                });
                let outcome = choice.resolve(qubit, p_zero, p_one)?;
                let p = if outcome { p_one } else { p_zero };
                let norm = p.sqrt();
                self.state.retain(|k, _| (k & mask != 0) == outcome);
                for a in self.state.values_mut() {
                    *a /= norm;
                }
                self.prune();
                let quantum: Vec<Qubit> = self.slots.quantum().map(|(q, _)| q).collect();
                self.demote_constant(&quantum);
                Ok(outcome)
            }
        }
    }

    fn basis_states(&self) -> Vec<(Vec<Qubit>, Complex64)> {
        self.slots
            .basis_states(self.state.iter().map(|(&k, &a)| (k, a)))
    }

    fn state_size(&self) -> usize {
        self.state.len()
    }

    fn memory_limit_bytes(&self) -> Option<u128> {
        Some(self.limit.limit_bytes())
    }

    fn state_bytes(&self) -> usize {
        Self::snapshot_bytes(self)
    }

    fn snapshot(&self) -> Result<ReferenceSparse, BackendError> {
        // A copy of the map as large again as the state (the oracle keeps no account of its
        // snapshots: it serves small states in tests).
        self.limit.check(
            "a snapshot of the reference state",
            (2 * self.state.len() as u128).saturating_mul(BYTES_PER_STATE),
        )?;
        Ok(self.clone())
    }

    fn restore(&mut self, snapshot: &ReferenceSparse) -> Result<(), BackendError> {
        self.limit.check(
            "the reference state restored from a snapshot",
            (self.state.len() as u128 + snapshot.state.len() as u128)
                .saturating_mul(BYTES_PER_STATE),
        )?;
        *self = snapshot.clone();
        Ok(())
    }

    fn restore_owned(&mut self, snapshot: ReferenceSparse) {
        *self = snapshot;
    }

    fn snapshot_bytes(snapshot: &ReferenceSparse) -> usize {
        snapshot.state.len() * BYTES_PER_STATE as usize
    }

    fn fidelity(&self, snapshot: &ReferenceSparse) -> Result<f64, BackendError> {
        // Both states as maps of lists of qubits (a few times the state each).
        self.limit.check(
            "the reference states compared as lists",
            (4 * (self.state.len() + snapshot.state.len()) as u128).saturating_mul(BYTES_PER_STATE),
        )?;
        let current = self.canonical();
        let overlap: Complex64 = snapshot
            .basis_states()
            .into_iter()
            .filter_map(|(ones, a)| current.get(&ones).map(|b| a.conj() * b))
            .sum();
        Ok(overlap.norm_sqr())
    }

    fn probability_one(&self, qubit: Qubit) -> f64 {
        match self.slots.get(qubit) {
            Slot::Classical(v) => f64::from(u8::from(v)),
            Slot::Quantum(bit) => self.probability_of_bit(bit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_qubits_leave_the_bitstrings() {
        let mut sim = ReferenceSparse::new();
        sim.apply_gate(Gate::X, &[Qubit(5)], &[]).unwrap();
        assert_eq!(sim.quantum_qubits(), 0, "a classical flip needs no slot");
        assert_eq!(sim.probability_one(Qubit(5)), 1.0);
        sim.apply_gate(Gate::H, &[Qubit(0)], &[]).unwrap();
        assert_eq!(sim.quantum_qubits(), 1);
        sim.apply_gate(Gate::H, &[Qubit(0)], &[]).unwrap();
        assert_eq!(sim.quantum_qubits(), 0, "H H = I returns q0 to a constant");
        assert_eq!(sim.state_size(), 1);
    }

    #[test]
    fn forcing_an_impossible_outcome_is_an_error_and_changes_nothing() {
        let mut sim = ReferenceSparse::new();
        sim.apply_gate(Gate::X, &[Qubit(0)], &[]).unwrap();
        let before = sim.clone();
        let err = sim
            .measure(Qubit(0), MeasureChoice::Forced(false))
            .unwrap_err();
        assert!(matches!(
            err,
            BackendError::ImpossibleOutcome { outcome: false, .. }
        ));
        assert_eq!(sim, before);
    }

    #[test]
    fn freeing_a_dirty_ancilla_is_an_error() {
        let mut sim = ReferenceSparse::new();
        sim.apply_gate(Gate::H, &[Qubit(0)], &[]).unwrap();
        sim.apply_gate(Gate::X, &[Qubit(1)], &[Control::one(Qubit(0))])
            .unwrap();
        assert!(matches!(
            sim.free(Qubit(1)),
            Err(BackendError::DirtyAncilla { .. })
        ));
        sim.apply_gate(Gate::X, &[Qubit(1)], &[Control::one(Qubit(0))])
            .unwrap();
        assert_eq!(sim.free(Qubit(1)), Ok(()));
    }

    #[test]
    fn many_ancillas_over_time_fit_because_constant_ones_leave() {
        let mut sim = ReferenceSparse::new();
        sim.apply_gate(Gate::H, &[Qubit(0)], &[]).unwrap();
        for k in 1..400u32 {
            // Copy, then uncompute: each ancilla is briefly entangled, then constant again.
            sim.apply_gate(Gate::X, &[Qubit(k)], &[Control::one(Qubit(0))])
                .unwrap();
            sim.apply_gate(Gate::X, &[Qubit(k)], &[Control::one(Qubit(0))])
                .unwrap();
        }
        assert_eq!(sim.quantum_qubits(), 1);
        assert_eq!(sim.state_size(), 2);
    }
}
