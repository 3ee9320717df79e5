//! QCAN move notation (Quantum Chess Algebraic Notation, paper sec. 4, with the official
//! engine's extras; see `docs/notation.md`): the move value, its parser and canonical printer.
//!
//! Accepted forms (squares in either case, printed lowercase):
//!
//! | form | example |
//! | --- | --- |
//! | standard move (also castling as the king's move) | `a2a4`, `e1g1` |
//! | split | `b1^a3c3` |
//! | merge | `a3c3^b1` |
//! | promotion (letter N/B/R/Q, either case; printed uppercase) | `a7a8q`, `a7a8Q` |
//! | piece prefix (either case; colour is not encoded; printed uppercase) | `Pa2a4`, `nb8^a6c6` |
//! | variant mark between source and target: `x` capture, `w` excluded | `b1xc3`, `b1wc3` |
//! | measurement outcome suffix | `a2xa4.m0`, `b1wc3.m1` |
//! | null move | `0000` |
//!
//! Marks on splits and merges (the engine's suggested future form `b1^xa3wc3`) are rejected.

use crate::cantwell::notation_error::{MoveErrorKind, NotationError};
use crate::chess::PieceKind;
use crate::chess::Square;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The squares a move names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveShape {
    /// `s t`: one source, one target (also castling as the king's move, pawn moves, e.p.).
    Standard {
        /// Source.
        source: Square,
        /// Target.
        target: Square,
    },
    /// `s^t1t2`: split; `target1` gets the sqrt-iSWAP.
    Split {
        /// Source.
        source: Square,
        /// First target.
        target1: Square,
        /// Second target.
        target2: Square,
    },
    /// `s1s2^t`: merge; `source1` gets the full inverse iSWAP.
    Merge {
        /// First source.
        source1: Square,
        /// Second source.
        source2: Square,
        /// Target.
        target: Square,
    },
    /// `0000`: the null move (UQCI).
    Null,
}

/// The variant mark written in the move (`x` capture, `w` excluded); none means "as classified".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VariantMark {
    /// `x`.
    Capture,
    /// `w`.
    Excluded,
}

/// A parsed QCAN move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct QcanMove {
    /// Optional piece prefix (`Pa2a4`, `Nb1^a3c3`), checked against the board when given.
    pub piece: Option<PieceKind>,
    /// Which squares.
    pub shape: MoveShape,
    /// Optional `x` / `w` mark, checked against the classification when given.
    pub mark: Option<VariantMark>,
    /// Promotion piece (`a7a8q` / `a7a8Q`), any case in input.
    pub promotion: Option<PieceKind>,
    /// Recorded measurement outcome (`.m0` / `.m1`), forced when replaying.
    pub outcome: Option<bool>,
}

impl QcanMove {
    /// A plain move `st` with no prefix, mark, promotion or outcome.
    pub const fn standard(source: Square, target: Square) -> QcanMove {
        QcanMove::with_shape(MoveShape::Standard { source, target })
    }

    /// A split `s^t1t2`.
    pub const fn split(source: Square, target1: Square, target2: Square) -> QcanMove {
        QcanMove::with_shape(MoveShape::Split {
            source,
            target1,
            target2,
        })
    }

    /// A merge `s1s2^t`.
    pub const fn merge(source1: Square, source2: Square, target: Square) -> QcanMove {
        QcanMove::with_shape(MoveShape::Merge {
            source1,
            source2,
            target,
        })
    }

    /// The null move `0000`.
    pub const fn null() -> QcanMove {
        QcanMove::with_shape(MoveShape::Null)
    }

    const fn with_shape(shape: MoveShape) -> QcanMove {
        QcanMove {
            piece: None,
            shape,
            mark: None,
            promotion: None,
            outcome: None,
        }
    }
}

impl VariantMark {
    /// The mark's letter, `x` or `w`.
    pub const fn letter(self) -> char {
        match self {
            VariantMark::Capture => 'x',
            VariantMark::Excluded => 'w',
        }
    }
}

