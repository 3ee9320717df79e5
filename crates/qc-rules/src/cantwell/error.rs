//! The error a move can fail with: which rule it breaks, with the squares involved. A failed move
//! changes nothing (board, quantum state, circuit and history are as before).

use crate::cantwell::classify::{MoveType, Variant};
use crate::chess::Square;
use crate::chess::{Castling, Color, Piece, PieceKind};
use crate::ruleset::{RightLost, Status};
use qc_ir::{BackendError, ExecError};
use thiserror::Error;

/// How a Quantum Chess game ended, in the words of [`MoveError::GameOver`].
fn over_words(status: Status) -> &'static str {
    match status {
        Status::Win(Color::White, _) => "white won",
        Status::Win(Color::Black, _) => "black won",
        Status::Draw(_) => "draw",
        Status::Ongoing => "it goes on",
    }
}

/// Why a move was rejected.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum MoveError {
    /// `0000` is notation only; the engine does not pass a turn.
    #[error("the null move 0000 cannot be played")]
    NullMove,
    /// The game has already ended.
    #[error("the game is over ({})", over_words(*.status))]
    GameOver {
        /// How it ended.
        status: Status,
    },
    /// Nothing may be on the source square.
    #[error("no piece on {square} to move")]
    EmptySource {
        /// The source.
        square: Square,
    },
    /// The piece on the source belongs to the side not to move.
    #[error("{piece} on {square} belongs to {owner:?}, but it is {to_move:?}'s turn")]
    NotYourPiece {
        /// The source.
        square: Square,
        /// Its piece.
        piece: Piece,
        /// Its owner.
        owner: Color,
        /// The side to move.
        to_move: Color,
    },
    /// The written piece prefix is not the piece on the source.
    #[error("the move names a {written:?} but {square} holds {actual}")]
    PrefixMismatch {
        /// The source.
        square: Square,
        /// The prefix written.
        written: PieceKind,
        /// The register's piece.
        actual: Piece,
    },
    /// The target is not reachable by the piece's movement pattern.
    #[error("{piece} cannot move from {from} to {to} (not its movement pattern)")]
    BadPattern {
        /// The piece.
        piece: Piece,
        /// Source.
        from: Square,
        /// Target.
        to: Square,
    },
    /// A path square is occupied with certainty (decision 4).
    #[error("the path from {from} to {to} is blocked with certainty at {square}")]
    PathBlocked {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
        /// The blocking square.
        square: Square,
    },
    /// The target is occupied with certainty by a piece this move cannot capture (decision 16).
    #[error("{square} is occupied with certainty by {occupant}, which this move cannot capture")]
    TargetOccupied {
        /// The target.
        square: Square,
        /// Its piece.
        occupant: Piece,
    },
    /// A split or merge target holds a piece of another type (splits and merges never capture).
    #[error("a split or merge cannot land on {square}: it holds {occupant}, not another {mover}")]
    SplitMergeOntoOtherPiece {
        /// The target.
        square: Square,
        /// Its piece.
        occupant: Piece,
        /// The moving piece.
        mover: Piece,
    },
    /// Pawns cannot split or merge.
    #[error("pawns cannot split or merge ({square})")]
    PawnSplitMerge {
        /// The pawn's square.
        square: Square,
    },
    /// The two named squares of a split or merge are the same.
    #[error("a split or merge needs two different squares, {square} is named twice")]
    RepeatedSquare {
        /// The repeated square.
        square: Square,
    },
    /// The two merge sources hold different pieces.
    #[error("merge sources differ: {first} on {s1}, {second} on {s2}")]
    MergeSourcesDiffer {
        /// First source.
        s1: Square,
        /// Its piece.
        first: Piece,
        /// Second source.
        s2: Square,
        /// Its piece.
        second: Piece,
    },
    /// Castling right lost (king or rook involved in an earlier move, or none at the start).
    #[error("{} has no right to castle {}{lost}", .castling.color.name(), .castling.side_name())]
    CastlingWithoutRights {
        /// The castling tried.
        castling: Castling,
        /// How the right was lost: the game fills in the move that took it away.
        lost: RightLost,
    },
    /// The king or rook is not on its square with certainty.
    #[error("castling needs the king and the rook on {square} with certainty")]
    CastlingPiecesMissing {
        /// The square that fails.
        square: Square,
    },
    /// A square the king or rook must land on or cross is occupied with certainty.
    #[error("castling is blocked with certainty at {square}")]
    CastlingBlocked {
        /// The square.
        square: Square,
    },
    /// A pawn moving diagonally needs an opponent piece (or the en passant right).
    #[error("a pawn can move diagonally to {square} only to capture an opponent piece")]
    PawnCaptureWithoutVictim {
        /// The target.
        square: Square,
    },
    /// En passant with no opponent pawn on the square beside the source.
    #[error("en passant needs an opponent pawn on {square}")]
    NoEnPassantVictim {
        /// Where the pawn should be.
        square: Square,
    },
    /// A pawn move to the last rank without a promotion piece.
    #[error("a pawn reaching {square} must promote (append n, b, r or q)")]
    PromotionMissing {
        /// The target.
        square: Square,
    },
    /// A promotion on a move that does not promote.
    #[error("only a pawn reaching the last rank promotes; this move cannot promote")]
    PromotionNotAllowed,
    /// Promotion to a pawn or a king.
    #[error("cannot promote to {0:?}")]
    BadPromotionPiece(PieceKind),
    /// The `x` / `w` mark disagrees with the classification.
    #[error("the move is marked as {written:?} but it is a {classified} {move_type}")]
    MarkMismatch {
        /// The variant the mark means.
        written: Variant,
        /// The variant it is.
        classified: Variant,
        /// Its type.
        move_type: MoveType,
    },
    /// Definition 2: the move would leave the state unchanged; the same player moves again.
    #[error("the move leaves the quantum state unchanged, so it is not legal (Definition 2)")]
    Unchanged,
    /// The move fails in every branch of the superposition (Definition 2): played, it would
    /// measure a certain "not applied" and spend the turn as a free null move.
    #[error("the move fails in every branch of the superposition (its condition holds in none), so it cannot change the state and is not legal (Definition 2); the turn is not spent")]
    CertainlyFails,
    /// A forced `.m0`/`.m1` outcome that cannot happen.
    #[error("measurement outcome {} is impossible for this move", u8::from(*outcome))]
    ImpossibleOutcome {
        /// The outcome asked for.
        outcome: bool,
    },
    /// `claim` when the current position has not occurred twice before (or the game is over).
    #[error("nothing to claim: the position occurred {repetitions} time(s) before, a claim needs 2 (threefold repetition); the fifty-move rule needs no claim")]
    NothingToClaim {
        /// How many times the current position occurred before.
        repetitions: usize,
    },
    /// A forced full measurement whose bitboard has probability zero.
    #[error("the forced full-board measurement {bitboard:#018x} has probability zero")]
    ImpossibleBoard {
        /// The bitboard asked for (bit k = square k).
        bitboard: u64,
    },
    /// Nothing to undo.
    #[error("there is no move to undo")]
    NothingToUndo,
    /// The snapshot needed to undo this move was dropped to keep the undo history within its
    /// memory budget.
    #[error(
        "cannot undo further: older snapshots were dropped to keep the undo history within \
         {budget_bytes} bytes (Game::set_undo_budget)"
    )]
    UndoBeyondBudget {
        /// The undo budget in bytes.
        budget_bytes: u128,
    },
    /// The backend failed while running the move.
    #[error("the backend failed: {0}")]
    Backend(#[from] ExecError),
    /// The simulator could not keep what a move needs beside its state (the snapshot to take
    /// the move back, a copy to compare the state with the one before): its memory limit, or
    /// the allocator refused.
    #[error("the simulator has no room for this move: {0}")]
    Memory(#[from] BackendError),
}
