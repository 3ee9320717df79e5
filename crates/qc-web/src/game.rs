//! The game behind one page: a ruleset chosen at run time, played on the sparse simulator, with
//! its seeded dice, its start position and its game-file tags.
//!
//! Thin on purpose: it only dispatches to what the command line and the Python package use
//! (`qc_rules::{Ruleset, QuantumGame}`, `qc_front::{compile_circuit, board_from_counts}`,
//! `qc_render`), one arm per ruleset, so that qc-front's `Session` (ruleset x simulator x
//! precision x seed, one dispatch for every front end) can take its place without the API
//! changing.

use qc_engine::{Limits, SearchConfig, Searcher, StopFlag};
use qc_export::{ExportOptions, Target};
use qc_front::counts::BoardEstimate;
use qc_front::{Compiled, CountsRequest, Format};
use qc_render::game_drawing::{game_drawing, NoSuchMove};
use qc_render::layout::{Annotations, TooLarge};
use qc_render::svg_circuit;
use qc_rules::ruleset::{GameFile, GameMove, PlayedMove, Tag};
use qc_rules::{BoardView, Cantwell, Niels, QuantumGame, Ruleset, Status};
use qc_sim::{MemoryLimit, SparseSim};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// An error of a ruleset or the engine, boxed: the ruleset's own types differ.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// The rulesets the page offers, as the API and `--rules` spell them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RulesName {
    /// Cantwell's Quantum Chess (QCAN moves).
    #[default]
    Cantwell,
    /// Niel's Chess ("piece in a box").
    Niels,
}

impl RulesName {
    /// The name as `--rules` and the API spell it.
    pub fn name(self) -> &'static str {
        match self {
            RulesName::Cantwell => Cantwell::NAME,
            RulesName::Niels => Niels::NAME,
        }
    }
}

/// How to set up a game: a ruleset with its rule options, then either a game file or a start
/// position (FEN) with moves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The ruleset (default: Cantwell's Quantum Chess).
    #[serde(default)]
    pub rules: RulesName,
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
    /// The seed of the dice for outcomes not written in (default 0, as on the command line).
    #[serde(default)]
    pub seed: u64,
}

/// Why a game could not be set up, or a move, an undo or a picture was refused.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// `game` was given together with `fen` or `moves`.
    #[error(
        "give either a game file (`game`) or a start position and moves (`fen`, `moves`), not both"
    )]
    GameAndMoves,
    /// The rule options, the FEN, the game file or the move list do not read.
    #[error("{what}: {source}")]
    Setup {
        /// What was read (`variant`, `fen`, `game`, `moves`).
        what: &'static str,
        /// The ruleset's reason.
        #[source]
        source: BoxError,
    },
    /// A move of a game file or move list is refused by the rules.
    #[error("move {number} `{text}`{place}: {source}")]
    Replay {
        /// Its number (1 = the first move).
        number: usize,
        /// The move as written.
        text: String,
        /// `, line L, column C` in a game file, empty for a move list.
        place: String,
        /// The ruleset's reason.
        #[source]
        source: BoxError,
    },
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
    /// The engine's search failed on the game (playing or taking back a trial move); the game
    /// is left as the search found it.
    #[error("the engine's search failed: {0}")]
    Engine(#[source] BoxError),
    /// The rules refused the move or the undo; nothing changed.
    #[error("{0}")]
    Refused(#[source] BoxError),
    /// A move number past the game's last move.
    #[error(transparent)]
    NoSuchMove(#[from] NoSuchMove),
    /// The circuit is too large to draw (qc-render's bound on a drawing's cells).
    #[error(transparent)]
    DrawingTooLarge(#[from] TooLarge),
    /// The program could not be compiled.
    #[error("cannot compile the game: {0}")]
    Compile(#[source] BoxError),
    /// The counts do not read or do not fit the program.
    #[error("cannot read the counts: {0}")]
    Counts(#[source] BoxError),
}

/// The longest move text either ruleset writes is well under this (`e7^e8e7:op=q[e8]`).
pub const MAX_MOVE_CHARS: usize = 64;

/// A move as played, in words the API sends: the same for every ruleset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveSummary {
    /// The move with its outcomes written in (it replays exactly).
    pub text: String,
    /// Its kind (`split_jump`, `superposition`, ...).
    pub kind: &'static str,
    /// What happened, in words, with the probability of each outcome drawn.
    pub detail: String,
    /// The outcome in a few words, when something was drawn.
    pub outcome: Option<String>,
}

impl MoveSummary {
    fn of<M: GameMove>(played: &PlayedMove<M>) -> MoveSummary {
        MoveSummary {
            text: played.text(),
            kind: played.kind_name(),
            detail: played.detail(),
            outcome: played.outcome_summary(),
        }
    }
}

/// The engine's move as played, with what its search found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineMove {
    /// The move as played.
    pub played: MoveSummary,
    /// The deepest iteration of the search completed (plies; 0: none, the first move in the
    /// engine's order was played).
    pub depth: u32,
    /// The move's score for the side that played it, in pawns.
    pub score: f64,
    /// Positions the search visited.
    pub nodes: u64,
    /// The time the search took, in milliseconds.
    pub time_ms: u64,
}

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
    /// The squares named by the move, in the order a player clicks them (source, then targets;
    /// both sources of a merge, then its target).
    pub clicks: Vec<String>,
}

/// A game of one ruleset on the sparse simulator, with its start position.
#[allow(
    clippy::large_enum_variant,
    reason = "one value per game, kept in place behind the store's Arc; a box would only add a hop"
)]
enum Played {
    Cantwell(
        <Cantwell as Ruleset>::Start,
        <Cantwell as Ruleset>::Game<SparseSim>,
    ),
    Niels(
        <Niels as Ruleset>::Start,
        <Niels as Ruleset>::Game<SparseSim>,
    ),
}

