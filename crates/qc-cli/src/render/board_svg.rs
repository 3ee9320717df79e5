//! The board as SVG: pieces drawn as chess symbols, a ring on each square whose arc shows the
//! probability (a full ring = certain, as the official game shows it), and optional lines
//! between correlated squares.

use super::board_view::BoardView;
use super::svg_circuit::xml_escape;
use qc_ir::Square;
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

/// The geometry of a `width` x `height` board picture (the last rank at the top), shared by the
/// Quantum Chess and the Niel's Chess pictures.
#[derive(Copy, Clone)]
pub struct Frame {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
}

impl Frame {
    /// The standard 8 x 8 board.
    pub const CHESS: Frame = Frame {
        width: 8,
        height: 8,
    };

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

/// Centre of a square of the 8 x 8 picture.
fn centre(square: Square) -> (f64, f64) {
    Frame::CHESS.centre(square)
}

/// Draws `view` as a standalone SVG document.
pub fn draw(view: &BoardView) -> String {
    let mut svg = Frame::CHESS.open(Square::ALL.into_iter());
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
