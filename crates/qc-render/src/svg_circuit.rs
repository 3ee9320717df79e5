//! Circuit diagrams as SVG: wires named by square, ancilla or what they stand for, boxes, control
//! dots, measurements, conditions as labels; a game's moves are separated by dashed lines and
//! labelled above the wires. Columns are as wide as their widest box, so long labels never
//! overlap.
//!
//! A wide drawing is folded into rows no wider than [`SvgOptions::width`], one under the other,
//! cut between moves where a row can end there (as the text drawing's bands), never through a
//! column. Each row shows only the wires its instructions use, so that a move's vertical lines
//! join the few wires it touches instead of crossing dozens; where a line still crosses a wire
//! it does not act on, the wire is broken around it, so that only dots and boxes read as joined.
//! Each row's instructions are placed in columns again on the row's wires in its order, with a
//! condition's label and an ancilla's life mark taking the gap under or above their wire, so no
//! two elements of a column meet ([`fold`]).
//! A section can be highlighted (the move just played).

use super::layout::rows::relayout_rows;
use super::layout::{
    cut_into_bands, layout_annotated, Annotations, Layout, Mark, Placed, TooLarge,
};
use crate::svg::{xml_escape, Num};
use qc_ir::Circuit;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::ops::Range;

/// Distance between wires.
const ROW: f64 = 32.0;
/// Width of one character of the 12 px monospace font.
const CHAR: f64 = 7.2;
/// Space around a column's widest mark.
const GAP: f64 = 16.0;
/// Narrowest column (a lone control dot).
const MIN_COLUMN: f64 = 36.0;
/// Height of the section header row.
const HEADER: f64 = 28.0;
/// Space above a row's first wire (without a header).
const TOP: f64 = 30.0;
/// Space under a row's last wire (a condition's label goes there, 19 px under its wire).
const BOTTOM: f64 = 34.0;
/// Space between rows.
const ROW_GAP: f64 = 14.0;
/// Space right of the last column.
const RIGHT: f64 = 10.0;
/// Fill behind a highlighted section.
const HIGHLIGHT: &str = "#fff3bf";

/// The default page width of a folded drawing, in pixels.
pub const DEFAULT_WIDTH: f64 = 1200.0;

/// How an SVG drawing is laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgOptions {
    /// Fold the drawing into rows at most this many pixels wide (a single column wider than
    /// that is drawn whole); `None`: one row, however wide.
    pub width: Option<f64>,
    /// Highlight this section (an index into the annotations' sections), e.g. the move just
    /// played.
    pub highlight: Option<usize>,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            width: Some(DEFAULT_WIDTH),
            highlight: None,
        }
    }
}

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

/// The width of every column: its widest instruction, and a section at least as wide as its
/// label (the last column takes the rest).
fn column_widths(lay: &Layout) -> Vec<f64> {
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
    widths
}

/// Draws `circuit` as a standalone SVG document, folded at [`DEFAULT_WIDTH`].
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn draw(circuit: &Circuit) -> Result<String, TooLarge> {
    draw_annotated(circuit, &Annotations::default())
}

/// Draws `circuit` with its sections labelled, named wires and hidden wires left out, folded at
/// [`DEFAULT_WIDTH`].
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn draw_annotated(circuit: &Circuit, notes: &Annotations) -> Result<String, TooLarge> {
    draw_with(circuit, notes, &SvgOptions::default())
}

/// Draws `circuit` with its annotations as `options` say.
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn draw_with(
    circuit: &Circuit,
    notes: &Annotations,
    options: &SvgOptions,
) -> Result<String, TooLarge> {
    let folded = fold(circuit, notes, options)?;
    Ok(render(&folded, options))
}

/// The drawing's layout and its rows: the SVG's own columns, which differ from the text
/// drawing's where a row draws its wires in another order than the layout (see
/// [`crate::layout::rows`]).
#[derive(Clone, Debug)]
pub struct Folded {
    /// The columns of every instruction and section.
    pub layout: Layout,
    /// The rows, top to bottom, over consecutive columns.
    pub rows: Vec<Row>,
}

