//! The Rust half of `qchess.study` (the Python module `python/qchess/study.py` schedules, streams
//! and sums up): one seeded random game, engine self-play game or game file, played ply by ply
//! with its statistics, the GIL released for the whole chunk so that threads run games on all cores.
//!
//! Each game's seed is derived from the study's seed and the game's index
//! ([`game_seed`]), so a game is the same whichever worker plays it, and game `i` of a study is
//! `qchess board --random-plies P --seed game_seed(S, i)`.

use crate::errors::{io_error, session_error, with_place};
use crate::game::option;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qc_engine::{Limits, StopFlag};
use qc_front::{GameInput, MoveView, RulesKind, Session, SessionSpec};
use qc_ir::Choice;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// The seed of game `index` of a study seeded `seed`: the `index`-th output of SplitMix64
/// started at `seed` (a well-mixed, cheap function of both, so that neighbouring indices give
/// unrelated games).
///
/// Args:
///     seed: the study's seed.
///     index: the game's index (0 = the first).
#[pyfunction]
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game's statistics as it is played.
struct Tally {
    moves: Vec<String>,
    quantum_moves: usize,
    measurements: usize,
    largest_state: usize,
}

impl Tally {
    fn new(session: &Session) -> Tally {
        Tally {
            moves: Vec::new(),
            quantum_moves: 0,
            measurements: 0,
            largest_state: session.state_size(),
        }
    }

    /// Counts `played`, just played on `session`.
    fn add(&mut self, session: &Session, played: MoveView) {
        self.quantum_moves += usize::from(played.quantum);
        self.measurements += usize::from(played.outcome.is_some());
        self.largest_state = self.largest_state.max(session.state_size());
        self.moves.push(played.text);
    }

    /// The game's record: the statistics, the result, the final probabilities and the moves
    /// (with their outcomes written in, so that the game replays exactly).
    fn record(self, session: &Session, index: u64, seed: u64, source: &str) -> Value {
        let view = session.board_view(false);
        let probabilities: Map<String, Value> = view
            .board_squares()
            .filter_map(|sq| view.get(sq).map(|s| (sq.to_string(), json!(s.probability))))
            .collect();
        json!({
            "index": index,
            "seed": seed,
            "source": source,
            "rules": session.rules().name(),
            "plies": self.moves.len(),
            "quantum_moves": self.quantum_moves,
            "measurements": self.measurements,
            "largest_state": self.largest_state,
            "final_state": session.state_size(),
            "result": session.status().name(),
            "probabilities": probabilities,
            "moves": self.moves,
        })
    }
}

/// The deepest engine search a study may ask for (a search's work grows fast with depth).
const ENGINE_DEPTH_MAX: u32 = 4;

/// The most positions one engine move may visit: with the depth, the bound on its work (no
/// clock, so that a game is the same on any machine and under any load).
const ENGINE_NODES: u64 = 200_000;

/// Bytes of the engine's transposition table for one move.
const ENGINE_TABLE_BYTES: usize = 1 << 20;

/// Who chooses a study's moves.
#[derive(Copy, Clone)]
enum Mover {
    /// Random legal moves (the session's seeded choice).
    Random,
    /// qc-engine's search to this depth (and at most [`ENGINE_NODES`] positions) for both sides.
    Engine(u32),
}

impl Mover {
    /// `engine_depth` as Python passes it: `None` for random moves.
    fn new(engine_depth: Option<u32>) -> PyResult<Mover> {
        match engine_depth {
            None => Ok(Mover::Random),
            Some(d) if (1..=ENGINE_DEPTH_MAX).contains(&d) => Ok(Mover::Engine(d)),
            Some(d) => Err(PyValueError::new_err(format!(
                "engine_depth must be between 1 and {ENGINE_DEPTH_MAX} (got {d})"
            ))),
        }
    }

    /// The record's `source` for a game from the start position.
    fn source(self) -> &'static str {
        match self {
            Mover::Random => "random",
            Mover::Engine(_) => "engine",
        }
    }
}

/// Plays up to `plies` moves chosen by `mover` on `session` (fewer when the game ends).
///
/// # Errors
/// The engine's search failed (the game is left as it was before that move).
fn play_plies(
    session: &mut Session,
    tally: &mut Tally,
    plies: usize,
    mover: Mover,
) -> Result<(), qc_front::SessionError> {
    for _ in 0..plies {
        let played = match mover {
            Mover::Random => session.play_random(),
            Mover::Engine(depth) => {
                let limits = Limits {
                    nodes: Some(ENGINE_NODES),
                    infinite: true,
                    ..Limits::depth(depth)
                };
                session
                    .engine_move(&limits, ENGINE_TABLE_BYTES, StopFlag::new())?
                    .map(|reply| reply.played)
            }
        };
        match played {
            Some(played) => tally.add(session, played),
            None => break,
        }
    }
    Ok(())
}

