//! Two different squares, the pair Bell values are computed for ([`super::QuantumGame::bell`]):
//! the check that they differ is made once, where the pair is formed, by every front end alike.

use crate::chess::Square;

/// Two different squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquarePair {
    first: Square,
    second: Square,
}

/// One square named twice where a pair is needed: a pair of qubits needs two squares (the
/// numbers for `a3 a3` would describe no state).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{square} {square}` names one square twice; Bell values are for two different squares")]
pub struct SameSquare {
    /// The square named twice.
    pub square: Square,
}

impl SquarePair {
    /// The pair (`first`, `second`), or [`SameSquare`] when they are one square.
    pub fn new(first: Square, second: Square) -> Result<SquarePair, SameSquare> {
        if first == second {
            return Err(SameSquare { square: first });
        }
        Ok(SquarePair { first, second })
    }

    /// The first square.
    pub fn first(self) -> Square {
        self.first
    }

    /// The second square.
    pub fn second(self) -> Square {
        self.second
    }
}

#[cfg(test)]
mod tests {
    use super::{SameSquare, SquarePair};
    use crate::chess::Square;

    #[test]
    fn a_pair_is_two_different_squares() {
        let a3 = Square::parse("a3").expect("a3");
        let c3 = Square::parse("c3").expect("c3");
        let pair = SquarePair::new(a3, c3).expect("two squares");
        assert_eq!((pair.first(), pair.second()), (a3, c3));
        let err = SquarePair::new(a3, a3).expect_err("one square twice");
        assert_eq!(err, SameSquare { square: a3 });
        assert!(err.to_string().contains("`a3 a3`"), "{err}");
    }
}