/// Runs `$body` with `$rules` bound to the ruleset's type, `$start` to the start position and
/// `$game` to the game (references of the value's mutability): written once, compiled per
/// ruleset.
macro_rules! with_played {
    ($played:expr, |$rules:ident, $start:ident, $game:ident| $body:expr) => {
        match $played {
            Played::Cantwell($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = Cantwell;
                $body
            }
            Played::Niels($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = Niels;
                $body
            }
        }
    };
}

/// A game being played on a page.
pub struct WebGame {
    played: Played,
    rules: RulesName,
    variant: Option<String>,
    tags: Vec<Tag>,
    dice: ChaCha8Rng,
    seed: u64,
    max_moves: usize,
}

fn boxed(e: impl std::error::Error + Send + Sync + 'static) -> BoxError {
    Box::new(e)
}

/// A game set up: its start position, the game with its moves replayed, the file's tags.
struct SetUp<R: Ruleset> {
    start: R::Start,
    game: R::Game<SparseSim>,
    tags: Vec<Tag>,
}

/// Sets up a game of ruleset `R` as `spec` says and replays its moves on `backend`.
fn set_up<R: Ruleset>(
    spec: &NewGame,
    backend: SparseSim,
    dice: &mut ChaCha8Rng,
    max_moves: usize,
) -> Result<SetUp<R>, GameError> {
    let variant = spec.variant.as_deref().filter(|v| !v.trim().is_empty());
    let setup = |what: &'static str| {
        move |e: R::Error| GameError::Setup {
            what,
            source: boxed(e),
        }
    };
    let file: GameFile<R::Start, R::Move> = match &spec.game {
        Some(file) => {
            if spec.fen.is_some() || spec.moves.is_some() {
                return Err(GameError::GameAndMoves);
            }
            R::read_game(file, variant).map_err(setup("game"))?
        }
        None => {
            let start = R::start(spec.fen.as_deref(), variant)
                .map_err(setup(if spec.fen.is_some() { "fen" } else { "variant" }))?;
            let moves = match &spec.moves {
                Some(m) => R::read_moves(m).map_err(setup("moves"))?,
                None => Vec::new(),
            };
            let mut file = GameFile::new(start);
            file.moves = moves;
            file
        }
    };
    if file.moves.len() > max_moves {
        return Err(GameError::TooLong {
            limit: max_moves,
            moves: file.moves.len(),
        });
    }
    let mut game =
        R::game_for(&file, backend).map_err(setup("cannot set up the start position"))?;
    for (index, m) in file.moves.iter().enumerate() {
        QuantumGame::play(&mut game, &m.mv, dice).map_err(|e| GameError::Replay {
            number: index + 1,
            text: m.mv.to_string(),
            place: if m.line == 0 {
                String::new()
            } else {
                format!(", line {}, column {}", m.line, m.column)
            },
            source: boxed(e),
        })?;
    }
    R::finish_replay(&file, &mut game).map_err(setup("game"))?;
    Ok(SetUp {
        start: file.start,
        game,
        tags: file.tags,
    })
}

