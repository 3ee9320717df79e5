//! # qc-rules: Quantum Chess rules lowered to qc-ir circuits
//!
//! Cantwell's Quantum Chess: the classical register ([`board`]), QCAN notation ([`qcan`]), move
//! classification and lowering to circuits exactly as `circuits.md` says, and the game engine,
//! which runs moves on any [`qc_ir::Backend`].

pub mod board;
pub mod fen;
pub mod gamefile;
pub mod niels;
pub mod notation_error;
pub mod piece;
pub mod qcan;

pub use board::{Board, CastlingRights};
pub use fen::START_FEN;
pub use gamefile::{GameRecord, GameResult, RecordedMove, Tag};
pub use notation_error::{FenErrorKind, FenField, GameErrorKind, MoveErrorKind, NotationError};
pub use piece::{Color, Piece, PieceKind};
pub use qcan::{parse_move_list, MoveShape, QcanMove, VariantMark};
