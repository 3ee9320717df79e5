//! The text formats the snapshots and `docs/circuits.md` show a move's circuit in. Each format
//! is one entry of [`FORMATS`]; adding OpenQASM 3 is one more entry.

use crate::cases::PlayedCase;
use crate::metrics::ir_lines;
use qc_ir::Circuit;

/// One output format.
pub struct Format {
    /// Short name, used in snapshot names (`ir`).
    pub name: &'static str,
    /// Heading in `docs/circuits.md`.
    pub title: &'static str,
    /// Markdown code-fence language.
    pub fence: &'static str,
    /// The featured move's circuit alone.
    pub featured: fn(&PlayedCase) -> String,
    /// A whole circuit (a case's game).
    pub whole: fn(&Circuit) -> String,
}

fn ir_featured(p: &PlayedCase) -> String {
    let c = p.featured_circuit();
    ir_lines(p.game.circuit(), c.instructions())
}

/// Every format, in the order the docs show them.
pub const FORMATS: &[Format] = &[Format {
    name: "ir",
    title: "IR text",
    fence: "text",
    featured: ir_featured,
    whole: qc_ir::text::print,
}];
