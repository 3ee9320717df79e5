//! Moves as the interface hands them out: a ruleset's move ([`GameMove`], read once from text),
//! a legal move with its kind ([`LegalMove`]), one outcome of a move with its probability
//! ([`MoveOutcome`]) and a move as played ([`PlayedMove`], with what each of its random outcomes
//! gave: [`Roll`]). Every output (text, JSON, Python, protocols) shows a played move from these.

use crate::chess::Square;
use qc_ir::Clbit;
use serde_json::{Map, Value};
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::Range;
use std::str::FromStr;

/// A move in a ruleset's notation: read from text once ([`FromStr`]) and written back
/// ([`Display`]) in the canonical form that reads back as the same move. A move may carry the
/// outcomes of its random parts written in (Quantum Chess `b1xc3.m1`, Niel's Chess
/// `f5e6[e6]`): played, those outcomes are forced instead of sampled.
pub trait GameMove:
    Clone
    + Debug
    + PartialEq
    + Display
    + FromStr<Err: std::error::Error + Send + Sync + 'static>
    + Send
    + Sync
    + 'static
{
    /// What kind of move it is in the position it is played in (Quantum Chess: its type and
    /// variant; Niel's Chess: move, capture, superposition, ...).
    type Kind: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;

    /// The kind's name, as `moves` groups moves and JSON names them (`split_jump`,
    /// `superposition`).
    fn kind_name(kind: Self::Kind) -> &'static str;

    /// Whether a move of `kind` is a quantum move (Quantum Chess: a split or a merge; Niel's
    /// Chess: every kind but a classical step, capture or castling), as a game's statistics
    /// count them.
    fn is_quantum(kind: Self::Kind) -> bool;

    /// The move with no outcome written in (what a player chooses; the outcomes are drawn when
    /// it is played).
    #[must_use]
    fn without_outcomes(&self) -> Self;

    /// The squares the move names: where its piece (or pieces) leave from and where they go
    /// (Niel's mark inversion, Z and Hadamard moves: the square named, as a source). `moves e2`
    /// in `qchess play` lists the moves with e2 among their sources; a search orders moves by them.
    fn squares(&self) -> MoveSquares;

    /// The squares a player clicks to make the move, in order: its sources, then its targets (a
    /// split: the source and both targets; a merge: both sources, then the target). A square
    /// may come twice (Niel's `c6^c6e5` stays on c6). A page matches the squares clicked
    /// against these lists, so it needs no notation of its own.
    fn clicks(&self) -> Vec<Square> {
        self.squares().in_click_order()
    }

    /// What a played move did, in words (`capture, measured, outcome 0 (P 0.5000): the white
    /// knight was not on f3: the move did not take place`, `rolled e6 (P 0.5000): the white
    /// knight was on e6, not on c6`).
    fn detail(played: &PlayedMove<Self>) -> String;

    /// A played move's outcomes in a few words for a summary (`1`, `e6`), `None` when nothing
    /// was sampled.
    fn outcome_summary(played: &PlayedMove<Self>) -> Option<String>;

    /// Ruleset-specific fields of a played move for the JSON outputs.
    fn extras(played: &PlayedMove<Self>) -> Map<String, Value>;

    /// The outcomes written in the move, as its notation writes them (`.m1`; Niel's `[e6]`,
    /// `[e6,d5]`), `None` when none is written: the move's text is its text without outcomes
    /// followed by this.
    fn outcome_notation(&self) -> Option<String>;

    /// The move with `outcome` written in (replacing any written before), so that playing it
    /// plays that outcome.
    ///
    /// # Errors
    /// The outcome is not of the ruleset's shape (a bit for Quantum Chess, squares for
    /// Niel's Chess).
    fn with_outcome(&self, outcome: &GivenOutcome) -> Result<Self, OutcomeShapeError>;
}

/// An outcome a front end writes into a move (a Python call's `outcome=`): a measured bit
/// (Quantum Chess: whether the move took place) or the squares rolls collapsed to (Niel's Chess:
/// one per roll, in the order they are drawn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivenOutcome {
    /// A measurement's outcome.
    Bit(bool),
    /// The squares rolls collapsed to.
    Squares(Vec<Square>),
}

impl GivenOutcome {
    /// What kind of outcome it is, in words for an error.
    pub fn shape(&self) -> &'static str {
        match self {
            GivenOutcome::Bit(_) => "a bit",
            GivenOutcome::Squares(_) => "squares",
        }
    }
}

/// An outcome of the wrong shape for the ruleset ([`GameMove::with_outcome`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rules} writes {expected} as a move's outcome, not {given}")]
pub struct OutcomeShapeError {
    /// The ruleset.
    pub rules: &'static str,
    /// The shape it writes (`0 or 1`, `a square or a list of squares`).
    pub expected: &'static str,
    /// The shape given ([`GivenOutcome::shape`]).
    pub given: &'static str,
}

/// The squares a move names: where the moving piece (or pieces) leave from and where they go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSquares {
    /// The squares pieces leave (two for a merge).
    pub sources: Vec<Square>,
    /// The squares pieces go to (two for a split).
    pub targets: Vec<Square>,
}

