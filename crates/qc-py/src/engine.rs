//! The game behind a Python `Game`: one ruleset on one simulator, chosen at run time by name.
//!
//! Every pair is one variant of [`Engine`], and [`with_engine!`] runs a body once per variant
//! with the ruleset bound as a type (`R`), the start position and the game: the code is written
//! once against `qc_rules::Ruleset`/`QuantumGame` and monomorphised per pair, as the command
//! line's `with_game!` does (no trait objects).

use crate::errors::{OptionError, RulesetError};
use pyo3::prelude::*;
use qc_front::BackendKind;
use qc_rules::{Cantwell, Niels, Ruleset};
use qc_sim::{DenseSim, ReferenceSparse, SparseSim};

/// A game of each ruleset on each simulator, with its start position (for the game file).
pub enum Engine {
    /// Quantum Chess on the sparse simulator.
    CantwellSparse(
        <Cantwell as Ruleset>::Start,
        <Cantwell as Ruleset>::Game<SparseSim>,
    ),
    /// Quantum Chess on the dense simulator.
    CantwellDense(
        <Cantwell as Ruleset>::Start,
        <Cantwell as Ruleset>::Game<DenseSim>,
    ),
    /// Quantum Chess on the reference simulator.
    CantwellReference(
        <Cantwell as Ruleset>::Start,
        <Cantwell as Ruleset>::Game<ReferenceSparse>,
    ),
    /// Niel's Chess on the sparse simulator.
    NielsSparse(
        <Niels as Ruleset>::Start,
        <Niels as Ruleset>::Game<SparseSim>,
    ),
    /// Niel's Chess on the dense simulator.
    NielsDense(
        <Niels as Ruleset>::Start,
        <Niels as Ruleset>::Game<DenseSim>,
    ),
    /// Niel's Chess on the reference simulator.
    NielsReference(
        <Niels as Ruleset>::Start,
        <Niels as Ruleset>::Game<ReferenceSparse>,
    ),
}

/// Runs `$body` with `$rules` bound to the engine's ruleset type, `$start` to its start position
/// and `$game` to its game (references of the engine's mutability).
macro_rules! with_engine {
    ($engine:expr, |$rules:ident, $start:ident, $game:ident| $body:expr) => {{
        use $crate::engine::Engine;
        match $engine {
            Engine::CantwellSparse($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = qc_rules::Cantwell;
                $body
            }
            Engine::CantwellDense($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = qc_rules::Cantwell;
                $body
            }
            Engine::CantwellReference($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = qc_rules::Cantwell;
                $body
            }
            Engine::NielsSparse($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = qc_rules::Niels;
                $body
            }
            Engine::NielsDense($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = qc_rules::Niels;
                $body
            }
            Engine::NielsReference($start, $game) => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = qc_rules::Niels;
                $body
            }
        }
    }};
}
pub(crate) use with_engine;

/// The rulesets, as `Game(rules=...)` names them.
pub const RULES: [&str; 2] = [Cantwell::NAME, Niels::NAME];
/// The simulator called `name` (as `Game(backend=...)` and `qchess.run(backend=...)` name it),
/// or an `OptionError` listing the names.
pub fn parse_backend(name: &str) -> PyResult<BackendKind> {
    name.parse()
        .map_err(|e: qc_ir::UnknownChoice| OptionError::new_err(e.to_string()))
}

/// A new game of ruleset `R` on `backend` from `fen` (default: the standard start) with rule
/// `options`, and its start position.
fn build<R: Ruleset, B: qc_ir::Backend>(
    fen: Option<&str>,
    options: Option<&str>,
    backend: B,
) -> PyResult<(R::Start, R::Game<B>)>
where
    R::Error: RulesetError,
{
    let start = R::start(fen, options)
        .map_err(|e| e.to_py(Some(if fen.is_some() { "fen" } else { "variant" })))?;
    let game = R::new_game(&start, backend)
        .map_err(|e| e.to_py(Some("cannot set up the start position")))?;
    Ok((start, game))
}

/// Sets up a game of the ruleset and simulator named.
pub fn new_engine(
    rules: &str,
    backend: BackendKind,
    fen: Option<&str>,
    options: Option<&str>,
) -> PyResult<Engine> {
    use BackendKind::{Dense, Reference, Sparse};
    let (f, o) = (fen, options);
    match (rules, backend) {
        ("cantwell", Sparse) => {
            build::<Cantwell, _>(f, o, SparseSim::new()).map(|(s, g)| Engine::CantwellSparse(s, g))
        }
        ("cantwell", Dense) => {
            build::<Cantwell, _>(f, o, DenseSim::new()).map(|(s, g)| Engine::CantwellDense(s, g))
        }
        ("cantwell", Reference) => build::<Cantwell, _>(f, o, ReferenceSparse::new())
            .map(|(s, g)| Engine::CantwellReference(s, g)),
        ("niels", Sparse) => {
            build::<Niels, _>(f, o, SparseSim::new()).map(|(s, g)| Engine::NielsSparse(s, g))
        }
        ("niels", Dense) => {
            build::<Niels, _>(f, o, DenseSim::new()).map(|(s, g)| Engine::NielsDense(s, g))
        }
        ("niels", Reference) => build::<Niels, _>(f, o, ReferenceSparse::new())
            .map(|(s, g)| Engine::NielsReference(s, g)),
        (other, _) => Err(OptionError::new_err(format!(
            "unknown rules `{other}` (expected one of: {})",
            RULES.join(", ")
        ))),
    }
}