/// Prints the canonical form: optional uppercase piece prefix, lowercase squares, the mark
/// between source and target, uppercase promotion letter, `.m0`/`.m1`.
///
/// Values QCAN cannot express (a mark on a split or merge, anything attached to the null move)
/// are printed in a form [`QcanMove::from_str`] rejects, so they never silently re-parse as a
/// different move.
impl fmt::Display for QcanMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(piece) = self.piece {
            write!(f, "{}", piece.letter())?;
        }
        let mark = self
            .mark
            .map(|m| m.letter().to_string())
            .unwrap_or_default();
        match self.shape {
            MoveShape::Standard { source, target } => write!(f, "{source}{mark}{target}")?,
            MoveShape::Split {
                source,
                target1,
                target2,
            } => write!(f, "{source}^{mark}{target1}{target2}")?,
            MoveShape::Merge {
                source1,
                source2,
                target,
            } => write!(f, "{source1}{source2}^{mark}{target}")?,
            MoveShape::Null => write!(f, "0000{mark}")?,
        }
        if let Some(promotion) = self.promotion {
            write!(f, "{}", promotion.letter())?;
        }
        if let Some(outcome) = self.outcome {
            write!(f, ".m{}", u8::from(outcome))?;
        }
        Ok(())
    }
}

impl FromStr for QcanMove {
    type Err = NotationError;

    /// Parses one QCAN move; see the module docs for the accepted forms.
    fn from_str(text: &str) -> Result<QcanMove, NotationError> {
        MoveParser::new(text).parse()
    }
}

/// Parses whitespace-separated QCAN moves (`"e2e4 e7e5 g1^f3h3"`).
///
/// A bad move is reported as [`NotationError::MoveList`] with its 1-based number in the list and
/// the line and column of the offending character.
pub fn parse_move_list(text: &str) -> Result<Vec<QcanMove>, NotationError> {
    let mut moves = Vec::new();
    for (line_index, line) in text.lines().enumerate() {
        for (start_column, word) in words_with_columns(line) {
            match word.parse::<QcanMove>() {
                Ok(qcan) => moves.push(qcan),
                Err(error) => {
                    let inner_column = match &error {
                        NotationError::Move { column, .. } => *column,
                        _ => 1,
                    };
                    return Err(NotationError::MoveList {
                        number: moves.len() + 1,
                        line: line_index + 1,
                        column: start_column + inner_column - 1,
                        error: Box::new(error),
                    });
                }
            }
        }
    }
    Ok(moves)
}

/// The whitespace-separated words of `line` with their 1-based character columns.
fn words_with_columns(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut column = 0;
    let mut start: Option<(usize, usize)> = None;
    let mut words = Vec::new();
    for (byte, c) in line.char_indices() {
        column += 1;
        match (c.is_whitespace(), start) {
            (true, Some((s_byte, s_col))) => {
                words.push((s_col, &line[s_byte..byte]));
                start = None;
            }
            (false, None) => start = Some((byte, column)),
            _ => {}
        }
    }
    if let Some((s_byte, s_col)) = start {
        words.push((s_col, &line[s_byte..]));
    }
    words.into_iter()
}

/// A cursor over the characters of one move string.
struct MoveParser<'a> {
    text: &'a str,
    chars: Vec<char>,
    pos: usize,
}

