//! The classical part of a position: the piece register (a piece letter per square that may be
//! occupied), side to move, castling rights, en passant square and counters.
//!
//! The quantum part (which squares are occupied, with what amplitude) lives in a
//! [`qc_ir::Backend`]; the register says what kind of piece a square holds *if* it is occupied
//! (paper sec. 5; the no-double-occupancy rule keeps that unambiguous).

use crate::piece::{Color, Piece};
use qc_ir::Square;
use serde::{Deserialize, Serialize};

/// The largest half-move clock or full-move number a FEN may give (Quantum Chess and Niel's
/// positions alike): far beyond any real game, and far enough below `u32::MAX` that counting on
/// from it can never wrap.
pub const MAX_FEN_COUNTER: u32 = 1_000_000_000;

/// Why a FEN move counter was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CounterError {
    /// Not a non-empty string of decimal digits.
    NotANumber,
    /// Larger than [`MAX_FEN_COUNTER`].
    TooLarge,
}

/// Reads a FEN move counter (both rulesets): decimal digits, at most [`MAX_FEN_COUNTER`].
pub(crate) fn parse_move_counter(text: &str) -> Result<u32, CounterError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CounterError::NotANumber);
    }
    // Saturating, so that a digit string longer than any integer is too large, not malformed.
    let value = text.bytes().fold(0u64, |v, digit| {
        v.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
    });
    u32::try_from(value)
        .ok()
        .filter(|v| *v <= MAX_FEN_COUNTER)
        .ok_or(CounterError::TooLarge)
}

/// Castling rights, as FEN's `KQkq`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CastlingRights {
    /// White kingside (`K`).
    pub white_kingside: bool,
    /// White queenside (`Q`).
    pub white_queenside: bool,
    /// Black kingside (`k`).
    pub black_kingside: bool,
    /// Black queenside (`q`).
    pub black_queenside: bool,
}

/// The classical register and flags of a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The piece that may occupy each square (index = `Square::index()`), `None` if the square is
    /// certainly empty.
    pub pieces: [Option<Piece>; 64],
    /// The side to move.
    pub side_to_move: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// The FEN en passant target square (the square a capturing pawn moves to), if any.
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move (FEN halfmove clock).
    pub halfmove_clock: u32,
    /// FEN fullmove number (starts at 1, incremented after Black's move).
    pub fullmove_number: u32,
}

impl Board {
    /// An empty board, White to move, no rights.
    pub fn empty() -> Board {
        Board {
            pieces: [None; 64],
            side_to_move: Color::White,
            castling: CastlingRights::default(),
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The piece register entry of `square`.
    pub fn piece(&self, square: Square) -> Option<Piece> {
        self.pieces[square.index()]
    }

    /// Sets the piece register entry of `square`.
    pub fn set_piece(&mut self, square: Square, piece: Option<Piece>) {
        self.pieces[square.index()] = piece;
    }
}
