//! The game behind one page: a qc-front [`Session`] (the ruleset chosen at run time, on the
//! sparse simulator, with its seeded dice), the same as the command line's and the Python
//! package's, with the server's own bounds on it (moves per game, the length of a move text).

use crate::clock::Clock;
use crate::ending::Ending;
use qc_engine::StopFlag;
use qc_export::{ExportOptions, Target};
use qc_front::counts::{BoardEstimate, CountsError};
use qc_front::{
    BackendKind, Compiled, CountsRequest, CountsStepError, DeviceOptions, EngineReply, Format,
    GameInput, MoveView, RulesKind, Session, SessionError, SessionSpec,
};
use qc_render::game_drawing::NoSuchMove;
use qc_render::layout::TooLarge;
use qc_render::svg_circuit;
use qc_sim::{MemoryLimit, Precision};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// An error of the exporter or the counts reader, boxed: their types differ.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// How to set up a game: a ruleset with its rule options, then either a game file or a start
/// position (FEN) with moves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The ruleset (default: Cantwell's Quantum Chess).
    #[serde(default)]
    pub rules: RulesKind,
    /// Rule options (Niel's Chess: `full`, `hadamard`, ... joined by `+`); overrides a game
    /// file's Variant tag.
    #[serde(default)]
    pub variant: Option<String>,
    /// The start position in the ruleset's FEN (with `moves`; default: the standard start).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves to play from the start, as `--moves` takes them (`b1^a3c3 g8f6`).
    #[serde(default)]
    pub moves: Option<String>,
    /// A whole game file (`.qcg`, `.qng`), replayed move by move.
    #[serde(default)]
    pub game: Option<String>,
    /// The seed of the dice for outcomes not written in; without one a fresh seed is drawn
    /// (`qc_front::fresh_seed`, as `qchess play` and `qchess serve` draw theirs), and the
    /// game's state names the seed used.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// Why a game could not be set up, or a move, an undo or a picture was refused.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// `game` was given together with `fen` or `moves`.
    #[error(
        "give either a game file (`game`) or a start position and moves (`fen`, `moves`), not both"
    )]
    GameAndMoves,
    /// The rule options, the FEN, the game file or the move list do not read, a move of them is
    /// refused, or the rules refused a move or an undo (nothing changed); the message has the
    /// ruleset's reason.
    #[error("{}", qc_front::error_chain(.0))]
    Session(#[source] Box<SessionError>),
    /// A game longer than the server keeps.
    #[error("a game may have at most {limit} moves here (this one would have {moves})")]
    TooLong {
        /// The limit.
        limit: usize,
        /// The moves it would have.
        moves: usize,
    },
    /// An empty move text.
    #[error("no move given")]
    EmptyMove,
    /// A move text longer than any move of either ruleset.
    #[error("a move is at most {limit} characters (got {chars})")]
    MoveTooLong {
        /// The limit.
        limit: usize,
        /// The characters given.
        chars: usize,
    },
    /// The engine was asked to move in a game that is over (no legal move).
    #[error("the game is over: the engine has no move to play")]
    EngineNoMove,
    /// The engine's search failed on the game (a move it tried, or its move, refused); the
    /// moves it tried are taken back.
    #[error("the engine's search failed: {}", qc_front::error_chain(.0))]
    Engine(#[source] Box<SessionError>),
    /// A move number past the game's last move.
    #[error(transparent)]
    NoSuchMove(#[from] NoSuchMove),
    /// The circuit is too large to draw (qc-render's bound on a drawing's cells).
    #[error(transparent)]
    DrawingTooLarge(#[from] TooLarge),
    /// The program could not be compiled.
    #[error("cannot compile the game: {0}")]
    Compile(#[source] BoxError),
    /// The counts do not read or do not fit the program (in the API's words: its fields, not
    /// the command line's flags).
    #[error("cannot read the counts: {}", counts_reason(.0))]
    Counts(#[source] CountsStepError),
    /// A move, an undo or an engine move for another ply than the game is at: the game changed
    /// since the page (or script) last saw it (another tab, an earlier request).
    #[error("the game is at ply {now}, not at ply {expected} as the request expected: it changed since (another page or an earlier request moved it); reload it")]
    StalePly {
        /// The ply the request expected (moves played).
        expected: usize,
        /// The ply the game is at.
        now: usize,
    },
    /// A position past the game's last move.
    #[error("no ply {ply}: the game has {plies} move(s) (ply 0 is its start)")]
    NoSuchPly {
        /// The ply asked for.
        ply: usize,
        /// The moves played.
        plies: usize,
    },
    /// A move, an undo, an engine move or an ending in a game its players already ended.
    #[error("the game is over ({result}): start a new game")]
    Ended {
        /// How it ended, in words.
        result: String,
    },
}

/// The counts reader's reason, with the API's fields where the command line's message names
/// its own flags.
fn counts_reason(error: &CountsStepError) -> String {
    match error {
        CountsStepError::Counts(CountsError::Ambiguous) => "cannot tell Qiskit order (c[0] rightmost) from Braket order (c[0] leftmost): send counts_format `qiskit` or `braket`".into(),
        CountsStepError::Counts(CountsError::BraketFileAsQiskit) => "counts_format is `qiskit`, but the file has Braket's `measurement_counts`: send `braket`, or no counts_format to detect it".into(),
        CountsStepError::MissingCalibration
        | CountsStepError::Counts(CountsError::MissingCalibration) => {
            "mitigate `readout` needs a calibration".into()
        }
        CountsStepError::Counts(CountsError::Probabilities) => "these are a simulator's probabilities, not counts of shots: run the program with shots".into(),
        other => other.to_string(),
    }
}

/// What kind of counts problem `error` is, for a page to say in its own words: the order cannot
/// be told (`counts_order_ambiguous`), the format chosen is not the file's
/// (`counts_format_mismatch`), probabilities instead of counts (`counts_probabilities`), not a
/// counts file (`counts_not_counts`), a calibration needed (`counts_needs_calibration`), an
/// exact board too large for the game's memory (`counts_too_large`), anything else
/// (`counts_unreadable`).
pub fn counts_kind(error: &CountsStepError) -> &'static str {
    match error {
        CountsStepError::Counts(CountsError::Ambiguous) => "counts_order_ambiguous",
        CountsStepError::Counts(CountsError::BraketFileAsQiskit) => "counts_format_mismatch",
        CountsStepError::Counts(CountsError::Probabilities) => "counts_probabilities",
        CountsStepError::Counts(CountsError::NotAnObject | CountsError::NotCounts { .. }) => {
            "counts_not_counts"
        }
        CountsStepError::MissingCalibration
        | CountsStepError::Counts(CountsError::MissingCalibration) => "counts_needs_calibration",
        CountsStepError::Exact(CountsError::BoardTooLarge(_)) => "counts_too_large",
        _ => "counts_unreadable",
    }
}

impl GameError {
    /// A session's refusal (boxed: a session's error is large, and rare).
    fn session(error: SessionError) -> GameError {
        GameError::Session(Box::new(error))
    }
}

/// The longest move text either ruleset writes is well under this (`e7^e8e7:op=q[e8]`).
pub const MAX_MOVE_CHARS: usize = 64;

/// Bytes of the engine's transposition table for one move (a fresh table per request: a page's
/// games do not hold one each between moves).
pub const ENGINE_TABLE_BYTES: usize = 4 << 20;

/// One legal move for the page: its text, its kind and the squares a player clicks to make it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WebMove {
    /// The move in the ruleset's notation.
    pub text: String,
    /// Its kind (`jump`, `split_jump`, `superposition`, ...).
    pub kind: &'static str,
    /// Whether it is a quantum move (a split or a merge; Niel's moves other than a classical
    /// step, capture or castling).
    pub quantum: bool,
    /// The squares named by the move, in the order a player clicks them (source, then targets;
    /// both sources of a merge, then its target).
    pub clicks: Vec<String>,
}

/// A game being played on a page: its session, the most moves it may reach, its clocks and how
/// its players ended it.
pub struct WebGame {
    session: Session,
    max_moves: usize,
    clock: Clock,
    ending: Option<Ending>,
}

impl WebGame {
    /// Sets up the game `spec` describes (its moves replayed, outcomes not written in drawn with
    /// its seed) on a sparse simulator holding at most `memory_bytes`; a game may reach
    /// `max_moves` moves.
    ///
    /// # Errors
    /// A [`GameError`] naming what did not read or which move was refused.
    pub fn new(spec: &NewGame, memory_bytes: u128, max_moves: usize) -> Result<WebGame, GameError> {
        let input = match &spec.game {
            Some(text) => {
                if spec.fen.is_some() || spec.moves.is_some() {
                    return Err(GameError::GameAndMoves);
                }
                // Named as the request's field, in messages (`game: move 3 ...`).
                GameInput::File { name: "game", text }
            }
            None => GameInput::Position {
                name: "moves",
                fen: spec.fen.as_deref(),
                moves: spec.moves.as_deref(),
            },
        };
        let session_spec = SessionSpec {
            rules: spec.rules,
            variant: spec.variant.clone().filter(|v| !v.trim().is_empty()),
            backend: BackendKind::Sparse,
            precision: Precision::Double,
            seed: spec.seed.unwrap_or_else(qc_front::fresh_seed),
        };
        // Counted before any move is replayed: a long game is refused without the work.
        let moves = Session::moves_in(&session_spec, input).map_err(GameError::session)?;
        if moves > max_moves {
            return Err(GameError::TooLong {
                limit: max_moves,
                moves,
            });
        }
        let limit = MemoryLimit::bytes(memory_bytes);
        let session =
            Session::open_with_limit(&session_spec, input, 0, limit).map_err(GameError::session)?;
        let clock = Clock::new(session.moves().len());
        Ok(WebGame {
            session,
            max_moves,
            clock,
            ending: None,
        })
    }

    /// The game, for what the page shows of it.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The most moves this game may reach.
    pub fn max_moves(&self) -> usize {
        self.max_moves
    }

    /// The number of moves played.
    pub fn move_count(&self) -> usize {
        self.session.moves().len()
    }

    /// The ply the game is at: the number of moves played.
    pub fn ply(&self) -> usize {
        self.move_count()
    }

    /// Refuses a request that expected the game at another ply (`None`: it did not say).
    ///
    /// # Errors
    /// [`GameError::StalePly`] when `expected` is not the game's ply.
    pub fn check_ply(&self, expected: Option<usize>) -> Result<(), GameError> {
        match expected {
            Some(expected) if expected != self.ply() => Err(GameError::StalePly {
                expected,
                now: self.ply(),
            }),
            _ => Ok(()),
        }
    }

    /// How the players ended the game, if they did.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The clocks.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Whether the game is over, by the rules or by its players.
    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.session.status().is_over()
    }

    /// The status as the API spells it: the players' ending (`black_wins` for White's
    /// resignation, `draw_agreed`) or the rules' (`ongoing`, `white_wins`, ...).
    pub fn status_name(&self) -> &'static str {
        match self.ending {
            Some(ending) => ending.status_name(),
            None => self.session.status().name(),
        }
    }

    /// `White to move`, or `Game over: ...` (the players' ending or the rules' result).
    pub fn headline(&self) -> String {
        match self.ending {
            Some(ending) => format!("Game over: {}", ending.words()),
            None => crate::view::headline(self.session.status(), self.session.side_to_move()),
        }
    }

    /// Records that the players ended the game as `ending` (a resignation, an agreed draw).
    ///
    /// # Errors
    /// The game is already over.
    pub fn end(&mut self, ending: Ending) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Ended {
                result: self.result_words(),
            });
        }
        self.ending = Some(ending);
        Ok(())
    }

    /// Refuses what a game its players ended cannot do.
    fn not_ended(&self) -> Result<(), GameError> {
        match self.ending {
            Some(ending) => Err(GameError::Ended {
                result: ending.words(),
            }),
            None => Ok(()),
        }
    }

    /// The result in words (`Black wins (White resigned)`), for a game that is over.
    fn result_words(&self) -> String {
        match self.ending {
            Some(ending) => ending.words(),
            None => self.session.status().to_string(),
        }
    }

    /// Refuses a move past the game's move limit.
    fn room_for_a_move(&self) -> Result<(), GameError> {
        let played = self.move_count();
        if played >= self.max_moves {
            return Err(GameError::TooLong {
                limit: self.max_moves,
                moves: played + 1,
            });
        }
        Ok(())
    }

    /// Plays `text` (outcomes written in are forced, the others drawn from the game's dice).
    ///
    /// # Errors
    /// The move is empty, too long, refused by the rules, or the game is at its move limit;
    /// nothing changes.
    pub fn play(&mut self, text: &str) -> Result<MoveView, GameError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(GameError::EmptyMove);
        }
        let chars = text.chars().count();
        if chars > MAX_MOVE_CHARS {
            return Err(GameError::MoveTooLong {
                limit: MAX_MOVE_CHARS,
                chars,
            });
        }
        self.not_ended()?;
        self.room_for_a_move()?;
        let played = self.session.play(text).map_err(GameError::session)?;
        self.clock.moved();
        Ok(played)
    }

    /// Lets qc-engine's search (the engine of `qchess uqci`) choose a move for the side to move
    /// within `time` (or until `stop` is raised: the best move found so far), then plays it, its
    /// outcome drawn from the game's dice as for a typed move.
    ///
    /// # Errors
    /// The game is over or at its move limit, or the search failed.
    pub fn engine_move(
        &mut self,
        time: Duration,
        stop: StopFlag,
    ) -> Result<EngineReply, GameError> {
        self.not_ended()?;
        self.room_for_a_move()?;
        let limits = qc_engine::Limits::move_time(time);
        let reply = self
            .session
            .engine_move(&limits, ENGINE_TABLE_BYTES, stop)
            .map_err(|e| GameError::Engine(Box::new(e)))?
            .ok_or(GameError::EngineNoMove)?;
        self.clock.moved();
        Ok(reply)
    }

    /// Takes back the last move exactly and returns it.
    ///
    /// # Errors
    /// No move to take back, or the undo history no longer reaches it.
    pub fn undo(&mut self) -> Result<MoveView, GameError> {
        self.not_ended()?;
        let undone = self.session.undo().map_err(GameError::session)?;
        self.clock.took_back();
        Ok(undone)
    }

    /// The legal moves of the side to move, with the squares a player clicks for each (none
    /// once the players ended the game).
    pub fn legal_moves(&self) -> Vec<WebMove> {
        if self.ending.is_some() {
            return Vec::new();
        }
        self.session
            .legal_moves()
            .into_iter()
            .map(|m| WebMove {
                text: m.text,
                kind: m.kind,
                quantum: m.quantum,
                clicks: m.clicks.iter().map(ToString::to_string).collect(),
            })
            .collect()
    }

    /// The circuit of the whole game (`None`) or of move `n` (0 = the set-up) as qc-render
    /// draws it, with the same sections and wire names as `qchess draw`; without `all_wires`,
    /// a whole game leaves out the set-up wires of squares no move touches.
    ///
    /// # Errors
    /// There is no move `n`, or the drawing is too large to read.
    pub fn circuit_svg(&self, n: Option<usize>, all_wires: bool) -> Result<String, GameError> {
        let (circuit, mut notes) = self.session.drawing(n, all_wires)?;
        if !notes.hidden.is_empty() {
            // The page's words, not the command line's flag.
            notes.note = Some(format!(
                "({} set-up wire(s) that no move touches are not drawn: tick \"All wires\" to draw them)",
                notes.hidden.len()
            ));
        }
        Ok(svg_circuit::draw_annotated(&circuit, &notes)?)
    }

    /// The game compiled as `qchess compile` compiles it (with the board facts in the map).
    ///
    /// # Errors
    /// The exporter refused the circuit or the target.
    pub fn compile(
        &self,
        format: Format,
        options: &ExportOptions,
        target: Option<&Target>,
    ) -> Result<Compiled, GameError> {
        self.session
            .compile(format, options, target, &DeviceOptions::default())
            .map_err(|e| GameError::Compile(Box::new(e)))
    }

    /// A device's `counts` of `program` (a text [`WebGame::compile`] wrote at this game's
    /// ply) back into a board, with the exact board beside it, as `qchess counts --exact` reads
    /// them; the exact board is read off this game's state, as the program ends there: no
    /// replay and no simulation of the program's gates, so it stays within the game's own
    /// memory (the outcomes it holds are bounded by the game's simulator limit).
    ///
    /// # Errors
    /// The counts (or the calibration) do not read or do not fit the program, or the exact
    /// board would not fit beside the game's state.
    pub fn estimate_counts(
        &self,
        program: &str,
        counts: &str,
        request: &CountsRequest<'_>,
    ) -> Result<BoardEstimate, GameError> {
        let request = CountsRequest {
            exact: true,
            ..request.clone()
        };
        qc_front::board_from_counts_of(&*self.session, program, counts, &request)
            .map_err(GameError::Counts)
    }
}
