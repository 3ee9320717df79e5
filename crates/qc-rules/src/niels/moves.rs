//! Niel's moves and their text notation (documented in `docs/notation.md`, section "Niel's Chess notation"):
//!
//! | move | text |
//! |---|---|
//! | move, capture, attempted capture, castling, en passant | `e2e4`, `f5xe6`, `e7e8q`, `e1g1` |
//! | superposition (red square first; stay = `from` listed) | `c6^d4e5`, `c6^c6e5:op`, `e7^e8e7=q` |
//! | entanglement (joins the group of the piece on `@sq`) | `f6&d5f6@e4`, `f6&d5f6@e4:pp` |
//! | mark inversion (Art. 7.7), Z move, Hadamard move | `~d4`, `Zd4`, `Hd4` |
//! | tunnelling (Tunnelling Game) | `e1*e5` |
//!
//! `:rf` gives the facing of the red and the blue mark (`o` = towards the opponent, `p` = towards
//! the owner); omitted means `oo` (equal). Recorded collapse outcomes follow in brackets, one
//! square per dice roll, in roll order: `f5xe6[e6]`. A [`RolledMove`] is a move with them, the
//! [`crate::ruleset::GameMove`] of Niel's Chess.

use super::error::{MoveProblem, NielsError};
use crate::chess::PieceKind;
use crate::chess::Square;
use std::fmt;

/// The facing of a pair's two marks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Facing {
    /// The red mark faces the opponent.
    pub red_opponent: bool,
    /// The blue mark faces the opponent.
    pub blue_opponent: bool,
}

impl Facing {
    /// Both marks towards the opponent: equal superposition.
    pub const EQUAL: Facing = Facing {
        red_opponent: true,
        blue_opponent: true,
    };
    /// Red towards the opponent, blue towards the owner: unequal (or, in the Hadamard Game,
    /// equal with phase).
    pub const UNEQUAL: Facing = Facing {
        red_opponent: true,
        blue_opponent: false,
    };

    /// Equal superposition.
    pub fn is_equal(self) -> bool {
        self.red_opponent == self.blue_opponent
    }
}

/// A Niel's Chess move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NielsMove {
    /// A piece (conventional or indefinite) moves or (attempts to) capture; castling is the
    /// king's two-square step, en passant the pawn's diagonal step to the e.p. square.
    Step {
        /// Departure.
        from: Square,
        /// Arrival.
        to: Square,
        /// Promotion piece for a pawn reaching the last rank.
        promotion: Option<PieceKind>,
    },
    /// A conventional piece moves to two squares at once, or to one and stays (Art. 7.1).
    Superpose {
        /// Departure.
        from: Square,
        /// Square of the piece with the red mark (may be `from`).
        red: Square,
        /// Square of the piece with the blue mark (may be `from`).
        blue: Square,
        /// Mark facing.
        facing: Facing,
        /// Promotion piece (a pawn pair reaching the last rank, Art. 7.8).
        promotion: Option<PieceKind>,
    },
    /// A conventional piece stays and moves at once, joining the group of the opponent's
    /// indefinite piece on `target` (Art. 8.1).
    Entangle {
        /// Departure.
        from: Square,
        /// Red square (`from` or the arrival).
        red: Square,
        /// Blue square (`from` or the arrival).
        blue: Square,
        /// A square of the opponent's indefinite piece being joined.
        target: Square,
        /// Mark facing (same type as the target's pair).
        facing: Facing,
        /// Promotion piece.
        promotion: Option<PieceKind>,
    },
    /// Inverts both marks of the pair on `square` (Art. 7.7, full game only).
    Invert {
        /// A square of the pair.
        square: Square,
    },
    /// Hadamard Game Z move: inverts the mark of the indefinite piece on `square`.
    ZMove {
        /// The piece whose mark turns.
        square: Square,
    },
    /// Hadamard Game Hadamard move: the pair on `square` becomes a conventional piece.
    Hadamard {
        /// A square of the pair.
        square: Square,
    },
    /// Tunnelling Game: the conventional piece on `from` tries to pass through the opponent's
    /// piece in front of it to `to`, right behind it (succeeds with probability 1/6).
    Tunnel {
        /// Departure.
        from: Square,
        /// The empty square behind the opponent's piece.
        to: Square,
    },
}

fn facing_text(f: Facing) -> String {
    if f == Facing::EQUAL {
        return String::new();
    }
    let c = |o: bool| if o { 'o' } else { 'p' };
    format!(":{}{}", c(f.red_opponent), c(f.blue_opponent))
}

fn promo_text(p: Option<PieceKind>) -> String {
    p.map_or(String::new(), |k| {
        format!("={}", k.letter().to_ascii_lowercase())
    })
}

