//! The transposition table: scores of positions already searched, keyed by
//! [`crate::game::EngineGame::position_key`] (the quantum state and the classical register), in
//! a table of fixed size (one slot per key's low bits; a deeper search replaces a shallower one).

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value.
    Exact,
    /// The value is at least this (the search was cut off by beta).
    Lower,
    /// The value is at most this (no move reached alpha).
    Upper,
}

/// One stored search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Entry {
    /// The position's key.
    pub key: u64,
    /// The depth searched.
    pub depth: u32,
    /// The score, for the side to move.
    pub score: f64,
    /// How the score bounds the value.
    pub bound: Bound,
    /// The best move's index in the position's legal move list.
    pub best: Option<u16>,
}

impl Entry {
    /// The score if it settles the window (`alpha`, `beta`) at `depth`.
    pub fn cutoff(&self, depth: u32, alpha: f64, beta: f64) -> Option<f64> {
        if self.depth < depth {
            return None;
        }
        match self.bound {
            Bound::Exact => Some(self.score),
            Bound::Lower if self.score >= beta => Some(self.score),
            Bound::Upper if self.score <= alpha => Some(self.score),
            _ => None,
        }
    }
}

/// The table.
#[derive(Debug)]
pub struct Table {
    slots: Vec<Option<Entry>>,
}

/// Default size in bytes.
pub const DEFAULT_BYTES: usize = 16 << 20;

impl Table {
    /// A table of about `bytes` (at least one slot; a power of two slots). When the allocator
    /// refuses that much (a process under a memory cap), the table takes half as many slots,
    /// and so on: a smaller table only makes the search forget sooner, where the refusal
    /// aborted the process.
    pub fn with_bytes(bytes: usize) -> Table {
        let per = std::mem::size_of::<Option<Entry>>();
        let wanted = (bytes / per).max(1);
        let mut count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        let mut slots = Vec::new();
        while count > 1 && slots.try_reserve_exact(count).is_err() {
            count /= 2;
        }
        // One slot (a few dozen bytes) is allocated like any small value.
        slots.resize(count.max(1), None);
        Table { slots }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slot (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry stored for `key`.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.index(key)].filter(|e| e.key == key)
    }

    /// Stores `entry`, unless its slot holds a deeper search of another position.
    pub fn store(&mut self, entry: Entry) {
        let index = self.index(entry.key);
        let slot = &mut self.slots[index];
        if slot.is_none_or(|old| old.key == entry.key || old.depth <= entry.depth) {
            *slot = Some(entry);
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.slots.fill(None);
    }
}

impl Default for Table {
    fn default() -> Self {
        Table::with_bytes(DEFAULT_BYTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u32, score: f64, bound: Bound) -> Entry {
        Entry {
            key,
            depth,
            score,
            bound,
            best: None,
        }
    }

    #[test]
    fn stores_probes_and_prefers_deeper() {
        let mut t = Table::with_bytes(1024);
        let n = t.slots.len() as u64;
        t.store(entry(5, 3, 1.0, Bound::Exact));
        assert_eq!(t.probe(5).map(|e| e.score), Some(1.0));
        assert_eq!(t.probe(5 + n), None);
        // A shallower search of another position in the same slot does not replace it.
        t.store(entry(5 + n, 1, 2.0, Bound::Exact));
        assert_eq!(t.probe(5).map(|e| e.score), Some(1.0));
        t.store(entry(5 + n, 4, 2.0, Bound::Exact));
        assert_eq!(t.probe(5 + n).map(|e| e.score), Some(2.0));
    }

    #[test]
    fn bounds_cut_only_outside_the_window() {
        let lower = entry(1, 2, 3.0, Bound::Lower);
        assert_eq!(lower.cutoff(2, 0.0, 2.0), Some(3.0));
        assert_eq!(lower.cutoff(2, 0.0, 4.0), None);
        assert_eq!(lower.cutoff(3, 0.0, 2.0), None);
        let upper = entry(1, 2, -1.0, Bound::Upper);
        assert_eq!(upper.cutoff(1, 0.0, 2.0), Some(-1.0));
        assert_eq!(upper.cutoff(1, -2.0, 2.0), None);
    }
}
