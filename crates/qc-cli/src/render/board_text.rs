//! The board as ASCII text: each square shows its piece and, when it is not certain, the
//! probability in percent, rounded (`N50` = a white knight found here half the time).

use super::board_view::BoardView;
use qc_ir::Square;

/// The legend printed under a board.
pub const LEGEND: &str = "Legend: uppercase = White, lowercase = Black, '.' = empty;\n        a number is the probability in percent that the piece is on that square\n        (no number = certainly there; '<1' = above 0 but under 0.5%).";

/// Draws `view` with rank 8 at the top.
pub fn draw(view: &BoardView) -> String {
    let mut out = String::from("    +-----+-----+-----+-----+-----+-----+-----+-----+\n");
    for rank in (0..8).rev() {
        out.push_str(&format!("  {} |", rank + 1));
        for file in 0..8 {
            let cell = match Square::from_coords(file, rank).and_then(|sq| view.get(sq)) {
                None => "  .  ".to_string(),
                Some(sv) if sv.probability >= 1.0 - 1e-9 => format!("  {}  ", sv.piece),
                Some(sv) => {
                    let pct = (sv.probability * 100.0).round();
                    let number = if pct < 1.0 {
                        "<1".to_string()
                    } else {
                        format!("{pct:.0}")
                    };
                    format!(" {}{:<3}", sv.piece, number)
                }
            };
            out.push_str(&cell);
            out.push('|');
        }
        out.push('\n');
        out.push_str("    +-----+-----+-----+-----+-----+-----+-----+-----+\n");
    }
    out.push_str("       a     b     c     d     e     f     g     h\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::board_view::SquareView;

    #[test]
    fn shows_pieces_and_rounded_probabilities() {
        let mut view = BoardView::new();
        let sq = |s: &str| Square::parse(s).unwrap();
        view.squares[sq("e1").index()] = Some(SquareView {
            piece: 'K',
            probability: 1.0,
        });
        view.squares[sq("a3").index()] = Some(SquareView {
            piece: 'N',
            probability: 0.5,
        });
        view.squares[sq("c3").index()] = Some(SquareView {
            piece: 'N',
            probability: 0.004,
        });
        view.squares[sq("h8").index()] = Some(SquareView {
            piece: 'k',
            probability: 0.7286,
        });
        let text = draw(&view);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[1].starts_with("  8 |") && lines[1].ends_with("| k73 |"),
            "{text}"
        );
        let rank3 = lines[11];
        assert!(rank3.starts_with("  3 | N50 |  .  | N<1 |"), "{text}");
        assert!(lines[15].contains("|  K  |"), "{text}");
    }
}
