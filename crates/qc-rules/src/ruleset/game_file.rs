//! The game file, the same model for every ruleset: tags, a start position and the moves, each
//! read once in the ruleset's notation with the line and column it was written at. Each
//! ruleset reads and writes it in its own text form (Quantum Chess: `crate::cantwell::gamefile`,
//! PGN-like with QCAN moves; Niel's Chess: `crate::niels::record`).

use std::fmt;

/// A `[Name "value"]` tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The tag name.
    pub name: String,
    /// The value, unescaped.
    pub value: String,
}

impl Tag {
    /// A tag.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// The result token at the end of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl GameResult {
    /// The PGN token.
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result a token stands for, if it is one.
    pub fn from_token(token: &str) -> Option<GameResult> {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ]
        .into_iter()
        .find(|r| r.token() == token)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// A move and where it was written (1-based line and column of its first character, after a
/// glued move number; 0 and 0 for a move not read from a file, as `--moves` gives them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WrittenMove<M> {
    /// The move.
    pub mv: M,
    /// Its line.
    pub line: usize,
    /// Its column (in characters).
    pub column: usize,
}

impl<M> WrittenMove<M> {
    /// A move not read from a file (line and column 0).
    pub fn unplaced(mv: M) -> WrittenMove<M> {
        WrittenMove {
            mv,
            line: 0,
            column: 0,
        }
    }
}

/// A game file read: its tags, its start position (with the rule options in force), its moves
/// and its result token.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFile<S, M> {
    /// The tags other than those the start position and the rule options are read from
    /// (`FEN`, Niel's `Variant`), in file order.
    pub tags: Vec<Tag>,
    /// The start position with the rule options in force.
    pub start: S,
    /// The moves in order.
    pub moves: Vec<WrittenMove<M>>,
    /// The result token, if the file has one.
    pub result: Option<GameResult>,
}

impl<S, M> GameFile<S, M> {
    /// A game file with no tags, moves or result.
    pub fn new(start: S) -> GameFile<S, M> {
        GameFile {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: None,
        }
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Appends a move not read from a file.
    pub fn push_move(&mut self, mv: M) {
        self.moves.push(WrittenMove::unplaced(mv));
    }
}
