//! The next free column of every wire, kept so that the layout's two questions cost O(log n) for
//! n wires however many wires an instruction spans: the latest next-free column over a range of
//! wires, and setting a range of wires to one column (a segment tree with lazy assignment). A
//! plain array costs the span's length per instruction, which a program of long gates over
//! thousands of wires turns into minutes.

/// The next free column of `n` wires, all 0 at first.
pub struct NextFree {
    /// Wires.
    n: usize,
    /// Per node, the largest column of its range.
    max: Vec<usize>,
    /// Per node, a column its whole range was set to and its children do not know yet.
    pending: Vec<Option<usize>>,
}

impl NextFree {
    /// `n` wires, all free from column 0.
    pub fn new(n: usize) -> NextFree {
        let nodes = 4 * n.max(1);
        NextFree {
            n,
            max: vec![0; nodes],
            pending: vec![None; nodes],
        }
    }

    /// The latest next-free column of wires `lo..=hi`.
    pub fn latest(&mut self, lo: usize, hi: usize) -> usize {
        if self.n == 0 || lo > hi {
            return 0;
        }
        self.query(1, 0, self.n - 1, lo, hi.min(self.n - 1))
    }

    /// Sets the next free column of wires `lo..=hi` to `column`.
    pub fn set(&mut self, lo: usize, hi: usize, column: usize) {
        if self.n == 0 || lo > hi {
            return;
        }
        self.assign(1, 0, self.n - 1, lo, hi.min(self.n - 1), column);
    }

    /// Sets the next free column of every wire to `column`.
    pub fn set_all(&mut self, column: usize) {
        if self.n > 0 {
            self.max[1] = column;
            self.pending[1] = Some(column);
        }
    }

    /// Hands a pending assignment of `node` down to its two children.
    fn push_down(&mut self, node: usize) {
        if let Some(column) = self.pending[node].take() {
            for child in [2 * node, 2 * node + 1] {
                self.max[child] = column;
                self.pending[child] = Some(column);
            }
        }
    }

    // The recursion goes one level down per call and stops at a single wire: at most
    // log2(n) + 1 levels.
    fn query(&mut self, node: usize, from: usize, to: usize, lo: usize, hi: usize) -> usize {
        if hi < from || to < lo {
            return 0;
        }
        if lo <= from && to <= hi {
            return self.max[node];
        }
        self.push_down(node);
        let mid = (from + to) / 2;
        let left = self.query(2 * node, from, mid, lo, hi);
        let right = self.query(2 * node + 1, mid + 1, to, lo, hi);
        left.max(right)
    }

    fn assign(&mut self, node: usize, from: usize, to: usize, lo: usize, hi: usize, column: usize) {
        if hi < from || to < lo {
            return;
        }
        if lo <= from && to <= hi {
            self.max[node] = column;
            self.pending[node] = Some(column);
            return;
        }
        self.push_down(node);
        let mid = (from + to) / 2;
        self.assign(2 * node, from, mid, lo, hi, column);
        self.assign(2 * node + 1, mid + 1, to, lo, hi, column);
        self.max[node] = self.max[2 * node].max(self.max[2 * node + 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random ranges against a plain array, the obvious (slow) way.
    #[test]
    fn agrees_with_a_plain_array() {
        let mut seed = 7u64;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % bound
        };
        for n in [1usize, 2, 3, 7, 16, 33] {
            let mut tree = NextFree::new(n);
            let mut plain = vec![0usize; n];
            for step in 0..500 {
                let (a, b) = (next(n), next(n));
                let (lo, hi) = (a.min(b), a.max(b));
                let want = plain[lo..=hi].iter().copied().max().unwrap_or(0);
                assert_eq!(tree.latest(lo, hi), want, "n {n}, step {step}");
                if next(20) == 0 {
                    let column = want + next(3);
                    tree.set_all(column);
                    plain.fill(column);
                } else {
                    tree.set(lo, hi, want + 1);
                    plain[lo..=hi].fill(want + 1);
                }
            }
        }
    }
}
