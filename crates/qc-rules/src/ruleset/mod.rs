//! One interface over every ruleset, so that a command, a protocol or a binding is written once.
//!
//! [`Ruleset`] is the ruleset itself: its name, its start positions and rule options, its game
//! files. [`QuantumGame`] is a game in progress on some [`Backend`]: play a move written in the
//! ruleset's notation (outcomes written in are forced, the others sampled from the caller's
//! `rand` source), undo it (restoring the snapshot taken before it), list a move's outcomes with
//! their exact probabilities (computed on the simulator), the legal moves with their kind, one [`Status`], the circuit and its recorded outcomes, the instructions of move N, the
//! record, a [`BoardView`] for the renderers, and ruleset-specific extras for JSON.
//!
//! Quantum Chess ([`Cantwell`], on [`crate::Game`]) and Niel's Chess ([`Niels`], on
//! [`crate::niels::NielsGame`]) implement both. A third ruleset implements them too and adds one
//! arm to the command line's `RulesChoice` (see `docs/architecture.md`).

mod cantwell;
mod niels;
pub mod view;

pub use cantwell::{Cantwell, CantwellError, FIFTY_MOVE_BOARD_TAG, REPETITION_BOARD_TAG};
pub use niels::{Niels, NielsStart};
pub use view::{BoardView, MarkView, PairView, SquareView, WireLabel};

use crate::piece::Color;
use qc_ir::{Backend, Circuit, Square};
use serde_json::{Map, Value};
use std::ops::Range;

/// Why a game ended in a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Both kings vanished at once (Quantum Chess).
    BothKingsGone,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 50 moves (100 plies) without a capture or pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// No checkmate can follow (only kings left).
    InsufficientMaterial,
}

/// How a game was won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The other king has probability zero (Quantum Chess: it was captured in every branch).
    KingCaptured,
    /// The other side is checkmated (Niel's Chess).
    Checkmate,
}

/// Whether a game goes on, and how it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// This colour won, for this reason.
    Win(Color, WinReason),
    /// A draw, with its reason.
    Draw(DrawReason),
}

impl Status {
    /// The status as JSON spells it: `ongoing`, `white_wins`, `black_wins`, `draw` (both kings
    /// gone), `stalemate`, `draw_fifty_moves`, `draw_repetition`, `draw_insufficient_material`.
    /// Text outputs use the words of [`Status`]'s `Display` instead.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Win(Color::White, _) => "white_wins",
            Status::Win(Color::Black, _) => "black_wins",
            Status::Draw(DrawReason::BothKingsGone) => "draw",
            Status::Draw(DrawReason::Stalemate) => "stalemate",
            Status::Draw(DrawReason::FiftyMoves) => "draw_fifty_moves",
            Status::Draw(DrawReason::Repetition) => "draw_repetition",
            Status::Draw(DrawReason::InsufficientMaterial) => "draw_insufficient_material",
        }
    }

    /// True once the game has ended.
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}

/// The status in words, as the text outputs print it: `game on`, `White wins (king captured)`,
/// `Black wins by checkmate`, `Draw by stalemate`, ...
impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Status::Ongoing => f.write_str("game on"),
            Status::Win(winner, WinReason::KingCaptured) => {
                write!(f, "{} wins (king captured)", winner.name())
            }
            Status::Win(winner, WinReason::Checkmate) => {
                write!(f, "{} wins by checkmate", winner.name())
            }
            Status::Draw(reason) => f.write_str(match reason {
                DrawReason::BothKingsGone => "Draw (both kings captured at once)",
                DrawReason::Stalemate => "Draw by stalemate",
                DrawReason::FiftyMoves => "Draw by the fifty-move rule",
                DrawReason::Repetition => "Draw by threefold repetition",
                DrawReason::InsufficientMaterial => "Draw (insufficient material)",
            }),
        }
    }
}

/// A legal move and its kind (`jump`, `slide`, `split_jump`, ... for Quantum Chess; `move`,
/// `capture`, `superposition`, ... for Niel's Chess).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The move in the ruleset's notation.
    pub text: String,
    /// Its kind, as `moves` groups them.
    pub kind: &'static str,
}

