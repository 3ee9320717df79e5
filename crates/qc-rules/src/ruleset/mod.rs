//! One interface over every ruleset, so that a command, a protocol or a binding is written once.
//!
//! [`Ruleset`] is the ruleset itself: its name, its start positions and rule options, its move
//! notation ([`Ruleset::Move`], read from text once by `FromStr` and written back by `Display`),
//! its game files ([`GameFile`]). [`QuantumGame`] is a game in progress on some [`Backend`]: play
//! a move (outcomes written in are forced, the others sampled from the caller's `rand` source),
//! undo it (restoring what was saved before it), list a move's outcomes with their exact
//! probabilities (computed on the simulator), the legal moves with their kind, one [`Status`],
//! the circuit and its recorded outcomes, the moves played ([`PlayedMove`]), the instructions of
//! move N, the record, a [`BoardView`] for the renderers, and ruleset-specific extras for JSON.
//!
//! Quantum Chess ([`Cantwell`], on [`crate::Game`]) and Niel's Chess ([`Niels`], on
//! [`crate::niels::NielsGame`]) implement both. A third ruleset implements them too and is registered once, in
//! qc-front's `rules.rs` (see `docs/architecture.md`): every front end reads its title, rule
//! options and switches from here.

pub mod castling_loss;
pub mod file_text;
pub mod game_file;
pub mod numbering;
pub mod pair;
pub mod played;
pub mod status;
pub mod switch;
pub mod view;

pub use crate::cantwell::{Cantwell, CantwellError, FIFTY_MOVE_BOARD_TAG, REPETITION_BOARD_TAG};
pub use crate::niels::{Niels, NielsStart};
pub use castling_loss::{right_lost, RightLost};
pub use file_text::{visible, without_bom, FileOrder, OrderProblem};
pub use game_file::{
    leading_tags, move_text, write_move_text, Comment, GameFile, GameResult, MoveTextToken,
    ResultContradicts, Tag, TagProblem, Wrap, WrittenMove,
};
pub use numbering::{
    first_ply, numbered_line, numbered_pairs, numbered_tokens, MoveNumber, MoveRef, MoveRefError,
    NumberedToken,
};
pub use pair::{SameSquare, SquarePair};
pub use played::{
    GameMove, GivenOutcome, LegalMove, MoveOutcome, MoveSquares, OutcomeShapeError, PlayedMove,
    Roll,
};
pub use status::{DrawReason, Status, WinReason};
pub use switch::{Claimed, Endings, Switch};
pub use view::{BoardView, MarkView, PairView, SquareView, WireLabel};

use crate::chess::Color;
use qc_ir::{Backend, Circuit};
use serde_json::{Map, Value};
use std::ops::Range;
use std::str::FromStr;

/// The error of reading a move of `M`'s notation.
pub type ParseError<M> = <M as FromStr>::Err;

/// What [`QuantumGame::legal_moves_while`] shows the moves found so far to: false stops the
/// listing.
pub type GoOnListing<'a, M> = dyn FnMut(&[LegalMove<M>]) -> bool + 'a;

/// A game in progress on a backend, whatever its ruleset.
pub trait QuantumGame {
    /// A move in the ruleset's notation.
    type Move: GameMove;
    /// Why a move (or an undo) was refused; a move that cannot be read converts into it.
    type Error: std::error::Error + Send + Sync + 'static + From<ParseError<Self::Move>>;
    /// The simulator the game is played on.
    type Backend: Backend;

    /// The simulator, whose state is the quantum part of the current position (for what the
    /// interface does not say: a qubit's probability, the basis states).
    fn backend(&self) -> &Self::Backend;

    /// Plays `mv`: outcomes written in are forced, the others sampled from `rng`. On error
    /// nothing changes.
    fn play(
        &mut self,
        mv: &Self::Move,
        rng: &mut dyn rand::RngCore,
    ) -> Result<&PlayedMove<Self::Move>, Self::Error>;