/// One row of a folded drawing: its columns and the wires they use (indices into the layout's
/// wires, top to bottom).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The row's columns.
    pub columns: Range<usize>,
    /// The wires it shows, top to bottom.
    pub wires: Vec<usize>,
}

/// Rounds of [`fold`] that cut a row again; each round cuts at least one row into two or more,
/// and real drawings need one or two.
const FOLD_ROUNDS: usize = 8;

/// Lays `circuit` out and folds it as `options` say: cuts the layout's columns into rows that
/// fit the page, orders each row's wires, and places each row's instructions again on its wires
/// in that order; a row that no longer fits is cut again and its parts placed again on the
/// wires they use. After [`FOLD_ROUNDS`] rounds the parts of a row still too wide keep its wires.
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn fold(
    circuit: &Circuit,
    notes: &Annotations,
    options: &SvgOptions,
) -> Result<Folded, TooLarge> {
    let mut layout = layout_annotated(circuit, notes);
    layout.check_size()?;
    let room = options
        .width
        .map(|w| (w - names_width(&layout) - RIGHT).max(MIN_COLUMN));
    // A game's rows (it has sections) show their wires in the order the moves use them; a plain
    // circuit keeps its qubits' order.
    let by_first_use = !layout.sections.is_empty();
    let mut bands = cut(&layout, &column_widths(&layout), 0..layout.columns, room);
    let mut round = 0;
    loop {
        round += 1;
        let orders = wire_orders(&layout, &bands, by_first_use);
        let (relaid, relaid_bands) = relayout_rows(circuit, &layout, &bands, &orders);
        let widths = column_widths(&relaid);
        let parts: Vec<Vec<Range<usize>>> = relaid_bands
            .into_iter()
            .map(|band| cut(&relaid, &widths, band, room))
            .collect();
        layout = relaid;
        if round == FOLD_ROUNDS || parts.iter().all(|p| p.len() == 1) {
            let rows = parts
                .into_iter()
                .zip(orders)
                .flat_map(|(parts, wires)| {
                    parts.into_iter().map(move |columns| Row {
                        columns,
                        wires: wires.clone(),
                    })
                })
                .collect();
            return Ok(Folded { layout, rows });
        }
        bands = parts.into_iter().flatten().collect();
    }
}

/// Cuts the columns `band` of `lay` (of `widths`) into rows of at most `room` pixels, between
/// sections where a row can end there (`None`: one row).
fn cut(lay: &Layout, widths: &[f64], band: Range<usize>, room: Option<f64>) -> Vec<Range<usize>> {
    let Some(room) = room else {
        return vec![band];
    };
    let start = band.start;
    cut_into_bands(&widths[band], room, |c| lay.section_starts(start + c))
        .into_iter()
        .map(|part| start + part.start..start + part.end)
        .collect()
}

/// The wires each band of columns uses, from the placed instructions: first those that
/// instructions on several wires join, in the order they first do, then the others in the
/// order they are first used (`placed` is in instruction order). A game's set-up, one `x` per
/// wire, then does not decide the order of the row it starts.
fn wire_orders(lay: &Layout, bands: &[Range<usize>], by_first_use: bool) -> Vec<Vec<usize>> {
    let mut used: Vec<Vec<usize>> = vec![Vec::new(); bands.len()];
    let band_of = |column: usize| bands.partition_point(|b| b.end <= column);
    for joined in [true, false] {
        for p in lay.placed.iter().filter(|p| (p.marks.len() > 1) == joined) {
            if let Some(list) = used.get_mut(band_of(p.column)) {
                list.extend(p.marks.iter().map(|(w, _)| *w));
            }
        }
    }
    used.into_iter()
        .map(|wires| row_order(wires, by_first_use))
        .collect()
}

/// The wires a row shows, each once: in the layout's order, or (`by_first_use`) in the order
/// given, so that the few wires a move touches sit together.
fn row_order(mut wires: Vec<usize>, by_first_use: bool) -> Vec<usize> {
    if by_first_use {
        let mut seen = std::collections::HashSet::new();
        wires.retain(|w| seen.insert(*w));
    } else {
        wires.sort_unstable();
        wires.dedup();
    }
    wires
}

