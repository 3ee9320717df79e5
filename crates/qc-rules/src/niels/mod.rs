//! # Niel's Chess ("piece in a box"), a second ruleset
//!
//! Tamás Varga's Niel's Chess: conventional pieces and *indefinite pairs* (one piece on two
//! squares, Art. 6), superposition moves (Art. 7.1-7.3), attempted captures that collapse pairs
//! with dice probabilities (Art. 7.4-7.5), entanglement moves and collapse in tandem (Art. 8),
//! check and checkmate kept (Art. 7.6, 8.7-8.9). The Simplified Game (Art. 9) is the default;
//! the full game with mark facing and the Hadamard Game (App. D) are options ([`NielsRules`]).
//!
//! This module owns its own position model ([`NielsPosition`]), move notation ([`NielsMove`]),
//! legality ([`legal`]) and a game engine ([`NielsGame`]) that turns every dice roll into a
//! measurement of a `qc_ir` circuit run on any [`qc_ir::Backend`]. It shares only the piece
//! types and squares with the Cantwell engine. See `docs/niels.md`.

pub mod apply;
pub mod endings;
pub mod error;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod legal;
pub mod moves;
pub mod position;
pub mod record;
pub mod render;
mod ruleset;

#[cfg(test)]
mod tests;

pub use apply::{Outcome, QuantumOps};
pub use endings::{RepetitionKey, REPETITION_COUNT};
pub use error::{
    FenProblem, GameFileProblem, IllegalReason, Inconsistency, InvariantViolation, MoveProblem,
    NielsError,
};
pub use game::{simulate, NielsGame, PlayedNiels};
pub use moves::{Facing, NielsMove, NielsMoveKind, RolledMove};
pub use position::{Cell, Group, GroupId, NielsPosition, NielsRules, Pair, PairId};
pub use record::NielsRecord;
pub use ruleset::{Niels, NielsStart};
