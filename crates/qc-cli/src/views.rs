//! Turns a game into the plain views the renderers draw.

use crate::render::board_view::{BoardView, SquareView};
use qc_ir::{Backend, Square, IMPOSSIBLE_PROBABILITY};
use qc_rules::Game;

/// Pearson correlation of two squares' occupancy above which `board --links` draws a line.
pub const LINK_THRESHOLD: f64 = 0.5;

/// Pieces and probabilities of the final position; with `links`, lines between squares in
/// superposition whose occupancies are strongly correlated (|Pearson r| >= 0.5).
pub fn board_view<B: Backend>(game: &Game<B>, links: bool) -> BoardView {
    let mut view = BoardView::new();
    let probs = game.probabilities();
    for sq in Square::ALL {
        if let Some(piece) = game.board().piece(sq) {
            let p = probs[sq.index()];
            if p >= IMPOSSIBLE_PROBABILITY {
                view.squares[sq.index()] = Some(SquareView {
                    piece: piece.fen_char(),
                    probability: p,
                });
            }
        }
    }
    if links {
        let quantum: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|s| (1e-9..1.0 - 1e-9).contains(&probs[s.index()]))
            .collect();
        for (i, &a) in quantum.iter().enumerate() {
            for &b in &quantum[i + 1..] {
                let r = correlation(game, a, b);
                if r.abs() >= LINK_THRESHOLD {
                    view.links.push((a, b, r.abs()));
                }
            }
        }
    }
    view
}

/// Pearson correlation of the occupancies of two squares.
pub fn correlation<B: Backend>(game: &Game<B>, a: Square, b: Square) -> f64 {
    let qa = game.square_qubit(a);
    let qb = game.square_qubit(b);
    let joint = game.backend().marginal(&[qa, qb]);
    let p11: f64 = joint
        .iter()
        .filter(|(k, _)| *k == 0b11)
        .map(|(_, p)| p)
        .sum();
    let pa = game.probability(a);
    let pb = game.probability(b);
    let var = (pa * (1.0 - pa) * pb * (1.0 - pb)).sqrt();
    if var < 1e-12 {
        0.0
    } else {
        (p11 - pa * pb) / var
    }
}
