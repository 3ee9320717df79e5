//! The columns of a folded drawing whose rows draw their own wires in their own order (the SVG:
//! each row shows only the wires its instructions use, a game's in the order its moves join
//! them). The layout's columns keep apart instructions whose spans meet in the layout's wire
//! order; in a row's order two of them can span one wire, and a connector would run through the
//! other's box. So each row's instructions are placed again on the row's own wires, with the
//! texts drawn between wires taking their gap: a condition's label the gap under its lowest
//! wire, an `alloc`/`free`/`reset` mark the gap above its wire. Rows keep the layout's
//! instructions and follow one another, so every wire's and every bit's instructions stay in
//! circuit order.

use super::placer::Placer;
use super::{classical_bits, Layout, Mark, Placed};
use qc_ir::Circuit;
use std::ops::Range;

/// Places the instructions of `lay` again, row by row: row `k` takes the instructions whose
/// columns `bands[k]` holds and draws the wires `orders[k]` (indices into `lay.wires`, top to
/// bottom; every wire its instructions use). Returns the new layout, with the same wires,
/// instructions and sections, and each row's columns in it, one after the other.
pub fn relayout_rows(
    circuit: &Circuit,
    lay: &Layout,
    bands: &[Range<usize>],
    orders: &[Vec<usize>],
) -> (Layout, Vec<Range<usize>>) {
    let band_of = |column: usize| bands.partition_point(|b| b.end <= column);
    let mut by_band: Vec<Vec<&Placed>> = vec![Vec::new(); bands.len()];
    for p in &lay.placed {
        if let Some(list) = by_band.get_mut(band_of(p.column)) {
            list.push(p);
        }
    }
    // Slot 2k + 1 is the row's k-th wire, 2k the gap above it, 2k + 2 the gap under it.
    let widest = orders.iter().map(Vec::len).max().unwrap_or(0);
    let mut placer = Placer::new(2 * widest + 1);
    let mut position = vec![usize::MAX; lay.wires.len()];
    let mut placed = Vec::with_capacity(lay.placed.len());
    let mut rows = Vec::with_capacity(bands.len());
    let mut opened = 0;
    let no_order = Vec::new();
    for (k, band) in bands.iter().enumerate() {
        let first = placer.columns();
        let order = orders.get(k).unwrap_or(&no_order);
        for (at, &w) in order.iter().enumerate() {
            if let Some(slot) = position.get_mut(w) {
                *slot = at;
            }
        }
        for p in by_band.get(k).into_iter().flatten() {
            // Open every section up to the one the instruction is in.
            let section = lay.sections.partition_point(|s| s.columns.end <= p.column);
            let inside = lay
                .sections
                .get(section)
                .is_some_and(|s| s.columns.start <= p.column);
            while inside && opened <= section {
                placer.open_section(&lay.sections[opened].label);
                opened += 1;
            }
            // A wire the row does not show (none, by construction): the whole row's height.
            let slots = slots(p, &position).unwrap_or((0, 2 * widest));
            let (reads, writes) = circuit
                .instructions()
                .get(p.instruction)
                .map_or((Vec::new(), None), classical_bits);
            placed.push(Placed {
                column: placer.place(slots, &reads, writes),
                ..(*p).clone()
            });
        }
        // Sections that start in the row after its last instruction (moves that drew nothing).
        while lay
            .sections
            .get(opened)
            .is_some_and(|s| s.columns.start < band.end)
        {
            placer.open_section(&lay.sections[opened].label);
            opened += 1;
        }
        placer.end_row();
        rows.push(first..placer.columns());
        for &w in order {
            if let Some(slot) = position.get_mut(w) {
                *slot = usize::MAX;
            }
        }
    }
    while let Some(s) = lay.sections.get(opened) {
        placer.open_section(&s.label);
        opened += 1;
    }
    let (columns, sections) = placer.finish();
    placed.sort_by_key(|p| p.instruction);
    let relaid = Layout {
        wires: lay.wires.clone(),
        placed,
        columns,
        sections,
        note: lay.note.clone(),
    };
    (relaid, rows)
}

/// The slots an instruction takes in its row (`position`: each wire's place in the row): its
/// wires and the wires between, the gap under its lowest wire for a condition's label, and the
/// gap above a wire for an `alloc`, `free` or `reset` mark drawn there. `None` when the row
/// does not show one of its wires.
fn slots(p: &Placed, position: &[usize]) -> Option<(usize, usize)> {
    let mut lo = usize::MAX;
    let mut hi = 0;
    for (w, mark) in &p.marks {
        let at = *position.get(*w).filter(|&&at| at != usize::MAX)?;
        let wire = 2 * at + 1;
        let above = matches!(mark, Mark::Reset | Mark::Alloc(_) | Mark::Free);
        lo = lo.min(wire - usize::from(above));
        hi = hi.max(wire);
    }
    if p.condition.is_some() {
        hi += 1;
    }
    (lo <= hi).then_some((lo, hi))
}
