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
//! number of lines, `;` to the end of the line) are kept with their places among the moves and
//! written back there, and an optional result token (`1-0`, `0-1`, `1/2-1/2`, `*`) ends the
//! game.

use crate::cantwell::board::Board;
use crate::cantwell::notation_error::{GameErrorKind, NotationError};
use crate::cantwell::qcan::QcanMove;
use crate::ruleset::{
    move_text, without_bom, write_move_text, Comment, FileOrder, GameFile, GameResult,
    OrderProblem, Tag, Wrap, WrittenMove,
};
use std::fmt;
use std::str::FromStr;

/// Full moves per line in the canonical printout.
const FULL_MOVES_PER_LINE: usize = 8;

/// A Quantum Chess game file: tags (other than `FEN`), the start position (the `[FEN]` tag's,
/// or [`Board::start`]), the QCAN moves and the result token.
pub type GameRecord = GameFile<Board, QcanMove>;

impl Default for GameRecord {
    /// No tags and no moves from the standard start.
    fn default() -> GameRecord {
        GameFile::new(Board::start())
    }
}

/// The ply of the first move from `start`: 0 is White's first move, 1 Black's first, ...; a game
/// starting from a FEN continues that count (fullmove 5, Black to move gives 9), as
/// [`crate::chess::first_ply`] counts for every ruleset.
pub fn first_ply(start: &Board) -> u32 {
    crate::chess::first_ply(start.side_to_move, start.fullmove_number)
}

impl GameRecord {
    /// Parses a game file.
    pub fn parse(text: &str) -> Result<GameRecord, NotationError> {
        Parser::new(text).parse()
    }

    /// The ply of move `index` (0-based) counted from the game's beginning (see [`first_ply`]).
    pub fn ply(&self, index: usize) -> u32 {
        first_ply(&self.start).saturating_add(index as u32)
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
/// line, the comments at their places, then the result. Move numbers follow the start position and the moves' order, so
/// printing then parsing gives the same record except for the moves' lines and columns.
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tags = self.tags.clone();
        if self.start != Board::start() {
            tags.push(Tag::new("FEN", self.start.to_fen()));
        }
        for tag in &tags {
            writeln!(f, "{tag}")?;
        }
        let moves: Vec<&QcanMove> = self.moves.iter().map(|written| &written.mv).collect();
        let tokens = move_text(first_ply(&self.start), &moves, &self.comments, self.result);
        let mut text = String::new();
        write_move_text(&mut text, &tokens, Wrap::FullMoves(FULL_MOVES_PER_LINE));
        if !tags.is_empty() && !text.is_empty() {
            writeln!(f)?;
        }
        f.write_str(&text)
    }
}

/// A character cursor that tracks the line and column of the next character.
struct Parser {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    column: usize,
    record: GameRecord,
    order: FileOrder,
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
            chars: without_bom(text).chars().collect(),
            pos: 0,
            line: 1,
            column: 1,
            record: GameRecord::default(),
            order: FileOrder::default(),
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
                '{' => self.block_comment(at)?,
                '}' => return Err(error_at(at, GameErrorKind::UnmatchedCommentEnd)),
                ';' => {
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.peek().filter(|c| *c != '\n') {
                        text.push(c);
                        self.bump();
                    }
                    self.comment(text, true);
                }
                '[' => self.tag(at)?,
                _ => self.word(at)?,
            }
        }
        Ok(self.record)
    }

    /// `{...}` over any number of lines, kept with its place among the moves.
    fn block_comment(&mut self, at: At) -> Result<(), NotationError> {
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('}') => {
                    self.comment(text, false);
                    return Ok(());
                }
                Some(c) => text.push(c),
                None => return Err(error_at(at, GameErrorKind::UnterminatedComment)),
            }
        }
    }

    /// Keeps a comment after the moves read so far.
    fn comment(&mut self, text: String, to_line_end: bool) {
        self.record.comments.push(Comment {
            after: self.record.moves.len(),
            text,
            to_line_end,
        });
    }

    /// `[Name "value"]` on one line, read by the reader every ruleset shares
    /// ([`Tag::parse_prefix`]); `at` is the `[`. What follows the `]` on its line is read on.
    fn tag(&mut self, at: At) -> Result<(), NotationError> {
        let line: String = self.chars[self.pos..]
            .iter()
            .take_while(|c| **c != '\n')
            .collect();
        let (Tag { name, value }, taken) = Tag::parse_prefix(&line).map_err(|problem| {
            // The problem's column counts from the `[`; the error's from the line's start.
            let problem = problem.shifted(at.column - 1);
            let place = At {
                line: at.line,
                column: problem.column(),
            };
            error_at(place, GameErrorKind::BadTag(problem))
        })?;
        // The value's first character: after the `"`, which follows the name.
        let quote = line.chars().position(|c| c == '"').unwrap_or(0);
        let value_at = At {
            line: at.line,
            column: at.column + quote + 1,
        };
        self.order
            .tag(name == "FEN")
            .map_err(|problem| error_at(at, order_error(problem)))?;
        for _ in 0..taken {
            self.bump();
        }
        if name == "FEN" {
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
        let result = GameResult::from_token(&word);
        self.order
            .word(&word, result.is_some())
            .map_err(|problem| error_at(at, order_error(problem)))?;
        if let Some(result) = result {
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
        self.record.moves.push(WrittenMove {
            mv: qcan,
            line: at.line,
            column,
        });
        Ok(())
    }
}

/// The shared order check's problem as this reader's error kind.
fn order_error(problem: OrderProblem) -> GameErrorKind {
    match problem {
        OrderProblem::TagAfterMoves => GameErrorKind::TagAfterMoves,
        OrderProblem::DuplicateFen => GameErrorKind::DuplicateFen,
        OrderProblem::AfterResult { token } => GameErrorKind::AfterResult { token },
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
