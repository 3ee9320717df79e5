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
    ///
    /// The keys are put in that order before any list is built, by comparing the keys
    /// themselves ([`list_order`]): sorting thousands of lists of qubits was the bulk of the
    /// cost of a game keeping its positions for repetition.
    pub fn basis_states(
        &self,
        entries: impl Iterator<Item = (u128, Complex64)>,
    ) -> Vec<(Vec<Qubit>, Complex64)> {
        let order = self.ones_order();
        self.sorted_by_lists(entries)
            .into_iter()
            .map(|(key, amp)| {
                let ones = order
                    .iter()
                    .filter(|(_, bit)| bit.is_none_or(|b| (key >> b) & 1 == 1))
                    .map(|&(q, _)| q)
                    .collect();
                (ones, amp)
            })
            .collect()
    }

    /// Every qubit that can be 1, in increasing order: a classical 1 (`None`, 1 in every state)
    /// or a quantum qubit with its key bit.
    fn ones_order(&self) -> Vec<(Qubit, Option<u8>)> {
        let mut order: Vec<(Qubit, Option<u8>)> = self
            .quantum()
            .map(|(q, bit)| (q, Some(bit)))
            .chain(self.classical_ones().map(|q| (q, None)))
            .collect();
        order.sort_unstable_by_key(|&(q, _)| q);
        order
    }

    /// `entries` (key, amplitude) in the order [`SlotTable::basis_states`] lists them (by the
    /// sorted list of qubits that are 1), without building the lists.
    pub fn sorted_by_lists(
        &self,
        entries: impl Iterator<Item = (u128, Complex64)>,
    ) -> Vec<(u128, Complex64)> {
        let quantum: Vec<(Qubit, u8)> = self
            .ones_order()
            .into_iter()
            .filter_map(|(q, bit)| bit.map(|b| (q, b)))
            .collect();
        let last_classical = self.classical_ones().last();
        // Each key with its bits renumbered: bit k is the k-th quantum qubit in increasing order.
        let mut ranked: Vec<(u128, u128, Complex64)> = entries
            .map(|(key, amp)| {
                let rank = quantum
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, b))| (key >> b) & 1 == 1)
                    .fold(0u128, |r, (k, _)| r | 1 << k);
                (rank, key, amp)
            })
            .collect();
        ranked.sort_unstable_by(|a, b| list_order(a.0, b.0, &quantum, last_classical));
        ranked.into_iter().map(|(_, key, amp)| (key, amp)).collect()
    }

    /// How a key of the table `from` reads in this table, or `None` when some qubit is
    /// classical in both with different values (the two states then share no basis state).
    pub fn key_map_from(&self, from: &SlotTable) -> Option<KeyMap> {
        let mut map = KeyMap::default();
        for index in 0..self.slots.len().max(from.slots.len()) {
            let q = Qubit(index as u32);
            match (from.get(q), self.get(q)) {
                (Slot::Classical(a), Slot::Classical(b)) if a != b => return None,
                (Slot::Classical(_), Slot::Classical(_)) => {}
                (Slot::Classical(a), Slot::Quantum(to)) => map.set |= u128::from(a) << to,
                (Slot::Quantum(bit), Slot::Classical(true)) => map.must_one |= 1 << bit,
                (Slot::Quantum(bit), Slot::Classical(false)) => map.must_zero |= 1 << bit,
                (Slot::Quantum(bit), Slot::Quantum(to)) => map.moves.push((bit, to)),
            }
        }
        Some(map)
    }
}

/// A key of one table read in another ([`SlotTable::key_map_from`]).
#[derive(Clone, Debug, Default)]
pub struct KeyMap {
    /// (bit in the source key, bit in the target key) of each qubit quantum in both.
    moves: Vec<(u8, u8)>,
    /// Target bits of qubits classical 1 in the source and quantum in the target.
    set: u128,
    /// Source bits of qubits quantum there and classical 1 in the target: they must be 1.
    must_one: u128,
    /// Source bits of qubits quantum there and classical 0 in the target: they must be 0.
    must_zero: u128,
}

impl KeyMap {
    /// The target key of the source basis state `key`, or `None` when the target state cannot
    /// hold it (a qubit the target has classical differs).
    pub fn apply(&self, key: u128) -> Option<u128> {
        if key & self.must_one != self.must_one || key & self.must_zero != 0 {
            return None;
        }
        Some(
            self.moves
                .iter()
                .fold(self.set, |k, &(from, to)| k | ((key >> from) & 1) << to),
        )
    }
}

/// The order of two basis states' sorted lists of qubits that are 1, from their ranked keys
/// (`a`, `b`: bit k is `quantum[k]`, the quantum qubits in increasing order) and the largest
/// classical 1: the order `Vec<Qubit>` comparison gives, without building the lists.
///
/// The lists agree up to the smallest qubit `d` in which the keys differ. Say `a` has it: the
/// list of `a` then holds `d` where that of `b` holds its next larger qubit, so `a` comes first,
/// unless `b` has no qubit above `d` (no quantum one, no classical one): then the list of `b`
/// ends there, a prefix of that of `a`, and comes first.
fn list_order(
    a: u128,
    b: u128,
    quantum: &[(Qubit, u8)],
    last_classical: Option<Qubit>,
) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    if a == b {
        return Ordering::Equal;
    }
    let k = (a ^ b).trailing_zeros();
    let d = quantum.get(k as usize).map(|&(q, _)| q);
    let has_above = |x: u128| {
        x.checked_shr(k + 1).is_some_and(|rest| rest != 0)
            || last_classical.is_some_and(|c| Some(c) > d)
    };
    let a_first = if (a >> k) & 1 == 1 {
        has_above(b)
    } else {
        !has_above(a)
    };
    if a_first {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

#[cfg(test)]
mod tests {
    use super::{Slot, SlotTable};
    use qc_ir::{Complex64, Qubit};

    /// The lists and their order are those of building every list and sorting: keys over four
    /// quantum qubits placed around classical ones (below, between, above them), with the key
    /// bits in another order than the qubits.
    #[test]
    fn basis_states_are_sorted_by_their_lists_of_qubits() {
        let classical_sets: [&[u32]; 4] = [&[], &[0], &[3], &[0, 3, 9]];
        for classical in classical_sets {
            let mut table = SlotTable::default();
            // Quantum qubits 1, 2, 5, 7 take bits 3, 0, 2, 1.
            for (q, bit) in [(1u32, 3u8), (2, 0), (5, 2), (7, 1)] {
                table.set(Qubit(q), Slot::Quantum(bit));
            }
            for &q in classical {
                table.set(Qubit(q), Slot::Classical(true));
            }
            let entries: Vec<(u128, Complex64)> = (0..16u128)
                .rev()
                .map(|key| (key, Complex64::new(key as f64, 0.0)))
                .collect();
            let mut want: Vec<(Vec<Qubit>, Complex64)> = entries
                .iter()
                .map(|&(key, amp)| {
                    let mut ones: Vec<Qubit> = classical.iter().map(|&q| Qubit(q)).collect();
                    for (q, bit) in [(1u32, 3u8), (2, 0), (5, 2), (7, 1)] {
                        if key >> bit & 1 == 1 {
                            ones.push(Qubit(q));
                        }
                    }
                    ones.sort();
                    (ones, amp)
                })
                .collect();
            want.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(
                table.basis_states(entries.into_iter()),
                want,
                "{classical:?}"
            );
        }
    }
}
