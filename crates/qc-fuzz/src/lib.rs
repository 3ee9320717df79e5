//! # qc-fuzz: a fuzz harness for qchess on stable Rust
//!
//! Every parser (QCAN moves and move lists, FEN, game files, Niel's moves, positions and game
//! files, IR text, OpenQASM 2 and 3, counts files and readout calibrations) and every end-to-end
//! path (replaying a game of either ruleset, running a circuit on each backend, exporting to
//! OpenQASM and importing it back, OpenQASM 3 angles against an evaluator of this crate's own, UQCI sessions,
//! random circuits routed onto small devices against their unrouted distribution)
//! is a [`Surface`]. The runner (`cargo run --profile fuzz -p qc-fuzz -- --seconds 120`) feeds each
//! surface inputs mutated from seeds (the repository's example files, a corpus folder and a few
//! built-in lines) under `catch_unwind`, and writes every input that panics, or that breaks a
//! property the surface checks, to a file. `tests/regressions.rs` replays the saved failures.

pub mod counts;
pub mod mutate;
pub mod qasm3_semantics;
pub mod route;
pub mod seeds;
pub mod surfaces;
pub mod uqci;
pub mod web;

pub use surfaces::{run_guarded, Outcome, Surface};

/// FNV-1a (64 bits) of `bytes`: the name of a saved failure, and the seed a generated input is
/// drawn from.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}
