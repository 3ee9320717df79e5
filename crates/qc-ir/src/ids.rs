//! Identifiers: qubits, classical bits and board squares.
//!
//! `Qubit` and `Clbit` are plain indices into a [`crate::Circuit`]'s tables; they print as `q3` / `c1`.
//! `Square` is a board square with the project-wide numbering a1 = 0, b1 = 1, ..., h8 = 63.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id {
    ($(#[$meta:meta])* $name:ident, $prefix:literal) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as a `usize`, for indexing tables.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id!(
    /// A qubit of a circuit (index into its qubit table).
    Qubit,
    "q"
);
id!(
    /// A classical bit of a circuit; each is written by exactly one measurement.
    Clbit,
    "c"
);

/// A board square, numbered rank-major: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Square(u8);

impl Square {
    /// All 64 squares in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with the given index (0..64), or `None`.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a .. 7 = h) and `rank` (0 = rank 1 .. 7 = rank 8), or `None` if off the board.
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// Index 0..64.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0 (a) .. 7 (h).
    pub const fn file(self) -> i32 {
        (self.0 % 8) as i32
    }

    /// Rank 0 (rank 1) .. 7 (rank 8).
    pub const fn rank(self) -> i32 {
        (self.0 / 8) as i32
    }

    /// Parses `a1`..`h8` (lowercase file letter, rank digit).
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'a' + self.0 % 8) as char;
        let rank = (b'1' + self.0 / 8) as char;
        write!(f, "{file}{rank}")
    }
}

impl TryFrom<String> for Square {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Square::parse(&value).ok_or_else(|| format!("`{value}` is not a square (a1..h8)"))
    }
}

impl From<Square> for String {
    fn from(value: Square) -> String {
        value.to_string()
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
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }
}