impl WebGame {
    /// Sets up the game `spec` describes (its moves replayed, outcomes not written in drawn with
    /// its seed) on a sparse simulator holding at most `memory_bytes`; a game may reach
    /// `max_moves` moves.
    ///
    /// # Errors
    /// A [`GameError`] naming what did not read or which move was refused.
    pub fn new(spec: &NewGame, memory_bytes: u128, max_moves: usize) -> Result<WebGame, GameError> {
        let backend = SparseSim::with_limit(MemoryLimit::bytes(memory_bytes));
        let mut dice = qc_front::rng(spec.seed);
        let (played, tags) = match spec.rules {
            RulesName::Cantwell => {
                let s = set_up::<Cantwell>(spec, backend, &mut dice, max_moves)?;
                (Played::Cantwell(s.start, s.game), s.tags)
            }
            RulesName::Niels => {
                let s = set_up::<Niels>(spec, backend, &mut dice, max_moves)?;
                (Played::Niels(s.start, s.game), s.tags)
            }
        };
        let variant = with_played!(&played, |R, start, _game| R::options_name(start));
        Ok(WebGame {
            played,
            rules: spec.rules,
            variant,
            tags,
            dice,
            seed: spec.seed,
            max_moves,
        })
    }

    /// The ruleset.
    pub fn rules(&self) -> RulesName {
        self.rules
    }

    /// The rule options in force, as they are written (`None` for Quantum Chess).
    pub fn variant(&self) -> Option<&str> {
        self.variant.as_deref()
    }

    /// The seed of the dice.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The most moves this game may reach.
    pub fn max_moves(&self) -> usize {
        self.max_moves
    }

    /// Plays `text` (outcomes written in are forced, the others drawn from the game's dice).
    ///
    /// # Errors
    /// The move is empty, too long, refused by the rules, or the game is at its move limit;
    /// nothing changes.
    pub fn play(&mut self, text: &str) -> Result<MoveSummary, GameError> {
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
        let played = self.move_count();
        if played >= self.max_moves {
            return Err(GameError::TooLong {
                limit: self.max_moves,
                moves: played + 1,
            });
        }
        let dice = &mut self.dice;
        with_played!(&mut self.played, |R, _start, game| QuantumGame::play_text(
            game, text, dice
        )
        .map(MoveSummary::of)
        .map_err(|e| GameError::Refused(boxed(e))))
    }

    /// Lets qc-engine's search (the engine of `qchess uqci`) choose a move for the side to move
    /// within `time`, then plays it, its outcome drawn from the game's dice as for a typed move.
    ///
    /// # Errors
    /// The game is over or at its move limit, or the search failed.
    pub fn engine_move(&mut self, time: Duration) -> Result<EngineMove, GameError> {
        let played = self.move_count();
        if played >= self.max_moves {
            return Err(GameError::TooLong {
                limit: self.max_moves,
                moves: played + 1,
            });
        }
        let dice = &mut self.dice;
        let limits = Limits::move_time(time);
        with_played!(&mut self.played, |R, _start, game| {
            let mut searcher = Searcher::new(SearchConfig {
                table_bytes: ENGINE_TABLE_BYTES,
                ..SearchConfig::default()
            });
            let found = searcher
                .search(game, &limits, StopFlag::new(), &mut |_| {})
                .map_err(|e| GameError::Engine(boxed(e)))?;
            let best = found.best.ok_or(GameError::EngineNoMove)?;
            let played = QuantumGame::play(game, &best, dice)
                .map(MoveSummary::of)
                .map_err(|e| GameError::Engine(boxed(e)))?;
            Ok(EngineMove {
                played,
                depth: found.depth,
                score: found.score,
                nodes: found.nodes,
                time_ms: u64::try_from(found.time.as_millis()).unwrap_or(u64::MAX),
            })
        })
    }

    /// Takes back the last move exactly and returns it.
    ///
    /// # Errors
    /// No move to take back, or the undo history no longer reaches it.
    pub fn undo(&mut self) -> Result<MoveSummary, GameError> {
        with_played!(&mut self.played, |R, _start, game| QuantumGame::undo(game)
            .map(|m| MoveSummary::of(&m))
            .map_err(|e| GameError::Refused(boxed(e))))
    }