/// A played move as every output shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveView {
    /// The move with its outcomes written in, so that it replays exactly.
    pub text: String,
    /// Its kind (as [`LegalMove::kind`]).
    pub kind: &'static str,
    /// What happened, in words (`capture, measured, outcome 0 (P 0.5000): the white knight was
    /// not on f3: the move did not take place`, `rolled e6 (P 0.5000): the white knight was on e6,
    /// not on c6`).
    pub detail: String,
    /// The outcomes in a few words for a summary (`1`, `e6`), `None` when nothing was sampled.
    pub outcome: Option<String>,
    /// The instructions it emitted, as a range of the game circuit's instruction list.
    pub instructions: Range<usize>,
    /// Ruleset-specific fields for the JSON outputs.
    pub extras: Map<String, Value>,
}

/// One outcome of a move: the move written with that outcome (so that
/// [`QuantumGame::play_text`] plays exactly this outcome), and its exact probability.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveOutcome {
    /// The move in the ruleset's notation with the outcome written in (`b1xc3.m1`,
    /// `e1xe6[e7]`); a move with nothing random is written as it is (`e2e4`).
    pub text: String,
    /// The probability of this outcome, read from the state (not sampled).
    pub probability: f64,
}

/// A game in progress on a backend, whatever its ruleset.
pub trait QuantumGame {
    /// Why a move (or an undo) was refused.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Plays a move written in the ruleset's notation: outcomes written in are forced, the
    /// others sampled from `rng`. On error nothing changes.
    fn play_text(
        &mut self,
        text: &str,
        rng: &mut dyn rand::RngCore,
    ) -> Result<MoveView, Self::Error>;

    /// Takes back the last move exactly (state, circuit, position) and returns it.
    fn undo(&mut self) -> Result<MoveView, Self::Error>;

    /// Every outcome of the legal move `text` that has a chance (at least
    /// [`qc_ir::IMPOSSIBLE_PROBABILITY`]), with its exact probability computed on the backend's
    /// state; they add up to 1. A move with nothing random has one outcome of probability 1.
    /// Outcomes written in `text` are ignored. The game is left as it was (a ruleset may run the
    /// move on the state and restore it). Randomness that is not the move's own (Quantum
    /// Chess: the measurement of every square when the move reaches the fifty-move limit) is
    /// not enumerated.
    ///
    /// # Errors
    /// The move cannot be read, is not legal here, or the game is over.
    fn move_outcomes(&mut self, text: &str) -> Result<Vec<MoveOutcome>, Self::Error>;

    /// The legal moves of the side to move, with their kinds (none once the game is over).
    fn legal_moves(&self) -> Vec<LegalMove>;

    /// Whether the game goes on.
    fn status(&self) -> Status;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// The whole game's circuit so far (set-up, then every move).
    fn circuit(&self) -> &Circuit;

    /// The recorded outcome of every classical bit of [`QuantumGame::circuit`] (index = clbit).
    fn outcomes(&self) -> Vec<Option<bool>>;

    /// The moves played, in order.
    fn moves(&self) -> Vec<MoveView>;

    /// The instructions of move `n` (1 = the first move; 0 = the set-up), as a range of the
    /// circuit's instruction list; `None` when there is no move `n`.
    fn move_instructions(&self, n: usize) -> Option<Range<usize>> {
        let moves = self.moves();
        match n {
            0 => Some(
                0..moves
                    .first()
                    .map_or(self.circuit().instructions().len(), |m| {
                        m.instructions.start
                    }),
            ),
            n => moves.get(n - 1).map(|m| m.instructions.clone()),
        }
    }

    /// What the ancilla wires of [`QuantumGame::circuit`] stand for, where the ruleset gives
    /// them a meaning (Niel's Chess: one wire per pair); empty by default.
    fn wire_labels(&self) -> Vec<WireLabel> {
        Vec::new()
    }

    /// The moves played as text, with move numbers and every outcome written in.
    fn record(&self) -> String;

    /// The current position in the ruleset's FEN.
    fn fen(&self) -> String;

    /// The board for the renderers; with `links`, lines between strongly correlated squares.
    fn board_view(&self, links: bool) -> BoardView;

    /// The number of basis states of the quantum state.
    fn state_size(&self) -> usize;

    /// The Bell-operator expectations `<O1>..<O8>` and the (same, opposite) correlation of two
    /// squares, where the ruleset gives squares qubits; `None` otherwise.
    fn bell(&self, square1: Square, square2: Square) -> Option<([f64; 8], (f64, f64))>;

    /// Ruleset-specific fields for the JSON outputs.
    fn extras(&self) -> Map<String, Value>;

    /// The exact probability of each full-board measurement of the current state, named by its
    /// occupied squares and their pieces (`Ke1 Nc3 ...`), where the ruleset gives squares qubits;
    /// `None` otherwise.
    fn board_distribution(&self) -> Option<Vec<(String, f64)>> {
        None
    }

