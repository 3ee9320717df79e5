//! Gives instructions their columns one at a time, in an order that keeps every wire's and every
//! classical bit's instructions in circuit order: each goes in the first column after every
//! column already used on its slots (the wires it spans, and for the SVG rows the gaps between
//! wires its texts take) and after the column of every instruction it depends on through a
//! classical bit. Sections start on fresh columns. Shared by the layout and by the SVG's rows,
//! which place the same instructions again in the order their wires are drawn.

use super::next_free::NextFree;
use super::SectionSpan;
use qc_ir::Clbit;
use std::collections::HashMap;

/// The column of every instruction placed so far, as the next free column of every slot, the
/// bits' columns and the sections.
pub(crate) struct Placer {
    next_free: NextFree,
    bits: BitColumns,
    /// Columns used so far.
    columns: usize,
    /// The sections opened so far; the last is open.
    spans: Vec<SectionSpan>,
}

impl Placer {
    /// A placer over `slots` slots (wires, or wires and the gaps between them).
    pub(crate) fn new(slots: usize) -> Placer {
        Placer {
            next_free: NextFree::new(slots),
            bits: BitColumns::default(),
            columns: 0,
            spans: Vec::new(),
        }
    }

    /// Places an instruction on slots `lo..=hi` that reads bits `reads` and writes bit `writes`;
    /// returns its column.
    pub(crate) fn place(
        &mut self,
        (lo, hi): (usize, usize),
        reads: &[Clbit],
        writes: Option<Clbit>,
    ) -> usize {
        // `next_free` starts at the open section's first column, so the span's maximum does.
        let column = self
            .next_free
            .latest(lo, hi)
            .max(self.bits.earliest(reads, writes));
        self.next_free.set(lo, hi, column + 1);
        self.bits.record(reads, writes, column);
        self.columns = self.columns.max(column + 1);
        column
    }

    /// Ends the open section (an empty one gets a column of its own) and starts the next one
    /// after every column used so far.
    pub(crate) fn open_section(&mut self, label: &str) {
        self.close_section();
        self.next_free.set_all(self.columns);
        self.spans.push(SectionSpan {
            label: label.to_string(),
            columns: self.columns..self.columns,
        });
    }

    /// Ends a row of the SVG, whose wires the next row draws in another order: what is placed
    /// next starts after every column used so far, and an open section that has no column yet
    /// gets one first, so that it stays in the row it was opened in.
    pub(crate) fn end_row(&mut self) {
        if let Some(last) = self.spans.last() {
            if last.columns.start == self.columns {
                self.columns += 1;
            }
        }
        self.next_free.set_all(self.columns);
    }

    /// Columns used so far.
    pub(crate) fn columns(&self) -> usize {
        self.columns
    }

    /// Closes the open section; returns the columns used and the sections.
    pub(crate) fn finish(mut self) -> (usize, Vec<SectionSpan>) {
        self.close_section();
        (self.columns, self.spans)
    }

    /// Ends the open section at the current column count (an empty one gets a column).
    fn close_section(&mut self) {
        if let Some(last) = self.spans.last_mut() {
            if self.columns == last.columns.start {
                self.columns += 1;
            }
            last.columns.end = self.columns;
        }
    }
}

/// For every classical bit, the first column an instruction that reads it may take (after its
/// writer) and the first column one that writes it may take (after its writer and readers).
#[derive(Default)]
struct BitColumns {
    read_from: HashMap<Clbit, usize>,
    write_from: HashMap<Clbit, usize>,
}

impl BitColumns {
    /// The first column an instruction reading `reads` and writing `writes` may take.
    fn earliest(&self, reads: &[Clbit], writes: Option<Clbit>) -> usize {
        let read = reads
            .iter()
            .filter_map(|b| self.read_from.get(b))
            .max()
            .copied();
        let write = writes.and_then(|b| self.write_from.get(&b)).copied();
        read.unwrap_or(0).max(write.unwrap_or(0))
    }

    /// Notes an instruction placed in `column`.
    fn record(&mut self, reads: &[Clbit], writes: Option<Clbit>, column: usize) {
        for &b in reads {
            let w = self.write_from.entry(b).or_insert(0);
            *w = (*w).max(column + 1);
        }
        if let Some(b) = writes {
            self.read_from.insert(b, column + 1);
            self.write_from.insert(b, column + 1);
        }
    }
}
