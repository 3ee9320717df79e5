//! The board as text, for every ruleset and board size: each square shows its piece and, when
//! it is not certain, the probability in percent, rounded (`N50` = a white knight found here
//! half the time); a Niel's indefinite piece also shows its mark (`Nro1`: red mark, facing the
//! opponent, entangled group 1). Pairs are listed under the board.

use qc_rules::BoardView;
use qc_rules::Square;
use std::fmt::Write;

/// The legend printed under a board.
pub const LEGEND: &str = "Legend: uppercase = White, lowercase = Black, '.' = empty;\n        a number is the probability in percent that the piece is on that square\n        (no number = certainly there; '<1' = above 0 but under 0.5%).";

/// The legend of a board with marks (Niel's Chess).
pub const MARK_LEGEND: &str = "Marks: `Nro1` = indefinite knight, red mark, facing the opponent (o) or its owner (p), entangled group 1/2 (. = lone pair)";

/// One cell, 5 characters wide.
fn cell(view: &BoardView, square: Square) -> String {
    let Some(sv) = view.get(square) else {
        return "  .  ".to_string();
    };
    if let Some(m) = sv.mark {
        return format!(
            " {}{}{}{}",
            sv.piece,
            if m.red { 'r' } else { 'b' },
            if m.faces_opponent { 'o' } else { 'p' },
            m.diagonal.map_or('.', |d| char::from(b'0' + d))
        );
    }
    if sv.probability >= 1.0 - 1e-9 {
        return format!("  {}  ", sv.piece);
    }
    let pct = (sv.probability * 100.0).round();
    let number = if pct < 1.0 {
        "<1".to_string()
    } else {
        format!("{pct:.0}")
    };
    format!(" {}{:<3}", sv.piece, number)
}

/// Draws `view` with the top rank first, then its pairs (if any) and the legend.
pub fn draw(view: &BoardView) -> String {
    let rule = format!("    +{}\n", "-----+".repeat(usize::from(view.width)));
    let mut out = rule.clone();
    for rank in (0..i32::from(view.height)).rev() {
        let _ = write!(out, "  {} |", rank + 1);
        for file in 0..i32::from(view.width) {
            if let Some(sq) = Square::from_coords(file, rank) {
                out.push_str(&cell(view, sq));
            }
            out.push('|');
        }
        out.push('\n');
        out.push_str(&rule);
    }
    out.push_str("    ");
    for file in 0..view.width {
        let _ = write!(out, "   {}  ", char::from(b'a' + file));
    }
    out.push('\n');
    for p in &view.pairs {
        let _ = writeln!(
            out,
            "{} #{}: red {} / blue {}, P(red) = {:.4}",
            p.piece, p.label, p.red, p.blue, p.p_red
        );
    }
    out.push_str(LEGEND);
    out.push('\n');
    if !view.pairs.is_empty() || view.squares.iter().flatten().any(|s| s.mark.is_some()) {
        out.push_str(MARK_LEGEND);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::ruleset::{MarkView, SquareView};
    use qc_rules::Color;

    fn put(view: &mut BoardView, s: &str, piece: char, probability: f64) {
        let sq = Square::parse(s).unwrap();
        view.squares[sq.index()] = Some(SquareView {
            piece,
            probability,
            mark: None,
        });
    }

    #[test]
    fn shows_pieces_and_rounded_probabilities() {
        let mut view = BoardView::new(8, 8, Color::White);
        put(&mut view, "e1", 'K', 1.0);
        put(&mut view, "a3", 'N', 0.5);
        put(&mut view, "c3", 'N', 0.004);
        put(&mut view, "h8", 'k', 0.7286);
        let text = draw(&view);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[1].starts_with("  8 |") && lines[1].ends_with("| k73 |"),
            "{text}"
        );
        let rank3 = lines[11];
        assert!(rank3.starts_with("  3 | N50 |  .  | N<1 |"), "{text}");
        assert!(lines[15].contains("|  K  |"), "{text}");
        assert!(lines[17].trim_start().starts_with("a     b"), "{text}");
    }

    #[test]
    fn a_small_board_with_a_mark() {
        let mut view = BoardView::new(4, 5, Color::Black);
        put(&mut view, "a1", 'K', 1.0);
        let b2 = Square::parse("b2").unwrap();
        view.squares[b2.index()] = Some(SquareView {
            piece: 'n',
            probability: 0.5,
            mark: Some(MarkView {
                red: false,
                faces_opponent: false,
                diagonal: Some(2),
                label: 1,
            }),
        });
        let text = draw(&view);
        let lines: Vec<&str> = text.lines().collect();
        // 5 ranks, each with a rule under it, plus the top rule and the files.
        assert_eq!(lines[0], "    +-----+-----+-----+-----+");
        assert_eq!(lines[9], "  1 |  K  |  .  |  .  |  .  |", "{text}");
        assert_eq!(lines[7], "  2 |  .  | nbp2|  .  |  .  |", "{text}");
        assert!(text.contains(MARK_LEGEND));
    }
}
