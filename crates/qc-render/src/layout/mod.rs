//! Places a circuit's instructions in columns for drawing.
//!
//! Each instruction spans the wires from its lowest to its highest qubit (the vertical line of a
//! controlled gate crosses the wires between), so it goes in the first column after every column
//! already used on that span, and after the column of every instruction it depends on through
//! a classical bit: a conditioned instruction after the measurement that writes its bit, a
//! measurement after every instruction that reads or writes its bit before it. Columns are read
//! left to right, so a drawing never shows an instruction before one it depends on. A labelled
//! section (a game's move) starts after every column of the sections before it, so moves never
//! share a column. The text drawing draws this layout; the SVG, whose rows show their own wires
//! in their own order, places each row's instructions again by the same rules ([`rows`]).
//!
//! The work does not grow with the wires an instruction spans: the next free column of a span
//! is read and set in O(log n) for n wires ([`next_free`]), and the wires an instruction only
//! crosses are its [`Placed::span`], not marks of their own. A layout too large to read is
//! refused before anything is drawn ([`Layout::check_size`]).

mod next_free;
mod placer;
pub mod rows;

use placer::Placer;

use super::labels::gate_label;
use qc_ir::{Circuit, Clbit, Control, Instruction, Op, Qubit};
use qc_rules::WireLabel;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

/// What a drawing shows besides the instructions: labelled sections (a game's set-up and
/// moves), what ancilla wires stand for, and wires left out. Instruction indices refer to the
/// drawn circuit's instruction list.
#[derive(Clone, Debug, Default)]
pub struct Annotations {
    /// Labelled runs of instructions, in order; each runs to the next one's start.
    pub sections: Vec<Section>,
    /// What an ancilla stands for from its `alloc` on (Niel's pairs).
    pub wire_labels: Vec<WireLabel>,
    /// Qubits not drawn, with every instruction that touches only them.
    pub hidden: BTreeSet<Qubit>,
    /// Names of wires over the circuit's own (a program's header names its qubits by square).
    pub names: BTreeMap<Qubit, String>,
    /// A line printed under the drawing (e.g. which wires were left out).
    pub note: Option<String>,
}

/// A labelled run of instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Index of its first instruction.
    pub start: usize,
    /// Its label, e.g. `3. a3c3^b1` or `set-up`.
    pub label: String,
}

/// Where a section landed: its label and its columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSpan {
    /// The label.
    pub label: String,
    /// Its columns (an empty section still gets one, so its label has room).
    pub columns: Range<usize>,
}

/// What to draw on one wire in one column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A gate box with this label (one per target).
    Box(String),
    /// A 1-control (filled dot).
    ControlOne,
    /// A 0-control (open dot).
    ControlZero,
    /// A measurement into the named bit.
    Measure(String),
    /// Reset to |0>.
    Reset,
    /// Start of an ancilla's life, with what it stands for when the wire stands for several
    /// things over the drawing (otherwise the wire's name says it).
    Alloc(Option<String>),
    /// End of an ancilla's life.
    Free,
}

/// One placed instruction.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Its index in the drawn circuit's instruction list.
    pub instruction: usize,
    /// Its column.
    pub column: usize,
    /// (wire, mark) pairs, one per qubit it acts on; the wires of `span` without a mark are
    /// only crossed by its vertical line.
    pub marks: Vec<(usize, Mark)>,
    /// Lowest and highest wire it spans.
    pub span: (usize, usize),
    /// The classical condition, as `c3=1`.
    pub condition: Option<String>,
}

/// The laid-out circuit.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Wire names, top to bottom.
    pub wires: Vec<String>,
    /// Instructions in order.
    pub placed: Vec<Placed>,
    /// Number of columns.
    pub columns: usize,
    /// The sections, in order, over consecutive columns.
    pub sections: Vec<SectionSpan>,
    /// The line to print under the drawing.
    pub note: Option<String>,
}

/// Names each drawn qubit's wire: the annotations' name for it, else the circuit's (`anc0`,
/// `b1`, `q[3]`), followed by what it stands for in parentheses when one label covers it over the
/// whole drawing (`anc0 (R e4/f4)`, so that a game's drawing and its compiled program's name the
/// wire alike); the `alloc` marks of a wire that stands for several things carry their labels.
fn wire_names(circuit: &Circuit, notes: &Annotations, labels: &WireLabels) -> Vec<String> {
    let mut names = circuit.qubit_names();
    for (qubit, name) in &notes.names {
        if let Some(slot) = names.get_mut(qubit.index()) {
            slot.clone_from(name);
        }
    }
    for (qubit, distinct) in &labels.per_wire {
        if let (1, Some(only), Some(name)) = (
            distinct.len(),
            distinct.first(),
            names.get_mut(qubit.index()),
        ) {
            *name = format!("{name} ({only})");
        }
    }
    names
}

