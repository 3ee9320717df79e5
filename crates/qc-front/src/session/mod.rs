//! [`Session`]: one game of any registered ruleset on any registered simulator, chosen at run
//! time ([`SessionSpec`]: ruleset and rule options, simulator, precision, seed), owned and
//! `Send`, so that a server can keep one per page behind a mutex. Every front end plays through
//! it: the command line's game commands and its REPL, the Python `Game`, the web server; UQCI,
//! which needs a ruleset's own switches, holds the typed [`Table`] the session is made of.
//!
//! [`Session::open`] is the one dispatch from names to types: [`dispatch!`](crate::dispatch)
//! binds the ruleset ([`with_ruleset!`](crate::with_ruleset), the registry of rulesets) and the
//! simulator ([`with_simulator!`](crate::with_simulator), the registry of simulators), and the
//! game behind the session is a [`Table`] of those types, written once against
//! `qc_rules::{Ruleset, QuantumGame}`. The session's methods are those of [`Game`].

mod table;
mod views;

pub use table::{pick_rng, Table};
pub use views::{EngineReply, LegalView, MoveView};

use crate::compile::{CompileError, Compiled, DeviceOptions, Format};
use crate::rules::{Classify, ErrorKind};
use crate::{BackendKind, PrecisionNeedsDense, RulesKind};
use qc_engine::{Limits, StopFlag};
use qc_export::{ExportOptions, Target};
use qc_ir::{Circuit, Qubit};
use qc_render::game_drawing::NoSuchMove;
use qc_render::layout::Annotations;
use qc_rules::{BoardView, Color, GivenOutcome, MoveNumber, SquarePair, Status, WireLabel};
use qc_sim::{MemoryLimit, Precision};
use serde_json::{Map, Value};
use std::ops::{Deref, DerefMut, Range};

/// Runs `$body` with the type `$rules` bound to the ruleset `$kind` names (a [`RulesKind`]) and
/// `$new` to the constructor of the simulator `$backend` names in `$precision` (a
/// `fn(qc_sim::MemoryLimit) -> B`): the one dispatch from names to types, compiled once per
/// ruleset and simulator. [`Session::open`] uses it; so does code that needs the ruleset's own
/// types (UQCI). Check the precision first ([`crate::check_precision`]).
#[macro_export]
macro_rules! dispatch {
    ($kind:expr, $backend:expr, $precision:expr, |$rules:ident, $new:ident| $body:expr) => {
        $crate::with_ruleset!($kind, |$rules| {
            $crate::with_simulator!($backend, $precision, |$new| $body)
        })
    };
}

/// What a session plays: the ruleset with its rule options, the simulator and its precision,
/// and the seed of everything it samples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionSpec {
    /// The ruleset.
    pub rules: RulesKind,
    /// Rule options (Niel's Chess: `full+hadamard`, ...); they override a game file's.
    pub variant: Option<String>,
    /// The simulator.
    pub backend: BackendKind,
    /// The dense simulator's precision (single is refused on the other simulators).
    pub precision: Precision,
    /// The seed of the outcomes of moves written without them, and of random moves.
    pub seed: u64,
}

/// Where a session's game comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameInput<'a> {
    /// A game file: the name messages give it (a path, `<stdin>`) and its text.
    File {
        /// The name.
        name: &'a str,
        /// The file's text.
        text: &'a str,
    },
    /// A start position and moves.
    Position {
        /// The name messages give the moves (`--moves`).
        name: &'a str,
        /// The start position in the ruleset's FEN (`None`: the standard start).
        fen: Option<&'a str>,
        /// A move list in the ruleset's notation, as `--moves` takes it (`None`: no moves).
        moves: Option<&'a str>,
    },
}

impl GameInput<'static> {
    /// The standard start, no moves.
    pub const START: GameInput<'static> = GameInput::Position {
        name: "the start position",
        fen: None,
        moves: None,
    };
}

