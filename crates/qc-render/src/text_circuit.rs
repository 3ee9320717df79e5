//! Circuit diagrams as text, one row per wire and a spacer row between wires for vertical lines.
//! Sections (a game's moves) are separated by a dotted column `┊` and labelled on a header row.

use super::layout::{layout_annotated, Annotations, Layout, Mark};
use qc_ir::Circuit;

fn label(mark: &Mark) -> String {
    match mark {
        Mark::Box(name) => format!("[{name}]"),
        Mark::ControlOne => "●".into(),
        Mark::ControlZero => "○".into(),
        Mark::Measure(bit) => format!("[M→{bit}]"),
        Mark::Reset => "[|0>]".into(),
        Mark::Alloc(None) => "|0>".into(),
        Mark::Alloc(Some(what)) => format!("|0> {what}"),
        Mark::Free => "<0|".into(),
        Mark::Cross => "│".into(),
    }
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// The separator between sections, on wire, spacer and header rows.
const SEPARATOR: char = '┊';

/// Draws `circuit` as text. Conditions are written under the instruction's lowest wire.
pub fn draw(circuit: &Circuit) -> String {
    draw_annotated(circuit, &Annotations::default())
}

/// Draws `circuit` with its sections labelled, named wires and hidden wires left out.
pub fn draw_annotated(circuit: &Circuit, notes: &Annotations) -> String {
    let lay = layout_annotated(circuit, notes);
    let mut out = render(&lay);
    if let Some(note) = &lay.note {
        out.push_str(note);
        out.push('\n');
    }
    out
}

/// Text of one cell placed so that its middle character sits on the column's middle (where
/// the vertical lines run), filled with `fill`.
fn centred(text: &str, column_width: usize, fill: &str) -> String {
    let w = width(text);
    let middle = (column_width - 1) / 2;
    let left = middle.saturating_sub(w.saturating_sub(1) / 2);
    let right = column_width.saturating_sub(w + left);
    format!("{}{text}{}", fill.repeat(left), fill.repeat(right))
}

fn render(lay: &Layout) -> String {
    let rows = lay.wires.len();
    if rows == 0 {
        return "(empty circuit)\n".into();
    }
    // Cell text per (wire, column) and per spacer row below a wire.
    let mut cells = vec![vec![String::new(); lay.columns]; rows];
    let mut spacers = vec![vec![String::new(); lay.columns]; rows];
    for p in &lay.placed {
        for (w, m) in &p.marks {
            cells[*w][p.column] = label(m);
        }
        for spacer in spacers.iter_mut().take(p.span.1).skip(p.span.0) {
            spacer[p.column] = "│".into();
        }
        if let Some(cond) = &p.condition {
            let w = p.span.1;
            if spacers[w][p.column].is_empty() {
                spacers[w][p.column] = format!("if {cond}");
            }
        }
    }
    // Odd widths, so that every cell has a middle character for the vertical lines.
    let mut col_width: Vec<usize> = (0..lay.columns)
        .map(|c| {
            let widest = (0..rows)
                .map(|r| width(&cells[r][c]).max(width(&spacers[r][c])))
                .max()
                .unwrap_or(1)
                .max(1);
            (widest + 2) | 1
        })
        .collect();
    // A section as wide as its label (and the space before it); the last column takes the rest.
    for span in &lay.sections {
        let have: usize = col_width[span.columns.clone()].iter().sum();
        let need = width(&span.label) + 2;
        if need > have {
            if let Some(last) = col_width.get_mut(span.columns.end - 1) {
                *last += need - have;
            }
        }
    }
    let separator_before = |c: usize| lay.sections.iter().skip(1).any(|s| s.columns.start == c);
    let name_width = lay.wires.iter().map(|n| width(n)).max().unwrap_or(1);
    let mut out = String::new();
    if !lay.sections.is_empty() {
        let mut header = " ".repeat(name_width + 3);
        for c in 0..lay.columns {
            if separator_before(c) {
                header.push(SEPARATOR);
            }
            match lay.sections.iter().find(|s| s.columns.contains(&c)) {
                Some(s) if s.columns.start == c => {
                    let span_width: usize = col_width[s.columns.clone()].iter().sum();
                    header.push(' ');
                    header.push_str(&s.label);
                    header.push_str(&" ".repeat(span_width.saturating_sub(1 + width(&s.label))));
                }
                Some(_) => {}
                None => header.push_str(&" ".repeat(col_width[c])),
            }
        }
        out.push_str(header.trim_end());
        out.push('\n');
    }
    for r in 0..rows {
        let mut line = format!("{:>name_width$}: ─", lay.wires[r]);
        let mut below = " ".repeat(name_width + 3);
        for c in 0..lay.columns {
            if separator_before(c) {
                line.push(SEPARATOR);
                below.push(SEPARATOR);
            }
            line.push_str(&centred(&cells[r][c], col_width[c], "─"));
            let spacer = &spacers[r][c];
            if spacer == "│" {
                below.push_str(&centred(spacer, col_width[c], " "));
            } else {
                below.push(' ');
                below.push_str(spacer);
                below.push_str(&" ".repeat(col_width[c].saturating_sub(width(spacer) + 1)));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        let has_text = below.chars().any(|ch| ch != ' ' && ch != SEPARATOR);
        if r + 1 < rows || has_text {
            out.push_str(below.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controlled_gate_connects_its_wires() {
        let c = qc_ir::text::parse(
            "qubits a1 b1 c1\nx c1 ctrl(a1=1, b1=0)\nmeasure c1 -> c0\nif c0==1: h a1\n",
        )
        .unwrap();
        let text = draw(&c);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("a1: ─") && lines[0].contains('●'),
            "{text}"
        );
        assert!(
            lines[2].starts_with("b1: ─") && lines[2].contains('○'),
            "{text}"
        );
        assert!(
            lines[4].contains("[x]") && lines[4].contains("[M→c0]"),
            "{text}"
        );
        assert!(lines[1].contains('│') && lines[3].contains('│'), "{text}");
        assert!(text.contains("[h]") && text.contains("if c0=1"), "{text}");
    }
}