    /// Reads `text` as a move (once) and plays it, as [`QuantumGame::play`].
    fn play_text(
        &mut self,
        text: &str,
        rng: &mut dyn rand::RngCore,
    ) -> Result<&PlayedMove<Self::Move>, Self::Error> {
        let mv: Self::Move = text.parse()?;
        self.play(&mv, rng)
    }

    /// Takes back the last move exactly (state, circuit, position) and returns it.
    fn undo(&mut self) -> Result<PlayedMove<Self::Move>, Self::Error>;

    /// Every outcome of the legal move `mv` that has a chance (at least
    /// [`qc_ir::IMPOSSIBLE_PROBABILITY`]), with its exact probability computed on the backend's
    /// state; they add up to 1. A move with nothing random has one outcome of probability 1.
    /// Outcomes written in `mv` are ignored. The game is left as it was (a ruleset may run the
    /// move on the state and restore it). Randomness that is not the move's own (Quantum
    /// Chess: the measurement of every square when the move reaches the fifty-move limit) is
    /// not enumerated.
    ///
    /// # Errors
    /// The move is not legal here, or the game is over.
    fn move_outcomes(
        &mut self,
        mv: &Self::Move,
    ) -> Result<Vec<MoveOutcome<Self::Move>>, Self::Error>;

    /// The legal moves of the side to move, with their kinds (none once the game is over).
    fn legal_moves(&self) -> Vec<LegalMove<Self::Move>>;

    /// [`QuantumGame::legal_moves`], listed as they are found: `go_on` is called with the moves
    /// found so far after each candidate move is examined (each costs a pass over the state), and
    /// listing stops when it returns false; `None` then, the list being incomplete. A search
    /// uses it to have a legal move at once (the first found) and to stop listing at its
    /// deadline on a state of millions of basis states, where the whole list takes seconds.
    ///
    /// By default the whole list is made first, then shown to `go_on` once.
    fn legal_moves_while(
        &self,
        go_on: &mut GoOnListing<'_, Self::Move>,
    ) -> Option<Vec<LegalMove<Self::Move>>> {
        let moves = self.legal_moves();
        go_on(&moves).then_some(moves)
    }

    /// Whether the game goes on.
    fn status(&self) -> Status;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// The whole game's circuit so far (set-up, then every move).
    fn circuit(&self) -> &Circuit;

    /// The recorded outcome of every classical bit of [`QuantumGame::circuit`] (index = clbit).
    fn outcomes(&self) -> Vec<Option<bool>>;

    /// The moves played, in order.
    fn moves(&self) -> &[PlayedMove<Self::Move>];

    /// The ply of the first move counted from the start of a game of chess (0: White's first
    /// move), from the start position's fullmove number and side to move ([`first_ply`]): what
    /// every output numbers the moves from ([`MoveNumber`]).
    fn first_ply(&self) -> u32;

    /// The chess number of move `index` (0-based) of the game: `5.` or `5...`.
    fn move_number(&self, index: usize) -> MoveNumber {
        MoveNumber::of(self.first_ply(), index)
    }

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
    fn wire_labels(&self) -> &[WireLabel] {
        &[]
    }

    /// The moves played as text, with move numbers and every outcome written in.
    fn record(&self) -> String;

    /// The current position in the ruleset's FEN.
    fn fen(&self) -> String;

    /// The board for the renderers; with `links`, lines between strongly correlated squares.
    fn board_view(&self, links: bool) -> BoardView;

    /// The number of basis states of the quantum state.
    fn state_size(&self) -> usize;

    /// What playing a move here costs a search, counted in basis states: the state's size (a
    /// move costs about as much as its state is large), times what the ruleset's legality
    /// checks add. A search bounded by this count (qc-engine's `Limits::work`) takes about as
    /// long in every ruleset for the same count.
    fn search_work(&self) -> u64 {
        self.state_size().max(1) as u64
    }

    /// The Bell-operator expectations `<O1>..<O8>` and the (same, opposite) correlation of two
    /// squares, where the ruleset gives squares qubits; `None` otherwise.
    fn bell(&self, pair: SquarePair) -> Option<([f64; 8], (f64, f64))>;

    /// Ruleset-specific fields for the JSON outputs.
    fn extras(&self) -> Map<String, Value>;