/// The annotations' wire labels, looked up once: the distinct labels of each wire and the
/// label each `alloc` instruction gives its wire.
struct WireLabels {
    per_wire: HashMap<Qubit, BTreeSet<String>>,
    at_alloc: HashMap<(usize, Qubit), String>,
}

impl WireLabels {
    fn new(notes: &Annotations) -> WireLabels {
        let mut labels = WireLabels {
            per_wire: HashMap::new(),
            at_alloc: HashMap::new(),
        };
        for l in &notes.wire_labels {
            labels
                .per_wire
                .entry(l.qubit)
                .or_default()
                .insert(l.label.clone());
            labels
                .at_alloc
                .entry((l.instruction, l.qubit))
                .or_insert_with(|| l.label.clone());
        }
        labels
    }

    /// The label an `alloc` at instruction `index` carries: its wire label when the wire has
    /// more than one over the drawing (otherwise the wire's name says it).
    fn alloc_label(&self, index: usize, qubit: Qubit) -> Option<String> {
        if self.per_wire.get(&qubit).map_or(0, BTreeSet::len) < 2 {
            return None;
        }
        self.at_alloc.get(&(index, qubit)).cloned()
    }
}

/// A box labelled `label` on every target and a dot of its polarity on every control.
fn gate_marks(label: String, targets: &[Qubit], controls: &[Control]) -> Vec<(usize, Mark)> {
    let mut m: Vec<(usize, Mark)> = targets
        .iter()
        .map(|t| (t.index(), Mark::Box(label.clone())))
        .collect();
    m.extend(controls.iter().map(|c| {
        (
            c.qubit.index(),
            if c.on.value() {
                Mark::ControlOne
            } else {
                Mark::ControlZero
            },
        )
    }));
    m
}

/// The marks of one instruction, by qubit.
fn marks_of(op: &Op, labels: &WireLabels, index: usize) -> Vec<(usize, Mark)> {
    match op {
        Op::Gate {
            gate,
            targets,
            controls,
        } => gate_marks(gate_label(gate), targets, controls),
        // A user gate is one box with the user's name on each of its targets.
        Op::UserGate {
            gate,
            targets,
            controls,
        } => gate_marks(crate::labels::user_gate_label(gate), targets, controls),
        Op::Measure { qubit, clbit } => vec![(qubit.index(), Mark::Measure(clbit.to_string()))],
        Op::Reset { qubit } => vec![(qubit.index(), Mark::Reset)],
        Op::Alloc { qubit } => vec![(
            qubit.index(),
            Mark::Alloc(labels.alloc_label(index, *qubit)),
        )],
        Op::Free { qubit } => vec![(qubit.index(), Mark::Free)],
        // A wait is drawn as a box with its duration, as a gate is with its name.
        Op::Delay { qubit, duration } => {
            vec![(qubit.index(), Mark::Box(format!("delay({duration}ns)")))]
        }
    }
}

/// Lays out `circuit` without annotations.
pub fn layout(circuit: &Circuit) -> Layout {
    layout_annotated(circuit, &Annotations::default())
}

