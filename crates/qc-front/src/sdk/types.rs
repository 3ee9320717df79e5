//! The SDK's JSON shapes (`QCEngineView`, `QCClock`, `QCMoveChoice` and the types inside them),
//! as serde reads and writes them.

use qc_rules::Color;
use serde::{Deserialize, Serialize};

/// The body of `POST /move`: the view of the game and the clock (`null` when untimed).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MoveRequest {
    /// The game as the app shows it to the AI.
    pub view: EngineView,
    /// The clock, when the game is timed.
    #[serde(default)]
    pub clock: Option<Clock>,
}

/// `QCEngineView`: a read-only snapshot of the game.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct EngineView {
    /// The board and the position's identity.
    pub game_data: GameData,
    /// `white` or `black`.
    pub side_to_move: Side,
    /// Every legal move for the side to move.
    pub legal_moves: LegalMoveSet,
    /// The moves played so far.
    pub move_history: Vec<MoveRecord>,
    /// Whether quantum moves are on.
    #[serde(default)]
    pub quantum_enabled: Option<bool>,
    /// The rules configuration (kept as given; qchess plays Quantum Chess's rules).
    #[serde(default)]
    pub rules: Option<serde_json::Value>,
}

/// A side, as the SDK spells it.
#[derive(Copy, Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// `white`.
    White,
    /// `black`.
    Black,
}

impl Side {
    /// The colour.
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// `QChessGameData`: the position's identity and the board.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GameData {
    /// Where the game started and the moves played (`QChessPosition`).
    #[serde(default)]
    pub position: Option<PositionData>,
    /// The board as displayed (`QChessBoardState`).
    pub board: BoardState,
}

/// `QChessPosition`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PositionData {
    /// The classical start position (FEN).
    #[serde(default)]
    pub starting_fen: Option<String>,
    /// Moves that set up a quantum start before the game, played from `startingFen` before the
    /// history (a measured one needs its `.m0`/`.m1`: a setup move has no record of it).
    #[serde(default)]
    pub setup_moves: Option<Vec<String>>,
    /// The game's move strings.
    #[serde(default)]
    pub history: Option<Vec<String>>,
}

/// `QChessBoardState`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BoardState {
    /// 64 FEN letters (`.` for an empty square).
    pub pieces: Vec<String>,
    /// 64 probabilities of occupation.
    pub probabilities: Vec<f64>,
    /// Plies played.
    pub ply: u32,
    /// The fifty-move counter.
    #[serde(default)]
    pub fifty_count: Option<u32>,
    /// The piece count at the counter's last reset.
    #[serde(default)]
    pub fifty_piece_count: Option<f64>,
    /// Castling flags (bit 0 white O-O, 1 black O-O, 2 white O-O-O, 3 black O-O-O).
    #[serde(default)]
    pub castle_flags: Option<u32>,
    /// The en passant square (-1 for none).
    #[serde(default)]
    pub en_passant_square: Option<i32>,
}

/// `QCLegalMoveSet`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LegalMoveSet {
    /// Standard moves.
    pub standard: Vec<StandardOption>,
    /// Splits.
    pub splits: Vec<SplitOption>,
    /// Merges.
    pub merges: Vec<MergeOption>,
    /// Their number.
    #[serde(default)]
    pub count: Option<u32>,
}

/// `QCMoveOption` (the fields qchess reads; others are ignored).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StandardOption {
    /// Source square.
    pub from: u8,
    /// Target square.
    pub to: u8,
    /// The promotion pieces, for a promotion.
    #[serde(default)]
    pub promotion_choices: Option<Vec<String>>,
}

/// `QCSplitOption`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SplitOption {
    /// Source square.
    pub from: u8,
    /// First target (the one the split names first).
    pub target_a: u8,
    /// Second target.
    pub target_b: u8,
}

/// `QCMergeOption`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MergeOption {
    /// First source.
    pub source_a: u8,
    /// Second source.
    pub source_b: u8,
    /// Target.
    pub to: u8,
}

/// `QCMoveRecord`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MoveRecord {
    /// The move (`e2-e4`, `b1^a3c3`, `e7-e8Q.m1`).
    pub move_string: String,
    /// Whether a measurement happened.
    pub was_measurement: bool,
    /// If measured, whether it passed (the move was applied).
    #[serde(default)]
    pub measurement_passed: Option<bool>,
    /// Whether a failed measurement blocked the move.
    #[serde(default)]
    pub was_blocked: Option<bool>,
}

/// `QCClock`, in milliseconds.
#[derive(Copy, Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Clock {
    /// Time left for the side to move.
    pub remaining_ms: f64,
    /// Increment per move.
    #[serde(default)]
    pub increment_ms: f64,
    /// The opponent's time left.
    #[serde(default)]
    pub opponent_remaining_ms: f64,
}

/// `QCMoveChoice`: the answer.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum MoveChoice {
    /// A standard move (also castling, as the king's move).
    Standard {
        /// Source square.
        from: u8,
        /// Target square.
        to: u8,
        /// The promotion piece's letter, lowercase.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        promotion: Option<String>,
    },
    /// A split.
    Split {
        /// Source square.
        from: u8,
        /// First target.
        #[serde(rename = "targetA")]
        target_a: u8,
        /// Second target.
        #[serde(rename = "targetB")]
        target_b: u8,
    },
    /// A merge.
    Merge {
        /// First source.
        #[serde(rename = "sourceA")]
        source_a: u8,
        /// Second source.
        #[serde(rename = "sourceB")]
        source_b: u8,
        /// Target.
        to: u8,
    },
}