/// Where the columns start: right of the widest wire name.
fn names_width(lay: &Layout) -> f64 {
    let name_chars = lay
        .wires
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0);
    CHAR * name_chars as f64 + 20.0
}

fn render(folded: &Folded, options: &SvgOptions) -> String {
    let Folded { layout: lay, rows } = folded;
    let left = names_width(lay);
    let widths = column_widths(lay);
    let header = if lay.sections.is_empty() { 0.0 } else { HEADER };
    // Each row's instructions, in instruction order.
    let mut by_row: Vec<Vec<&Placed>> = vec![Vec::new(); rows.len()];
    for p in &lay.placed {
        let r = rows.partition_point(|row| row.columns.end <= p.column);
        if let Some(list) = by_row.get_mut(r) {
            list.push(p);
        }
    }
    let page = Page {
        lay,
        widths: &widths,
        left,
        options,
    };
    let mut body = String::new();
    let mut y = 0.0;
    let mut right = left;
    for (row, placed) in rows.iter().zip(&by_row) {
        let row_right = draw_row(&mut body, &page, row, placed, y + header);
        right = right.max(row_right);
        y += row_height(row, header) + ROW_GAP;
    }
    let mut height = y - ROW_GAP;
    let mut width = right;
    if let Some(note) = &lay.note {
        let _ = writeln!(
            body,
            "<text class=\"note\" x=\"10\" y=\"{}\" fill=\"#555\">{}</text>",
            Num(height + 6.0),
            xml_escape(note)
        );
        height += 18.0;
        width = width.max(text_width(note) + 20.0);
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n",
        w = Num(width.ceil()),
        h = Num(height.ceil()),
    )
}

/// Height of a row: its header, its wires and the space under them.
fn row_height(row: &Row, header: f64) -> f64 {
    header + TOP + ROW * row.wires.len().saturating_sub(1) as f64 + BOTTOM
}

/// What every row of a drawing shares.
struct Page<'a> {
    lay: &'a Layout,
    /// The width of every column.
    widths: &'a [f64],
    /// Where the columns start (right of the wire names).
    left: f64,
    options: &'a SvgOptions,
}

/// Draws one row (`placed`: its instructions) with its header at `top`; returns its right edge.
fn draw_row(svg: &mut String, page: &Page, row: &Row, placed: &[&Placed], top: f64) -> f64 {
    let Page {
        lay,
        widths,
        left,
        options,
    } = *page;
    // Left edge of each column of the row, and the right edge of the last.
    let mut edges = vec![left];
    for c in row.columns.clone() {
        edges.push(edges[edges.len() - 1] + widths[c]);
    }
    let edge = |c: usize| edges[c - row.columns.start];
    let right = edges[edges.len() - 1] + RIGHT;
    let first_wire = top + TOP;
    let wire_y: BTreeMap<usize, f64> = row
        .wires
        .iter()
        .enumerate()
        .map(|(k, &w)| (w, first_wire + ROW * k as f64))
        .collect();
    let bottom = first_wire + ROW * row.wires.len().saturating_sub(1) as f64;
    let _ = writeln!(
        svg,
        "<g class=\"row\" data-columns=\"{}-{}\">",
        row.columns.start, row.columns.end
    );
    // Sections: highlight, separator, label (again at the row's start for a section the row
    // continues).
    for (k, span) in lay.sections.iter().enumerate() {
        let shown =
            span.columns.start.max(row.columns.start)..span.columns.end.min(row.columns.end);
        if shown.is_empty() {
            continue;
        }
        let (x0, x1) = (edge(shown.start), edge(shown.end));
        if options.highlight == Some(k) {
            let _ = writeln!(
                svg,
                "<rect class=\"highlight\" data-section=\"{k}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{HIGHLIGHT}\"/>",
                Num(x0),
                Num(top - HEADER + 6.0),
                Num(x1 - x0),
                Num(bottom - top + HEADER + 18.0)
            );
        }
        if k > 0 && span.columns.start == shown.start {
            let _ = writeln!(
                svg,
                "<line class=\"separator\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
                Num(top - HEADER + 8.0),
                Num(bottom + 24.0),
                x = Num(x0),
            );
        }
        let continued = span.columns.start < shown.start;
        let label = if continued {
            format!("{} (cont.)", span.label)
        } else {
            span.label.clone()
        };
        if !continued || text_width(&label) + GAP <= x1 - x0 {
            let _ = writeln!(
                svg,
                "<text class=\"section\" data-section=\"{k}\" x=\"{}\" y=\"{}\" font-weight=\"bold\" fill=\"#333\">{}</text>",
                Num(x0 + 6.0),
                Num(top - 6.0),
                xml_escape(&label)
            );
        }
    }
    for (&w, &y) in &wire_y {
        let _ = writeln!(
            svg,
            "<text class=\"wire\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><line class=\"wire-line\" x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"black\"/>",
            Num(left - 8.0),
            Num(y + 4.0),
            xml_escape(&lay.wires[w]),
            Num(left),
            Num(right),
            y = Num(y),
        );
    }
    for p in placed {
        let cx = (edge(p.column) + edge(p.column + 1)) / 2.0;
        draw_placed(svg, p, cx, &wire_y);
    }
    svg.push_str("</g>\n");
    right
}

