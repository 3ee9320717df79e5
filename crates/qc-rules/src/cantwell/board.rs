//! The classical part of a position: the piece register (a piece letter per square that may be
//! occupied), side to move, castling rights, en passant square and counters.
//!
//! The quantum part (which squares are occupied, with what amplitude) lives in a
//! [`qc_ir::Backend`]; the register says what kind of piece a square holds *if* it is occupied
//! (paper sec. 5; the no-double-occupancy rule keeps that unambiguous).

use crate::chess::{CastlingRights, Color, Piece, Square};

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