/// What was being read when a ruleset refused it ([`SessionError::Read`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A game file, by the name its messages give it.
    File(String),
    /// The start position's FEN.
    Fen,
    /// The rule options (with the standard start).
    Variant,
    /// The move list.
    Moves,
}

impl std::fmt::Display for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::File(name) => f.write_str(name),
            Input::Fen => f.write_str("fen"),
            Input::Variant => f.write_str("variant"),
            Input::Moves => f.write_str("moves"),
        }
    }
}

/// A ruleset's error, whatever the ruleset, with the kind of mistake it reports. Its message and
/// causes are the ruleset error's own.
#[derive(Debug)]
pub struct RulesError {
    kind: ErrorKind,
    place: Option<(usize, usize)>,
    error: Box<dyn std::error::Error + Send + Sync + 'static>,
}

impl RulesError {
    /// Wraps a ruleset's error.
    pub fn new<E: Classify + Send + Sync + 'static>(error: E) -> RulesError {
        RulesError {
            kind: error.kind(),
            place: error.place(),
            error: Box::new(error),
        }
    }

    /// `refused`, ruleset `R`'s refusal of the game file `name` with text `text` (and rule
    /// `options`), or, when the file is another kind (a circuit, a game of another ruleset,
    /// counts: [`crate::file_kind::not_a_game`]), a [`crate::WrongFileType`] naming what reads
    /// it, with `refused` in its message, its kind and place. Only a refused file is looked at.
    pub fn wrong_file_type<R: qc_rules::Ruleset>(
        refused: RulesError,
        name: &str,
        text: &str,
        options: Option<&str>,
    ) -> RulesError {
        let rules = RulesKind::of::<R>();
        match crate::file_kind::not_a_game(name, text, options, rules) {
            Some(found) => RulesError {
                kind: refused.kind,
                place: refused.place,
                error: Box::new(crate::WrongFileType {
                    found,
                    expected: crate::FileKind::Game(rules),
                    refused: Box::new(refused),
                }),
            },
            None => refused,
        }
    }

    /// A counts file ruleset `R`'s reader accepted as a game with no tags and no moves (a JSON
    /// object of counts reads as one `{ comment }`), refused as a [`crate::WrongFileType`]
    /// naming what reads counts.
    pub fn counts_read_as_game<R: qc_rules::Ruleset>() -> RulesError {
        RulesError {
            kind: ErrorKind::Notation,
            place: None,
            error: Box::new(crate::WrongFileType {
                found: crate::FileKind::Counts,
                expected: crate::FileKind::Game(RulesKind::of::<R>()),
                refused: Box::new(crate::file_kind::OnlyAComment),
            }),
        }
    }

    /// The kind of mistake.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Where in a game file the mistake is, `(line, column)` ([`Classify::place`]).
    pub fn place(&self) -> Option<(usize, usize)> {
        self.place
    }

    /// The ruleset's own error (to downcast to it).
    pub fn inner(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.error
    }
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for RulesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

/// Why a session could not be opened, or a move, an undo or a claim was refused.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The precision needs another simulator.
    #[error(transparent)]
    Precision(#[from] PrecisionNeedsDense),
    /// A game file, a FEN, the rule options or a move list does not read.
    #[error("{input}")]
    Read {
        /// What was read.
        input: Input,
        /// The ruleset's reason.
        #[source]
        source: RulesError,
    },
    /// The start position cannot be set up on the simulator.
    #[error("{name}: cannot set up the start position")]
    SetUp {
        /// The game's name in messages.
        name: String,
        /// The ruleset's reason.
        #[source]
        source: RulesError,
    },
    /// A move of the game refused while it was replayed.
    #[error("{name}: move {number} `{text}`{}", place(*line, *column))]
    Replay {
        /// The game's name in messages.
        name: String,
        /// The move's number (1 = the first).
        number: usize,
        /// The move as written.
        text: String,
        /// Its line in the game file (0 for a move list).
        line: usize,
        /// Its column.
        column: usize,
        /// The ruleset's reason.
        #[source]
        source: RulesError,
    },
    /// What the game file records after its moves cannot happen in the replayed game.
    #[error("{name}")]
    Finish {
        /// The game's name in messages.
        name: String,
        /// The ruleset's reason.
        #[source]
        source: RulesError,
    },
    /// The rules refused a move, an undo or a claim; nothing changed.
    #[error(transparent)]
    Rules(RulesError),
}

