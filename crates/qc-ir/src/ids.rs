//! Identifiers: qubits, classical bits and grid sites.
//!
//! `Qubit` and `Clbit` are plain indices into a [`crate::Circuit`]'s tables; they print as `q3` / `c1`.
//! `Site` names a long-lived qubit by its place on an 8 x 8 grid (`a1` = 0, ..., `h8` = 63).

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

/// A site of the 8 x 8 grid on which a circuit may name its long-lived qubits, as Cirq names
/// `GridQubit`s: column `a`..`h`, row `1`..`8`, printed `e4`, numbered row-major (a1 = 0,
/// b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63). The IR gives a site no meaning beyond its
/// place; a front end does (the chess rulesets give every board square its site).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Site(u8);

impl Site {
    /// All 64 sites in index order.
    pub const ALL: [Site; 64] = {
        let mut all = [Site(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Site(i as u8);
            i += 1;
        }
        all
    };

    /// The site with the given index (0..64), or `None`.
    pub const fn from_index(index: usize) -> Option<Site> {
        if index < 64 {
            Some(Site(index as u8))
        } else {
            None
        }
    }

    /// The site in `column` (0 = a .. 7 = h) and `row` (0 = row 1 .. 7 = row 8), or `None` if
    /// off the grid.
    pub const fn from_coords(column: i32, row: i32) -> Option<Site> {
        if column >= 0 && column < 8 && row >= 0 && row < 8 {
            Some(Site((row * 8 + column) as u8))
        } else {
            None
        }
    }

    /// Index 0..64.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0 (a) .. 7 (h).
    pub const fn column(self) -> i32 {
        (self.0 % 8) as i32
    }

    /// Row 0 (row 1) .. 7 (row 8).
    pub const fn row(self) -> i32 {
        (self.0 / 8) as i32
    }

    /// Parses `a1`..`h8` (lowercase column letter, row digit).
    pub fn parse(text: &str) -> Option<Site> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let column = bytes[0].wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        if column < 8 && row < 8 {
            Some(Site(row * 8 + column))
        } else {
            None
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = (b'a' + self.0 % 8) as char;
        let row = (b'1' + self.0 / 8) as char;
        write!(f, "{column}{row}")
    }
}

impl TryFrom<String> for Site {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        // The word users of the chess front ends know; a site and a square are spelled alike.
        Site::parse(&value).ok_or_else(|| format!("`{value}` is not a square (a1..h8)"))
    }
}

impl From<Site> for String {
    fn from(value: Site) -> String {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_numbering_is_row_major_from_a1() {
        assert_eq!(Site::parse("a1").unwrap().index(), 0);
        assert_eq!(Site::parse("h1").unwrap().index(), 7);
        assert_eq!(Site::parse("a2").unwrap().index(), 8);
        assert_eq!(Site::parse("h8").unwrap().index(), 63);
        for site in Site::ALL {
            assert_eq!(Site::parse(&site.to_string()), Some(site));
        }
        assert_eq!(Site::parse("i1"), None);
        assert_eq!(Site::parse("a9"), None);
        assert_eq!(Site::parse("a"), None);
    }
}
