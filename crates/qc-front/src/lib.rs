//! What every front end (the `qchess` command line, the Python package `qchess`) shares on top
//! of the libraries, written once so that both give the same results: the facts a game adds to
//! its program's board map, compiling a game to a program text, a device's counts back into a
//! board (the estimate and its mitigations), the random source behind a seed, and the choice of
//! simulator.
//!
//! Depends on qc-ir, qc-rules, qc-sim, qc-export and qc-route; the front ends depend on it.

pub mod backend;
pub mod board_facts;
pub mod compile;
pub mod counts;
pub mod estimate_view;

pub use backend::{check_precision, BackendKind, PrecisionNeedsDense};
pub use board_facts::{annotate, board_facts, BoardFacts};

pub use compile::{
    compile_circuit, compile_circuit_on, CompileError, Compiled, DeviceOptions, DeviceSummary,
    Format,
};
pub use counts::{board_from_counts, CountsRequest, CountsStepError};
pub use estimate_view::{estimate_view, exact_view};
/// The simulators [`with_backend!`] constructs, re-exported so that the macro works in any crate.
#[doc(hidden)]
pub use qc_sim as sim;

use rand::SeedableRng;

/// The random source behind a seed, for the outcomes of moves written without them: the same
/// seed gives the same game in the command line (`--seed`) and in Python (`Game(seed=...)`).
pub fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(seed)
}
