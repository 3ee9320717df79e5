//! FEN for the classical register: [`Board::from_fen`], [`Board::to_fen`] and the standard start
//! position [`Board::start`].
//!
//! Standard 6-field FEN; a 4-field record (no counters) is accepted with halfmove clock 0 and
//! fullmove number 1. The en passant field is FEN's target square, the square the pawn skipped
//! (`e3` after `e2e4`), which is what [`Board::en_passant`] holds. (The official engine's
//! `ep_square` is the square of the pawn itself, `e4`; convert when talking to it.)
//! A square that holds a piece in the register may be occupied in superposition: FEN only
//! records which piece it would be.

use crate::cantwell::board::Board;
use crate::cantwell::notation_error::{FenErrorKind, FenField, NotationError};
use crate::chess::Square;
use crate::chess::{
    parse_move_counter, CastlingError, CastlingRights, CounterError, MAX_FEN_COUNTER,
};
use crate::chess::{Color, Piece, PieceKind};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn fen_error(field: FenField, text: &str, kind: FenErrorKind) -> NotationError {
    NotationError::Fen {
        field,
        text: text.to_string(),
        kind,
    }
}

impl Board {
    /// The standard chess start position, White to move, all castling rights.
    pub fn start() -> Board {
        const BACK_RANK: [PieceKind; 8] = [
            PieceKind::Rook,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Queen,
            PieceKind::King,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Rook,
        ];
        let mut board = Board::empty();
        for (file, kind) in BACK_RANK.into_iter().enumerate() {
            let file = file as i32;
            for (rank, piece) in [
                (0, Piece::new(Color::White, kind)),
                (1, Piece::new(Color::White, PieceKind::Pawn)),
                (6, Piece::new(Color::Black, PieceKind::Pawn)),
                (7, Piece::new(Color::Black, kind)),
            ] {
                if let Some(square) = Square::from_coords(file, rank) {
                    board.set_piece(square, Some(piece));
                }
            }
        }
        board.castling = CastlingRights::ALL;
        board
    }

    /// Parses a FEN record (6 fields, or 4 without the counters).
    ///
    /// Errors name the field and the reason ([`NotationError::Fen`]).
    pub fn from_fen(fen: &str) -> Result<Board, NotationError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(fen_error(
                FenField::Record,
                fen,
                FenErrorKind::FieldCount {
                    found: fields.len(),
                },
            ));
        }
        let mut board = Board::empty();
        board.pieces = parse_placement(fields[0])?;
        board.side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(fen_error(FenField::Side, other, FenErrorKind::BadSide)),
        };
        board.castling = parse_castling(fields[2])?;
        board.en_passant = parse_en_passant(fields[3], board.side_to_move)?;
        if fields.len() == 6 {
            board.halfmove_clock = parse_counter(FenField::Halfmove, fields[4])?;
            board.fullmove_number = parse_counter(FenField::Fullmove, fields[5])?;
            if board.fullmove_number == 0 {
                return Err(fen_error(
                    FenField::Fullmove,
                    fields[5],
                    FenErrorKind::ZeroFullmove,
                ));
            }
        }
        Ok(board)
    }

    /// The 6-field FEN record of this board (castling in `KQkq` order).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for file in 0..8 {
                let piece = Square::from_coords(file, rank).and_then(|s| self.piece(s));
                match piece {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move.fen_char());
        fen.push(' ');
        fen.push_str(&self.castling.to_string());
        fen.push(' ');
        match self.en_passant {
            Some(square) => fen.push_str(&square.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        fen
    }
}

fn parse_placement(text: &str) -> Result<[Option<Piece>; 64], NotationError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(fen_error(
            FenField::Placement,
            text,
            FenErrorKind::RankCount { found: ranks.len() },
        ));
    }
    let mut pieces = [None; 64];
    // FEN lists rank 8 first.
    for (rank_text, rank) in ranks.into_iter().zip((0..8u8).rev()) {
        let mut squares = 0u32;
        for c in rank_text.chars() {
            if let Some(run) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                squares += run;
                continue;
            }
            let piece = Piece::from_fen_char(c).ok_or_else(|| {
                fen_error(
                    FenField::Placement,
                    text,
                    FenErrorKind::UnknownPiece { letter: c },
                )
            })?;
            if let Some(square) = Square::from_coords(squares as i32, i32::from(rank)) {
                pieces[square.index()] = Some(piece);
            }
            squares += 1;
        }
        if squares != 8 {
            return Err(fen_error(
                FenField::Placement,
                text,
                FenErrorKind::RankLength {
                    rank: rank + 1,
                    squares,
                },
            ));
        }
    }
    Ok(pieces)
}

fn parse_castling(text: &str) -> Result<CastlingRights, NotationError> {
    text.parse().map_err(|e| {
        let kind = match e {
            CastlingError::BadLetter(letter) => FenErrorKind::BadCastlingLetter { letter },
            CastlingError::Duplicate(letter) => FenErrorKind::DuplicateCastlingLetter { letter },
        };
        fen_error(FenField::Castling, text, kind)
    })
}

fn parse_en_passant(text: &str, side_to_move: Color) -> Result<Option<Square>, NotationError> {
    if text == "-" {
        return Ok(None);
    }
    let square = Square::parse(text)
        .ok_or_else(|| fen_error(FenField::EnPassant, text, FenErrorKind::BadSquare))?;
    // The target is the square the opponent's pawn just skipped.
    let expected_rank = match side_to_move {
        Color::White => 5,
        Color::Black => 2,
    };
    if square.rank() != expected_rank {
        return Err(fen_error(
            FenField::EnPassant,
            text,
            FenErrorKind::EnPassantRank {
                rank: square.rank() as u8 + 1,
                expected: expected_rank as u8 + 1,
            },
        ));
    }
    Ok(Some(square))
}

fn parse_counter(field: FenField, text: &str) -> Result<u32, NotationError> {
    parse_move_counter(text).map_err(|e| {
        let kind = match e {
            CounterError::NotANumber => FenErrorKind::BadNumber,
            CounterError::TooLarge => FenErrorKind::CounterTooLarge {
                max: MAX_FEN_COUNTER,
            },
        };
        fen_error(field, text, kind)
    })
}