/// `, line L, column C` for a move of a game file, nothing for a move list.
fn place(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(", line {line}, column {column}")
    }
}

impl SessionError {
    /// Where in a game file the mistake is, `(line, column)` (1-based): the refused move's
    /// place, or the place the file stopped reading; `None` for a move list, a FEN, an option,
    /// or a mistake with no place.
    pub fn place(&self) -> Option<(usize, usize)> {
        match self {
            SessionError::Replay { line: 0, .. } => None,
            SessionError::Replay { line, column, .. } => Some((*line, *column)),
            SessionError::Read {
                input: Input::File(_),
                source,
            } => source.place(),
            _ => None,
        }
    }

    /// The ruleset's error behind this one, if a ruleset refused something.
    pub fn rules_error(&self) -> Option<&RulesError> {
        match self {
            SessionError::Precision(_) => None,
            SessionError::Read { source, .. }
            | SessionError::SetUp { source, .. }
            | SessionError::Replay { source, .. }
            | SessionError::Finish { source, .. } => Some(source),
            SessionError::Rules(e) => Some(e),
        }
    }
}

/// A game in progress, whatever its ruleset and simulator: what every front end asks of it.
/// [`Table`] implements it once for every ruleset and simulator; [`Session`] holds one.
pub trait Game: Send {
    /// The ruleset.
    fn rules(&self) -> RulesKind;
    /// The simulator.
    fn backend_kind(&self) -> BackendKind;
    /// The dense simulator's precision.
    fn precision(&self) -> Precision;
    /// The seed.
    fn seed(&self) -> u64;
    /// The simulator's type, as Rust names it (`qc_sim::dense::DenseSim<f32>`): what the
    /// dispatch chose, for diagnostics and tests.
    fn simulator_type(&self) -> &'static str;
    /// Where the game came from, as messages name it.
    fn source(&self) -> &str;
    /// The extension of the ruleset's game files, without the dot (`qcg`).
    fn game_file_extension(&self) -> &'static str;
    /// The rule options in force, as they are written (`None` for a ruleset without options).
    fn options_name(&self) -> Option<String>;
    /// The start position in the ruleset's FEN.
    fn start_fen(&self) -> String;

    /// Plays a move in the ruleset's notation: outcomes written in are forced, the others drawn
    /// from the session's dice. On error nothing changes.
    ///
    /// # Errors
    /// The move does not read or the rules refuse it.
    fn play(&mut self, text: &str) -> Result<MoveView, SessionError>;
    /// The move `text` with `outcome` written in as the ruleset writes it (`b1xc3.m1`,
    /// `f5xe6[e6]`), replacing an outcome written before: what a front end plays to force an
    /// outcome given apart from the move (Python's `play(move, outcome=)`).
    ///
    /// # Errors
    /// The move does not read, or the outcome is not of the ruleset's shape
    /// (`qc_rules::OutcomeShapeError`, a notation error).
    fn with_outcome(&self, text: &str, outcome: &GivenOutcome) -> Result<String, SessionError>;
    /// Plays a legal move picked at random (with the seed's own stream of picks), `None` when
    /// there is none.
    fn play_random(&mut self) -> Option<MoveView>;
    /// Lets qc-engine's search choose a move for the side to move within `limits` (with a fresh
    /// transposition table of `table_bytes`; `stop` ends it early), then plays it with the
    /// session's dice, as a move typed without outcomes is played. `None` when the game is over.
    ///
    /// # Errors
    /// The rules or the simulator refused a move the search tried (e.g. the simulator's memory
    /// limit and the undo history it leaves room for) or the move chosen; the game is then
    /// brought back to where it was (replayed, when the undo history no longer reaches).
    fn engine_move(
        &mut self,
        limits: &Limits,
        table_bytes: usize,
        stop: StopFlag,
    ) -> Result<Option<EngineReply>, SessionError>;
    /// Takes back the last move exactly (state, circuit, position) and returns it. The
    /// outcomes it drew are remembered: the same move played again from the same position (typed
    /// without outcomes, picked at random or by the engine) gets them again, so that undoing
    /// cannot re-roll a measurement; [`Game::forget_outcomes`] lets the dice roll again.
    ///
    /// # Errors
    /// No move to take back, or the undo history no longer reaches it.
    fn undo(&mut self) -> Result<MoveView, SessionError>;
    /// Forgets the outcomes of the moves taken back, so that they are drawn again when played
    /// again; returns how many moves were remembered.
    fn forget_outcomes(&mut self) -> usize;
    /// Claims a draw the player may claim (Quantum Chess: threefold repetition) and says what
    /// happened; `None` where draws are automatic.
    fn claim(&mut self) -> Option<Result<String, SessionError>>;
    /// Replaces the game by the game file `text` (named `name` in messages), replayed on a fresh
    /// simulator of the same kind with outcomes not written in drawn from the seed; on error the
    /// game stays as it was.
    ///
    /// # Errors
    /// The file does not read, or a move of it is refused.
    fn load(&mut self, name: &str, text: &str) -> Result<(), SessionError>;

