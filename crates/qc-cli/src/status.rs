//! The game's state in words for the text outputs, the same for every command and ruleset.

use qc_front::{Game, MoveView};
use qc_rules::MoveNumber;

/// `Game over: White wins (king captured)` once the game has ended, `White to move` before.
pub fn status_line(game: &dyn Game) -> String {
    let status = game.status();
    if status.is_over() {
        format!("Game over: {status}")
    } else {
        format!("{} to move", game.side_to_move().name())
    }
}

/// What `moves` says on a finished game (`The game is over: White wins (king captured). There
/// are no moves to play.`); `None` while it goes on.
pub fn game_over_text(game: &dyn Game) -> Option<String> {
    let status = game.status();
    status
        .is_over()
        .then(|| format!("The game is over: {status}. There are no moves to play.\n"))
}

/// The position as FEN, with what it means where it is not one board: a Quantum Chess FEN is
/// the classical register, every square a piece may be on, so the most likely full-board
/// measurement follows as a FEN of its own.
pub fn fen_text(game: &dyn Game) -> String {
    let fen = game.fen();
    match game.most_likely_board() {
        Some((likely, p)) if likely != fen => format!(
            "FEN: {fen}\n  (the classical register: every square a piece may be on, so a split \
             piece shows on each of its squares)\nMost likely board (P {p:.4}): {likely}\n"
        ),
        _ => format!("FEN: {fen}\n"),
    }
}

/// The moves played, one line each: the move's chess number (`3.` for White, `3...` for Black,
/// from the game's first ply), the move with its outcomes, its kind and what happened
/// (`   3.   f3xe5.m0   jump   capture, measured, outcome 0 (P 0.5000): ...`).
pub fn move_table(moves: &[MoveView], first_ply: u32) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let number = MoveNumber::of(first_ply, i);
            let dots = if number.black { "..." } else { "." };
            format!(
                "  {:>4}{dots:<3} {:<18} {:<16} {}\n",
                number.number, m.text, m.kind, m.detail
            )
        })
        .collect()
}

/// The side to move or the result, the state size and, after `between` (a line break, or spaces
/// to keep it on one line as `play --compact` prints it after a move), the draw rules' counters.
pub fn status_with_counters(game: &dyn Game, between: &str) -> String {
    let note = game
        .endings_note()
        .map(|n| format!("{between}{n}"))
        .unwrap_or_default();
    format!(
        "{}, state size {}{note}\n",
        status_line(game),
        game.state_size()
    )
}
