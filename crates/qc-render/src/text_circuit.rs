//! Circuit diagrams as text, one row per wire and a spacer row between wires for vertical lines.
//! Sections (a game's moves) are separated by a dotted column `┊` and labelled on a header row.
//! A drawing wider than a terminal can be cut into bands of columns ([`TextOptions::width`]),
//! each repeating the wire names; cuts fall between moves where they can, never through a column.

use super::layout::{cut_into_bands, layout_annotated, Annotations, Layout, Mark, TooLarge};
use qc_ir::Circuit;
use std::ops::Range;

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
    }
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// A wire crossed by an instruction's vertical line.
const CROSSING: &str = "│";

/// The separator between sections, on wire, spacer and header rows.
const SEPARATOR: char = '┊';

/// How a text drawing is laid out on the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextOptions {
    /// At most this many characters per line: the drawing is cut into bands of columns, one under
    /// the other with a blank line between, each starting with the wire names. Cuts fall between
    /// sections (moves) where a band can end there, else between columns; a column (or a move's
    /// label) wider than the page is drawn whole on its own. `None`: one band, however wide.
    pub width: Option<usize>,
}

/// Draws `circuit` as text. Conditions are written under the instruction's lowest wire.
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
    draw_with(circuit, notes, TextOptions::default())
}

/// [`draw_annotated`], laid out as `options` say: the bands one under the other with a blank
/// line between, then the note.
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn draw_with(
    circuit: &Circuit,
    notes: &Annotations,
    options: TextOptions,
) -> Result<String, TooLarge> {
    let mut out = draw_bands(circuit, notes, options.width)?.join("\n");
    if let Some(note) = &notes.note {
        out.push_str(note);
        out.push('\n');
    }
    Ok(out)
}

/// The bands of the drawing for lines of at most `width` characters (see [`TextOptions`]), each
/// its header row (when there are sections), then its wire and spacer rows; without the note.
///
/// # Errors
/// [`TooLarge`] for a drawing too large to read.
pub fn draw_bands(
    circuit: &Circuit,
    notes: &Annotations,
    width: Option<usize>,
) -> Result<Vec<String>, TooLarge> {
    let lay = layout_annotated(circuit, notes);
    lay.check_size()?;
    if lay.wires.is_empty() {
        return Ok(vec!["(empty circuit)\n".to_string()]);
    }
    let grid = Grid::new(&lay);
    Ok(grid
        .bands(width)
        .into_iter()
        .map(|band| grid.render(band))
        .collect())
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

/// The text of every cell and the width of every column: what a band is cut from.
struct Grid<'a> {
    lay: &'a Layout,
    /// Cell text per (wire, column).
    cells: Vec<Vec<String>>,
    /// Per (wire, column), the text of the spacer row below the wire.
    spacers: Vec<Vec<String>>,
    /// Column widths (odd, so every cell has a middle character for the vertical lines).
    col_width: Vec<usize>,
    /// Width of the widest wire name.
    name_width: usize,
}

impl<'a> Grid<'a> {
    fn new(lay: &'a Layout) -> Grid<'a> {
        let rows = lay.wires.len();
        let mut cells = vec![vec![String::new(); lay.columns]; rows];
        let mut spacers = vec![vec![String::new(); lay.columns]; rows];
        for p in &lay.placed {
            // The vertical line crosses the span's wires; the marks then overwrite their own.
            for row in cells.iter_mut().take(p.span.1 + 1).skip(p.span.0 + 1) {
                row[p.column] = CROSSING.into();
            }
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
        // A section as wide as its label (and the space before it); the last column takes the
        // rest.
        for span in &lay.sections {
            let have: usize = col_width[span.columns.clone()].iter().sum();
            let need = width(&span.label) + 2;
            if need > have {
                if let Some(last) = col_width.get_mut(span.columns.end - 1) {
                    *last += need - have;
                }
            }
        }
        let name_width = lay.wires.iter().map(|n| width(n)).max().unwrap_or(1);
        Grid {
            lay,
            cells,
            spacers,
            col_width,
            name_width,
        }
    }

    /// Whether a section starts at column `c` after another: a separator goes before it.
    fn separator_before(&self, c: usize) -> bool {
        self.lay
            .sections
            .iter()
            .skip(1)
            .any(|s| s.columns.start == c)
    }

    /// Characters column `c` takes on a line, with the separator before it.
    fn cost(&self, c: usize) -> usize {
        self.col_width[c] + usize::from(self.separator_before(c))
    }

    /// The columns of each band for lines of at most `page` characters (see [`TextOptions`]).
    fn bands(&self, page: Option<usize>) -> Vec<Range<usize>> {
        let Some(page) = page else {
            return std::iter::once(0..self.lay.columns).collect();
        };
        // The wire name, `: ` and the first `─`.
        let room = page.saturating_sub(self.name_width + 3);
        let costs: Vec<f64> = (0..self.lay.columns).map(|c| self.cost(c) as f64).collect();
        cut_into_bands(&costs, room as f64, |c| self.lay.section_starts(c))
    }

    /// Whether a condition is written under the last wire in some column.
    fn text_under_last_wire(&self) -> bool {
        self.spacers
            .last()
            .is_some_and(|row| row.iter().any(|s| !s.is_empty()))
    }

    /// The header row of a band: each section's label where it starts, and again at the band's
    /// start for a section the band continues when it fits there (it was shown before).
    fn header(&self, band: &Range<usize>) -> String {
        let mut header = " ".repeat(self.name_width + 3);
        for c in band.clone() {
            if self.separator_before(c) {
                header.push(SEPARATOR);
            }
            match self.lay.section_of(c) {
                Some(s) if s.columns.start == c || c == band.start => {
                    let part = c..s.columns.end.min(band.end);
                    let span_width: usize = self.col_width[part].iter().sum();
                    let fits = width(&s.label) < span_width;
                    if s.columns.start == c || fits {
                        header.push(' ');
                        header.push_str(&s.label);
                        header
                            .push_str(&" ".repeat(span_width.saturating_sub(1 + width(&s.label))));
                    } else {
                        header.push_str(&" ".repeat(span_width));
                    }
                }
                Some(_) => {}
                None => header.push_str(&" ".repeat(self.col_width[c])),
            }
        }
        header
    }

    /// The lines of the columns `band`, each wire row starting with the wire's name.
    fn render(&self, band: Range<usize>) -> String {
        let rows = self.lay.wires.len();
        let name_width = self.name_width;
        let mut out = String::new();
        if !self.lay.sections.is_empty() {
            out.push_str(self.header(&band).trim_end());
            out.push('\n');
        }
        for r in 0..rows {
            let mut line = format!("{:>name_width$}: ─", self.lay.wires[r]);
            let mut below = " ".repeat(name_width + 3);
            for c in band.clone() {
                if self.separator_before(c) {
                    line.push(SEPARATOR);
                    below.push(SEPARATOR);
                }
                line.push_str(&centred(&self.cells[r][c], self.col_width[c], "─"));
                let spacer = &self.spacers[r][c];
                if spacer == "│" {
                    below.push_str(&centred(spacer, self.col_width[c], " "));
                } else {
                    below.push(' ');
                    below.push_str(spacer);
                    below
                        .push_str(&" ".repeat(self.col_width[c].saturating_sub(width(spacer) + 1)));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
            // The spacer row under the last wire only when some column writes there (a
            // condition), in every band alike so that bands have the same rows.
            if r + 1 < rows || self.text_under_last_wire() {
                out.push_str(below.trim_end());
                out.push('\n');
            }
        }
        out
    }
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
        let text = draw(&c).expect("a small drawing");
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
