//! The game file, the same model for every ruleset: tags, a start position and the moves, each
//! read once in the ruleset's notation with the line and column it was written at. Each
//! ruleset reads and writes it in its own text form (Quantum Chess: `crate::cantwell::gamefile`,
//! PGN-like with QCAN moves; Niel's Chess: `crate::niels::record`). The tag line
//! `[Name "value"]` is read ([`Tag::parse_prefix`], [`Tag::parse_line`], [`leading_tags`]) and
//! written (`Display` for [`Tag`]) here, once for every ruleset, so that a value one ruleset
//! writes reads back in every other.

use super::{MoveNumber, Status};
use std::fmt;
use thiserror::Error;

/// A `[Name "value"]` tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The tag name.
    pub name: String,
    /// The value, unescaped.
    pub value: String,
}

/// Why a line is not a tag `[Name "value"]`: what was expected, and the 1-based column (in
/// characters of the text read) where it was not found. The message says only what was expected;
/// each ruleset's game-file error puts the line and column beside it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Error)]
pub enum TagProblem {
    /// The text does not open with `[`.
    #[error("expected `[` to open the tag")]
    NoOpeningBracket {
        /// Where the `[` should be.
        column: usize,
    },
    /// No name after `[`.
    #[error("expected a tag name (letters, digits, `_`) after `[`")]
    NoName {
        /// Where the name should start.
        column: usize,
    },
    /// No `"` opening the value after the name.
    #[error("expected a value in double quotes `\"...\"` after the tag name")]
    NoValue {
        /// Where the `"` should be.
        column: usize,
    },
    /// A `\` in the value followed by something other than `"` or `\`.
    #[error("expected `\\\"` or `\\\\` after `\\`")]
    BadEscape {
        /// The character after the `\` (or the end of the line).
        column: usize,
    },
    /// The value is not closed on its line.
    #[error("expected a closing `\"` on the tag's line")]
    UnclosedValue {
        /// The end of the line.
        column: usize,
    },
    /// No `]` after the value.
    #[error("expected `]` after the tag value")]
    NoClosingBracket {
        /// Where the `]` should be.
        column: usize,
    },
    /// Text after the tag on a line that must hold only the tag.
    #[error("expected the end of the line after the tag's `]`")]
    TrailingText {
        /// The first character after the tag.
        column: usize,
    },
}

impl TagProblem {
    /// The 1-based column (in characters of the text read) where the tag went wrong.
    pub fn column(mut self) -> usize {
        *self.column_mut()
    }

    /// The same problem with its column moved right by `by` characters: for a tag read from a
    /// text that starts `by` characters into its line.
    pub fn shifted(mut self, by: usize) -> TagProblem {
        *self.column_mut() += by;
        self
    }

    fn column_mut(&mut self) -> &mut usize {
        match self {
            TagProblem::NoOpeningBracket { column }
            | TagProblem::NoName { column }
            | TagProblem::NoValue { column }
            | TagProblem::BadEscape { column }
            | TagProblem::UnclosedValue { column }
            | TagProblem::NoClosingBracket { column }
            | TagProblem::TrailingText { column } => column,
        }
    }
}

/// A character cursor over one line that counts 1-based columns in characters.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    column: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) {
        if self.chars.next().is_some() {
            self.column += 1;
        }
    }

    fn skip_while(&mut self, mut skip: impl FnMut(char) -> bool) {
        while self.peek().is_some_and(&mut skip) {
            self.bump();
        }
    }
}

/// Spaces and tabs: what may stand between the parts of a tag (a line break may not).
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

