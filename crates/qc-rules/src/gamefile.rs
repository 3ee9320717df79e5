//! The game file: a PGN-like record of a game in QCAN ([`GameRecord`]), its parser and its
//! canonical printer. The format is described in `docs/notation.md`.
//!
//! ```text
//! [Event "Example"]
//! [FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]
//!
//! 1. e1^d1f1 { a split } e8d8 2. d1e1.m1 *
//! ```
//!
//! Tags come first; `[FEN "..."]` sets the start position, every other tag is kept in order.
//! Move numbers (`1.`, `1...`, also glued as `1.e2e4`) are skipped, comments (`{...}` over any
//! number of lines, `;` to the end of the line) are dropped, and an optional result token
//! (`1-0`, `0-1`, `1/2-1/2`, `*`) ends the game.

use crate::board::Board;
use crate::notation_error::{GameErrorKind, NotationError};
use crate::piece::Color;
use crate::qcan::QcanMove;
use std::fmt;
use std::str::FromStr;

/// Full moves per line in the canonical printout.
const FULL_MOVES_PER_LINE: u32 = 8;

/// A `[Name "value"]` tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The tag name (letters, digits and `_`, starting with a letter or digit).
    pub name: String,
    /// The value, unescaped.
    pub value: String,
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

/// One move of a game file, with where it was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordedMove {
    /// The move.
    pub qcan: QcanMove,
    /// 1-based line of the move in the file.
    pub line: usize,
    /// 1-based column of the move's first character (after a glued move number).
    pub column: usize,
    /// The move's ply counted from the game's beginning: 0 is White's first move, 1 Black's
    /// first, ...; a game starting from a FEN continues that count (fullmove 5, Black to move
    /// gives 9). Move number = `ply / 2 + 1`, Black moves iff `ply` is odd.
    pub ply: u32,
}

/// A parsed game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The tags other than `FEN`, in file order.
    pub tags: Vec<Tag>,
    /// The start position: the `[FEN]` tag's, or [`Board::start`].
    pub start: Board,
    /// The moves in order.
    pub moves: Vec<RecordedMove>,
    /// The result token, if the file has one.
    pub result: Option<GameResult>,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            start: Board::start(),
            moves: Vec::new(),
            result: None,
        }
    }
}

/// The ply of the first move from `start` (see [`RecordedMove::ply`]).
fn first_ply(start: &Board) -> u32 {
    let black = u32::from(start.side_to_move == Color::Black);
    start.fullmove_number.saturating_sub(1).saturating_mul(2) + black
}

impl GameRecord {
    /// Parses a game file.
    pub fn parse(text: &str) -> Result<GameRecord, NotationError> {
        Parser::new(text).parse()
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Appends a move, numbering its ply after the last one; `line`/`column` are 0 (not from a file).
    pub fn push_move(&mut self, qcan: QcanMove) {
        let ply = first_ply(&self.start) + self.moves.len() as u32;
        self.moves.push(RecordedMove {
            qcan,
            line: 0,
            column: 0,
            ply,
        });
    }
}

impl FromStr for GameRecord {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<GameRecord, NotationError> {
        GameRecord::parse(text)
    }
}

/// The canonical form: one tag per line (the `[FEN]` tag last, only if the start position is
/// not the standard one), a blank line, then the moves with move numbers, eight full moves per
/// line, then the result. Move numbers follow the start position and the moves' order (the
/// `ply` fields are not consulted), so printing then parsing gives the same record except for
/// the moves' lines and columns.
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tags: Vec<(&str, String)> = self
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.clone()))
            .collect();
        if self.start != Board::start() {
            tags.push(("FEN", self.start.to_fen()));
        }
        for (name, value) in &tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        let mut lines: Vec<Vec<String>> = Vec::new();
        let mut line: Vec<String> = Vec::new();
        let mut numbers_on_line = 0;
        let first = first_ply(&self.start);
        for (index, recorded) in self.moves.iter().enumerate() {
            let ply = first + index as u32;
            let number = ply / 2 + 1;
            if ply.is_multiple_of(2) {
                if numbers_on_line == FULL_MOVES_PER_LINE {
                    lines.push(std::mem::take(&mut line));
                    numbers_on_line = 0;
                }
                line.push(format!("{number}."));
                numbers_on_line += 1;
            } else if index == 0 {
                line.push(format!("{number}..."));
                numbers_on_line += 1;
            }
            line.push(recorded.qcan.to_string());
        }
        if let Some(result) = self.result {
            line.push(result.token().to_string());
        }
        if !line.is_empty() {
            lines.push(line);
        }
        if !tags.is_empty() && !lines.is_empty() {
            writeln!(f)?;
        }
        for line in lines {
            writeln!(f, "{}", line.join(" "))?;
        }
        Ok(())
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A character cursor that tracks the line and column of the next character.
struct Parser {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    column: usize,
    record: GameRecord,
    fen_seen: bool,
}

