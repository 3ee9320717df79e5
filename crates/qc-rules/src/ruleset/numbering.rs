//! Move numbers as chess players write them, the same for every ruleset and every output (the
//! record, game files, `history`, circuit drawings' labels, the board picture's move list): a
//! pair of plies shares a number, White's ply is written `5.` and Black's `5...`, as PGN does,
//! and a game from a FEN continues the FEN's fullmove number.

use std::fmt;

use crate::chess::Color;

/// The ply of a game's first move, from its start position ([`crate::chess::first_ply`]): the
/// one count every ruleset and output numbers moves from.
pub use crate::chess::first_ply;

/// A ply's number in chess notation: the full move it belongs to and whose ply it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The full move (1 = the first).
    pub number: u32,
    /// Black's ply of that full move.
    pub black: bool,
}

impl MoveNumber {
    /// The number of the ply `index` (0-based) of a game whose first move is ply `first_ply`
    /// ([`first_ply`]).
    pub fn of(first_ply: u32, index: usize) -> MoveNumber {
        let ply = first_ply.saturating_add(u32::try_from(index).unwrap_or(u32::MAX));
        MoveNumber {
            number: ply / 2 + 1,
            black: ply % 2 == 1,
        }
    }

    /// The side whose ply it is.
    pub fn side(self) -> Color {
        if self.black {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// `5.` for White's ply, `5...` for Black's, as PGN writes them.
impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.black { "..." } else { "." };
        write!(f, "{}{dots}", self.number)
    }
}

/// The moves of a game whose first move is ply `first_ply` as PGN writes them, one token each:
/// every full move's number before White's ply (`1.`), and `1...` before the first move when
/// Black makes it (`1. e2e4 e7e5 2. g1f3`). A move's text is one token.
pub fn numbered_tokens<T: fmt::Display>(
    first_ply: u32,
    moves: impl IntoIterator<Item = T>,
) -> Vec<NumberedToken> {
    let mut tokens = Vec::new();
    for (index, mv) in moves.into_iter().enumerate() {
        let number = MoveNumber::of(first_ply, index);
        if !number.black || index == 0 {
            tokens.push(NumberedToken::Number(number));
        }
        tokens.push(NumberedToken::Move(mv.to_string()));
    }
    tokens
}

/// One token of a numbered move list ([`numbered_tokens`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberedToken {
    /// A move number (`1.`, `1...`).
    Number(MoveNumber),
    /// A move.
    Move(String),
}

impl fmt::Display for NumberedToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberedToken::Number(n) => n.fmt(f),
            NumberedToken::Move(text) => f.write_str(text),
        }
    }
}

/// The moves as one line of PGN move text (`1. e2e4 e7e5 2. g1f3`; see [`numbered_tokens`]).
pub fn numbered_line<T: fmt::Display>(
    first_ply: u32,
    moves: impl IntoIterator<Item = T>,
) -> String {
    let tokens: Vec<String> = numbered_tokens(first_ply, moves)
        .iter()
        .map(ToString::to_string)
        .collect();
    tokens.join(" ")
}

/// The move-list lines of a board picture or a table, one full move a line (`1. e2e4 e7e5`,
/// `2. g1f3`; a game that Black starts opens with `1... e7e5`).
pub fn numbered_pairs<T: fmt::Display>(
    first_ply: u32,
    moves: impl IntoIterator<Item = T>,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for token in numbered_tokens(first_ply, moves) {
        match token {
            NumberedToken::Number(n) => lines.push(n.to_string()),
            NumberedToken::Move(text) => match lines.last_mut() {
                Some(line) => {
                    line.push(' ');
                    line.push_str(&text);
                }
                None => lines.push(text),
            },
        }
    }
    lines
}

/// A reference to one move of a game by its chess number, as a player types it: `5` or `5.`
/// (White's fifth move), `5...` (Black's), `0` (before the first move: the set-up).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveRef {
    /// The set-up, before the first move.
    SetUp,
    /// A numbered move.
    Move(MoveNumber),
}

/// Why a text is not a [`MoveRef`], or names no move of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveRefError {
    /// Not `N`, `N.` or `N...`.
    #[error("`{text}` is not a move number: write 5 or 5. (White's fifth move), 5... (Black's), 0 (the set-up)")]
    Malformed {
        /// The text read.
        text: String,
    },
    /// A well-formed number that the game does not have.
    #[error("the game has no move {number}: its moves are {range}")]
    NoSuchMove {
        /// The move asked for.
        number: MoveNumber,
        /// The numbers the game has (`1. to 12...`, or `none yet`).
        range: String,
    },
}