impl Tag {
    /// A tag.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
        }
    }

    /// Reads the tag `[Name "value"]` that `text` opens with, on its first line: the name of
    /// letters, digits and `_`, spaces or tabs allowed after `[`, around the value and before
    /// `]`, the value's `"` and `\` escaped as `\"` and `\\`. Returns the tag and how many
    /// characters it took (through its `]`); what follows is the caller's.
    ///
    /// # Errors
    /// A [`TagProblem`] with the column, counted from the start of `text`, where it went wrong.
    pub fn parse_prefix(text: &str) -> Result<(Tag, usize), TagProblem> {
        let mut at = Cursor {
            chars: text.chars().peekable(),
            column: 1,
        };
        if at.peek() != Some('[') {
            return Err(TagProblem::NoOpeningBracket { column: at.column });
        }
        at.bump();
        at.skip_while(is_blank);
        let mut name = String::new();
        while let Some(c) = at.peek().filter(|c| c.is_ascii_alphanumeric() || *c == '_') {
            name.push(c);
            at.bump();
        }
        if name.is_empty() {
            return Err(TagProblem::NoName { column: at.column });
        }
        at.skip_while(is_blank);
        if at.peek() != Some('"') {
            return Err(TagProblem::NoValue { column: at.column });
        }
        at.bump();
        let mut value = String::new();
        loop {
            match at.peek() {
                Some('"') => break,
                Some('\\') => {
                    at.bump();
                    match at.peek() {
                        Some(c @ ('"' | '\\')) => value.push(c),
                        _ => return Err(TagProblem::BadEscape { column: at.column }),
                    }
                }
                Some('\n') | None => return Err(TagProblem::UnclosedValue { column: at.column }),
                Some(c) => value.push(c),
            }
            at.bump();
        }
        at.bump();
        at.skip_while(is_blank);
        if at.peek() != Some(']') {
            return Err(TagProblem::NoClosingBracket { column: at.column });
        }
        at.bump();
        Ok((Tag { name, value }, at.column - 1))
    }

    /// Reads a line that holds one tag and nothing else but white space around it (see
    /// [`Tag::parse_prefix`]).
    ///
    /// # Errors
    /// A [`TagProblem`] with the column in `line` where it went wrong.
    pub fn parse_line(line: &str) -> Result<Tag, TagProblem> {
        let indent = line.chars().take_while(|c| c.is_whitespace()).count();
        let rest = line.trim_start();
        let shift = |problem: TagProblem| problem.shifted(indent);
        let (tag, taken) = Tag::parse_prefix(rest).map_err(shift)?;
        match rest.chars().skip(taken).position(|c| !c.is_whitespace()) {
            Some(after) => Err(shift(TagProblem::TrailingText {
                column: taken + after + 1,
            })),
            None => Ok(tag),
        }
    }
}

/// The tag line every ruleset writes: `[Name "value"]`, with `"` and `\` in the value escaped
/// as `\"` and `\\` (what [`Tag::parse_prefix`] reads back).
impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.value.replace('\\', "\\\\").replace('"', "\\\"");
        write!(f, "[{} \"{value}\"]", self.name)
    }
}

/// The tag lines that open a game file, each read by [`Tag::parse_line`] (blank lines and `;`
/// comment lines between them skipped), up to its first other line (one not opening with `[`):
/// what a front end looks at to tell a file's ruleset before reading it. A malformed tag line
/// gives its [`TagProblem`] and the lines after it are still read.
pub fn leading_tags(text: &str) -> impl Iterator<Item = Result<Tag, TagProblem>> + '_ {
    text.lines()
        .filter(|line| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with(';')
        })
        .map_while(|line| {
            line.trim_start()
                .starts_with('[')
                .then(|| Tag::parse_line(line))
        })
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

/// A game file whose result token says one ending while its moves, replayed, end the game
/// another way.
///
/// What a result means ([`ResultContradicts::check`]): `*` (unknown) never contradicts; on a
/// game the replay leaves going on, any result stands, because a game also ends by what its moves
/// do not show (a resignation, a draw agreed, time), as PGN records it; on a game the replay
/// finishes (a king captured, checkmate, a draw by rule) the result must be that ending's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Error)]
#[error(
    "the game file's result `{written}` contradicts its moves: replayed, the game ends {replayed} \
     (`{}`)",
    replayed_token(*.replayed)
)]
pub struct ResultContradicts {
    /// The result token the file ends with.
    pub written: GameResult,
    /// How the replayed game ended (never [`Status::Ongoing`]).
    pub replayed: Status,
}

/// The token of a finished game's status (`*` for one going on, which never contradicts).
fn replayed_token(status: Status) -> &'static str {
    status.result().unwrap_or(GameResult::Unknown).token()
}

