//! The official Quantum Chess app's AI protocol, as pure functions: the JSON a custom AI
//! receives (`{view, clock}`, the shapes of the app's public SDK, `QCEngineView` and `QCClock`),
//! the exact game rebuilt from it, and the answer in the SDK's `QCMoveChoice` shape.
//!
//! The types here are written from the SDK's published TypeScript types (MIT-licensed). Only the
//! fields qchess reads are required: `view.gameData.board`, `view.sideToMove`,
//! `view.legalMoves.{standard,splits,merges}` and `view.moveHistory[*].{moveString,
//! wasMeasurement}`; the others are read when present. Squares are numbered 0-63 from a1
//! (a1 = 0, b1 = 1, ..., h8 = 63), as in qchess.
//!
//! The state is rebuilt from `view.moveHistory`, from `view.gameData.position.startingFen` (the
//! standard start when absent): each record's `moveString` (`e2-e4`, `e5-d6ep`, `e7-e8Q`,
//! `b1^a3c3`, `a3c3^b5`, with or without `.m0`/`.m1`) is read into QCAN, and its outcome is
//! written in from `measurementPassed` (`.m1` when it passed or nothing was measured: the move
//! was applied; `.m0` when it failed or `wasBlocked`). Replaying forces those outcomes, so the
//! state is exactly the app's. A history qchess cannot replay (an outcome impossible here, a move
//! qchess's rules refuse) is an error with the move's number, and so is a rebuilt state whose
//! square probabilities differ from `gameData.board.probabilities` by more than
//! [`PROBABILITY_TOLERANCE`] (the app's board and qchess's would not be the same game).
//!
//! One job per module: `types` (the SDK's JSON shapes), `error` (why a view is refused),
//! `history` (the request and its move strings read into QCAN with their outcomes), `rebuild`
//! (the exact game replayed from them and checked against the view), `choice` (qchess's moves
//! in the SDK's shape, and where the two lists of legal moves differ) and `answer` (the time an
//! answer may take, and the search behind it). Every public item is re-exported here, so that
//! users name `qc_front::sdk::X` whichever module defines it.

mod answer;
mod choice;
mod error;
mod history;
mod rebuild;
mod types;

pub use answer::{answer, answer_telling, limits_for, move_limits, Answer, UNTIMED_MOVE_TIME};
pub use choice::{choice_of, legal_differences, listed, LegalDifferences, DIFFERENCES_SHOWN};
pub use error::SdkError;
pub use history::{history, parse_request, read_move_string};
pub use rebuild::{rebuild, PROBABILITY_TOLERANCE};
pub use types::{
    BoardState, Clock, EngineView, GameData, LegalMoveSet, MergeOption, MoveChoice, MoveRecord,
    MoveRequest, PositionData, Side, SplitOption, StandardOption,
};