impl fmt::Display for NielsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NielsMove::Step {
                from,
                to,
                promotion,
            } => write!(
                f,
                "{from}{to}{}",
                promotion.map_or(String::new(), |k| k
                    .letter()
                    .to_ascii_lowercase()
                    .to_string())
            ),
            NielsMove::Superpose {
                from,
                red,
                blue,
                facing,
                promotion,
            } => write!(
                f,
                "{from}^{red}{blue}{}{}",
                facing_text(facing),
                promo_text(promotion)
            ),
            NielsMove::Entangle {
                from,
                red,
                blue,
                target,
                facing,
                promotion,
            } => write!(
                f,
                "{from}&{red}{blue}@{target}{}{}",
                facing_text(facing),
                promo_text(promotion)
            ),
            NielsMove::Invert { square } => write!(f, "~{square}"),
            NielsMove::ZMove { square } => write!(f, "Z{square}"),
            NielsMove::Hadamard { square } => write!(f, "H{square}"),
            NielsMove::Tunnel { from, to } => write!(f, "{from}*{to}"),
        }
    }
}

/// The kind of a Niel's move in the position it is played in, as `moves` groups them and the
/// JSON names them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NielsMoveKind {
    /// A step to an empty square (`move`).
    Move,
    /// A step onto a piece: a capture or an attempted capture (`capture`).
    Capture,
    /// The king's two-square step (`castling`).
    Castling,
    /// A superposition move (`superposition`).
    Superposition,
    /// An entanglement move (`entanglement`).
    Entanglement,
    /// A mark inversion (`mark_inversion`).
    MarkInversion,
    /// A Z move (`z_move`).
    ZMove,
    /// A Hadamard move (`hadamard`).
    Hadamard,
    /// A tunnelling attempt (`tunnelling`).
    Tunnelling,
}

impl NielsMove {
    /// The squares whose castling rights the move takes away
    /// ([`crate::CastlingRights::without`]): a step's or a tunnelling's two squares, the square
    /// a superposition or an entanglement leaves; nothing for the moves on a pair's marks.
    pub fn castling_squares(&self) -> Vec<Square> {
        match *self {
            NielsMove::Step { from, to, .. } | NielsMove::Tunnel { from, to } => vec![from, to],
            NielsMove::Superpose { from, .. } | NielsMove::Entangle { from, .. } => vec![from],
            NielsMove::Invert { .. } | NielsMove::ZMove { .. } | NielsMove::Hadamard { .. } => {
                vec![]
            }
        }
    }
}

impl NielsMoveKind {
    /// The name: `move`, `capture`, `castling`, `superposition`, `entanglement`,
    /// `mark_inversion`, `z_move`, `hadamard`, `tunnelling`.
    pub const fn as_str(self) -> &'static str {
        match self {
            NielsMoveKind::Move => "move",
            NielsMoveKind::Capture => "capture",
            NielsMoveKind::Castling => "castling",
            NielsMoveKind::Superposition => "superposition",
            NielsMoveKind::Entanglement => "entanglement",
            NielsMoveKind::MarkInversion => "mark_inversion",
            NielsMoveKind::ZMove => "z_move",
            NielsMoveKind::Hadamard => "hadamard",
            NielsMoveKind::Tunnelling => "tunnelling",
        }
    }
}

impl fmt::Display for NielsMoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A Niel's move as a game writes it: the move and, when recorded, the square each of its dice
/// rolls collapsed to, in roll order (`f5e6[e6]`). Played without rolls, the dice are rolled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RolledMove {
    /// The move.
    pub mv: NielsMove,
    /// The square each roll collapsed to (empty: not recorded, or nothing rolled).
    pub rolls: Vec<Square>,
}

impl From<NielsMove> for RolledMove {
    /// The move with no roll recorded.
    fn from(mv: NielsMove) -> RolledMove {
        RolledMove {
            mv,
            rolls: Vec::new(),
        }
    }
}

impl RolledMove {
    /// The rolls as the notation writes them (`[e6]`, `[e6,d5]`), `None` when none is recorded.
    pub fn rolls_written(&self) -> Option<String> {
        let squares: Vec<String> = self.rolls.iter().map(ToString::to_string).collect();
        (!squares.is_empty()).then(|| format!("[{}]", squares.join(",")))
    }
}

/// The move, then its rolls in brackets (`f5xe6` with a roll prints as `f5e6[e6]`).
impl fmt::Display for RolledMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        if let Some(rolls) = self.rolls_written() {
            f.write_str(&rolls)?;
        }
        Ok(())
    }
}

/// Reads a move with optional recorded outcomes (`f5xe6[e6]`); see the module docs.
impl std::str::FromStr for RolledMove {
    type Err = NielsError;

