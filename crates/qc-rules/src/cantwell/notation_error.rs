//! The one error type of the text formats: QCAN moves ([`crate::cantwell::qcan`]), FEN ([`crate::cantwell::fen`]) and
//! game files ([`crate::cantwell::gamefile`]).
//!
//! Every variant carries structured fields (where, what was found, why) so callers can match on
//! them; the `Display` text says the same in words. Columns and lines are 1-based and count
//! characters, not bytes.

use crate::ruleset::{visible, OrderProblem};
use std::fmt;
use thiserror::Error;

/// A malformed move, FEN record or game file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NotationError {
    /// A QCAN move string is malformed.
    #[error("bad QCAN move `{}`: {kind}, found {} at column {column}", visible(.text), found(.token))]
    Move {
        /// The whole move string.
        text: String,
        /// 1-based column (in characters) of the offending token within `text`.
        column: usize,
        /// The offending text (empty if the move ended where more was expected).
        token: String,
        /// What was wrong / expected.
        kind: MoveErrorKind,
    },
    /// A move of a whitespace-separated move list is malformed.
    #[error("move {number} (line {line}, column {column}): {error}")]
    MoveList {
        /// 1-based position of the bad move in the list.
        number: usize,
        /// 1-based line of the offending character.
        line: usize,
        /// 1-based column of the offending character within its line.
        column: usize,
        /// The error of the move itself (always [`NotationError::Move`]).
        error: Box<NotationError>,
    },
    /// A FEN record is malformed.
    #[error("bad FEN: {field} `{}`: {kind}", visible(.text))]
    Fen {
        /// The field at fault.
        field: FenField,
        /// The text of that field (the whole record for [`FenField::Record`]).
        text: String,
        /// What was wrong.
        kind: FenErrorKind,
    },
    /// A game file is malformed.
    #[error("game file line {line}, column {column}: {kind}")]
    GameFile {
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters) within the line.
        column: usize,
        /// What was wrong.
        kind: GameErrorKind,
    },
}

fn found(token: &str) -> String {
    if token.is_empty() {
        "the end of the move".to_string()
    } else {
        format!("`{}`", visible(token))
    }
}

/// Why a QCAN move was rejected.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveErrorKind {
    /// The string is empty.
    Empty,
    /// A square `a1`..`h8` was expected.
    ExpectedSquare,
    /// After the source, a target square, `^`, `x` or `w` was expected.
    ExpectedAfterSource,
    /// A split names the same target twice (`b1^a3a3`).
    SplitTargetsEqual,
    /// A merge names the same source twice (`a3a3^b1`).
    MergeSourcesEqual,
    /// A target equals a source (`a2a2`, `b1^b1c3`).
    SourceEqualsTarget,
    /// An `x`/`w` mark on a split or merge (not supported yet).
    MarkOnSplitMerge,
    /// The promotion letter is not N, B, R or Q.
    BadPromotion,
    /// The outcome suffix is not `.m0` or `.m1`.
    BadOutcome,
    /// Text after a complete move.
    TrailingText,
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveErrorKind::Empty => "empty move, expected a QCAN move such as `a2a4`",
            MoveErrorKind::ExpectedSquare => "expected a square a1..h8",
            MoveErrorKind::ExpectedAfterSource => {
                "expected a target square, `^` (split), `x` (capture) or `w` (excluded) after the source"
            }
            MoveErrorKind::SplitTargetsEqual => "expected a second split target different from the first",
            MoveErrorKind::MergeSourcesEqual => "expected a second merge source different from the first",
            MoveErrorKind::SourceEqualsTarget => "expected a target different from the source",
            MoveErrorKind::MarkOnSplitMerge => {
                "variant marks `x`/`w` on split and merge moves are not supported yet \
                 (the engine's suggested future form `b1^xa3wc3`); expected a plain square"
            }
            MoveErrorKind::BadPromotion => "expected a promotion letter N, B, R or Q",
            MoveErrorKind::BadOutcome => "expected a measurement outcome `.m0` or `.m1`",
            MoveErrorKind::TrailingText => "expected the end of the move",
        })
    }
}

/// The FEN field an error is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenField {
    /// The record as a whole (wrong number of fields).
    Record,
    /// Piece placement (field 1).
    Placement,
    /// Side to move (field 2).
    Side,
    /// Castling rights (field 3).
    Castling,
    /// En passant target square (field 4).
    EnPassant,
    /// Halfmove clock (field 5).
    Halfmove,
    /// Fullmove number (field 6).
    Fullmove,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Record => "record",
            FenField::Placement => "placement field",
            FenField::Side => "side-to-move field",
            FenField::Castling => "castling field",
            FenField::EnPassant => "en passant field",
            FenField::Halfmove => "halfmove clock field",
            FenField::Fullmove => "fullmove number field",
        })
    }
}