    /// The legal moves of the side to move, with their kinds.
    fn legal_moves(&self) -> Vec<LegalView>;
    /// The moves played, in order.
    fn moves(&self) -> Vec<MoveView>;
    /// The ply of the first move counted from the start of a game of chess (0: White's first
    /// move), from the start position's fullmove number and side to move.
    fn first_ply(&self) -> u32;
    /// The chess number of move `index` (0-based) of the game (`5.`, `5...`), as every output
    /// numbers moves (`qc_rules::ruleset::numbering`).
    fn move_number(&self, index: usize) -> MoveNumber {
        MoveNumber::of(self.first_ply(), index)
    }
    /// Whether the game goes on.
    fn status(&self) -> Status;
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The current position in the ruleset's FEN.
    fn fen(&self) -> String;
    /// The moves played as text, with move numbers and every outcome written in.
    fn record(&self) -> String;
    /// The game as a game file that replays exactly; `with_tags`: with the tags of the file it
    /// was read from.
    fn game_file(&self, with_tags: bool) -> String;
    /// The board for the renderers; with `links`, lines between strongly correlated squares.
    fn board_view(&self, links: bool) -> BoardView;
    /// The number of basis states of the quantum state.
    fn state_size(&self) -> usize;
    /// The Bell-operator expectations and the (same, opposite) correlation of two different
    /// squares, where the ruleset gives squares qubits.
    fn bell(&self, pair: SquarePair) -> Option<([f64; 8], (f64, f64))>;
    /// Ruleset-specific fields for the JSON outputs.
    fn extras(&self) -> Map<String, Value>;
    /// The exact probability of each full-board measurement, where squares are qubits.
    fn board_distribution(&self) -> Option<Vec<(String, f64)>>;
    /// The most likely full-board measurement as a FEN, where the FEN is not one board.
    fn most_likely_board(&self) -> Option<(String, f64)>;
    /// A line about the draw rules' counters, when there is something to say.
    fn endings_note(&self) -> Option<String>;
    /// The whole game's circuit so far.
    fn circuit(&self) -> &Circuit;
    /// The recorded outcome of every classical bit of the circuit.
    fn outcomes(&self) -> Vec<Option<bool>>;
    /// The instructions of move `n` (0 = the set-up).
    fn move_instructions(&self, n: usize) -> Option<Range<usize>>;
    /// What the ancilla wires stand for, where the ruleset names them.
    fn wire_labels(&self) -> Vec<WireLabel>;
    /// The basis states with a nonzero amplitude: the qubits at 1, and the amplitude.
    fn basis_states(&self) -> Vec<(Vec<Qubit>, num_complex::Complex64)>;
    /// The exact joint distribution of `qubits` of the game's state (bit k of a pattern is
    /// `qubits[k]`; at most 128 of them), as the simulator's `marginal` gives it, refused when
    /// as many outcomes as the state has basis states would not fit beside the state in the
    /// simulator's memory limit ([`qc_ir::exec::outcome_bytes`] each).
    ///
    /// # Errors
    /// [`qc_ir::BackendError::TooManyOutcomes`], or more than 128 qubits.
    fn exact_marginal(&self, qubits: &[Qubit]) -> Result<Vec<(u128, f64)>, qc_ir::BackendError>;
    /// The game compiled to `format` as `qchess compile` compiles it, with the board facts in
    /// the program's map; on a device target placed and routed with `device`'s calibration and
    /// seed.
    ///
    /// # Errors
    /// The exporter refused the circuit or the target.
    fn compile(
        &self,
        format: Format,
        options: &ExportOptions,
        target: Option<&Target>,
        device: &DeviceOptions<'_>,
    ) -> Result<Compiled, CompileError>;
    /// The circuit of the whole game (`None`) or of move `n` (0 = the set-up) with its drawing
    /// annotations, as `qchess draw` draws it.
    ///
    /// # Errors
    /// There is no move `n`.
    fn drawing(
        &self,
        n: Option<usize>,
        all_wires: bool,
    ) -> Result<(Circuit, Annotations), NoSuchMove>;
}