/// The session spec of a study's game.
fn spec(
    rules: RulesKind,
    backend: &str,
    variant: Option<&str>,
    seed: u64,
) -> PyResult<SessionSpec> {
    Ok(SessionSpec {
        rules,
        variant: variant.map(str::to_string),
        backend: option(backend)?,
        precision: qc_sim::Precision::Double,
        seed,
    })
}

/// Plays games `first .. first + count` of the study seeded `seed` (each from the start
/// position, up to `plies` plies, seeded by :func:`game_seed`) without the GIL, and returns
/// each game's record as JSON text. The moves are random, or with `engine_depth` qc-engine's
/// choice for both sides (a search to that depth, 1 to 4, of at most 200000 positions; no
/// clock, so the game is the same on any machine).
#[pyfunction]
#[pyo3(signature = (seed, first, count, plies, rules="cantwell", backend="sparse", variant=None, engine_depth=None))]
#[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub fn study_random_games(
    py: Python<'_>,
    seed: u64,
    first: u64,
    count: u64,
    plies: usize,
    rules: &str,
    backend: &str,
    variant: Option<&str>,
    engine_depth: Option<u32>,
) -> PyResult<Vec<String>> {
    let rules: RulesKind = option(rules)?;
    let mover = Mover::new(engine_depth)?;
    // Checked once, before the games: the options are the same for all of them.
    spec(rules, backend, variant, seed)?;
    py.detach(|| {
        (first..first.saturating_add(count))
            .map(|index| {
                let game = game_seed(seed, index);
                let mut session =
                    Session::open(&spec(rules, backend, variant, game)?, GameInput::START, 0)
                        .map_err(session_error)?;
                let mut tally = Tally::new(&session);
                play_plies(&mut session, &mut tally, plies, mover).map_err(session_error)?;
                Ok(tally
                    .record(&session, index, game, mover.source())
                    .to_string())
            })
            .collect()
    })
}

/// Plays the game file `path` as game `index` of the study seeded `seed` without the GIL:
/// its moves one by one (outcomes not written in drawn with :func:`game_seed`), then up to
/// `plies` plies, random or (`engine_depth`) the engine's; returns its record as JSON text.
#[pyfunction]
#[pyo3(signature = (path, seed, index, plies=0, rules=None, backend="sparse", variant=None, engine_depth=None))]
#[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub fn study_game_file(
    py: Python<'_>,
    path: PathBuf,
    seed: u64,
    index: u64,
    plies: usize,
    rules: Option<&str>,
    backend: &str,
    variant: Option<&str>,
    engine_depth: Option<u32>,
) -> PyResult<String> {
    let rules: Option<RulesKind> = rules.map(option).transpose()?;
    let mover = Mover::new(engine_depth)?;
    let name = path.display().to_string();
    let text = py
        .detach(|| std::fs::read_to_string(&path))
        .map_err(|e| io_error(py, &format!("cannot read {name}"), e))?;
    let game = game_seed(seed, index);
    let spec = spec(
        rules.unwrap_or_else(|| RulesKind::of_game_file(&name, &text)),
        backend,
        variant,
        game,
    )?;
    let input = GameInput::File {
        name: &name,
        text: &text,
    };
    let opened = py.detach(|| -> Result<Value, qc_front::SessionError> {
        // The file read and replayed once for its start, rule options and moves (outcomes
        // written in), then played again move by move for the statistics of each ply.
        let whole = Session::open(&spec, input, 0)?;
        let start = whole.start_fen();
        let replay_spec = SessionSpec {
            variant: whole.options_name(),
            ..spec.clone()
        };
        let start_input = GameInput::Position {
            name: &name,
            fen: Some(&start),
            moves: None,
        };
        let mut session = Session::open(&replay_spec, start_input, 0)?;
        let mut tally = Tally::new(&session);
        for played in whole.moves() {
            let again = session.play(&played.text)?;
            tally.add(&session, again);
        }
        play_plies(&mut session, &mut tally, plies, mover)?;
        Ok(tally.record(&session, index, game, &name))
    });
    match opened {
        Ok(record) => Ok(record.to_string()),
        Err(e) => {
            let place = e.place();
            with_place(py, session_error(e), &name, place)
        }
    }
}