    /// The exact probability of each full-board measurement of the current state, named by its
    /// occupied squares and their pieces (`Ke1 Nc3 ...`), where the ruleset gives squares qubits;
    /// `None` otherwise, and when the boards would not fit in what the simulator's memory limit
    /// leaves beside its state (a state of a million basis states may have as many boards).
    fn board_distribution(&self) -> Option<Vec<(String, f64)>> {
        None
    }

    /// The most likely outcome of measuring every square, as a FEN (the pieces standing on the
    /// squares that outcome occupies), with its probability; `None` where the ruleset's FEN is
    /// already exact (Niel's Chess writes its pairs). A Quantum Chess FEN is the classical
    /// register, which lists every square a piece may be on: a knight split onto f3 and h3 shows
    /// as two knights. `None` too when the boards to choose from would not fit in what the
    /// simulator's memory limit leaves beside its state.
    fn most_likely_board(&self) -> Option<(String, f64)> {
        None
    }

    /// Claims a draw the player may claim (Quantum Chess: threefold repetition, which measures
    /// every square) and says what the measurement gave; `None` where draws are automatic
    /// (nothing to claim).
    fn claim(&mut self, _rng: &mut dyn rand::RngCore) -> Option<Result<Claimed, Self::Error>> {
        None
    }

    /// The draw counters of the position and the ending a measurement decided.
    fn endings(&self) -> Endings;

    /// Turns a rule [`Switch`] on or off. A switch the ruleset does not have
    /// ([`Ruleset::switch_unsupported`]) stays off: nothing happens by default.
    fn set_switch(&mut self, _switch: Switch, _on: bool) {}

    /// A line about the draw rules' counters (`Halfmove clock (FEN): 3   Official fifty-move
    /// counter: 9/100   Can claim: repetition`), for the text outputs; `None` when there is
    /// nothing to say.
    fn endings_note(&self) -> Option<String> {
        None
    }
}

/// A ruleset: its name, its start positions and rule options, its move notation, its game
/// files, and the game engine that plays it.
pub trait Ruleset {
    /// The name as `--rules` spells it.
    const NAME: &'static str;
    /// The extension of its game files, without the dot (`qcg`).
    const GAME_FILE_EXTENSION: &'static str;
    /// The move notation by example, `(text, meaning)` per form, for `help` in `qchess play`
    /// (the full notation is in docs/notation.md).
    const NOTATION_EXAMPLES: &'static [(&'static str, &'static str)];
    /// The ruleset's name in messages (`Quantum Chess`).
    const TITLE: &'static str;
    /// The title a menu shows (the web page's); [`Ruleset::TITLE`] unless given.
    const MENU_TITLE: &'static str = Self::TITLE;
    /// The rule options, `(name, what it does)`, as `--variant` takes them (joined by `+`);
    /// none unless given.
    const RULE_OPTIONS: &'static [(&'static str, &'static str)] = &[];
    /// Why nothing can be claimed, where [`QuantumGame::claim`] has nothing to claim (UQCI's
    /// `claim` reply says it after `nothing to claim in TITLE: `).
    const NO_CLAIM: &'static str = "its draws end the game at once";
    /// A start position with the rule options in force.
    type Start: Clone;
    /// A move in the ruleset's notation (with its outcomes written in, when they are).
    type Move: GameMove;
    /// Why a position, a game file or a move was refused.
    type Error: std::error::Error
        + Send
        + Sync
        + 'static
        + From<ParseError<Self::Move>>
        + From<ResultContradicts>;
    /// A game of this ruleset on backend `B`.
    type Game<B: Backend>: QuantumGame<Move = Self::Move, Error = Self::Error>;

    /// A start position from a FEN (`None`: the standard start) and rule options (`None`: the
    /// defaults; a ruleset without options refuses them).
    fn start(fen: Option<&str>, options: Option<&str>) -> Result<Self::Start, Self::Error>;

    /// Reads a game file (every move read once, with its line and column); `options`, when
    /// given, override the file's.
    fn read_game(
        text: &str,
        options: Option<&str>,
    ) -> Result<GameFile<Self::Start, Self::Move>, Self::Error>;

