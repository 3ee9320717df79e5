//! Why a view could not be answered.

use thiserror::Error;

/// Why a view could not be answered (an HTTP server answers 400 with this message).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SdkError {
    /// The body is not the SDK's JSON (bad JSON, a missing field, a wrong type).
    #[error("the request is not {{view, clock}} in the SDK's shape: {0}")]
    Json(String),
    /// A move string of the history does not read as a move.
    #[error("moveHistory[{index}]: `{text}` is not a move ({reason})")]
    BadMoveString {
        /// Its index in `moveHistory`.
        index: usize,
        /// The move string (at most 40 characters).
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A measured move without `measurementPassed`, or whose string's `.m0`/`.m1` contradicts it.
    #[error("moveHistory[{index}]: {reason}")]
    BadOutcome {
        /// Its index in `moveHistory`.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// A move of `gameData.position.setupMoves` (the moves that set up a quantum start) does
    /// not read or cannot be played.
    #[error("gameData.position.setupMoves[{index}] `{text}`: {reason}")]
    SetupMove {
        /// Its index in `setupMoves`.
        index: usize,
        /// The move string as given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The start position does not read.
    #[error("gameData.position.startingFen: {0}")]
    StartingFen(String),
    /// A move of the history cannot be replayed under qchess's rules.
    #[error("moveHistory[{index}] `{text}` cannot be replayed: {reason}")]
    Replay {
        /// Its index in `moveHistory`.
        index: usize,
        /// The move as qchess read it.
        text: String,
        /// Why the game refused it.
        reason: String,
    },
    /// `sideToMove` is not the side the history leaves to move.
    #[error("sideToMove is {given}, but the history leaves {actual} to move")]
    SideToMove {
        /// What the view says.
        given: &'static str,
        /// What the replay says.
        actual: &'static str,
    },
    /// `gameData.board.probabilities` does not have 64 entries.
    #[error("gameData.board.probabilities has {0} entries, expected 64 (a1 = 0 ... h8 = 63)")]
    ProbabilityCount(usize),
    /// The state rebuilt from the history is not the one the view shows.
    #[error("the state rebuilt from moveHistory gives {square} a probability of {rebuilt:.6}, but gameData.board.probabilities says {view:.6}: the history does not describe this board")]
    Disagrees {
        /// The first square that differs.
        square: String,
        /// What the view says.
        view: f64,
        /// What the rebuilt state says.
        rebuilt: f64,
    },
    /// The game is already over after the history.
    #[error("the game is over after the history ({0})")]
    GameOver(String),
    /// No legal move both qchess and the view list.
    #[error("no move is legal both in qchess and in view.legalMoves ({view} listed by the view)")]
    NoLegalMove {
        /// The number of moves the view lists.
        view: usize,
    },
}