impl ResultContradicts {
    /// Checks the result a file wrote (`None`: no token) against the status its replay ended in.
    ///
    /// # Errors
    /// The replay finished with a result other than the written one (and the written one is not
    /// `*`).
    pub fn check(written: Option<GameResult>, replayed: Status) -> Result<(), ResultContradicts> {
        match (written, replayed.result()) {
            (Some(written), Some(ended)) if written != GameResult::Unknown && written != ended => {
                Err(ResultContradicts { written, replayed })
            }
            _ => Ok(()),
        }
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
    /// The comments, each with its place among the moves, in file order.
    pub comments: Vec<Comment>,
}

impl<S, M> GameFile<S, M> {
    /// A game file with no tags, moves, result or comments.
    pub fn new(start: S) -> GameFile<S, M> {
        GameFile {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: None,
            comments: Vec::new(),
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

/// A comment of a game file (`{ ... }`, or `;` to the end of the line) and its place: after how
/// many moves it was written. A game written again keeps it there (a file's comments survive
/// being played on and saved).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comment {
    /// The moves written before it.
    pub after: usize,
    /// Its text, without the braces or the `;` (spaces and line breaks kept).
    pub text: String,
    /// A `;` comment, which runs to the end of its line (its text has no line break).
    pub to_line_end: bool,
}

impl fmt::Display for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.to_line_end {
            write!(f, ";{}", self.text)
        } else {
            write!(f, "{{{}}}", self.text)
        }
    }
}

/// One token of a game file's move text ([`move_text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextToken {
    /// A move number (`1.`, `1...`).
    Number(MoveNumber),
    /// A move.
    Move(String),
    /// A comment.
    Comment(Comment),
    /// The result token.
    Result(GameResult),
}

/// How a ruleset breaks its move text into lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Wrap {
    /// At most this many full-move numbers on a line (Quantum Chess: 8).
    FullMoves(usize),
    /// Lines of at most this many characters where tokens allow (Niel's Chess: 80).
    Columns(usize),
}

/// The move text of a game whose first move is ply `first_ply`: the moves numbered as PGN
/// numbers them ([`super::numbered_tokens`]), every comment before the move it was written
/// before (those after the last move at the end), then `result`.
pub fn move_text<M: fmt::Display>(
    first_ply: u32,
    moves: &[M],
    comments: &[Comment],
    result: Option<GameResult>,
) -> Vec<MoveTextToken> {
    let mut out = Vec::new();
    let mut index = 0;
    let mut comments = comments.iter().peekable();
    for token in super::numbered_tokens(first_ply, moves) {
        match token {
            super::NumberedToken::Number(n) => {
                // A comment goes before the number of the move it precedes.
                while let Some(c) = comments.next_if(|c| c.after <= index) {
                    out.push(MoveTextToken::Comment(c.clone()));
                }
                out.push(MoveTextToken::Number(n));
            }
            super::NumberedToken::Move(text) => {
                while let Some(c) = comments.next_if(|c| c.after <= index) {
                    out.push(MoveTextToken::Comment(c.clone()));
                }
                out.push(MoveTextToken::Move(text));
                index += 1;
            }
        }
    }
    out.extend(comments.cloned().map(MoveTextToken::Comment));
    out.extend(result.map(MoveTextToken::Result));
    out
}

/// Writes `tokens` ([`move_text`]) as lines, broken as `wrap` says, and after every comment (a
/// `;` comment must end its line; a `{...}` one, often long, is easier to read so).
pub fn write_move_text(out: &mut String, tokens: &[MoveTextToken], wrap: Wrap) {
    let mut line = String::new();
    let mut numbers_on_line = 0;
    for token in tokens {
        let text = match token {
            MoveTextToken::Number(n) => n.to_string(),
            MoveTextToken::Move(m) => m.clone(),
            MoveTextToken::Comment(c) => c.to_string(),
            MoveTextToken::Result(r) => r.token().to_string(),
        };
        let full = match wrap {
            Wrap::FullMoves(most) => {
                matches!(token, MoveTextToken::Number(_)) && numbers_on_line == most
            }
            Wrap::Columns(most) => line.chars().count() + 1 + text.chars().count() > most,
        };
        if full && !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
            line.clear();
            numbers_on_line = 0;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&text);
        match token {
            MoveTextToken::Number(_) => numbers_on_line += 1,
            MoveTextToken::Comment(_) => {
                out.push_str(&line);
                out.push('\n');
                line.clear();
                numbers_on_line = 0;
            }
            _ => {}
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
}