    /// Reads a move list (as `--moves` gives it: whitespace-separated moves, line and column 0).
    fn read_moves(text: &str) -> Result<Vec<WrittenMove<Self::Move>>, Self::Error>;

    /// A new game from `start` on `backend` (which must be in |0...0>).
    fn new_game<B: Backend>(start: &Self::Start, backend: B) -> Result<Self::Game<B>, Self::Error>;

    /// A new game to replay `file` on: [`Ruleset::new_game`] from its start, with what its tags
    /// say about outcomes beyond the moves' own (Quantum Chess: the board a fifty-move ending
    /// measured, so that the replay ends the same way). The caller then plays the moves.
    fn game_for<B: Backend>(
        file: &GameFile<Self::Start, Self::Move>,
        backend: B,
    ) -> Result<Self::Game<B>, Self::Error> {
        Self::new_game(&file.start, backend)
    }

    /// Completes a replay of `file` once its moves are played on `game` (from
    /// [`Ruleset::game_for`]): what the file records after its last move (Quantum Chess: a
    /// claimed threefold repetition, measured again to the board the file records). Nothing by
    /// default.
    ///
    /// # Errors
    /// When what the file records cannot happen in the replayed game (a claim where the
    /// position has not occurred twice before, a board the state cannot give).
    fn finish_replay<B: Backend>(
        _file: &GameFile<Self::Start, Self::Move>,
        _game: &mut Self::Game<B>,
    ) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Ends a replay of `file` once its moves are played on `game`: [`Ruleset::finish_replay`],
    /// then the file's result token checked against how the game ended
    /// ([`ResultContradicts::check`]). Every replay ends here; a ruleset does not override it.
    ///
    /// # Errors
    /// What [`Ruleset::finish_replay`] refuses, or a result the replayed game contradicts.
    fn end_replay<B: Backend>(
        file: &GameFile<Self::Start, Self::Move>,
        game: &mut Self::Game<B>,
    ) -> Result<(), Self::Error> {
        Self::finish_replay(file, game)?;
        ResultContradicts::check(file.result, game.status())?;
        Ok(())
    }

    /// Replays `file` on `backend`: [`Ruleset::game_for`], every move (outcomes not written in
    /// sampled from `rng`), then [`Ruleset::end_replay`].
    ///
    /// # Errors
    /// The start position cannot be set up, a move is refused, what the file records after its
    /// last move cannot happen, or its result contradicts the replayed game.
    fn replay<B: Backend>(
        file: &GameFile<Self::Start, Self::Move>,
        backend: B,
        rng: &mut dyn rand::RngCore,
    ) -> Result<Self::Game<B>, Self::Error> {
        let mut game = Self::game_for(file, backend)?;
        for written in &file.moves {
            game.play(&written.mv, rng)?;
        }
        Self::end_replay(file, &mut game)?;
        Ok(game)
    }

    /// The game as a game file that replays exactly: `tags`, the start position and rule
    /// options, then every move with its outcomes, `comments` at their places (a comment after
    /// more moves than the game has comes at the end), and the result of a finished game.
    fn write_game<B: Backend>(
        tags: &[Tag],
        comments: &[Comment],
        start: &Self::Start,
        game: &Self::Game<B>,
    ) -> String;

    /// The rule options in force, as they are written (`None` for a ruleset without options).
    fn options_name(start: &Self::Start) -> Option<String>;

    /// The start position in the ruleset's FEN.
    fn start_fen(start: &Self::Start) -> String;

    /// The ply of the first move from `start`, counted from a game's beginning as its record
    /// numbers moves ([`crate::chess::first_ply`]: 0 is White's first move; a FEN's side to
    /// move and fullmove number continue the count).
    fn first_ply(start: &Self::Start) -> u32;

    /// Why `switch` has no meaning in this ruleset (`None`: it applies and
    /// [`QuantumGame::set_switch`] sets it).
    fn switch_unsupported(switch: Switch) -> Option<&'static str>;
}

#[cfg(test)]
mod tests;
