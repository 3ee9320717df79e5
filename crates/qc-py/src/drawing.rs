//! Circuit drawings for `Game.circuit_text`/`circuit_svg` and `Program.draw`/`svg`: qc-render's
//! text and SVG pictures with `qchess draw`'s defaults, so that Python draws what the command line
//! draws.

use crate::errors::DrawError;
use pyo3::PyResult;
use qc_ir::Circuit;
use qc_render::layout::{Annotations, TooLarge};
use qc_render::svg_circuit::{self, SvgOptions};
use qc_render::text_circuit::{self, TextOptions};

/// Which picture, and how wide (`None`: `qchess draw`'s default; 0: one band or row).
#[derive(Copy, Clone, Debug)]
pub enum Picture {
    /// Text, cut into bands of at most `width` characters per line (default: one band, as
    /// `qchess draw` writes to a file or a pipe).
    Text {
        /// Characters per line.
        width: Option<usize>,
    },
    /// SVG, folded into rows at most `width` pixels wide (default 1200, as `qchess draw`).
    Svg {
        /// Pixels per row.
        width: Option<usize>,
    },
}

/// `circuit` with its annotations `notes` drawn as `picture`.
///
/// # Errors
/// `DrawError`: the circuit is too large to draw.
pub fn draw(circuit: &Circuit, notes: &Annotations, picture: Picture) -> PyResult<String> {
    let too_large = |e: TooLarge| {
        DrawError::new_err(format!("{e}; draw one move (move=N) or a smaller circuit"))
    };
    match picture {
        Picture::Text { width } => {
            let options = TextOptions {
                width: width.filter(|&w| w > 0),
            };
            text_circuit::draw_with(circuit, notes, options).map_err(too_large)
        }
        Picture::Svg { width } => {
            let options = SvgOptions {
                width: match width {
                    Some(0) => None,
                    Some(n) => Some(n as f64),
                    None => Some(svg_circuit::DEFAULT_WIDTH),
                },
                highlight: None,
            };
            svg_circuit::draw_with(circuit, notes, &options).map_err(too_large)
        }
    }
}
