//! QCAN move notation (Quantum Chess Algebraic Notation, paper sec. 4, with the official
//! engine's extras; see `docs/notation.md`).

use crate::piece::PieceKind;
use qc_ir::Square;
use serde::{Deserialize, Serialize};

/// The squares a move names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveShape {
    /// `s t`: one source, one target (also castling as the king's move, pawn moves, e.p.).
    Standard {
        /// Source.
        source: Square,
        /// Target.
        target: Square,
    },
    /// `s^t1t2`: split; `target1` gets the sqrt-iSWAP.
    Split {
        /// Source.
        source: Square,
        /// First target.
        target1: Square,
        /// Second target.
        target2: Square,
    },
    /// `s1s2^t`: merge; `source1` gets the full inverse iSWAP.
    Merge {
        /// First source.
        source1: Square,
        /// Second source.
        source2: Square,
        /// Target.
        target: Square,
    },
    /// `0000`: the null move (UQCI).
    Null,
}

/// The variant mark written in the move (`x` capture, `w` excluded); none means "as classified".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VariantMark {
    /// `x`.
    Capture,
    /// `w`.
    Excluded,
}

/// A parsed QCAN move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct QcanMove {
    /// Optional piece prefix (`Pa2a4`, `Nb1^a3c3`), checked against the board when given.
    pub piece: Option<PieceKind>,
    /// Which squares.
    pub shape: MoveShape,
    /// Optional `x` / `w` mark, checked against the classification when given.
    pub mark: Option<VariantMark>,
    /// Promotion piece (`a7a8q` / `a7a8Q`), any case in input.
    pub promotion: Option<PieceKind>,
    /// Recorded measurement outcome (`.m0` / `.m1`), forced when replaying.
    pub outcome: Option<bool>,
}
