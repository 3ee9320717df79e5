//! Pictures of circuits and boards: text for terminals, SVG for files.

pub mod board_svg;
pub mod board_text;
pub mod layout;
pub mod svg_circuit;
pub mod text_circuit;
