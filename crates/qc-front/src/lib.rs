//! What every front end (the `qchess` command line with its UQCI engine protocol, the Python
//! package `qchess`, the web server) shares on top of the libraries, written once so that they
//! give the same results: a game of any ruleset on any simulator ([`Session`], with the one
//! dispatch from names to types and the registries of rulesets ([`rules`]) and simulators
//! ([`backend`])), the facts a game adds to its program's board map, compiling a game to a
//! program text, a circuit file read, drawn and simulated ([`program`]), a device's counts back
//! into a board (the estimate and its mitigations), what a file given to the wrong reader is
//! ([`file_kind`]), noisy simulation from a device calibration ([`noise`]), the random source
//! behind a seed, what a chess player's algebraic notation means in a game's own ([`san`]), the
//! UQCI engine protocol's session and loop ([`uqci`]), and the official Quantum Chess app's AI
//! protocol (`{view, clock}` in, a move choice out, as pure functions: [`sdk`]).
//!
//! Depends on qc-ir, qc-rules, qc-sim, qc-export, qc-route, qc-render and qc-engine (a
//! session's engine move, the AI protocol's search); the front ends depend on it.

pub mod backend;
pub mod board_facts;
pub mod compile;
pub mod counts;
pub mod estimate_view;
pub mod file_kind;
pub mod noise;
pub mod program;
pub mod rules;
pub mod san;
pub mod sdk;
pub mod session;
pub mod state;
pub mod uqci;

pub use backend::{check_precision, BackendKind, PrecisionNeedsDense};
pub use board_facts::{annotate, board_facts, BoardFacts};

pub use compile::{
    compile_circuit, compile_circuit_on, CompileDefaults, CompileError, Compiled, DeviceOptions,
    DeviceSummary, Format, BOARD_ERROR_WORK, BOARD_SHORTLIST, COMPILE_DEFAULTS,
};
pub use counts::{board_from_counts, board_from_counts_of, CountsRequest, CountsStepError};
pub use estimate_view::{estimate_view, exact_view};
pub use file_kind::{FileKind, WrongFileType};
pub use program::{read_program, ProgramError};
/// The rulesets [`with_ruleset!`] names, re-exported so that the macro works in any crate.
#[doc(hidden)]
pub use qc_rules as rules_crate;
/// The simulators [`with_simulator!`] constructs, re-exported so that the macro works in any
/// crate.
#[doc(hidden)]
pub use qc_sim as sim;
pub use rules::{Classify, ErrorKind, RulesKind};
pub use san::{san_hint, SanHint};
pub use session::{
    EngineReply, Game, GameInput, Input, LegalView, MoveView, RulesError, Session, SessionError,
    SessionSpec, Table,
};

use rand::SeedableRng;

/// A fresh seed for a session given none (`play`, `serve`, a new game of the web API without
/// `seed`): each session's dice differ, as Python's `Game()` does; the session says which seed
/// it drew, so that giving it replays the outcomes. Below 2^53, so that the page's seed field (a
/// JavaScript number) and any JSON reader keep it exact.
pub fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 11
}

/// The random source behind a seed, for the outcomes of moves written without them: the same
/// seed gives the same game in the command line (`--seed`) and in Python (`Game(seed=...)`).
pub fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(seed)
}

/// An error and its causes, `outer: inner: innermost`, as every front end shows an error (a
/// cause already in its error's message, as `#[error(transparent)]` and `{source}` put it, is
/// not repeated).
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
