//! # qc-rules: Quantum Chess rules lowered to qc-ir circuits
//!
//! Cantwell's Quantum Chess: the classical register ([`board`]), QCAN notation ([`qcan`]),
//! movement patterns ([`geometry`]), move classification ([`mod@classify`]) and lowering to circuits
//! exactly as `circuits.md` says ([`mod@lower`]), and the game engine ([`game`]), which runs moves on
//! any [`qc_ir::Backend`]. The choices made where the sources leave room are in `docs/rules.md`.

pub mod board;
pub mod classify;
pub mod definition2;
pub mod error;
pub mod fen;
pub mod game;
pub mod gamefile;
pub mod geometry;
pub mod kinds;
pub mod lower;
pub mod measured;
pub mod movegen;
pub mod niels;
pub mod notation_error;
pub mod observe;
pub mod occupancy;
pub mod piece;
pub mod qcan;
pub mod ruleset;
pub mod undo;

pub use board::{Board, CastlingRights};
pub use classify::{classify, Classified, MoveType, Variant};
pub use error::MoveError;
pub use fen::START_FEN;
pub use game::{
    Ending, FiftyMoveCounter, FullMeasurement, Game, GameStatus, MoveRecord, FIFTY_MOVE_PLIES,
    UNCHANGED_FIDELITY,
};
pub use gamefile::{GameRecord, GameResult, RecordedMove, Tag};
pub use lower::{lower, rule_name, Lowered};
pub use movegen::possible_moves;
pub use notation_error::{FenErrorKind, FenField, GameErrorKind, MoveErrorKind, NotationError};
pub use observe::{bell_expectations, same_opposite};
pub use occupancy::{Occupancy, SquareStatus};
pub use piece::{Color, Piece, PieceKind};
pub use qcan::{parse_move_list, MoveShape, QcanMove, VariantMark};
pub use ruleset::{
    BoardView, Cantwell, DrawReason, GameText, LegalMove, MoveOutcome, MoveView, Niels,
    QuantumGame, Ruleset, Status, WinReason, WireLabel, WrittenMove,
};