    /// The most likely outcome of measuring every square, as a FEN (the pieces standing on the
    /// squares that outcome occupies), with its probability; `None` where the ruleset's FEN is
    /// already exact (Niel's Chess writes its pairs). A Quantum Chess FEN is the classical
    /// register, which lists every square a piece may be on: a knight split onto f3 and h3 shows
    /// as two knights.
    fn most_likely_board(&self) -> Option<(String, f64)> {
        None
    }

    /// Claims a draw the player may claim (Quantum Chess: threefold repetition, which measures
    /// every square) and says what happened; `None` where draws are automatic (nothing to
    /// claim).
    fn claim(&mut self, _rng: &mut dyn rand::RngCore) -> Option<Result<String, Self::Error>> {
        None
    }

    /// A line about the draw rules' counters (`Fifty-move counter: 9/100   Can claim:
    /// repetition`), for the text outputs; `None` when there is nothing to say.
    fn endings_note(&self) -> Option<String> {
        None
    }
}

/// Where a move was written in a game file (1-based; 0 for `--moves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The move text.
    pub text: String,
    /// Its line.
    pub line: usize,
    /// Its column.
    pub column: usize,
}

/// A game file read: its tags, its start position and its moves.
#[derive(Clone, Debug)]
pub struct GameText<S> {
    /// The tags other than the start position and the rule options, in file order.
    pub tags: Vec<(String, String)>,
    /// The start position with the rule options in force.
    pub start: S,
    /// The moves.
    pub moves: Vec<WrittenMove>,
}

/// A ruleset: its name, its start positions and rule options, its game files, and the game
/// engine that plays it.
pub trait Ruleset {
    /// The name as `--rules` spells it.
    const NAME: &'static str;
    /// The extension of its game files, without the dot (`qcg`).
    const GAME_FILE_EXTENSION: &'static str;
    /// A start position with the rule options in force.
    type Start: Clone;
    /// A game of this ruleset on backend `B`.
    type Game<B: Backend>: QuantumGame<Error = Self::Error>;
    /// Why a position, a game file or a move was refused.
    type Error: std::error::Error + Send + Sync + 'static;

    /// A start position from a FEN (`None`: the standard start) and rule options (`None`: the
    /// defaults; a ruleset without options refuses them).
    fn start(fen: Option<&str>, options: Option<&str>) -> Result<Self::Start, Self::Error>;

    /// Reads a game file; `options`, when given, override the file's.
    fn read_game(text: &str, options: Option<&str>) -> Result<GameText<Self::Start>, Self::Error>;

    /// Splits a move list (as `--moves` gives it) into moves.
    fn read_moves(text: &str) -> Result<Vec<WrittenMove>, Self::Error>;

    /// A new game from `start` on `backend` (which must be in |0...0>).
    fn new_game<B: Backend>(start: &Self::Start, backend: B) -> Result<Self::Game<B>, Self::Error>;

    /// A new game to replay `text` on: [`Ruleset::new_game`] from its start, with what its tags
    /// say about outcomes beyond the moves' own (Quantum Chess: the board a fifty-move ending
    /// measured, so that the replay ends the same way). The caller then plays the moves.
    fn game_for<B: Backend>(
        text: &GameText<Self::Start>,
        backend: B,
    ) -> Result<Self::Game<B>, Self::Error> {
        Self::new_game(&text.start, backend)
    }

    /// Completes a replay of `text` once its moves are played on `game` (from
    /// [`Ruleset::game_for`]): what the file records after its last move (Quantum Chess: a
    /// claimed threefold repetition, measured again to the board the file records). Nothing by
    /// default.
    ///
    /// # Errors
    /// When what the file records cannot happen in the replayed game (a claim where the
    /// position has not occurred twice before, a board the state cannot give).
    fn finish_replay<B: Backend>(
        _text: &GameText<Self::Start>,
        _game: &mut Self::Game<B>,
    ) -> Result<(), Self::Error> {
        Ok(())
    }

    /// The game as a game file that replays exactly: `tags`, the start position and rule
    /// options, then every move with its outcomes.
    fn write_game<B: Backend>(
        tags: &[(String, String)],
        start: &Self::Start,
        game: &Self::Game<B>,
    ) -> String;

    /// The rule options in force, as they are written (`None` for a ruleset without options).
    fn options_name(start: &Self::Start) -> Option<String>;

    /// The start position in the ruleset's FEN.
    fn start_fen(start: &Self::Start) -> String;
}

#[cfg(test)]
mod tests;
