//! Pictures of circuits and boards: text for terminals, SVG for files and notebooks.
//!
//! The boards are drawn from a ruleset's `BoardView` (any ruleset, any board size) and the
//! circuits from a `qc_ir::Circuit`, so the command line and the Python binding draw the same
//! pictures. Depends on qc-ir and qc-rules only.

pub mod board_svg;
pub mod board_text;
pub mod game_drawing;
pub mod labels;
pub mod layout;
pub mod svg;
pub mod svg_circuit;
pub mod text_circuit;
