//! Errors of the Niel's Chess engine: bad position text, bad move text, illegal moves, and
//! backend failures while collapsing.

use crate::chess::Square;
use qc_ir::BackendError;
use thiserror::Error;

/// `, line L, column C` for a move read from a file, nothing for one of a move list (line 0).
fn place(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(", line {line}, column {column}")
    }
}

/// Everything that can go wrong in the Niel's Chess module.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum NielsError {
    /// The FEN-like position text is malformed.
    #[error("bad Niel's FEN `{text}`: {reason}")]
    Fen {
        /// The offending field or token.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The move text does not parse.
    #[error("bad Niel's move `{text}`: {reason}")]
    Notation {
        /// The move text.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A move of a game file or move list does not parse.
    #[error("move {number} `{text}`{}: {source}", place(*.line, *.column))]
    BadMove {
        /// The move's 1-based number in the file or list.
        number: usize,
        /// The move as written.
        text: String,
        /// Its line (0 for a move list).
        line: usize,
        /// Its column.
        column: usize,
        /// Why it does not parse.
        source: Box<NielsError>,
    },
    /// The move is not legal in the position.
    #[error("illegal Niel's move `{text}`: {reason}")]
    Illegal {
        /// The move in canonical notation.
        text: String,
        /// Why it is illegal.
        reason: String,
    },
    /// A recorded collapse outcome names a square the rolled pair does not occupy.
    #[error("recorded outcome {square} is not a square of the pair rolled ({red} or {blue})")]
    BadOutcome {
        /// The recorded square.
        square: Square,
        /// The pair's red square.
        red: Square,
        /// The pair's blue square.
        blue: Square,
    },
    /// The move needs more (or fewer) recorded outcomes than were given.
    #[error("move `{text}` rolled {rolled} time(s) but {recorded} outcome(s) were recorded")]
    OutcomeCount {
        /// The move in canonical notation.
        text: String,
        /// Rolls the move made.
        rolled: usize,
        /// Outcomes recorded.
        recorded: usize,
    },
    /// The backend failed (an impossible forced outcome, a dirty ancilla, ...).
    #[error("backend error during move {ply}: {source}")]
    Backend {
        /// Ply index (0-based) of the move.
        ply: usize,
        /// The backend's error.
        source: BackendError,
    },
    /// The game has ended (checkmate, stalemate or a draw), so no move has outcomes.
    #[error("the game is over: {0}")]
    GameOver(crate::ruleset::Status),
    /// `undo` with no move played.
    #[error("no move to take back")]
    NothingToUndo,
    /// What undoing this move needs was dropped to keep the undo history within its memory
    /// budget.
    #[error(
        "cannot take back further: older moves were dropped to keep the undo history within \
         {budget_bytes} bytes"
    )]
    UndoBeyondBudget {
        /// The undo budget in bytes.
        budget_bytes: u128,
    },
    /// The circuit and the classical model disagree (an engine bug, reported instead of a panic).
    #[error("internal inconsistency: {0}")]
    Internal(String),
}
