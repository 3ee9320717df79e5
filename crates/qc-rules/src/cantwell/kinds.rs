//! The move types and variants, with the snake_case names they serialize to (`split_jump`,
//! `basic`, ...), as the CLI prints them in JSON.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The kind of move (the official engine's move types, with pawn moves named apart).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveType {
    /// Knight or king move.
    Jump,
    /// Bishop, rook or queen move.
    Slide,
    /// Knight or king split.
    SplitJump,
    /// Bishop, rook or queen split.
    SplitSlide,
    /// Knight or king merge.
    MergeJump,
    /// Bishop, rook or queen merge.
    MergeSlide,
    /// Pawn one step forward.
    PawnStep,
    /// Pawn two steps forward from its starting rank.
    PawnTwoStep,
    /// Pawn diagonal capture.
    PawnCapture,
    /// En passant.
    EnPassant,
    /// O-O.
    KingsideCastle,
    /// O-O-O.
    QueensideCastle,
}

impl MoveType {
    /// The snake_case name (`split_jump`), as serialized.
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveType::Jump => "jump",
            MoveType::Slide => "slide",
            MoveType::SplitJump => "split_jump",
            MoveType::SplitSlide => "split_slide",
            MoveType::MergeJump => "merge_jump",
            MoveType::MergeSlide => "merge_slide",
            MoveType::PawnStep => "pawn_step",
            MoveType::PawnTwoStep => "pawn_two_step",
            MoveType::PawnCapture => "pawn_capture",
            MoveType::EnPassant => "en_passant",
            MoveType::KingsideCastle => "kingside_castle",
            MoveType::QueensideCastle => "queenside_castle",
        }
    }
}

impl fmt::Display for MoveType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The variant, decided by the target (decision 10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Target empty or holding the same piece: no measurement.
    Basic,
    /// Target occupied in superposition by a piece the move cannot capture: measure it empty.
    Excluded,
    /// Target holds an opponent piece: measure the attacker present (and its path clear).
    Capture,
}

impl Variant {
    /// The snake_case name (`basic`), as serialized.
    pub const fn as_str(self) -> &'static str {
        match self {
            Variant::Basic => "basic",
            Variant::Excluded => "excluded",
            Variant::Capture => "capture",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of Quantum Chess move a move is in its position: its type and its variant (the
/// kind a [`crate::ruleset::PlayedMove`] or [`crate::ruleset::LegalMove`] of Quantum Chess
/// carries).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveClass {
    /// Its type.
    pub move_type: MoveType,
    /// Its variant.
    pub variant: Variant,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_serialize_as_snake_case() {
        for (t, name) in [
            (MoveType::SplitJump, "split_jump"),
            (MoveType::PawnTwoStep, "pawn_two_step"),
            (MoveType::QueensideCastle, "queenside_castle"),
            (MoveType::EnPassant, "en_passant"),
        ] {
            assert_eq!(serde_json::to_string(&t).ok(), Some(format!("\"{name}\"")));
            assert_eq!(t.to_string(), name);
        }
        assert_eq!(
            serde_json::to_string(&Variant::Excluded).ok().as_deref(),
            Some("\"excluded\"")
        );
    }
}
