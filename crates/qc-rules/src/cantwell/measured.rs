//! What a move's measurement asked and what its outcome meant, in words a player reads: "the
//! white knight was on b1 and the path was clear" (outcome 1) or "the white knight was not on b1,
//! or the path was blocked" (outcome 0, by De Morgan).

use crate::cantwell::board::Board;
use crate::chess::Square;

/// One literal of a measured predicate (decision 5 measures a conjunction of them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// The square is occupied (`occupied`) or empty.
    Square {
        /// The square.
        square: Square,
        /// True for "occupied", false for "empty".
        occupied: bool,
    },
    /// The path of a slide is clear (`true`) or blocked (`false`).
    PathClear(bool),
}

/// One literal in words, holding (`holds`) or not, with the pieces of `board` (the register
/// before the move).
fn literal_words(literal: Literal, holds: bool, board: &Board) -> String {
    match literal {
        Literal::Square { square, occupied } => {
            let occupied_now = occupied == holds;
            match (board.piece(square), occupied_now) {
                (Some(piece), true) => format!("the {} was on {square}", piece.name()),
                (Some(piece), false) if occupied => {
                    format!("the {} was not on {square}", piece.name())
                }
                (_, false) => format!("{square} was empty"),
                (None, true) => format!("{square} was occupied"),
            }
        }
        Literal::PathClear(clear) => {
            if clear == holds {
                "the path was clear".into()
            } else {
                "the path was blocked".into()
            }
        }
    }
}

/// What outcome `outcome` of a measurement of the conjunction `literals` meant, and what it did
/// to the move: outcome 1 (every literal held) lets the move take place, outcome 0 (at least one
/// failed) cancels it.
pub fn meaning(literals: &[Literal], outcome: bool, board: &Board) -> String {
    let words: Vec<String> = literals
        .iter()
        .map(|l| literal_words(*l, outcome, board))
        .collect();
    let (joiner, effect) = if outcome {
        (" and ", "the move took place")
    } else {
        (", or ", "the move did not take place")
    };
    format!("{}: {effect}", words.join(joiner))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square")
    }

    #[test]
    fn outcomes_say_what_held_and_what_the_move_did() {
        let board = Board::start();
        let capture = [
            Literal::Square {
                square: sq("b1"),
                occupied: true,
            },
            Literal::PathClear(true),
        ];
        assert_eq!(
            meaning(&capture, true, &board),
            "the white knight was on b1 and the path was clear: the move took place"
        );
        assert_eq!(
            meaning(&capture, false, &board),
            "the white knight was not on b1, or the path was blocked: the move did not take place"
        );
        let excluded = [Literal::Square {
            square: sq("c2"),
            occupied: false,
        }];
        assert_eq!(
            meaning(&excluded, true, &board),
            "c2 was empty: the move took place"
        );
        assert_eq!(
            meaning(&excluded, false, &board),
            "the white pawn was on c2: the move did not take place"
        );
    }
}
