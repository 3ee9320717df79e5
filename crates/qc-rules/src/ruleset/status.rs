//! Whether a game goes on and how it ended: one [`Status`] for every ruleset.

use crate::chess::Color;

/// Why a game ended in a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Both kings vanished at once (Quantum Chess).
    BothKingsGone,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 50 moves (100 plies) without a capture or pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// No checkmate can follow (only kings left).
    InsufficientMaterial,
}

/// How a game was won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The other king has probability zero (Quantum Chess: it was captured in every branch).
    KingCaptured,
    /// The other side is checkmated (Niel's Chess).
    Checkmate,
}

/// Whether a game goes on, and how it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// This colour won, for this reason.
    Win(Color, WinReason),
    /// A draw, with its reason.
    Draw(DrawReason),
}

impl Status {
    /// The status as JSON spells it: `ongoing`, `white_wins`, `black_wins`, `draw` (both kings
    /// gone), `stalemate`, `draw_fifty_moves`, `draw_repetition`, `draw_insufficient_material`.
    /// Text outputs use the words of [`Status`]'s `Display` instead.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Win(Color::White, _) => "white_wins",
            Status::Win(Color::Black, _) => "black_wins",
            Status::Draw(DrawReason::BothKingsGone) => "draw",
            Status::Draw(DrawReason::Stalemate) => "stalemate",
            Status::Draw(DrawReason::FiftyMoves) => "draw_fifty_moves",
            Status::Draw(DrawReason::Repetition) => "draw_repetition",
            Status::Draw(DrawReason::InsufficientMaterial) => "draw_insufficient_material",
        }
    }

    /// True once the game has ended.
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }

    /// The result a game file records for a game that has ended (`1-0`, `0-1`, `1/2-1/2`);
    /// `None` while it goes on (a saved unfinished game carries no result token).
    pub fn result(self) -> Option<super::GameResult> {
        match self {
            Status::Ongoing => None,
            Status::Win(Color::White, _) => Some(super::GameResult::WhiteWins),
            Status::Win(Color::Black, _) => Some(super::GameResult::BlackWins),
            Status::Draw(_) => Some(super::GameResult::Draw),
        }
    }
}

/// The status in words, as the text outputs print it: `game on`, `White wins (king captured)`,
/// `Black wins by checkmate`, `Draw by stalemate`, ...
impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Status::Ongoing => f.write_str("game on"),
            Status::Win(winner, WinReason::KingCaptured) => {
                write!(f, "{} wins (king captured)", winner.name())
            }
            Status::Win(winner, WinReason::Checkmate) => {
                write!(f, "{} wins by checkmate", winner.name())
            }
            Status::Draw(reason) => f.write_str(match reason {
                DrawReason::BothKingsGone => "Draw (both kings captured at once)",
                DrawReason::Stalemate => "Draw by stalemate",
                DrawReason::FiftyMoves => "Draw by the fifty-move rule",
                DrawReason::Repetition => "Draw by threefold repetition",
                DrawReason::InsufficientMaterial => "Draw (insufficient material)",
            }),
        }
    }
}
