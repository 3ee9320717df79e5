//! Which move took a castling right away, for the refusal of a castling without it (`White has
//! no right to castle kingside: it was lost with 3. h1h2, ...`), the same for every ruleset: the rights of
//! the start position, then every move played taking away the rights of the home squares it
//! touches ([`CastlingRights::without`], the rule both rulesets apply), until the right is gone.

use super::MoveNumber;
use crate::chess::{Castling, CastlingRights, Square};
use std::fmt;

/// How a castling right came to be missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RightLost {
    /// The start position does not give it (its FEN's castling field lacks the letter).
    AtStart,
    /// A move of the game took it away.
    By {
        /// The move's number (`3.`).
        number: MoveNumber,
        /// The move, as played.
        text: String,
    },
    /// Not worked out (a position without its game's history).
    Unknown,
}

/// `: it was lost with 3. h1h2, ...` or `: the start position does not give it`, nothing when unknown: what
/// follows the refusal's first words.
impl fmt::Display for RightLost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RightLost::AtStart => f.write_str(
                ": the start position does not give it (the castling field of its FEN)",
            ),
            RightLost::By { number, text } => write!(
                f,
                ": it was lost with {number} {text}, which moved the king or that rook, or moved onto the rook's square"
            ),
            RightLost::Unknown => Ok(()),
        }
    }
}

/// How `castling`'s right was lost in a game from a start position with `start` rights whose
/// first move is ply `first_ply`, given every move played as its text and the squares it
/// touches for the castling rights (in order). [`RightLost::AtStart`] also when no move took it
/// (the start lacked it).
pub fn right_lost(
    castling: Castling,
    start: CastlingRights,
    first_ply: u32,
    moves: impl IntoIterator<Item = (String, Vec<Square>)>,
) -> RightLost {
    if !castling.allowed_by(start) {
        return RightLost::AtStart;
    }
    let mut rights = start;
    for (index, (text, touched)) in moves.into_iter().enumerate() {
        rights = touched.iter().fold(rights, |r, sq| r.without(*sq));
        if !castling.allowed_by(rights) {
            return RightLost::By {
                number: MoveNumber::of(first_ply, index),
                text,
            };
        }
    }
    RightLost::AtStart
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Color;

    fn touched(text: &str) -> (String, Vec<Square>) {
        let squares = [&text[0..2], &text[2..4]]
            .iter()
            .filter_map(|s| Square::parse(s))
            .collect();
        (text.to_string(), squares)
    }

    #[test]
    fn the_first_move_touching_a_home_square_is_named() {
        let white_short = Castling {
            color: Color::White,
            kingside: true,
        };
        let game = ["g1f3", "e7e5", "h1g1", "e5e4", "g1h1"].map(touched);
        assert_eq!(
            right_lost(white_short, CastlingRights::ALL, 0, game.clone()).to_string(),
            ": it was lost with 2. h1g1, which moved the king or that rook, or moved onto the rook's square"
        );
        // The queenside right survives that game; a start without it says so.
        let white_long = Castling {
            color: Color::White,
            kingside: false,
        };
        assert_eq!(
            right_lost(white_long, "K".parse().expect("rights"), 0, game),
            RightLost::AtStart
        );
        // From a FEN with Black to move at fullmove 5, Black's king move is 5....
        let black_long = Castling {
            color: Color::Black,
            kingside: false,
        };
        assert_eq!(
            right_lost(black_long, CastlingRights::ALL, 9, [touched("e8d8")]),
            RightLost::By {
                number: MoveNumber {
                    number: 5,
                    black: true
                },
                text: "e8d8".into()
            }
        );
    }
}
