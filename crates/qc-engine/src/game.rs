//! What the engine needs of a game beyond [`QuantumGame`]: the squares a move names (for move
//! ordering) and a key of the whole position (for the transposition table), implemented for
//! both rulesets' games on any [`Backend`].
//!
//! Everything else the search does through [`QuantumGame`]: `legal_moves`, `move_outcomes` (each
//! outcome of a move with its exact probability), `play` with the outcome written in (the
//! make), `undo` (the unmake), `status`, `side_to_move` and `board_view` (what the evaluation
//! reads).

use qc_ir::Backend;
use qc_rules::niels::moves::NielsMove;
use qc_rules::niels::NielsGame;
use qc_rules::{Game, MoveShape, QuantumGame, Square};
use std::hash::{Hash, Hasher};

/// The squares a move names: where the moving piece (or pieces) leave from and where they go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSquares {
    /// The squares pieces leave (two for a merge).
    pub sources: Vec<Square>,
    /// The squares pieces go to (two for a split).
    pub targets: Vec<Square>,
}

impl MoveSquares {
    /// A key of the squares (for killer moves): the sources, a separator, the targets, each
    /// square in 7 bits; moves on the same squares (promotions to different pieces) share it.
    pub fn key(&self) -> u64 {
        let push = |k: u64, s: &Square| (k << 7) | (s.index() as u64 + 1);
        let sources = self.sources.iter().take(4).fold(0, push);
        self.targets.iter().take(4).fold(sources << 7, push)
    }
}

/// A game the engine can search: a [`QuantumGame`] that also says which squares a move names and
/// hashes its position.
pub trait EngineGame: QuantumGame {
    /// The squares `mv` names.
    fn move_squares(mv: &Self::Move) -> MoveSquares;

    /// A key of the position: the quantum state (every basis state and its amplitude,
    /// [`Backend::state_hash`]) and the classical part the rules read (the ruleset's FEN without its
    /// move counters). Two positions with the same key are treated as the same by the search.
    fn position_key(&self) -> u64;
}

pub(crate) use qc_ir::backend::mix64 as mix;

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

impl<B: Backend> EngineGame for Game<B> {
    fn move_squares(mv: &Self::Move) -> MoveSquares {
        match mv.shape {
            MoveShape::Standard { source, target } => MoveSquares {
                sources: vec![source],
                targets: vec![target],
            },
            MoveShape::Split {
                source,
                target1,
                target2,
            } => MoveSquares {
                sources: vec![source],
                targets: vec![target1, target2],
            },
            MoveShape::Merge {
                source1,
                source2,
                target,
            } => MoveSquares {
                sources: vec![source1, source2],
                targets: vec![target],
            },
            MoveShape::Null => MoveSquares::default(),
        }
    }

    fn position_key(&self) -> u64 {
        fen_key(&QuantumGame::fen(self)) ^ mix(self.backend().state_hash())
    }
}

impl<B: Backend> EngineGame for NielsGame<B> {
    fn move_squares(mv: &Self::Move) -> MoveSquares {
        let (sources, targets) = match mv.mv {
            NielsMove::Step { from, to, .. } | NielsMove::Tunnel { from, to } => {
                (vec![from], vec![to])
            }
            NielsMove::Superpose {
                from, red, blue, ..
            }
            | NielsMove::Entangle {
                from, red, blue, ..
            } => (vec![from], vec![red, blue]),
            NielsMove::Invert { square }
            | NielsMove::ZMove { square }
            | NielsMove::Hadamard { square } => (vec![square], Vec::new()),
        };
        MoveSquares { sources, targets }
    }

    fn position_key(&self) -> u64 {
        fen_key(&QuantumGame::fen(self)) ^ mix(self.backend().state_hash())
    }
}
