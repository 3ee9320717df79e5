//! The board as SVG: pieces drawn as chess symbols, a ring on each square whose arc shows the
//! probability (a full ring = certain, as the official game shows it), and optional lines
//! between correlated squares.

use super::board_view::BoardView;
use super::svg_circuit::xml_escape;
use qc_ir::Square;
use std::fmt::Write;

const CELL: f64 = 60.0;
const MARGIN: f64 = 24.0;

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

/// Centre of a square in the picture (rank 8 at the top).
fn centre(square: Square) -> (f64, f64) {
    (
        MARGIN + CELL * (square.file() as f64 + 0.5),
        MARGIN + CELL * (7.0 - square.rank() as f64 + 0.5),
    )
}

/// Draws `view` as a standalone SVG document.
pub fn draw(view: &BoardView) -> String {
    let size = 2.0 * MARGIN + 8.0 * CELL;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    for square in Square::ALL {
        let (cx, cy) = centre(square);
        let dark = (square.file() + square.rank()) % 2 == 0;
        let _ = writeln!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
            cx - CELL / 2.0,
            cy - CELL / 2.0,
            if dark { "#b58863" } else { "#f0d9b5" }
        );
    }
    for i in 0..8 {
        let file = (b'a' + i as u8) as char;
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{file}</text><text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
            MARGIN + CELL * (i as f64 + 0.5),
            size - 8.0,
            MARGIN / 2.0,
            MARGIN + CELL * (7.0 - i as f64 + 0.5) + 4.0,
            i + 1
        );
    }
    for (a, b, strength) in &view.links {
        let (x1, y1) = centre(*a);
        let (x2, y2) = centre(*b);
        let _ = writeln!(
            svg,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#7b2cbf\" stroke-width=\"3\" stroke-opacity=\"{:.3}\" stroke-dasharray=\"6 4\"/>",
            strength.clamp(0.15, 1.0)
        );
    }
    let radius = CELL * 0.42;
    let circumference = 2.0 * std::f64::consts::PI * radius;
    for square in Square::ALL {
        let Some(sv) = view.get(square) else { continue };
        let (cx, cy) = centre(square);
        let p = sv.probability.clamp(0.0, 1.0);
        let _ = writeln!(
            svg,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"none\" stroke=\"#00000022\" stroke-width=\"4\"/><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"4\" stroke-dasharray=\"{:.2} {:.2}\" transform=\"rotate(-90 {cx} {cy})\"><title>{} {:.1}%</title></circle>",
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
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::board_view::SquareView;

    #[test]
    fn ring_length_is_proportional_to_probability() {
        let mut view = BoardView::new();
        let a3 = Square::parse("a3").unwrap();
        view.squares[a3.index()] = Some(SquareView {
            piece: 'N',
            probability: 0.25,
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
}
