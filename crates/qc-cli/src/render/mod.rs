//! Pictures of circuits and boards: text for terminals, SVG for files.

pub mod layout;
pub mod svg_circuit;
pub mod text_circuit;
