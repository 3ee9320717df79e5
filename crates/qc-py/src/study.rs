//! The Rust half of `qchess.study` (the Python module `python/qchess/study.py` schedules, streams
//! and sums up): one seeded random game, or one game file, played ply by ply with its
//! statistics, the GIL released for the whole chunk so that threads run games on all cores.
//!
//! Each game's seed is derived from the study's seed and the game's index
//! ([`game_seed`]), so a game is the same whichever worker plays it, and game `i` of a study is
//! `qchess board --random-plies P --seed game_seed(S, i)`.

use crate::errors::{io_error, session_error, with_place};
use crate::game::option;
use pyo3::prelude::*;
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

/// Whether a move of `kind` is a quantum move: a split or merge (Quantum Chess), or a move of
/// Niel's Chess other than a classical move, capture or castling.
fn is_quantum(kind: &str) -> bool {
    matches!(
        kind,
        "split_jump"
            | "split_slide"
            | "merge_jump"
            | "merge_slide"
            | "superposition"
            | "entanglement"
            | "mark_inversion"
            | "z_move"
            | "hadamard"
            | "tunnelling"
    )
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
        self.quantum_moves += usize::from(is_quantum(played.kind));
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

/// Plays up to `plies` random legal moves on `session` (fewer when the game ends).
fn play_random(session: &mut Session, tally: &mut Tally, plies: usize) {
    for _ in 0..plies {
        match session.play_random() {
            Some(played) => tally.add(session, played),
            None => break,
        }
    }
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
/// position, up to `plies` random plies, seeded by :func:`game_seed`) without the GIL, and
/// returns each game's record as JSON text.
#[pyfunction]
#[pyo3(signature = (seed, first, count, plies, rules="cantwell", backend="sparse", variant=None))]
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
) -> PyResult<Vec<String>> {
    let rules: RulesKind = option(rules)?;
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
                play_random(&mut session, &mut tally, plies);
                Ok(tally.record(&session, index, game, "random").to_string())
            })
            .collect()
    })
}

/// Plays the game file `path` as game `index` of the study seeded `seed` without the GIL:
/// its moves one by one (outcomes not written in drawn with :func:`game_seed`), then up to
/// `plies` random plies; returns its record as JSON text.
#[pyfunction]
#[pyo3(signature = (path, seed, index, plies=0, rules=None, backend="sparse", variant=None))]
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
) -> PyResult<String> {
    let rules: Option<RulesKind> = rules.map(option).transpose()?;
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
        play_random(&mut session, &mut tally, plies);
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
