//! Circuit diagrams as SVG: wires named by square, ancilla or what they stand for, boxes, control
//! dots, measurements, conditions as labels; a game's moves are separated by dashed lines and
//! labelled above the wires. Columns are as wide as their widest box, so long labels never
//! overlap.

use super::layout::{layout_annotated, Annotations, Layout, Mark, Placed, TooLarge};
use crate::svg::xml_escape;
use qc_ir::Circuit;
use std::fmt::Write;

/// Distance between wires.
const ROW: f64 = 40.0;
/// Width of one character of the 12 px monospace font.
const CHAR: f64 = 7.2;
/// Space around a column's widest mark.
const GAP: f64 = 16.0;
/// Narrowest column (a lone control dot).
const MIN_COLUMN: f64 = 36.0;
/// Height of the section header row.
const HEADER: f64 = 28.0;

/// What a mark writes, if anything.
fn mark_text(mark: &Mark) -> Option<String> {
    match mark {
        Mark::Box(label) => Some(label.clone()),
        Mark::Measure(bit) => Some(format!("M→{bit}")),
        Mark::Reset => Some("|0⟩ reset".into()),
        Mark::Alloc(None) => Some("|0⟩".into()),
        Mark::Alloc(Some(what)) => Some(format!("|0⟩ {what}")),
        Mark::Free => Some("⟨0|".into()),
        Mark::ControlOne | Mark::ControlZero => None,
    }
}

fn text_width(text: &str) -> f64 {
    CHAR * text.chars().count() as f64
}

/// Width a placed instruction needs: its widest mark (a box has 5 px of padding each side) or
/// its condition label (10 px font).
fn placed_width(p: &Placed) -> f64 {
    let marks = p.marks.iter().filter_map(|(_, m)| {
        mark_text(m).map(|t| {
            text_width(&t)
                + if matches!(m, Mark::Box(_) | Mark::Measure(_)) {
                    10.0
                } else {
                    0.0
                }
        })
    });
    let condition = p
        .condition
        .as_ref()
        .map(|c| 6.0 * (c.chars().count() + 3) as f64);
    marks.chain(condition).fold(0.0, f64::max)
}

/// Left edge of every column (and the right edge of the last one, at the end).
fn column_edges(lay: &Layout, left: f64) -> Vec<f64> {
    let mut widths = vec![MIN_COLUMN; lay.columns];
    for p in &lay.placed {
        widths[p.column] = widths[p.column].max(placed_width(p) + GAP);
    }
    for span in &lay.sections {
        let have: f64 = widths[span.columns.clone()].iter().sum();
        let need = text_width(&span.label) + GAP;
        if need > have {
            if let Some(last) = widths.get_mut(span.columns.end - 1) {
                *last += need - have;
            }
        }
    }
    let mut edges = vec![left];
    for w in widths {
        edges.push(edges[edges.len() - 1] + w);
    }
    edges
}

/// Draws `circuit` as a standalone SVG document.
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn draw(circuit: &Circuit) -> Result<String, TooLarge> {
    draw_annotated(circuit, &Annotations::default())
}

/// Draws `circuit` with its sections labelled, named wires and hidden wires left out.
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn draw_annotated(circuit: &Circuit, notes: &Annotations) -> Result<String, TooLarge> {
    let lay = layout_annotated(circuit, notes);
    lay.check_size()?;
    Ok(render(&lay))
}