/// A position in the file (1-based line and column).
#[derive(Copy, Clone)]
struct At {
    line: usize,
    column: usize,
}

fn error_at(at: At, kind: GameErrorKind) -> NotationError {
    NotationError::GameFile {
        line: at.line,
        column: at.column,
        kind,
    }
}

/// Characters that end a move token even without whitespace.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | ';' | '[')
}

impl Parser {
    fn new(text: &str) -> Parser {
        Parser {
            chars: text.chars().collect(),
            pos: 0,
            line: 1,
            column: 1,
            record: GameRecord::default(),
            fen_seen: false,
        }
    }

    fn at(&self) -> At {
        At {
            line: self.line,
            column: self.column,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn parse(mut self) -> Result<GameRecord, NotationError> {
        while let Some(c) = self.peek() {
            let at = self.at();
            match c {
                _ if c.is_whitespace() => {
                    self.bump();
                }
                '{' => self.skip_block_comment(at)?,
                '}' => return Err(error_at(at, GameErrorKind::UnmatchedCommentEnd)),
                ';' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                '[' => self.tag(at)?,
                _ => self.word(at)?,
            }
        }
        Ok(self.record)
    }

    fn skip_block_comment(&mut self, at: At) -> Result<(), NotationError> {
        self.bump();
        loop {
            match self.bump() {
                Some('}') => return Ok(()),
                Some(_) => {}
                None => return Err(error_at(at, GameErrorKind::UnterminatedComment)),
            }
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }

    fn bad_tag(&self, expected: &'static str) -> NotationError {
        error_at(self.at(), GameErrorKind::BadTag { expected })
    }

    /// `[Name "value"]` on one line; `at` is the `[`.
    fn tag(&mut self, at: At) -> Result<(), NotationError> {
        if !self.record.moves.is_empty() || self.record.result.is_some() {
            return Err(error_at(at, GameErrorKind::TagAfterMoves));
        }
        self.bump();
        self.skip_spaces();
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.bad_tag("a tag name (letters, digits, `_`) after `[`"));
        }
        self.skip_spaces();
        if self.peek() != Some('"') {
            return Err(self.bad_tag("a quoted value `\"...\"` after the tag name"));
        }
        self.bump();
        let value_at = self.at();
        let mut value = String::new();
        loop {
            match self.peek() {
                Some('"') => break,
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => value.push(c),
                        _ => return Err(self.bad_tag("`\\\"` or `\\\\` after `\\`")),
                    }
                }
                Some('\n') | None => {
                    return Err(self.bad_tag("a closing `\"` on the tag's line"));
                }
                Some(c) => value.push(c),
            }
            self.bump();
        }
        self.bump();
        self.skip_spaces();
        if self.peek() != Some(']') {
            return Err(self.bad_tag("`]` after the tag value"));
        }
        self.bump();
        if name == "FEN" {
            if self.fen_seen {
                return Err(error_at(at, GameErrorKind::DuplicateFen));
            }
            self.fen_seen = true;
            self.record.start = Board::from_fen(&value)
                .map_err(|e| error_at(value_at, GameErrorKind::BadFen(Box::new(e))))?;
        } else {
            self.record.tags.push(Tag { name, value });
        }
        Ok(())
    }

    /// A move (maybe behind a glued move number), a bare move number or the result.
    fn word(&mut self, at: At) -> Result<(), NotationError> {
        let mut word = String::new();
        while let Some(c) = self.peek().filter(|c| !ends_word(*c)) {
            word.push(c);
            self.bump();
        }
        if self.record.result.is_some() {
            return Err(error_at(at, GameErrorKind::AfterResult { token: word }));
        }
        if let Some(result) = GameResult::from_token(&word) {
            self.record.result = Some(result);
            return Ok(());
        }
        let skipped = move_number_length(&word);
        let text: String = word.chars().skip(skipped).collect();
        if text.is_empty() {
            return Ok(());
        }
        let column = at.column + skipped;
        let qcan = text.parse::<QcanMove>().map_err(|e| {
            let inner = match &e {
                NotationError::Move { column, .. } => *column,
                _ => 1,
            };
            let bad = At {
                line: at.line,
                column: column + inner - 1,
            };
            error_at(bad, GameErrorKind::BadMove(Box::new(e)))
        })?;
        let ply = first_ply(&self.record.start) + self.record.moves.len() as u32;
        self.record.moves.push(RecordedMove {
            qcan,
            line: at.line,
            column,
            ply,
        });
        Ok(())
    }
}

/// Characters of a leading move number `12.` / `12...` (digits then at least one dot), or 0.
fn move_number_length(word: &str) -> usize {
    let digits = word.chars().take_while(|c| c.is_ascii_digit()).count();
    let dots = word.chars().skip(digits).take_while(|c| *c == '.').count();
    if digits > 0 && dots > 0 {
        digits + dots
    } else {
        0
    }
}
