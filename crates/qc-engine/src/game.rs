//! What the engine needs of a game beyond [`QuantumGame`]: the squares a move names (for move
//! ordering) and a key of the whole position (for the transposition table), implemented once
//! for every [`QuantumGame`]: every ruleset's game on every [`qc_ir::Backend`] (each can hash its
//! state, [`qc_ir::Backend::state_hash`]), so a new ruleset needs no engine code of its own.
//!
//! Everything else the search does through [`QuantumGame`]: `legal_moves`, `move_outcomes` (each
//! outcome of a move with its exact probability), `play` with the outcome written in (the
//! make), `undo` (the unmake), `status`, `side_to_move` and `board_view` (what the evaluation
//! reads).

use qc_ir::Backend;
use qc_rules::{GameMove, QuantumGame};
use std::hash::{Hash, Hasher};

/// The squares a move names (the ruleset's own [`qc_rules::GameMove::squares`]).
pub use qc_rules::MoveSquares;

/// A game the engine can search: a [`QuantumGame`] that also says which squares a move names and
/// hashes its position.
pub trait EngineGame: QuantumGame {
    /// The squares `mv` names (its ruleset's [`qc_rules::GameMove::squares`]).
    fn move_squares(mv: &Self::Move) -> MoveSquares {
        mv.squares()
    }

    /// A key of the position: the quantum state (every basis state and its amplitude,
    /// [`Backend::state_hash`]) and the classical part the rules read (the ruleset's FEN without its
    /// move counters). Two positions with the same key are treated as the same by the search.
    fn position_key(&self) -> u64;
}

pub(crate) use qc_ir::backend::mix64 as mix;

/// Whether `error` (a game's error, with its chain of causes) came from the simulator running
/// out of room ([`qc_ir::BackendError::CapacityExceeded`]: its memory limit, or the allocator
/// refused) rather than from the rules: the game is then as it was, and the move would be
/// legal with more memory, so the search must not take it for an unplayable move.
pub fn out_of_memory(error: &(dyn std::error::Error + 'static)) -> bool {
    matches!(
        backend_cause(error),
        Some(qc_ir::BackendError::CapacityExceeded { .. })
    )
}

/// Whether `error` came from the simulator stopping a step at the search's stop flag or
/// deadline ([`qc_ir::BackendError::Interrupted`], see [`qc_ir::interrupt`]): the game's ledger
/// restored the state, so the game is as it was, and the search ends as at its deadline.
pub fn interrupted(error: &(dyn std::error::Error + 'static)) -> bool {
    matches!(
        backend_cause(error),
        Some(qc_ir::BackendError::Interrupted { .. })
    )
}

/// The simulator's error in `error`'s chain of causes, if there is one.
fn backend_cause<'a>(
    error: &'a (dyn std::error::Error + 'static),
) -> Option<&'a qc_ir::BackendError> {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if let Some(backend) = e.downcast_ref::<qc_ir::BackendError>() {
            return Some(backend);
        }
        cause = e.source();
    }
    None
}

/// The hash of a FEN without its two move counters (fields 5 and 6): the same placement, side,
/// rights and en passant square (and, in Niel's Chess, pairs) hash alike whatever the clocks.
fn fen_key(fen: &str) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for (i, field) in fen.split_whitespace().enumerate() {
        if i != 4 && i != 5 {
            field.hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// Every ruleset's game: the key is the FEN (without counters) and the simulator's state hash.
impl<G: QuantumGame> EngineGame for G {
    fn position_key(&self) -> u64 {
        fen_key(&self.fen()) ^ mix(self.backend().state_hash())
    }
}
