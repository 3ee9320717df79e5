//! The board as SVG, for every ruleset and board size: pieces drawn as chess symbols, a ring on
//! each square whose arc shows the probability (a full ring = certain, as the official game
//! shows it), Niel's marks and pairs, and optional lines between correlated squares.

use super::svg_circuit::xml_escape;
use qc_ir::Square;
use qc_rules::BoardView;
use std::fmt::Write;

/// Side of a square, in pixels.
pub const CELL: f64 = 60.0;
/// Margin around the board (for the coordinates), in pixels.
pub const MARGIN: f64 = 24.0;

/// The chess symbol of a FEN letter.
pub fn symbol(piece: char) -> char {
    match piece {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        other => other,
    }
}

/// The geometry of a `width` x `height` board picture (the last rank at the top).
#[derive(Copy, Clone)]
pub struct Frame {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
}

impl Frame {
    /// Width and height of the picture.
    pub fn size(self) -> (f64, f64) {
        (
            2.0 * MARGIN + CELL * f64::from(self.width),
            2.0 * MARGIN + CELL * f64::from(self.height),
        )
    }

    /// Centre of a square in the picture.
    pub fn centre(self, square: Square) -> (f64, f64) {
        (
            MARGIN + CELL * (f64::from(square.file()) + 0.5),
            MARGIN + CELL * (f64::from(self.height) - 1.0 - f64::from(square.rank()) + 0.5),
        )
    }

    /// Opens the SVG document: white background, the light and dark `squares`, and the file
    /// letters and rank numbers in the margins.
    pub fn open(self, squares: impl Iterator<Item = Square>) -> String {
        let (w, h) = self.size();
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        );
        for square in squares {
            let (cx, cy) = self.centre(square);
            let dark = (square.file() + square.rank()) % 2 == 0;
            let _ = writeln!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
                cx - CELL / 2.0,
                cy - CELL / 2.0,
                if dark { "#b58863" } else { "#f0d9b5" }
            );
        }
        for i in 0..self.width {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
                MARGIN + CELL * (f64::from(i) + 0.5),
                h - 8.0,
                char::from(b'a' + i)
            );
        }
        for i in 0..self.height {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
                MARGIN / 2.0,
                MARGIN + CELL * (f64::from(self.height) - 1.0 - f64::from(i) + 0.5) + 4.0,
                i + 1
            );
        }
        svg
    }
}

/// The colour of a pair's line and rings: entangled group on diagonal 1 purple, diagonal 2
/// green, a lone pair (and every other ring) blue.
fn group_colour(diagonal: Option<u8>) -> &'static str {
    match diagonal {
        Some(1) => "#7b2cbf",
        Some(_) => "#2a9d8f",
        None => LONE,
    }
}

/// The colour of rings and lone pairs.
const LONE: &str = "#1f77b4";

