//! The Python package `qchess`: Quantum Chess games (Cantwell's rules and Niel's Chess) played on
//! qchess's simulators, drawn as SVG, compiled to OpenQASM, and device counts read back into a
//! board, from Python at Rust speed.
//!
//! Everything is written once against the ruleset interface (`qc_rules::QuantumGame`); the
//! errors of the libraries become Python exceptions with the command line's messages (see
//! the `errors` module), and no panic crosses into Python (PyO3 turns one into an exception; the code
//! avoids them: no `unwrap` on user input). `docs/python.md` is the user's guide.

mod drawing;
mod errors;
mod game;
mod move_record;
mod programs;
mod study;
mod threads;

use pyo3::prelude::*;

/// The extension module `qchess._qchess`, which the package `qchess` (`python/qchess`)
/// re-exports next to its Python modules (`qchess.study`).
#[pymodule]
#[pyo3(name = "_qchess")]
fn qchess(m: &Bound<'_, PyModule>) -> PyResult<()> {
    threads::init()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<game::Game>()?;
    m.add_class::<move_record::Move>()?;
    m.add_class::<programs::BoardEstimate>()?;
    m.add_class::<programs::Program>()?;
    m.add_function(wrap_pyfunction!(programs::run, m)?)?;
    m.add_function(wrap_pyfunction!(programs::counts, m)?)?;
    m.add_function(wrap_pyfunction!(study::game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(study::study_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(study::study_game_file, m)?)?;
    m.add_function(wrap_pyfunction!(threads::num_threads, m)?)?;
    errors::register(m)?;
    Ok(())
}