impl std::str::FromStr for MoveRef {
    type Err = MoveRefError;

    fn from_str(text: &str) -> Result<MoveRef, MoveRefError> {
        let malformed = || MoveRefError::Malformed {
            text: text.to_string(),
        };
        let trimmed = text.trim();
        let (digits, black) = match trimmed.strip_suffix("...") {
            Some(digits) => (digits, true),
            None => (trimmed.strip_suffix('.').unwrap_or(trimmed), false),
        };
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let number: u32 = digits.parse().map_err(|_| malformed())?;
        match (number, black) {
            (0, false) => Ok(MoveRef::SetUp),
            (0, true) => Err(malformed()),
            (number, black) => Ok(MoveRef::Move(MoveNumber { number, black })),
        }
    }
}

impl MoveRef {
    /// The ply this names in a game of `moves` plies whose first move is ply `first_ply`: 0 for
    /// the set-up, k for the k-th move played (1-based), as a game's circuit counts its moves.
    ///
    /// # Errors
    /// [`MoveRefError::NoSuchMove`] when the game has no such move.
    pub fn ply_index(self, first_ply: u32, moves: usize) -> Result<usize, MoveRefError> {
        let MoveRef::Move(number) = self else {
            return Ok(0);
        };
        let ply = u64::from(number.number - 1) * 2 + u64::from(number.black);
        let index = ply
            .checked_sub(u64::from(first_ply))
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < moves);
        match index {
            Some(i) => Ok(i + 1),
            None => Err(MoveRefError::NoSuchMove {
                number,
                range: match moves {
                    0 => "none yet".into(),
                    n => format!(
                        "{} to {}",
                        MoveNumber::of(first_ply, 0),
                        MoveNumber::of(first_ply, n - 1)
                    ),
                },
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_are_numbered_in_pairs_from_the_fen() {
        // Hand-counted: a standard start, then a FEN with fullmove 5 and Black to move.
        assert_eq!(first_ply(Color::White, 1), 0);
        assert_eq!(first_ply(Color::Black, 5), 9);
        let labels: Vec<String> = (0..4).map(|i| MoveNumber::of(0, i).to_string()).collect();
        assert_eq!(labels, ["1.", "1...", "2.", "2..."]);
        assert_eq!(MoveNumber::of(9, 0).to_string(), "5...");
        assert_eq!(MoveNumber::of(9, 1).to_string(), "6.");
        assert_eq!(
            numbered_line(0, ["e2e4", "e7e5", "g1f3"]),
            "1. e2e4 e7e5 2. g1f3"
        );
        assert_eq!(numbered_line(9, ["e7e5", "g1f3"]), "5... e7e5 6. g1f3");
        assert_eq!(
            numbered_pairs(1, ["e7e5", "g1f3", "b8c6"]),
            ["1... e7e5", "2. g1f3 b8c6"]
        );
        assert_eq!(numbered_line(0, Vec::<String>::new()), "");
    }

    #[test]
    fn a_move_reference_names_a_ply_or_says_which_there_are() {
        let parse = |t: &str| t.parse::<MoveRef>();
        // 1. b1^a3c3 g8f6 2. a3c3^b1: plies 1, 2, 3.
        assert_eq!(parse("2").and_then(|r| r.ply_index(0, 3)), Ok(3));
        assert_eq!(parse("2.").and_then(|r| r.ply_index(0, 3)), Ok(3));
        assert_eq!(parse("1...").and_then(|r| r.ply_index(0, 3)), Ok(2));
        assert_eq!(parse("0").and_then(|r| r.ply_index(0, 3)), Ok(0));
        // From a FEN with Black to move at fullmove 5: 5... is the first ply.
        assert_eq!(parse("5...").and_then(|r| r.ply_index(9, 2)), Ok(1));
        let missing = parse("2...").and_then(|r| r.ply_index(0, 3));
        assert_eq!(
            missing.map_err(|e| e.to_string()),
            Err("the game has no move 2...: its moves are 1. to 2.".into())
        );
        assert!(parse("5.").and_then(|r| r.ply_index(9, 2)).is_err());
        for bad in ["", "x", "0...", "1..", "-1", "1234567890", "2.5"] {
            assert!(
                matches!(parse(bad), Err(MoveRefError::Malformed { .. })),
                "{bad}"
            );
        }
    }
}