impl MoveSquares {
    /// A key of the squares (for a search's killer moves): the sources, a separator, the
    /// targets, each square in 7 bits; moves on the same squares (promotions to different
    /// pieces) share it.
    pub fn key(&self) -> u64 {
        let push = |k: u64, s: &Square| (k << 7) | (s.index() as u64 + 1);
        let sources = self.sources.iter().take(4).fold(0, push);
        self.targets.iter().take(4).fold(sources << 7, push)
    }

    /// The sources, then the targets: the order a player clicks them in
    /// ([`GameMove::clicks`]).
    pub fn in_click_order(self) -> Vec<Square> {
        let MoveSquares {
            mut sources,
            targets,
        } = self;
        sources.extend(targets);
        sources
    }
}

/// One random outcome a move drew: a mid-circuit measurement (Quantum Chess: whether the move
/// took place; Niel's Chess: a dice roll, which square a pair collapsed to).
#[derive(Clone, Debug, PartialEq)]
pub struct Roll {
    /// The classical bit the measurement wrote.
    pub clbit: Clbit,
    /// The outcome measured.
    pub one: bool,
    /// The probability of outcome 1, read from the state just before the measurement.
    pub p_one: f64,
    /// What the outcome meant, in words (`the white knight was not on c3: the move did not take
    /// place`, `the black rook was on e6, not on d4`).
    pub meaning: String,
}

impl Roll {
    /// The probability of the outcome that came up.
    pub fn probability(&self) -> f64 {
        if self.one {
            self.p_one
        } else {
            1.0 - self.p_one
        }
    }
}

/// A move as played: the move with every outcome written in (so that it replays exactly), its
/// kind, what each random outcome gave, and the instructions it emitted.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove<M: GameMove> {
    /// The move with its outcomes written in.
    pub mv: M,
    /// Its kind in the position it was played in.
    pub kind: M::Kind,
    /// Its random outcomes, in the order they were drawn (none when nothing was random).
    pub rolls: Vec<Roll>,
    /// The instructions it emitted, as a range of the game circuit's instruction list.
    pub instructions: Range<usize>,
}

impl<M: GameMove> PlayedMove<M> {
    /// The move with its outcomes written in, as text that replays it exactly.
    pub fn text(&self) -> String {
        self.mv.to_string()
    }

    /// The kind's name ([`GameMove::kind_name`]).
    pub fn kind_name(&self) -> &'static str {
        M::kind_name(self.kind)
    }

    /// Whether it is a quantum move ([`GameMove::is_quantum`]).
    pub fn is_quantum(&self) -> bool {
        M::is_quantum(self.kind)
    }

    /// What happened, in words ([`GameMove::detail`]).
    pub fn detail(&self) -> String {
        M::detail(self)
    }

    /// The outcomes in a few words, `None` when nothing was sampled
    /// ([`GameMove::outcome_summary`]).
    pub fn outcome_summary(&self) -> Option<String> {
        M::outcome_summary(self)
    }

    /// Ruleset-specific fields for the JSON outputs ([`GameMove::extras`]).
    pub fn extras(&self) -> Map<String, Value> {
        M::extras(self)
    }
}

/// A legal move and its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct LegalMove<M: GameMove> {
    /// The move, with no outcome written in.
    pub mv: M,
    /// Its kind, as `moves` groups them.
    pub kind: M::Kind,
}

impl<M: GameMove> LegalMove<M> {
    /// The kind's name ([`GameMove::kind_name`]).
    pub fn kind_name(&self) -> &'static str {
        M::kind_name(self.kind)
    }
}

/// One outcome of a move: the move written with that outcome (so that playing it plays exactly
/// this outcome), and its exact probability.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveOutcome<M> {
    /// The move with the outcome written in (`b1xc3.m1`, `e1xe6[e6]`); a move with nothing
    /// random is written as it is (`e2e4`).
    pub mv: M,
    /// The probability of this outcome, read from the state (not sampled).
    pub probability: f64,
}

#[cfg(test)]
mod tests {
    use super::GameMove;
    use crate::niels::RolledMove;
    use crate::QcanMove;

    fn clicked<M: GameMove>(text: &str) -> String {
        let mv: M = text.parse().expect("a move");
        let names: Vec<String> = mv.clicks().iter().map(ToString::to_string).collect();
        names.join(" ")
    }

    #[test]
    fn every_shape_is_clicked_source_first() {
        let cantwell = clicked::<QcanMove>;
        assert_eq!(cantwell("b1c3"), "b1 c3");
        assert_eq!(cantwell("Nb1^a3c3"), "b1 a3 c3");
        assert_eq!(cantwell("a3c3^b1"), "a3 c3 b1");
        assert_eq!(cantwell("e7e8Q"), "e7 e8");
        let niels = clicked::<RolledMove>;
        assert_eq!(niels("e2e4"), "e2 e4");
        assert_eq!(niels("c6^c6e5:op"), "c6 c6 e5");
        // An entanglement's target (the opponent's piece joined) is clicked last.
        assert_eq!(niels("f6&f6d5@e4"), "f6 f6 d5 e4");
        assert_eq!(niels("f5xe6[e6]"), "f5 e6");
        assert_eq!(niels("~d4"), "d4");
        assert_eq!(niels("e1*e5"), "e1 e5");
    }
}