/// Draws `view` as a standalone SVG document: pieces as chess symbols with a probability ring;
/// a Niel's indefinite piece also gets a dot in its mark's colour (filled when the mark faces
/// the opponent, hollow when it faces its owner) and its pair's label, and a dashed line joins
/// the two squares of each pair in its entangled group's colour; `links` are dashed purple
/// lines whose opacity is the correlation.
pub fn draw(view: &BoardView) -> String {
    let frame = Frame {
        width: view.width,
        height: view.height,
    };
    let mut svg = frame.open(view.board_squares());
    for (a, b, strength) in &view.links {
        let (x1, y1) = frame.centre(*a);
        let (x2, y2) = frame.centre(*b);
        let _ = writeln!(
            svg,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#7b2cbf\" stroke-width=\"3\" stroke-opacity=\"{:.3}\" stroke-dasharray=\"6 4\"/>",
            strength.clamp(0.15, 1.0)
        );
    }
    for pair in &view.pairs {
        let (x1, y1) = frame.centre(pair.red);
        let (x2, y2) = frame.centre(pair.blue);
        let _ = writeln!(
            svg,
            "<line class=\"pair\" data-pair=\"{}\" data-group=\"{}\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"3\" stroke-dasharray=\"6 4\"/>",
            pair.id,
            pair.group,
            group_colour(pair.diagonal)
        );
    }
    let radius = CELL * 0.42;
    let circumference = 2.0 * std::f64::consts::PI * radius;
    for square in view.board_squares() {
        let Some(sv) = view.get(square) else { continue };
        let (cx, cy) = frame.centre(square);
        let p = sv.probability.clamp(0.0, 1.0);
        let (colour, what) = match sv.mark {
            Some(m) => (
                group_colour(m.diagonal),
                if m.red { " red mark" } else { " blue mark" },
            ),
            None => (LONE, ""),
        };
        let _ = writeln!(
            svg,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"none\" stroke=\"#00000022\" stroke-width=\"4\"/><circle class=\"ring\" cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"4\" stroke-dasharray=\"{:.2} {:.2}\" transform=\"rotate(-90 {cx} {cy})\"><title>{}{what} {:.1}%</title></circle>",
            circumference * p,
            circumference,
            xml_escape(&square.to_string()),
            100.0 * p
        );
        let _ = writeln!(
            svg,
            "<text x=\"{cx}\" y=\"{}\" font-size=\"34\" text-anchor=\"middle\" fill-opacity=\"{:.2}\">{}</text>",
            cy + 12.0,
            0.35 + 0.65 * p,
            symbol(sv.piece)
        );
        if let Some(m) = sv.mark {
            let mark = if m.red { "#d62828" } else { "#1d4ed8" };
            let _ = writeln!(
                svg,
                "<circle class=\"mark\" cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"{}\" stroke=\"{mark}\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"10\">{}</text>",
                cx + CELL * 0.32,
                cy - CELL * 0.32,
                if m.faces_opponent { mark } else { "white" },
                cx - CELL * 0.45,
                cy + CELL * 0.45,
                m.label
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::ruleset::{MarkView, PairView, SquareView};
    use qc_rules::Color;

    #[test]
    fn ring_length_is_proportional_to_probability() {
        let mut view = BoardView::new(8, 8, Color::White);
        let a3 = Square::parse("a3").unwrap();
        view.squares[a3.index()] = Some(SquareView {
            piece: 'N',
            probability: 0.25,
            mark: None,
        });
        let svg = draw(&view);
        let radius = CELL * 0.42;
        let c = 2.0 * std::f64::consts::PI * radius;
        assert!(
            svg.contains(&format!("stroke-dasharray=\"{:.2} {:.2}\"", c * 0.25, c)),
            "{svg}"
        );
        assert!(svg.contains('♘') && svg.contains("<title>a3 25.0%</title>"));
    }

    #[test]
    fn pairs_and_marks_on_a_small_board() {
        // A 5 x 6 board; an entangled pair (diagonal 1) with its red mark facing the opponent.
        let mut view = BoardView::new(5, 6, Color::White);
        let (c3, e5) = (Square::parse("c3").unwrap(), Square::parse("e5").unwrap());
        for (sq, red, p) in [(c3, true, 2.0 / 3.0), (e5, false, 1.0 / 3.0)] {
            view.squares[sq.index()] = Some(SquareView {
                piece: 'R',
                probability: p,
                mark: Some(MarkView {
                    red,
                    faces_opponent: red,
                    diagonal: Some(1),
                    label: 1,
                }),
            });
        }
        view.pairs.push(PairView {
            id: 0,
            piece: 'R',
            label: 1,
            red: c3,
            blue: e5,
            p_red: 2.0 / 3.0,
            group: 0,
            diagonal: Some(1),
        });
        let svg = draw(&view);
        let c = 2.0 * std::f64::consts::PI * CELL * 0.42;
        assert!(
            svg.contains(&format!(
                "stroke-dasharray=\"{:.2} {:.2}\"",
                c * 2.0 / 3.0,
                c
            )),
            "{svg}"
        );
        assert!(svg.contains("<title>c3 red mark 66.7%</title>"), "{svg}");
        assert!(svg.contains("<title>e5 blue mark 33.3%</title>"), "{svg}");
        assert_eq!(svg.matches("class=\"pair\"").count(), 1);
        assert_eq!(svg.matches("class=\"mark\"").count(), 2);
        assert!(svg.contains(group_colour(Some(1))));
        // 5 files x 6 ranks.
        assert!(svg.contains("width=\"348\" height=\"408\""), "{svg}");
    }
}