impl<'a> MoveParser<'a> {
    fn new(text: &'a str) -> MoveParser<'a> {
        MoveParser {
            text,
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    /// An error at character index `at` whose token is `len` characters long (clipped).
    fn error(&self, at: usize, len: usize, kind: MoveErrorKind) -> NotationError {
        let end = (at + len).min(self.chars.len());
        NotationError::Move {
            text: self.text.to_string(),
            column: at + 1,
            token: self.chars[at.min(end)..end].iter().collect(),
            kind,
        }
    }

    /// An error whose token is everything from `at` to the end.
    fn error_rest(&self, at: usize, kind: MoveErrorKind) -> NotationError {
        self.error(at, self.chars.len(), kind)
    }

    fn parse(mut self) -> Result<QcanMove, NotationError> {
        if self.chars.is_empty() {
            return Err(self.error(0, 0, MoveErrorKind::Empty));
        }
        if self.text.starts_with("0000") {
            // Nothing may follow the null move (no prefix, mark, promotion or outcome).
            self.pos = 4;
            if self.pos < self.chars.len() {
                return Err(self.error_rest(self.pos, MoveErrorKind::TrailingText));
            }
            return Ok(QcanMove::null());
        }
        let piece = self.prefix();
        let (shape, mark) = self.shape()?;
        let promotion = match shape {
            MoveShape::Standard { .. } => self.promotion()?,
            _ => None,
        };
        let outcome = self.outcome()?;
        if self.pos < self.chars.len() {
            return Err(self.error_rest(self.pos, MoveErrorKind::TrailingText));
        }
        Ok(QcanMove {
            piece,
            shape,
            mark,
            promotion,
            outcome,
        })
    }

    /// A piece letter of either case is a prefix unless a rank digit follows it (then it is the
    /// file of the source square, as in `b1^a3c3`).
    fn prefix(&mut self) -> Option<PieceKind> {
        let kind = PieceKind::from_letter(self.peek()?)?;
        if self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            return None;
        }
        self.pos += 1;
        Some(kind)
    }

    fn square(&mut self) -> Result<Square, NotationError> {
        let file = self.peek().map(|c| c.to_ascii_lowercase());
        let rank = self.peek_at(1);
        match (file, rank) {
            (Some(f @ 'a'..='h'), Some(r @ '1'..='8')) => {
                self.pos += 2;
                Square::from_coords(f as i32 - 'a' as i32, r as i32 - '1' as i32)
                    .ok_or_else(|| self.error(self.pos - 2, 2, MoveErrorKind::ExpectedSquare))
            }
            _ => Err(self.error(self.pos, 2, MoveErrorKind::ExpectedSquare)),
        }
    }

    fn mark_here(&self) -> Option<VariantMark> {
        match self.peek()? {
            'x' => Some(VariantMark::Capture),
            'w' => Some(VariantMark::Excluded),
            _ => None,
        }
    }

    /// A plain square where a mark would be the engine's future split/merge form.
    fn unmarked_square(&mut self) -> Result<Square, NotationError> {
        if self.mark_here().is_some() {
            return Err(self.error(self.pos, 1, MoveErrorKind::MarkOnSplitMerge));
        }
        self.square()
    }

    fn distinct(
        &self,
        square: Square,
        others: &[Square],
        kind: MoveErrorKind,
    ) -> Result<(), NotationError> {
        if others.contains(&square) {
            Err(self.error(self.pos - 2, 2, kind))
        } else {
            Ok(())
        }
    }

    fn shape(&mut self) -> Result<(MoveShape, Option<VariantMark>), NotationError> {
        let source = self.square()?;
        if self.peek() == Some('^') {
            self.pos += 1;
            let target1 = self.unmarked_square()?;
            self.distinct(target1, &[source], MoveErrorKind::SourceEqualsTarget)?;
            let target2 = self.unmarked_square()?;
            self.distinct(target2, &[source], MoveErrorKind::SourceEqualsTarget)?;
            self.distinct(target2, &[target1], MoveErrorKind::SplitTargetsEqual)?;
            let shape = MoveShape::Split {
                source,
                target1,
                target2,
            };
            return Ok((shape, None));
        }
        let mark_pos = self.pos;
        let mark = self.mark_here();
        if mark.is_some() {
            self.pos += 1;
            if self.peek() == Some('^') {
                return Err(self.error(mark_pos, 1, MoveErrorKind::MarkOnSplitMerge));
            }
        } else if self.peek().is_none_or(|c| !c.is_ascii_alphabetic()) {
            return Err(self.error(self.pos, 1, MoveErrorKind::ExpectedAfterSource));
        }
        let second = self.square()?;
        if self.peek() != Some('^') {
            self.distinct(second, &[source], MoveErrorKind::SourceEqualsTarget)?;
            let shape = MoveShape::Standard {
                source,
                target: second,
            };
            return Ok((shape, mark));
        }
        if mark.is_some() {
            return Err(self.error(mark_pos, 1, MoveErrorKind::MarkOnSplitMerge));
        }
        self.distinct(second, &[source], MoveErrorKind::MergeSourcesEqual)?;
        self.pos += 1;
        let target = self.unmarked_square()?;
        self.distinct(target, &[source, second], MoveErrorKind::SourceEqualsTarget)?;
        let shape = MoveShape::Merge {
            source1: source,
            source2: second,
            target,
        };
        Ok((shape, None))
    }

    fn promotion(&mut self) -> Result<Option<PieceKind>, NotationError> {
        let Some(c) = self.peek().filter(|c| c.is_alphabetic()) else {
            return Ok(None);
        };
        match PieceKind::from_letter(c) {
            Some(
                kind @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
            ) => {
                self.pos += 1;
                Ok(Some(kind))
            }
            _ => Err(self.error(self.pos, 1, MoveErrorKind::BadPromotion)),
        }
    }

    fn outcome(&mut self) -> Result<Option<bool>, NotationError> {
        if self.peek() != Some('.') {
            return Ok(None);
        }
        let outcome = match (self.peek_at(1), self.peek_at(2), self.peek_at(3)) {
            (Some('m'), Some('0'), None) => false,
            (Some('m'), Some('1'), None) => true,
            _ => return Err(self.error_rest(self.pos, MoveErrorKind::BadOutcome)),
        };
        self.pos += 3;
        Ok(Some(outcome))
    }
}
