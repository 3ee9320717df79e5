//! The lines under the board: the side to move or the result, and a legend of what is drawn.

use super::{ANTI_CORRELATED, CORRELATED, LONE};
use qc_rules::{BoardView, Status};

/// The line under the board: whose move it is, or how the game ended.
pub fn caption(view: &BoardView) -> String {
    match view.status {
        Status::Ongoing => format!("{} to move", view.side_to_move.name()),
        over => format!("Game over: {over}"),
    }
}

/// One legend line: a sample of what it explains (an SVG fragment in a 24 x 12 box at the
/// origin) and the words.
pub struct LegendLine {
    /// The sample.
    pub sample: String,
    /// What it means.
    pub words: &'static str,
}

/// The legend lines of what `view` draws.
pub fn legend(view: &BoardView) -> Vec<LegendLine> {
    let line = |colour: &str, dash: &str| {
        format!("<line x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\" stroke=\"{colour}\" stroke-width=\"3\"{dash}/>")
    };
    let mut lines = Vec::new();
    if view.squares.iter().flatten().any(|s| s.probability < 1.0) {
        lines.push(LegendLine {
            sample: format!(
                "<circle cx=\"12\" cy=\"6\" r=\"6\" fill=\"none\" stroke=\"#00000026\" stroke-width=\"2\"/><path d=\"M 12 0 A 6 6 0 0 1 18 6\" fill=\"none\" stroke=\"{LONE}\" stroke-width=\"2\"/>"
            ),
            words: "ring and number: the chance the piece is there (none: certain)",
        });
    }
    if view.links.iter().any(|l| l.2 >= 0.0) {
        lines.push(LegendLine {
            sample: line(CORRELATED, ""),
            words: "occupied together (correlated)",
        });
    }
    if view.links.iter().any(|l| l.2 < 0.0) {
        lines.push(LegendLine {
            sample: line(ANTI_CORRELATED, " stroke-dasharray=\"5 3\""),
            words: "one or the other (anti-correlated)",
        });
    }
    if !view.pairs.is_empty() {
        lines.push(LegendLine {
            sample: line(LONE, " stroke-dasharray=\"6 4\""),
            words: "one piece in a box: its two squares",
        });
    }
    if view.squares.iter().flatten().any(|s| s.mark.is_some()) {
        lines.push(LegendLine {
            sample: "<circle cx=\"6\" cy=\"6\" r=\"5\" fill=\"#d62828\" stroke=\"#d62828\" stroke-width=\"2\"/><circle cx=\"19\" cy=\"6\" r=\"5\" fill=\"white\" stroke=\"#1d4ed8\" stroke-width=\"2\"/>".into(),
            words: "mark: filled faces the opponent, hollow its owner",
        });
    }
    lines
}