/// Draws one placed instruction at column centre `cx`; `wire_y` gives the height of each wire
/// the row shows.
fn draw_placed(svg: &mut String, p: &Placed, cx: f64, wire_y: &BTreeMap<usize, f64>) {
    let ys: Vec<f64> = p
        .marks
        .iter()
        .filter_map(|(w, _)| wire_y.get(w).copied())
        .collect();
    let (Some(top), Some(bottom)) = (
        ys.iter().copied().reduce(f64::min),
        ys.iter().copied().reduce(f64::max),
    ) else {
        return;
    };
    let _ = write!(
        svg,
        "<g class=\"op\" data-instruction=\"{}\">",
        p.instruction
    );
    if top < bottom {
        // A white band under the line breaks every wire it crosses; the wires it acts on are
        // joined again by their dots and boxes, drawn on top.
        let _ = write!(
            svg,
            "<line class=\"bridge\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"white\" stroke-width=\"7\"/><line class=\"link\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"black\"/>",
            Num(top + 6.0),
            Num(bottom - 6.0),
            Num(top),
            Num(bottom),
            x = Num(cx),
        );
    }
    for (w, mark) in &p.marks {
        let Some(&cy) = wire_y.get(w) else { continue };
        match mark {
            Mark::Box(_) | Mark::Measure(_) => {
                let text = mark_text(mark).unwrap_or_default();
                let bw = 10.0 + text_width(&text);
                let _ = write!(
                    svg,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"22\" fill=\"white\" stroke=\"black\"/><text class=\"gate\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    Num(cx - bw / 2.0),
                    Num(cy - 11.0),
                    Num(bw),
                    Num(cx),
                    Num(cy + 4.0),
                    xml_escape(&text)
                );
            }
            Mark::ControlOne | Mark::ControlZero => {
                // The wire itself shows on both sides of a dot (the bridge stops short of it).
                let fill = if matches!(mark, Mark::ControlOne) {
                    "black"
                } else {
                    "white"
                };
                let _ = write!(
                    svg,
                    "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"black\"/><circle class=\"control\" cx=\"{}\" cy=\"{y}\" r=\"5\" fill=\"{fill}\" stroke=\"black\"/>",
                    Num(cx - 6.0),
                    Num(cx + 6.0),
                    Num(cx),
                    y = Num(cy),
                );
            }
            Mark::Reset | Mark::Alloc(_) | Mark::Free => {
                let _ = write!(
                    svg,
                    "<text class=\"life\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
                    Num(cx),
                    Num(cy - 6.0),
                    xml_escape(&mark_text(mark).unwrap_or_default())
                );
            }
        }
    }
    if let Some(cond) = &p.condition {
        let _ = write!(
            svg,
            "<text class=\"condition\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#2255aa\" font-size=\"10\">if {}</text>",
            Num(cx),
            Num(bottom + 19.0),
            xml_escape(cond)
        );
    }
    svg.push_str("</g>\n");
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
