//! Circuit diagrams as SVG (wires named by square or ancilla, boxes, control dots, measurements,
//! conditions as labels).

use super::layout::{layout, Mark};
use qc_ir::Circuit;
use std::fmt::Write;

const ROW: f64 = 40.0;
const COL: f64 = 70.0;
const LEFT: f64 = 70.0;
const TOP: f64 = 30.0;

/// Escapes text for XML.
pub fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Draws `circuit` as a standalone SVG document.
pub fn draw(circuit: &Circuit) -> String {
    let lay = layout(circuit);
    let width = LEFT + COL * lay.columns.max(1) as f64 + 20.0;
    let height = TOP + ROW * lay.wires.len().max(1) as f64 + 10.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let y = |w: usize| TOP + ROW * w as f64;
    let x = |c: usize| LEFT + COL * c as f64 + COL / 2.0;
    for (w, name) in lay.wires.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><line x1=\"{LEFT}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>",
            LEFT - 8.0,
            y(w) + 4.0,
            xml_escape(name),
            y(w),
            width - 10.0,
            y(w)
        );
    }
    for p in &lay.placed {
        let cx = x(p.column);
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
                Mark::Box(label) | Mark::Measure(label) => {
                    let text = if matches!(mark, Mark::Measure(_)) {
                        format!("M→{label}")
                    } else {
                        label.clone()
                    };
                    let bw = 10.0 + 7.0 * text.chars().count() as f64;
                    let _ = writeln!(
                        svg,
                        "<rect x=\"{}\" y=\"{}\" width=\"{bw}\" height=\"22\" fill=\"white\" stroke=\"black\"/><text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
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
                Mark::Reset | Mark::Alloc | Mark::Free => {
                    let text = match mark {
                        Mark::Reset => "|0⟩ reset",
                        Mark::Alloc => "|0⟩",
                        _ => "⟨0|",
                    };
                    let _ = writeln!(
                        svg,
                        "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
                        cy - 6.0,
                        xml_escape(text)
                    );
                }
                Mark::Cross => {}
            }
        }
        if let Some(cond) = &p.condition {
            let _ = writeln!(
                svg,
                "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" fill=\"#2255aa\" font-size=\"10\">if {}</text>",
                y(p.span.1) + 22.0,
                xml_escape(cond)
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_has_a_wire_per_qubit_and_escapes_text() {
        let c = qc_ir::text::parse("qubits a1 b1 meas0\nalloc meas0\nx meas0 ctrl(a1=1)\nmeasure meas0 -> c0\nif c0==1: iswap a1, b1\n").unwrap();
        let svg = draw(&c);
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<line x1=\"70\"").count(), 3, "{svg}");
        assert!(
            svg.contains(">meas0<") && svg.contains("M→c0") && svg.contains("if c0=1"),
            "{svg}"
        );
        assert!(svg.contains(">iswap<"));
    }
}
