//! Gate tables shared by the simulators: a gate with its matrix in a fixed-size array, and, for
//! monomial gates, the permutation and phases.

use qc_ir::{Complex64, Gate};

/// A gate's matrix (at most 2 targets, so at most 4x4), row-major, first target = most
/// significant bit of the row/column index.
#[derive(Copy, Clone, Debug)]
pub struct SmallGate {
    /// Number of targets (1 or 2).
    pub k: usize,
    /// Row-major entries; only the first `(1<<k)^2` are used.
    pub m: [Complex64; 16],
}

impl SmallGate {
    /// The table for `gate`.
    pub fn new(gate: Gate) -> SmallGate {
        let matrix = gate.matrix();
        let dim = matrix.dim();
        let mut m = [Complex64::new(0.0, 0.0); 16];
        for r in 0..dim {
            for c in 0..dim {
                m[r * dim + c] = matrix.get(r, c);
            }
        }
        SmallGate {
            k: gate.num_targets(),
            m,
        }
    }

    /// Matrix dimension.
    pub fn dim(&self) -> usize {
        1 << self.k
    }

    /// Entry `(row, col)`.
    #[inline]
    pub fn get(&self, row: usize, col: usize) -> Complex64 {
        self.m[row * self.dim() + col]
    }

    /// For a monomial gate: for each column, the row of its nonzero entry and the entry.
    pub fn monomial(&self) -> Option<([usize; 4], [Complex64; 4])> {
        let mut rows = [0usize; 4];
        let mut factors = [Complex64::new(0.0, 0.0); 4];
        // No allocation: this runs once per gate, and on small states per-gate set-up counts.
        for c in 0..self.dim() {
            let mut nonzero =
                (0..self.dim()).filter(|&r| self.get(r, c) != Complex64::new(0.0, 0.0));
            let (Some(r), None) = (nonzero.next(), nonzero.next()) else {
                return None;
            };
            rows[c] = r;
            factors[c] = self.get(r, c);
        }
        Some((rows, factors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monomial_tables_match_the_gate_flags() {
        for g in Gate::examples() {
            let t = SmallGate::new(g);
            assert_eq!(t.monomial().is_some(), g.is_monomial(), "{g}");
        }
        let (rows, f) = SmallGate::new(Gate::ISwap).monomial().unwrap();
        assert_eq!(rows, [0, 2, 1, 3]);
        assert_eq!(f[1], Complex64::new(0.0, 1.0));
    }
}
