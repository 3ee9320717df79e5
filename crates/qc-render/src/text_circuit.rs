//! Circuit diagrams as text, one row per wire and a spacer row between wires for vertical lines.

use super::layout::{layout, Mark};
use qc_ir::Circuit;

fn label(mark: &Mark) -> String {
    match mark {
        Mark::Box(name) => format!("[{name}]"),
        Mark::ControlOne => "●".into(),
        Mark::ControlZero => "○".into(),
        Mark::Measure(bit) => format!("[M→{bit}]"),
        Mark::Reset => "[|0>]".into(),
        Mark::Alloc => "|0>".into(),
        Mark::Free => "<0|".into(),
        Mark::Cross => "│".into(),
    }
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// Draws `circuit` as text. Conditions are written under the instruction's lowest wire.
pub fn draw(circuit: &Circuit) -> String {
    let lay = layout(circuit);
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
    let col_width: Vec<usize> = (0..lay.columns)
        .map(|c| {
            (0..rows)
                .map(|r| width(&cells[r][c]).max(width(&spacers[r][c])))
                .max()
                .unwrap_or(1)
                .max(1)
                + 2
        })
        .collect();
    let name_width = lay.wires.iter().map(|n| width(n)).max().unwrap_or(1);
    let mut out = String::new();
    for r in 0..rows {
        let mut line = format!("{:>name_width$}: ─", lay.wires[r]);
        let mut below = format!("{:>name_width$}    ", "");
        for c in 0..lay.columns {
            let w = col_width[c];
            let cell = &cells[r][c];
            let pad = w - width(cell);
            let (left, right) = (pad / 2, pad - pad / 2);
            line.push_str(&"─".repeat(left));
            line.push_str(cell);
            line.push_str(&"─".repeat(right));
            let spacer = &spacers[r][c];
            let pad = w - width(spacer);
            let (left, right) = if spacer == "│" {
                (pad / 2, pad - pad / 2)
            } else {
                (1, pad.saturating_sub(1))
            };
            below.push_str(&" ".repeat(left));
            below.push_str(spacer);
            below.push_str(&" ".repeat(right));
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if r + 1 < rows || !below.trim().is_empty() {
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