/// A game of the ruleset and simulator a [`SessionSpec`] names, with its dice: see the module
/// documentation. Its methods are [`Game`]'s.
pub struct Session {
    game: Box<dyn Game>,
}

impl Session {
    /// Opens `input` under `spec` on a fresh simulator with the default memory limit: the game
    /// is read and its moves replayed (outcomes not written in drawn with the seed), then
    /// `random_plies` random legal moves are played. See [`Session::open_with_limit`].
    ///
    /// # Errors
    /// See [`Session::open_with_limit`].
    pub fn open(
        spec: &SessionSpec,
        input: GameInput<'_>,
        random_plies: usize,
    ) -> Result<Session, SessionError> {
        Session::open_with_limit(spec, input, random_plies, MemoryLimit::default())
    }

    /// [`Session::open`] on a simulator (and later ones, for [`Game::load`]) holding at most
    /// `limit`.
    ///
    /// # Errors
    /// Single precision off the dense simulator; what does not read, cannot be set up, or which
    /// move the rules refuse ([`SessionError`]).
    pub fn open_with_limit(
        spec: &SessionSpec,
        input: GameInput<'_>,
        random_plies: usize,
        limit: MemoryLimit,
    ) -> Result<Session, SessionError> {
        crate::check_precision(spec.backend, spec.precision)?;
        crate::dispatch!(spec.rules, spec.backend, spec.precision, |R, new| {
            let table = Table::<R, _>::open(spec, input, random_plies, new, limit)?;
            Ok(Session {
                game: Box::new(table),
            })
        })
    }

    /// The number of moves `input` holds under `spec`'s ruleset and rule options, read without
    /// playing them: a server refuses a game longer than it keeps before replaying it.
    ///
    /// # Errors
    /// What does not read, as [`Session::open`] reports it.
    pub fn moves_in(spec: &SessionSpec, input: GameInput<'_>) -> Result<usize, SessionError> {
        crate::with_ruleset!(spec.rules, |R| table::moves_in::<R>(
            input,
            spec.variant.as_deref()
        ))
    }
}

impl Deref for Session {
    type Target = dyn Game;

    fn deref(&self) -> &(dyn Game + 'static) {
        &*self.game
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut (dyn Game + 'static) {
        &mut *self.game
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("rules", &self.rules())
            .field("backend", &self.backend_kind())
            .field("precision", &self.precision())
            .field("seed", &self.seed())
            .field("moves", &self.moves().len())
            .finish()
    }
}

#[cfg(test)]
mod tests;
