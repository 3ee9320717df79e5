//! A board square: a file and a rank, numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
//!
//! The chess rulesets keep a square's occupancy on one qubit; the circuit names that qubit by
//! the grid site spelled like the square (`qc_ir::Site`). [`Square::site`] and `From<Site>` are
//! the one crossing between the two, so everything about the board (files, ranks, pieces)
//! stays in this crate and the IR knows only qubits on a grid.

use qc_ir::Site;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A board square (a1..h8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Square(Site);

impl Square {
    /// All 64 squares in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(Site::ALL[0]); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(Site::ALL[i]);
            i += 1;
        }
        all
    };

    /// The square with the given index (0..64), or `None`.
    pub const fn from_index(index: usize) -> Option<Square> {
        match Site::from_index(index) {
            Some(site) => Some(Square(site)),
            None => None,
        }
    }

    /// The square on `file` (0 = a .. 7 = h) and `rank` (0 = rank 1 .. 7 = rank 8), or `None`
    /// if off the board.
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        match Site::from_coords(file, rank) {
            Some(site) => Some(Square(site)),
            None => None,
        }
    }

    /// Index 0..64.
    pub const fn index(self) -> usize {
        self.0.index()
    }

    /// File 0 (a) .. 7 (h).
    pub const fn file(self) -> i32 {
        self.0.column()
    }

    /// Rank 0 (rank 1) .. 7 (rank 8).
    pub const fn rank(self) -> i32 {
        self.0.row()
    }

    /// Parses `a1`..`h8` (lowercase file letter, rank digit).
    pub fn parse(text: &str) -> Option<Square> {
        Site::parse(text).map(Square)
    }

    /// The grid site that names this square's qubit in a circuit.
    pub const fn site(self) -> Site {
        self.0
    }
}

impl From<Site> for Square {
    fn from(site: Site) -> Square {
        Square(site)
    }
}

impl From<Square> for Site {
    fn from(square: Square) -> Site {
        square.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_numbering_matches_the_spec() {
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h1").unwrap().index(), 7);
        assert_eq!(Square::parse("a2").unwrap().index(), 8);
        assert_eq!(Square::parse("h8").unwrap().index(), 63);
        let e4 = Square::parse("e4").unwrap();
        assert_eq!((e4.file(), e4.rank()), (4, 3));
        assert_eq!(Square::from_coords(4, 3), Some(e4));
        assert_eq!(Square::from_coords(8, 0), None);
        for (i, sq) in Square::ALL.into_iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square::from(sq.site()), sq);
        }
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
    }

    #[test]
    fn a_square_reads_and_writes_as_its_name_in_json() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(serde_json::to_string(&e4).unwrap(), "\"e4\"");
        assert_eq!(serde_json::from_str::<Square>("\"e4\"").unwrap(), e4);
        assert!(serde_json::from_str::<Square>("\"z9\"").is_err());
    }
}
