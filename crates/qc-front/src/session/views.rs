//! Moves as a session hands them out, whatever the ruleset: the words of a ruleset's own typed
//! moves (`qc_rules::PlayedMove`, `qc_rules::LegalMove`), which every front end shows.

use qc_rules::{Color, GameMove, LegalMove, MoveNumber, MoveSquares, PlayedMove, Square};
use serde_json::{Map, Value};
use std::ops::Range;
use std::time::Duration;

/// A played (or taken back) move in words: what every output shows of a
/// `qc_rules::PlayedMove`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveView {
    /// The move with its outcomes written in, so that it replays exactly.
    pub text: String,
    /// Its kind (`jump`, `split_slide`, ...; Niel's `move`, `superposition`, ...).
    pub kind: &'static str,
    /// Whether it is a quantum move (`qc_rules::GameMove::is_quantum`: a split or a merge; Niel's
    /// moves other than a classical step, capture or castling).
    pub quantum: bool,
    /// The outcomes written in its text, as the ruleset writes them (`.m1`, Niel's `[e6]`),
    /// `None` when nothing was drawn: `text` is the move as chosen, then this.
    pub outcome_notation: Option<String>,
    /// What happened, in words.
    pub detail: String,
    /// The outcomes in a few words for a summary (`1`, `e6`), `None` when nothing was sampled.
    pub outcome: Option<String>,
    /// The instructions it emitted, as a range of the game circuit's instruction list.
    pub instructions: Range<usize>,
    /// Ruleset-specific fields for the JSON outputs.
    pub extras: Map<String, Value>,
    /// The side that played it.
    pub mover: Color,
    /// The number of its move pair, as a game record writes it (`1. e2e4 e7e5`: both are move
    /// 1; a game from a FEN continues the FEN's fullmove number).
    pub number: u32,
    /// The squares it names (`qc_rules::GameMove::squares`): what a board highlights after it.
    pub squares: MoveSquares,
}

impl MoveView {
    /// The view of `played`, the move at `ply` counted from the game's beginning
    /// ([`qc_rules::Ruleset::first_ply`] plus its index in the game): its mover and move number
    /// follow from it.
    pub fn at<M: GameMove>(played: &PlayedMove<M>, ply: u32) -> MoveView {
        // The one chess numbering (`qc_rules::MoveNumber`): ply `ply` of a game from ply 0.
        let number = MoveNumber::of(ply, 0);
        MoveView {
            text: played.text(),
            kind: played.kind_name(),
            quantum: played.is_quantum(),
            outcome_notation: played.mv.outcome_notation(),
            detail: played.detail(),
            outcome: played.outcome_summary(),
            instructions: played.instructions.clone(),
            extras: played.extras(),
            mover: number.side(),
            number: number.number,
            squares: played.mv.squares(),
        }
    }
}

/// A legal move in words: its notation, its kind, the squares it names and the squares a player
/// clicks to make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalView {
    /// The move in the ruleset's notation.
    pub text: String,
    /// Its kind, as `moves` groups them.
    pub kind: &'static str,
    /// Whether it is a quantum move (`qc_rules::GameMove::is_quantum`).
    pub quantum: bool,
    /// The squares it names (`moves SQ` lists the moves with SQ among their sources).
    pub squares: MoveSquares,
    /// The squares a player clicks to make it, in order (`qc_rules::GameMove::clicks`).
    pub clicks: Vec<Square>,
}

impl<M: GameMove> From<&LegalMove<M>> for LegalView {
    fn from(legal: &LegalMove<M>) -> LegalView {
        LegalView {
            text: legal.mv.to_string(),
            kind: legal.kind_name(),
            quantum: M::is_quantum(legal.kind),
            squares: legal.mv.squares(),
            clicks: legal.mv.clicks(),
        }
    }
}

/// The engine's move as the session played it, with what its search found.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineReply {
    /// The move as played (its outcomes drawn from the session's dice).
    pub played: MoveView,
    /// The deepest iteration of the search completed (plies; 0: none, the first move in the
    /// engine's order was played).
    pub depth: u32,
    /// The move's score for the side that played it, in pawns.
    pub score: f64,
    /// Positions the search visited.
    pub nodes: u64,
    /// The time the search took.
    pub time: Duration,
}
