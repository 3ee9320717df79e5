//! A board estimated from a device's counts (or the exact board beside it) as a [`BoardView`],
//! so that the renderers draw it as they draw a game's board: `qchess counts` prints it, the web
//! page shows the mitigated board beside the exact one.

use crate::counts::{BoardEstimate, SquareEstimate};
use qc_rules::ruleset::SquareView;
use qc_rules::Square;
use qc_rules::{BoardView, Color};

/// The board the kept shots of `estimate` give (after the mitigations asked for), as a view:
/// every square with a positive probability and its piece (`?` where the map does not know
/// it). The side to move is White: the board map does not record it.
pub fn estimate_view(estimate: &BoardEstimate) -> BoardView {
    view_of(estimate, |_, s| s.probability)
}

/// The exact board beside the estimate, drawn as [`estimate_view`] draws the measured one;
/// `None` when the estimate was made without it.
pub fn exact_view(estimate: &BoardEstimate) -> Option<BoardView> {
    let exact = estimate.exact.as_ref()?;
    Some(view_of(estimate, |sq, _| {
        exact.get(&sq).copied().unwrap_or(0.0)
    }))
}

fn view_of(
    estimate: &BoardEstimate,
    probability: impl Fn(Square, &SquareEstimate) -> f64,
) -> BoardView {
    let mut view = BoardView::new(8, 8, Color::White);
    for (sq, s) in &estimate.squares {
        let probability = probability(*sq, s);
        if probability > 0.0 {
            view.squares[sq.index()] = Some(SquareView {
                piece: s
                    .piece
                    .as_deref()
                    .and_then(|p| p.chars().next())
                    .unwrap_or('?'),
                probability,
                mark: None,
            });
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn measured_and_exact_boards_take_their_own_probabilities() {
        let estimate = BoardEstimate {
            shots: 100,
            kept: 90,
            discarded: BTreeMap::new(),
            squares: [
                (sq("a3"), Some("N"), 0.46),
                (sq("c3"), Some("N"), 0.54),
                (sq("e1"), None, 1.0),
                (sq("b1"), Some("N"), 0.0),
            ]
            .into_iter()
            .map(|(s, piece, probability)| {
                let piece = piece.map(str::to_string);
                let stderr = 0.05;
                (
                    s,
                    SquareEstimate {
                        piece,
                        probability,
                        stderr,
                    },
                )
            })
            .collect(),
            exact: Some([(sq("a3"), 0.5), (sq("c3"), 0.5), (sq("e1"), 1.0)].into()),
            tvd: Some(0.04),
            no_board: None,
        };
        let measured = estimate_view(&estimate);
        let exact = exact_view(&estimate).unwrap();
        let at = |v: &BoardView, s: &str| v.get(sq(s)).map(|x| (x.piece, x.probability));
        assert_eq!(at(&measured, "a3"), Some(('N', 0.46)));
        assert_eq!(at(&exact, "a3"), Some(('N', 0.5)));
        assert_eq!(at(&measured, "e1"), Some(('?', 1.0)));
        assert_eq!(at(&measured, "b1"), None, "an empty square is not drawn");
        let without = BoardEstimate {
            exact: None,
            ..estimate
        };
        assert!(exact_view(&without).is_none());
    }
}
