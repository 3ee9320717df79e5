//! Which circuit qubits are in the state's bitstrings, and which are classical.
//!
//! A qubit whose value is the same in every basis state is a product factor: it is kept as a
//! classical bit with that value and takes no room in the bitstrings. A qubit joins the bitstrings
//! (gets a *slot*, a bit position in the `u128` key) when a gate targets it, and leaves when it is
//! constant again. This is what lets a long game use any number of ancillas.

use qc_ir::{BackendError, Complex64, Qubit};

/// Largest number of qubits in superposition at once.
pub const MAX_SLOTS: usize = 128;

/// Where a qubit lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Same value in every basis state.
    Classical(bool),
    /// Bit position in the key.
    Quantum(u8),
}

/// The qubit -> slot table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotTable {
    slots: Vec<Slot>,
    used: u128,
}

impl SlotTable {
    /// Heap bytes the table holds (one slot per qubit it has seen).
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
    }

    /// Where `qubit` lives (untouched qubits are classical 0).
    pub fn get(&self, qubit: Qubit) -> Slot {
        self.slots
            .get(qubit.index())
            .copied()
            .unwrap_or(Slot::Classical(false))
    }

    /// Sets where `qubit` lives.
    fn set(&mut self, qubit: Qubit, slot: Slot) {
        if self.slots.len() <= qubit.index() {
            self.slots.resize(qubit.index() + 1, Slot::Classical(false));
        }
        self.slots[qubit.index()] = slot;
    }

    /// Gives `qubit` a bit position; returns `(bit, classical value it had)`, or the bit it
    /// already has with `None`.
    pub fn promote(&mut self, qubit: Qubit) -> Result<(u8, Option<bool>), BackendError> {
        match self.get(qubit) {
            Slot::Quantum(bit) => Ok((bit, None)),
            Slot::Classical(value) => {
                let free = !self.used;
                if free == 0 {
                    return Err(BackendError::TooManyQubits {
                        needed: MAX_SLOTS + 1,
                        limit: MAX_SLOTS,
                    });
                }
                let bit = free.trailing_zeros() as u8;
                self.used |= 1 << bit;
                self.set(qubit, Slot::Quantum(bit));
                Ok((bit, Some(value)))
            }
        }
    }

    /// Makes `qubit` classical with `value`, releasing its bit position.
    pub fn demote(&mut self, qubit: Qubit, value: bool) {
        if let Slot::Quantum(bit) = self.get(qubit) {
            self.used &= !(1u128 << bit);
        }
        self.set(qubit, Slot::Classical(value));
    }

    /// The bit positions in use.
    pub fn used_mask(&self) -> u128 {
        self.used
    }

    /// Every qubit that currently has a bit position, with it.
    pub fn quantum(&self) -> impl Iterator<Item = (Qubit, u8)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| match s {
            Slot::Quantum(bit) => Some((Qubit(i as u32), *bit)),
            Slot::Classical(_) => None,
        })
    }

    /// Every qubit that is classical 1.
    pub fn classical_ones(&self) -> impl Iterator<Item = Qubit> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| (*s == Slot::Classical(true)).then_some(Qubit(i as u32)))
    }

    /// The basis states of `entries` (key, amplitude) as the sorted list of qubits that are 1
    /// (classical ones included) with the amplitude, sorted by that list: the form
    /// `Backend::basis_states` returns.
    pub fn basis_states(
        &self,
        entries: impl Iterator<Item = (u128, Complex64)>,
    ) -> Vec<(Vec<Qubit>, Complex64)> {
        let quantum: Vec<(Qubit, u8)> = self.quantum().collect();
        let classical: Vec<Qubit> = self.classical_ones().collect();
        let mut result: Vec<(Vec<Qubit>, Complex64)> = entries
            .map(|(key, amp)| {
                let mut ones = classical.clone();
                ones.extend(
                    quantum
                        .iter()
                        .filter(|(_, b)| (key >> b) & 1 == 1)
                        .map(|(q, _)| *q),
                );
                ones.sort();
                (ones, amp)
            })
            .collect();
        result.sort_by(|a, b| a.0.cmp(&b.0));
        result
    }
}