/// Lays out `circuit`: only qubits that some instruction uses get a wire, in qubit order,
/// except the hidden ones; sections start on fresh columns.
pub fn layout_annotated(circuit: &Circuit, notes: &Annotations) -> Layout {
    let labels = WireLabels::new(notes);
    let names = wire_names(circuit, notes, &labels);
    let mut row_of = vec![None; names.len()];
    let mut wires = Vec::new();
    let mut used: Vec<usize> = circuit
        .instructions()
        .iter()
        .flat_map(|i| i.op.qubits())
        .filter(|q| !notes.hidden.contains(q))
        .map(|q| q.index())
        .filter(|&i| i < names.len())
        .collect();
    used.sort_unstable();
    used.dedup();
    for q in used {
        row_of[q] = Some(wires.len());
        wires.push(names[q].clone());
    }
    let mut placer = Placer::new(wires.len());
    let mut placed = Vec::new();
    let mut sections = notes.sections.iter().peekable();
    for (index, instr) in circuit.instructions().iter().enumerate() {
        while let Some(section) = sections.next_if(|s| s.start <= index) {
            placer.open_section(&section.label);
        }
        let marks: Vec<(usize, Mark)> = marks_of(&instr.op, &labels, index)
            .into_iter()
            .filter_map(|(q, m)| row_of.get(q).copied().flatten().map(|w| (w, m)))
            .collect();
        if marks.is_empty() {
            continue;
        }
        let lo = marks.iter().map(|(w, _)| *w).min().unwrap_or(0);
        let hi = marks.iter().map(|(w, _)| *w).max().unwrap_or(0);
        let (reads, writes) = classical_bits(instr);
        let column = placer.place((lo, hi), &reads, writes);
        let condition = instr.condition.as_ref().map(|g| {
            let tests: Vec<String> = g
                .conditions()
                .iter()
                .map(|c| format!("{}={}", c.clbit, u8::from(c.value)))
                .collect();
            tests.join("&")
        });
        placed.push(Placed {
            instruction: index,
            column,
            marks,
            span: (lo, hi),
            condition,
        });
    }
    // Sections starting at or after the end (moves that emitted nothing) still show.
    for section in sections {
        placer.open_section(&section.label);
    }
    let (columns, spans) = placer.finish();
    Layout {
        wires,
        placed,
        columns,
        sections: spans,
        note: notes.note.clone(),
    }
}

/// The classical bits an instruction reads (its condition's) and the one it writes (a
/// measurement's).
pub(crate) fn classical_bits(instr: &Instruction) -> (Vec<Clbit>, Option<Clbit>) {
    let writes = match instr.op {
        Op::Measure { clbit, .. } => Some(clbit),
        _ => None,
    };
    let reads = instr.condition.iter().flat_map(|g| g.clbits()).collect();
    (reads, writes)
}

/// The most cells (wires x columns) a drawing may have. A drawing that large is already far
/// beyond reading (4 million cells are 2,000 wires by 2,000 gates), and text grows with it
/// (about 12 bytes a cell): larger ones are refused before anything is drawn.
pub const MAX_CELLS: usize = 1 << 22;

/// A drawing too large to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the drawing would have {wires} wires and {columns} columns ({cells} cells; at most {max} are \
     drawn): too large to read"
)]
pub struct TooLarge {
    /// Wires of the drawing.
    pub wires: usize,
    /// Its columns.
    pub columns: usize,
    /// Wires times columns.
    pub cells: usize,
    /// [`MAX_CELLS`].
    pub max: usize,
}

impl Layout {
    /// Refuses a layout of more than [`MAX_CELLS`] cells.
    ///
    /// # Errors
    /// [`TooLarge`] with the layout's size.
    pub fn check_size(&self) -> Result<(), TooLarge> {
        let cells = self.wires.len().saturating_mul(self.columns);
        if cells > MAX_CELLS {
            return Err(TooLarge {
                wires: self.wires.len(),
                columns: self.columns,
                cells,
                max: MAX_CELLS,
            });
        }
        Ok(())
    }

    /// Whether a section starts at column `c`.
    pub fn section_starts(&self, c: usize) -> bool {
        self.sections.iter().any(|s| s.columns.start == c)
    }

    /// The section column `c` belongs to, if any.
    pub fn section_of(&self, c: usize) -> Option<&SectionSpan> {
        self.sections.iter().find(|s| s.columns.contains(&c))
    }
}

/// Cuts columns of the given widths (`costs`, in any unit) into bands of at most `room` each,
/// one after the other: as many columns as fit, then back to the last section start inside the
/// band, if any, so that sections (moves) stay whole; a column wider than `room` gets a band of
/// its own. Never cuts through a column. At least one band, empty when there are no columns.
pub fn cut_into_bands(
    costs: &[f64],
    room: f64,
    section_starts: impl Fn(usize) -> bool,
) -> Vec<Range<usize>> {
    let columns = costs.len();
    let mut bands = Vec::new();
    let mut start = 0;
    while start < columns {
        let mut end = start + 1;
        let mut used = costs[start];
        while end < columns && used + costs[end] <= room {
            used += costs[end];
            end += 1;
        }
        if end < columns {
            if let Some(cut) = (start + 1..=end).rev().find(|&c| section_starts(c)) {
                end = cut;
            }
        }
        bands.push(start..end);
        start = end;
    }
    if bands.is_empty() {
        bands.push(0..0);
    }
    bands
}
