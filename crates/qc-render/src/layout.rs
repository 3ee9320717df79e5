//! Places a circuit's instructions in columns for drawing.
//!
//! Each instruction spans the wires from its lowest to its highest qubit (the vertical line of a
//! controlled gate crosses the wires between), so it goes in the first column after every column
//! already used on that span. The same layout feeds the text and SVG renderers, so both pictures
//! agree.

use qc_ir::{Circuit, Op};

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
    /// Start of an ancilla's life.
    Alloc,
    /// End of an ancilla's life.
    Free,
    /// A vertical line crossing this wire.
    Cross,
}

/// One placed instruction.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Its column.
    pub column: usize,
    /// (wire, mark) pairs.
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
}

/// Lays out `circuit`; only qubits that some instruction uses get a wire, in qubit order.
pub fn layout(circuit: &Circuit) -> Layout {
    let names = circuit.qubit_names();
    let mut row_of = vec![None; names.len()];
    let mut wires = Vec::new();
    let mut used: Vec<usize> = circuit
        .instructions()
        .iter()
        .flat_map(|i| i.op.qubits())
        .map(|q| q.index())
        .filter(|&i| i < names.len())
        .collect();
    used.sort_unstable();
    used.dedup();
    for q in used {
        row_of[q] = Some(wires.len());
        wires.push(names[q].clone());
    }
    let mut next_free = vec![0usize; wires.len()];
    let mut placed = Vec::new();
    let mut columns = 0;
    for instr in circuit.instructions() {
        let marks: Vec<(usize, Mark)> = match &instr.op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => {
                let label = gate.to_string();
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
            Op::Measure { qubit, clbit } => vec![(qubit.index(), Mark::Measure(clbit.to_string()))],
            Op::Reset { qubit } => vec![(qubit.index(), Mark::Reset)],
            Op::Alloc { qubit } => vec![(qubit.index(), Mark::Alloc)],
            Op::Free { qubit } => vec![(qubit.index(), Mark::Free)],
        };
        let mut marks: Vec<(usize, Mark)> = marks
            .into_iter()
            .filter_map(|(q, m)| row_of.get(q).copied().flatten().map(|w| (w, m)))
            .collect();
        if marks.is_empty() {
            continue;
        }
        let lo = marks.iter().map(|(w, _)| *w).min().unwrap_or(0);
        let hi = marks.iter().map(|(w, _)| *w).max().unwrap_or(0);
        let column = next_free[lo..=hi].iter().copied().max().unwrap_or(0);
        for slot in &mut next_free[lo..=hi] {
            *slot = column + 1;
        }
        for w in lo..=hi {
            if !marks.iter().any(|(m, _)| *m == w) {
                marks.push((w, Mark::Cross));
            }
        }
        columns = columns.max(column + 1);
        let condition = instr
            .condition
            .map(|c| format!("{}={}", c.clbit, u8::from(c.value)));
        placed.push(Placed {
            column,
            marks,
            span: (lo, hi),
            condition,
        });
    }
    Layout {
        wires,
        placed,
        columns,
    }
}