    /// The moves played.
    pub fn moves(&self) -> Vec<MoveSummary> {
        with_played!(&self.played, |R, _start, game| QuantumGame::moves(game)
            .iter()
            .map(MoveSummary::of)
            .collect())
    }

    /// The number of moves played.
    pub fn move_count(&self) -> usize {
        with_played!(&self.played, |R, _start, game| QuantumGame::moves(game)
            .len())
    }

    /// The legal moves of the side to move, with the squares a player clicks for each.
    pub fn legal_moves(&self) -> Vec<WebMove> {
        with_played!(&self.played, |R, _start, game| QuantumGame::legal_moves(
            game
        )
        .into_iter()
        .map(|m| WebMove {
            text: m.mv.to_string(),
            kind: m.kind_name(),
            clicks: m.mv.clicks().iter().map(ToString::to_string).collect(),
        })
        .collect())
    }

    /// Whether the game goes on.
    pub fn status(&self) -> Status {
        with_played!(&self.played, |R, _start, game| QuantumGame::status(game))
    }

    /// The side to move.
    pub fn side_to_move(&self) -> qc_rules::Color {
        with_played!(&self.played, |R, _start, game| QuantumGame::side_to_move(
            game
        ))
    }

    /// The position in the ruleset's FEN.
    pub fn fen(&self) -> String {
        with_played!(&self.played, |R, _start, game| QuantumGame::fen(game))
    }

    /// The most likely full-board measurement as a FEN, with its probability, where the FEN is
    /// not already one board.
    pub fn most_likely_board(&self) -> Option<(String, f64)> {
        with_played!(&self.played, |R, _start, game| {
            QuantumGame::most_likely_board(game)
        })
    }

    /// The line about the draw rules' counters, when there is something to say.
    pub fn endings_note(&self) -> Option<String> {
        with_played!(&self.played, |R, _start, game| QuantumGame::endings_note(
            game
        ))
    }

    /// The number of basis states of the quantum state.
    pub fn state_size(&self) -> usize {
        with_played!(&self.played, |R, _start, game| QuantumGame::state_size(
            game
        ))
    }

    /// The board for the renderers, with lines between correlated squares.
    pub fn board_view(&self) -> BoardView {
        with_played!(&self.played, |R, _start, game| QuantumGame::board_view(
            game, true
        ))
    }

    /// The circuit of the whole game (`None`) or of move `n` (0 = the set-up) as qc-render
    /// draws it, with the same sections and wire names as `qchess draw`; without `all_wires`,
    /// a whole game leaves out the set-up wires of squares no move touches.
    ///
    /// # Errors
    /// There is no move `n`, or the drawing is too large to read.
    pub fn circuit_svg(&self, n: Option<usize>, all_wires: bool) -> Result<String, GameError> {
        let (circuit, mut notes): (_, Annotations) = with_played!(
            &self.played,
            |R, _start, game| game_drawing(game, n, all_wires)
        )?;
        if !notes.hidden.is_empty() {
            // The page's words, not the command line's flag.
            notes.note = Some(format!(
                "({} set-up wire(s) that no move touches are not drawn: tick \"All wires\" to draw them)",
                notes.hidden.len()
            ));
        }
        Ok(svg_circuit::draw_annotated(&circuit, &notes)?)
    }

    /// The game as a game file that replays exactly (every outcome written in).
    pub fn game_file(&self) -> String {
        let tags = &self.tags;
        with_played!(&self.played, |R, start, game| R::write_game(
            tags, start, game
        ))
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
        with_played!(&self.played, |R, _start, game| {
            let facts = qc_front::board_facts(game, game.backend());
            qc_front::compile_circuit(
                QuantumGame::circuit(game),
                &QuantumGame::outcomes(game),
                format,
                options,
                target,
                Some(&facts),
            )
        })
        .map_err(|e| GameError::Compile(boxed(e)))
    }
}

/// A device's `counts` of `program` (a text [`WebGame::compile`] wrote) back into a board, with
/// the exact board beside it, as `qchess counts --exact` reads them.
///
/// # Errors
/// The counts (or the calibration) do not read or do not fit the program.
pub fn estimate_counts(
    program: &str,
    counts: &str,
    request: &CountsRequest<'_>,
) -> Result<BoardEstimate, GameError> {
    let request = CountsRequest {
        exact: true,
        ..request.clone()
    };
    qc_front::board_from_counts(program, counts, &request).map_err(|e| GameError::Counts(boxed(e)))
}
