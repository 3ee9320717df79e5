//! The undo history of the [`crate::ledger::Ledger`] both rulesets keep their games in: one entry
//! per move, oldest first, within a memory budget.
//!
//! An entry holds what a move may change, saved before it: the state's snapshot, the small
//! classical state, and only *lengths* of what grows with the game (the circuit, through a
//! [`qc_ir::BuilderMark`], and the classical record), since a move only appends to those and undo
//! cuts off what it appended. So each entry costs the same whatever the game's length, the
//! history is linear in the game, and the budget counts every byte of it (the entry's own size,
//! the snapshot's bytes as the backend reports them, and the heap the classical part holds).
//! When the history would exceed its budget, the oldest entries are dropped: the latest moves
//! stay undoable.

use std::collections::{BTreeMap, VecDeque};

/// By default the undo history may hold a third of the backend's memory limit (the state and
/// its history then stay within the memory the simulator may use).
pub const UNDO_BUDGET_DIVISOR: u128 = 3;

/// Entries saved before each move, within a budget of bytes.
#[derive(Debug)]
pub(crate) struct UndoHistory<T> {
    /// The entries, oldest first, each with the bytes it was counted for.
    entries: VecDeque<(T, u128)>,
    /// The sum of the entries' bytes (without the list's spare room).
    bytes: u128,
    /// The most bytes the entries may hold; `None`: no limit.
    budget: Option<u128>,
}

impl<T> UndoHistory<T> {
    /// An empty history with the default budget for a backend whose memory limit is
    /// `memory_limit` (no limit: no budget).
    pub(crate) fn for_memory_limit(memory_limit: Option<u128>) -> UndoHistory<T> {
        UndoHistory {
            entries: VecDeque::new(),
            bytes: 0,
            budget: memory_limit.map(|limit| limit / UNDO_BUDGET_DIVISOR),
        }
    }

    /// Keeps the entry saved before the move just played, counted as `heap_bytes` besides its
    /// own size, then drops the oldest entries beyond the budget.
    pub(crate) fn push(&mut self, entry: T, heap_bytes: usize) {
        let bytes = (std::mem::size_of::<(T, u128)>() + heap_bytes) as u128;
        self.bytes += bytes;
        self.entries.push_back((entry, bytes));
        self.trim();
    }

    /// Takes the newest entry, if one is left.
    pub(crate) fn pop(&mut self) -> Option<T> {
        let (entry, bytes) = self.entries.pop_back()?;
        self.bytes -= bytes;
        Some(entry)
    }

    /// How many moves can be undone.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The bytes the history holds, as counted against the budget: its entries, and the room
    /// its list keeps for more.
    pub(crate) fn bytes(&self) -> u128 {
        let spare = self.entries.capacity() - self.entries.len();
        self.bytes + (spare * std::mem::size_of::<(T, u128)>()) as u128
    }

    /// The budget in bytes (`None`: no limit).
    pub(crate) fn budget(&self) -> Option<u128> {
        self.budget
    }

    /// Sets the budget and drops the oldest entries beyond it.
    pub(crate) fn set_budget(&mut self, budget: Option<u128>) {
        self.budget = budget;
        self.trim();
    }

    /// Drops the oldest entries until the history fits its budget (possibly all of them: the
    /// newest alone may be too big).
    fn trim(&mut self) {
        let Some(budget) = self.budget else {
            return;
        };
        while self.bytes() > budget {
            let Some((_, bytes)) = self.entries.pop_front() else {
                break;
            };
            self.bytes -= bytes;
        }
        // A long game's history can shrink a lot under a new budget: give the memory back.
        if self.entries.capacity() > 2 * self.entries.len() + 16 {
            self.entries.shrink_to_fit();
        }
    }
}

/// A bound on the heap bytes of a `BTreeMap`'s nodes: a node is at least half full, plus one
/// node's worth of slack for a small map (node headers and edges are about that much again).
pub(crate) fn btree_map_bytes<K, V>(map: &BTreeMap<K, V>) -> usize {
    let entry = std::mem::size_of::<K>() + std::mem::size_of::<V>();
    (2 * map.len() + 12) * entry + 2 * 96
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_entries_go_first_and_bytes_add_up() {
        let entry = std::mem::size_of::<(u8, u128)>() as u128;
        let mut h = UndoHistory::for_memory_limit(None);
        for value in 1u8..=3 {
            h.push(value, 1000);
        }
        let spare = (h.entries.capacity() - 3) as u128 * entry;
        assert_eq!((h.len(), h.bytes()), (3, 3 * (entry + 1000) + spare));
        // Room for two entries (and the list's spare room): the oldest goes.
        h.set_budget(Some(h.bytes() - 500));
        assert_eq!(h.len(), 2, "the oldest entry was dropped");
        assert_eq!(h.budget(), h.budget().filter(|b| h.bytes() <= *b));
        assert_eq!(h.pop(), Some(3));
        assert_eq!(h.pop(), Some(2));
        assert_eq!(h.pop(), None);
        assert_eq!(h.bytes(), h.entries.capacity() as u128 * entry);
        let limited: UndoHistory<u8> = UndoHistory::for_memory_limit(Some(3000));
        assert_eq!(limited.budget(), Some(1000));
    }
}
