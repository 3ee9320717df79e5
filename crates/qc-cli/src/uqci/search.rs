//! `go`: a small expectimax search on expected material (docs/uqci.md, "go").
//!
//! The evaluation of a position, from the side to move's view, is its expected material: the sum
//! over squares of P(occupied) x the value of the register's piece there (pawn 1, knight 3,
//! bishop 3, rook 5, queen 9, king 100), counted positive for the side to move and negative for
//! the other; an ended game scores +-[`WIN_SCORE`] or 0. A move is worth the expectation over its
//! measurement outcomes: played with `.m1` and with `.m0`, weighted by the exact probability of
//! each (read from the state before the move), then taken back. Depth 1 looks one ply ahead;
//! depth 2 also lets the opponent answer each move with its best reply.

use qc_ir::{Backend, Square};
use qc_rules::definition2::move_success_probability;
use qc_rules::{Color, Game, GameStatus, MoveError, PieceKind, QcanMove};

/// The score of a won game, in pawns.
pub const WIN_SCORE: f64 = 1000.0;

/// The deepest search `go depth N` runs (deeper requests are searched at this depth).
pub const MAX_DEPTH: u32 = 2;

/// Outcome probabilities closer than this to 0 or 1 are certain.
const CERTAIN: f64 = 1e-12;

/// A piece's value in pawns.
fn value(kind: PieceKind) -> f64 {
    match kind {
        PieceKind::Pawn => 1.0,
        PieceKind::Knight | PieceKind::Bishop => 3.0,
        PieceKind::Rook => 5.0,
        PieceKind::Queen => 9.0,
        PieceKind::King => 100.0,
    }
}

/// The expected material of `game` for `side`, or the score of an ended game.
pub fn evaluate<B: Backend>(game: &Game<B>, side: Color) -> f64 {
    let winner = match game.status() {
        GameStatus::Ongoing => None,
        GameStatus::Draw => return 0.0,
        GameStatus::WhiteWins => Some(Color::White),
        GameStatus::BlackWins => Some(Color::Black),
    };
    if let Some(w) = winner {
        return if w == side { WIN_SCORE } else { -WIN_SCORE };
    }
    let probabilities = game.probabilities();
    Square::ALL
        .iter()
        .filter_map(|&sq| {
            let piece = game.board().piece(sq)?;
            let sign = if piece.color == side { 1.0 } else { -1.0 };
            Some(sign * value(piece.kind) * probabilities[sq.index()])
        })
        .sum()
}

/// The best move for the side to move at `depth` (1..=[`MAX_DEPTH`]) and its score in pawns;
/// `None` when there is no legal move. Ties go to the first move in `legal_moves` order.
///
/// # Errors
/// Playing or taking back a trial move failed (the game may then have moved on).
pub fn best_move<B: Backend>(
    game: &mut Game<B>,
    depth: u32,
) -> Result<Option<(QcanMove, f64)>, MoveError> {
    let depth = depth.clamp(1, MAX_DEPTH);
    let mut best: Option<(QcanMove, f64)> = None;
    for mv in game.legal_moves() {
        let score = move_score(game, &mv, depth)?;
        if best.as_ref().is_none_or(|(_, b)| score > *b + CERTAIN) {
            best = Some((mv, score));
        }
    }
    Ok(best)
}

/// The expected score of `mv` for the side playing it, searching `depth` plies in all.
fn move_score<B: Backend>(game: &mut Game<B>, mv: &QcanMove, depth: u32) -> Result<f64, MoveError> {
    let side = game.board().side_to_move;
    let p = move_success_probability(game.backend(), game.board(), &game.occupancy(), mv)?;
    let outcomes: Vec<(Option<bool>, f64)> = if p >= 1.0 - CERTAIN {
        vec![(None, 1.0)]
    } else {
        vec![(Some(true), p), (Some(false), 1.0 - p)]
    };
    let mut total = 0.0;
    for (outcome, weight) in outcomes {
        let forced = QcanMove { outcome, ..*mv };
        // Outcomes are forced or certain; the full measurement of the fifty-move rule, if the
        // move triggers it, is sampled with a fixed number so that the search is repeatable.
        game.play_with(&forced, &mut || 0.5)?;
        let score = if depth > 1 && game.status() == GameStatus::Ongoing {
            match best_move(game, depth - 1) {
                Ok(Some((_, reply))) => Ok(-reply),
                Ok(None) => Ok(evaluate(game, side)),
                Err(e) => Err(e),
            }
        } else {
            Ok(evaluate(game, side))
        };
        game.undo()?;
        total += weight * score?;
    }
    Ok(total)
}