/// Why a FEN record was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// Not 4 or 6 space-separated fields.
    FieldCount {
        /// How many fields there were.
        found: usize,
    },
    /// The placement does not have 8 ranks.
    RankCount {
        /// How many `/`-separated ranks there were.
        found: usize,
    },
    /// A rank does not describe exactly 8 squares.
    RankLength {
        /// The rank (1..=8) as on the board; FEN lists rank 8 first.
        rank: u8,
        /// How many squares it describes.
        squares: u32,
    },
    /// A character in the placement that is neither a piece letter nor a digit 1..8.
    UnknownPiece {
        /// The character.
        letter: char,
    },
    /// The side to move is not `w` or `b`.
    BadSide,
    /// A castling letter other than `K Q k q` (or `-` alone).
    BadCastlingLetter {
        /// The letter.
        letter: char,
    },
    /// A castling letter given twice.
    DuplicateCastlingLetter {
        /// The letter.
        letter: char,
    },
    /// The en passant field is neither `-` nor a square.
    BadSquare,
    /// The en passant square is not on the rank a pawn just skipped (rank 6 when White is to move,
    /// rank 3 when Black is).
    EnPassantRank {
        /// The rank (1..=8) it is on.
        rank: u8,
        /// The rank (3 or 6) it must be on.
        expected: u8,
    },
    /// A counter that is not a non-negative decimal number.
    BadNumber,
    /// A fullmove number of 0.
    ZeroFullmove,
    /// A counter above [`crate::chess::MAX_FEN_COUNTER`].
    CounterTooLarge {
        /// The largest counter accepted.
        max: u32,
    },
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenErrorKind::FieldCount { found } => {
                write!(f, "expected 6 (or 4) space-separated fields, found {found}")
            }
            FenErrorKind::RankCount { found } => {
                write!(f, "expected 8 ranks separated by `/`, found {found}")
            }
            FenErrorKind::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, expected 8")
            }
            FenErrorKind::UnknownPiece { letter } => write!(
                f,
                "unknown piece letter '{letter}', expected one of PNBRQKpnbrqk or a digit 1-8"
            ),
            FenErrorKind::BadSide => f.write_str("expected `w` or `b`"),
            FenErrorKind::BadCastlingLetter { letter } => write!(
                f,
                "unknown castling letter '{letter}', expected `-` or letters from `KQkq`"
            ),
            FenErrorKind::DuplicateCastlingLetter { letter } => {
                write!(f, "castling letter '{letter}' given twice")
            }
            FenErrorKind::BadSquare => f.write_str("expected `-` or a square a1..h8"),
            FenErrorKind::EnPassantRank { rank, expected } => write!(
                f,
                "en passant square on rank {rank}, expected rank {expected} for this side to move"
            ),
            FenErrorKind::BadNumber => f.write_str("expected a non-negative decimal number"),
            FenErrorKind::ZeroFullmove => f.write_str("the fullmove number starts at 1"),
            FenErrorKind::CounterTooLarge { max } => {
                write!(f, "a move counter may be at most {max}")
            }
        }
    }
}

/// Why a game file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameErrorKind {
    /// A `{` comment without its `}`.
    UnterminatedComment,
    /// A `}` without a `{`.
    UnmatchedCommentEnd,
    /// A malformed `[Name "value"]` tag: what was expected, with its column in the line (the
    /// shared tag reader's problem, [`crate::ruleset::TagProblem`]).
    BadTag(crate::ruleset::TagProblem),
    /// A tag after the first move.
    TagAfterMoves,
    /// A second `[FEN ...]` tag.
    DuplicateFen,
    /// The `[FEN ...]` tag's value is not a valid FEN record.
    BadFen(Box<NotationError>),
    /// A move token that is not valid QCAN.
    BadMove(Box<NotationError>),
    /// Something after the result token.
    AfterResult {
        /// The token.
        token: String,
    },
}

impl fmt::Display for GameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameErrorKind::UnterminatedComment => {
                f.write_str("comment `{` is not closed by `}` before the end of the file")
            }
            GameErrorKind::UnmatchedCommentEnd => f.write_str("`}` without an opening `{`"),
            GameErrorKind::BadTag(problem) => write!(f, "bad tag: {problem}"),
            // The order problems are worded once, by the check every ruleset shares.
            GameErrorKind::TagAfterMoves => OrderProblem::TagAfterMoves.fmt(f),
            GameErrorKind::DuplicateFen => OrderProblem::DuplicateFen.fmt(f),
            GameErrorKind::BadFen(error) => write!(f, "bad [FEN] tag: {error}"),
            GameErrorKind::BadMove(error) => write!(f, "{error}"),
            GameErrorKind::AfterResult { token } => OrderProblem::AfterResult {
                token: token.clone(),
            }
            .fmt(f),
        }
    }
}