    fn from_str(text: &str) -> Result<RolledMove, NielsError> {
        parse_rolled(text)
    }
}

struct Cursor<'a> {
    text: &'a str,
    rest: &'a str,
}

impl<'a> Cursor<'a> {
    fn err(&self, problem: MoveProblem) -> NielsError {
        NielsError::Notation {
            text: self.text.to_string(),
            column: self.text.len() - self.rest.len() + 1,
            problem,
        }
    }
    fn eat(&mut self, prefix: &str) -> bool {
        match self.rest.strip_prefix(prefix) {
            Some(r) => {
                self.rest = r;
                true
            }
            None => false,
        }
    }
    fn square(&mut self) -> Result<Square, NielsError> {
        let s = self
            .rest
            .get(..2)
            .and_then(Square::parse)
            .ok_or_else(|| self.err(MoveProblem::ExpectedSquare))?;
        self.rest = &self.rest[2..];
        Ok(s)
    }
    fn facing(&mut self) -> Result<Facing, NielsError> {
        if !self.eat(":") {
            return Ok(Facing::EQUAL);
        }
        let mut one = || {
            if self.eat("o") {
                Ok(true)
            } else if self.eat("p") {
                Ok(false)
            } else {
                Err(self.err(MoveProblem::BadFacing))
            }
        };
        Ok(Facing {
            red_opponent: one()?,
            blue_opponent: one()?,
        })
    }
    fn promotion(&mut self, needs_eq: bool) -> Result<Option<PieceKind>, NielsError> {
        if needs_eq && !self.eat("=") {
            return Ok(None);
        }
        let Some(c) = self.rest.chars().next() else {
            return if needs_eq {
                Err(self.err(MoveProblem::ExpectedPromotion))
            } else {
                Ok(None)
            };
        };
        match PieceKind::from_letter(c) {
            Some(k) if !matches!(k, PieceKind::Pawn | PieceKind::King) => {
                self.rest = &self.rest[c.len_utf8()..];
                Ok(Some(k))
            }
            _ if !needs_eq && c == '[' => Ok(None),
            _ => Err(self.err(MoveProblem::BadPromotion)),
        }
    }
}

/// Parses a move with optional recorded outcomes (`f5xe6[e6]`).
fn parse_rolled(text: &str) -> Result<RolledMove, NielsError> {
    let trimmed = text.trim();
    let mut c = Cursor {
        text: trimmed,
        rest: trimmed,
    };
    let mv = if c.eat("~") {
        NielsMove::Invert {
            square: c.square()?,
        }
    } else if c.eat("Z") {
        NielsMove::ZMove {
            square: c.square()?,
        }
    } else if c.eat("H") {
        NielsMove::Hadamard {
            square: c.square()?,
        }
    } else {
        let from = c.square()?;
        if c.eat("^") {
            let red = c.square()?;
            let blue = c.square()?;
            let facing = c.facing()?;
            let promotion = c.promotion(true)?;
            NielsMove::Superpose {
                from,
                red,
                blue,
                facing,
                promotion,
            }
        } else if c.eat("&") {
            let red = c.square()?;
            let blue = c.square()?;
            if !c.eat("@") {
                return Err(c.err(MoveProblem::ExpectedTarget));
            }
            let target = c.square()?;
            let facing = c.facing()?;
            let promotion = c.promotion(true)?;
            NielsMove::Entangle {
                from,
                red,
                blue,
                target,
                facing,
                promotion,
            }
        } else if c.eat("*") {
            NielsMove::Tunnel {
                from,
                to: c.square()?,
            }
        } else {
            c.eat("x");
            let to = c.square()?;
            let promotion = c.promotion(false)?;
            NielsMove::Step {
                from,
                to,
                promotion,
            }
        }
    };
    let mut outcomes = Vec::new();
    if c.eat("[") {
        loop {
            outcomes.push(c.square()?);
            if c.eat("]") {
                break;
            }
            if !c.eat(",") {
                return Err(c.err(MoveProblem::ExpectedSeparator));
            }
        }
    }
    if !c.rest.is_empty() {
        return Err(c.err(MoveProblem::TrailingText));
    }
    Ok(RolledMove {
        mv,
        rolls: outcomes,
    })
}

impl std::str::FromStr for NielsMove {
    type Err = NielsError;

    /// Parses a move without outcomes.
    fn from_str(text: &str) -> Result<NielsMove, NielsError> {
        let RolledMove { mv, rolls } = parse_rolled(text)?;
        if !rolls.is_empty() {
            return Err(NielsError::RollsInBareMove {
                text: text.to_string(),
            });
        }
        Ok(mv)
    }
}
