//! # qc-rules: quantum chess rules lowered to qc-ir circuits
//!
//! Two rulesets on one footing: Cantwell's Quantum Chess ([`cantwell`]: QCAN moves, split and
//! merge, capture and exclusion measurements) and Niel's Chess ([`niels`]: pieces in a box,
//! indefinite pairs and dice rolls). Both build on the chess they share ([`chess`]: squares,
//! pieces, castling rights, FEN counters, how pieces move) and are played through one interface
//! ([`ruleset`]: [`Ruleset`] and [`QuantumGame`], a move read once from text, one [`Status`],
//! one [`PlayedMove`], one [`GameFile`]), on any [`qc_ir::Backend`].

pub mod cantwell;
pub mod chess;
pub mod ledger;
pub mod niels;
pub mod ruleset;
pub mod undo;

pub use cantwell::board::Board;
pub use cantwell::classify::{classify, Classified, MoveType, Variant};
pub use cantwell::error::MoveError;
pub use cantwell::fen::START_FEN;
pub use cantwell::game::{
    Ending, FiftyMoveCounter, FullMeasurement, Game, PlayedQcan, FIFTY_MOVE_PLIES,
    UNCHANGED_FIDELITY,
};
pub use cantwell::gamefile::GameRecord;
pub use cantwell::kinds::MoveClass;
pub use cantwell::lower::{lower, rule_name, Lowered};
pub use cantwell::movegen::possible_moves;
pub use cantwell::notation_error::{
    FenErrorKind, FenField, GameErrorKind, MoveErrorKind, NotationError,
};
pub use cantwell::observe::{bell_expectations, same_opposite};
pub use cantwell::occupancy::{Occupancy, SquareStatus};
pub use cantwell::qcan::{parse_move_list, MoveShape, QcanMove, VariantMark};
pub use chess::{Castling, CastlingRights, Color, Piece, PieceKind, Square};
pub use ledger::UndoControls;
pub use ruleset::{
    BoardView, Cantwell, Claimed, Comment, DrawReason, Endings, GameFile, GameMove, GameResult,
    GivenOutcome, LegalMove, MoveNumber, MoveOutcome, MoveRef, MoveRefError, MoveSquares, Niels,
    OutcomeShapeError, PlayedMove, QuantumGame, Roll, Ruleset, SameSquare, SquarePair, Status,
    Switch, Tag, WinReason, WireLabel, WrittenMove,
};