fn render(lay: &Layout) -> String {
    let name_chars = lay
        .wires
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0);
    let left = CHAR * name_chars as f64 + 20.0;
    let edges = column_edges(lay, left);
    let right = edges[edges.len() - 1] + 10.0;
    let top = if lay.sections.is_empty() {
        30.0
    } else {
        30.0 + HEADER
    };
    let wires_bottom = top + ROW * lay.wires.len().saturating_sub(1) as f64;
    let note_y = wires_bottom + 40.0;
    let height = if lay.note.is_some() {
        note_y + 12.0
    } else {
        wires_bottom + 34.0
    };
    let width = right.max(lay.note.as_deref().map_or(0.0, |n| text_width(n) + 20.0));
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let y = |w: usize| top + ROW * w as f64;
    let x = |c: usize| (edges[c] + edges[c + 1]) / 2.0;
    for (k, span) in lay.sections.iter().enumerate() {
        let x0 = edges[span.columns.start];
        if k > 0 {
            let _ = writeln!(
                svg,
                "<line class=\"separator\" x1=\"{x0}\" y1=\"8\" x2=\"{x0}\" y2=\"{}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
                wires_bottom + 24.0
            );
        }
        let _ = writeln!(
            svg,
            "<text class=\"section\" x=\"{}\" y=\"22\" font-weight=\"bold\" fill=\"#333\">{}</text>",
            x0 + 6.0,
            xml_escape(&span.label)
        );
    }
    for (w, name) in lay.wires.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<text class=\"wire\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><line x1=\"{left}\" y1=\"{}\" x2=\"{right}\" y2=\"{}\" stroke=\"black\"/>",
            left - 8.0,
            y(w) + 4.0,
            xml_escape(name),
            y(w),
            y(w)
        );
    }
    for p in &lay.placed {
        draw_placed(&mut svg, p, x(p.column), &y);
    }
    if let Some(note) = &lay.note {
        let _ = writeln!(
            svg,
            "<text class=\"note\" x=\"10\" y=\"{note_y}\" fill=\"#555\">{}</text>",
            xml_escape(note)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Draws one placed instruction at column centre `cx`.
fn draw_placed(svg: &mut String, p: &Placed, cx: f64, y: &dyn Fn(usize) -> f64) {
    if p.span.0 != p.span.1 {
        let _ = writeln!(
            svg,
            "<line x1=\"{cx}\" y1=\"{}\" x2=\"{cx}\" y2=\"{}\" stroke=\"black\"/>",
            y(p.span.0),
            y(p.span.1)
        );
    }
    for (w, mark) in &p.marks {
        let cy = y(*w);
        match mark {
            Mark::Box(_) | Mark::Measure(_) => {
                let text = mark_text(mark).unwrap_or_default();
                let bw = 10.0 + text_width(&text);
                let _ = writeln!(
                    svg,
                    "<rect x=\"{}\" y=\"{}\" width=\"{bw}\" height=\"22\" fill=\"white\" stroke=\"black\"/><text class=\"gate\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    cx - bw / 2.0,
                    cy - 11.0,
                    cy + 4.0,
                    xml_escape(&text)
                );
            }
            Mark::ControlOne => {
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"5\" fill=\"black\"/>"
                );
            }
            Mark::ControlZero => {
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"5\" fill=\"white\" stroke=\"black\"/>"
                );
            }
            Mark::Reset | Mark::Alloc(_) | Mark::Free => {
                let _ = writeln!(
                    svg,
                    "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
                    cy - 6.0,
                    xml_escape(&mark_text(mark).unwrap_or_default())
                );
            }
        }
    }
    if let Some(cond) = &p.condition {
        let _ = writeln!(
            svg,
            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" fill=\"#2255aa\" font-size=\"10\">if {}</text>",
            y(p.span.1) + 24.0,
            xml_escape(cond)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_has_a_wire_per_qubit_and_escapes_text() {
        let c = qc_ir::text::parse("qubits a1 b1 meas0\nalloc meas0\nx meas0 ctrl(a1=1)\nmeasure meas0 -> c0\nif c0==1: iswap a1, b1\n").unwrap();
        let svg = draw(&c).unwrap();
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("class=\"wire\"").count(), 3, "{svg}");
        assert!(
            svg.contains(">meas0<") && svg.contains("M→c0") && svg.contains("if c0=1"),
            "{svg}"
        );
        assert!(svg.contains(">iswap<"));
    }
}
