//! The squares a player clicks to make a move, read from the ruleset's own move type: a move
//! from one square to another is two clicks, a split the source and both targets, a merge both
//! sources and the target. The page matches the squares clicked against these lists, so it
//! knows no notation.

use qc_rules::niels::{NielsMove, RolledMove};
use qc_rules::Square;
use qc_rules::{MoveShape, QcanMove};

/// A move whose squares a player clicks.
pub trait Clicks {
    /// The squares in click order (a square may come twice: Niel's `c6^c6e5` stays on c6).
    fn clicks(&self) -> Vec<Square>;
}

impl Clicks for QcanMove {
    fn clicks(&self) -> Vec<Square> {
        match self.shape {
            MoveShape::Standard { source, target } => vec![source, target],
            MoveShape::Split {
                source,
                target1,
                target2,
            } => vec![source, target1, target2],
            MoveShape::Merge {
                source1,
                source2,
                target,
            } => vec![source1, source2, target],
            MoveShape::Null => Vec::new(),
        }
    }
}

impl Clicks for RolledMove {
    fn clicks(&self) -> Vec<Square> {
        match self.mv {
            NielsMove::Step { from, to, .. } | NielsMove::Tunnel { from, to } => vec![from, to],
            NielsMove::Superpose {
                from, red, blue, ..
            } => vec![from, red, blue],
            NielsMove::Entangle {
                from,
                red,
                blue,
                target,
                ..
            } => vec![from, red, blue, target],
            NielsMove::Invert { square }
            | NielsMove::ZMove { square }
            | NielsMove::Hadamard { square } => vec![square],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cantwell(text: &str) -> String {
        let mv: QcanMove = text.parse().unwrap();
        names(&mv.clicks())
    }

    fn niels(text: &str) -> String {
        let mv: RolledMove = text.parse().unwrap();
        names(&mv.clicks())
    }

    fn names(squares: &[Square]) -> String {
        squares
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn every_shape_is_clicked_source_first() {
        assert_eq!(cantwell("b1c3"), "b1 c3");
        assert_eq!(cantwell("Nb1^a3c3"), "b1 a3 c3");
        assert_eq!(cantwell("a3c3^b1"), "a3 c3 b1");
        assert_eq!(cantwell("e7e8Q"), "e7 e8");
        assert_eq!(niels("e2e4"), "e2 e4");
        assert_eq!(niels("c6^c6e5:op"), "c6 c6 e5");
        assert_eq!(niels("f6&f6d5@e4"), "f6 f6 d5 e4");
        assert_eq!(niels("f5xe6[e6]"), "f5 e6");
        assert_eq!(niels("~d4"), "d4");
        assert_eq!(niels("e1*e5"), "e1 e5");
    }
}
