//! # Quantum Chess (Cantwell's rules)
//!
//! The classical register ([`board`]), QCAN notation ([`qcan`]) and game files ([`gamefile`]),
//! move classification ([`mod@classify`]: the possibility equations against the state's support)
//! and lowering to circuits exactly as `docs/circuits.md` says ([`mod@lower`]), Definition 2
//! ([`definition2`]), the game engine ([`game`]) that runs moves on any [`qc_ir::Backend`], and
//! the ruleset interface for it ([`Cantwell`]). The choices made where the sources leave room
//! are in `docs/rules.md`.

pub mod board;
pub mod classify;
pub mod definition2;
pub mod error;
pub mod fen;
pub mod game;
pub mod gamefile;
pub(crate) mod global_phase;
pub mod kinds;
pub mod lower;
pub mod measured;
pub mod movegen;
pub mod notation_error;
pub mod observe;
pub mod occupancy;
pub mod qcan;
mod ruleset;

pub use ruleset::{
    Cantwell, CantwellError, FIFTY_MOVE_BOARD_TAG, LINK_THRESHOLD, REPETITION_BOARD_TAG,
};
