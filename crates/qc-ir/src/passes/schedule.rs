//! The time schedule of a circuit (an analysis pass): when each instruction starts on a device,
//! given how long each one takes, and the idle windows in which a qubit waits between two of its
//! instructions. The noisy simulator (`qc_sim::noise`) relaxes each qubit over these windows;
//! time-aware passes (an estimated success probability with decoherence, dynamical decoupling)
//! are meant to read the same schedule.
//!
//! **As late as possible (ALAP).** Every instruction starts as late as the instructions after it
//! allow, so that the circuit's length is the shortest possible (that of the as-soon-as-possible
//! schedule) and a qubit is prepared only just before it is needed: a qubit waits in |0> (where
//! relaxation does nothing) rather than in the state a gate gave it. Two instructions are ordered
//! when they share a qubit (in program order), and a measurement ends before any instruction
//! conditioned on its bit starts. Times are in the unit of the durations (the noise model's are
//! nanoseconds); a duration that is negative or not finite counts as 0.
//!
//! **Conditioned blocks** (feed-forward). A maximal run of consecutive instructions under the same
//! condition (what an OpenQASM `if (c[k]) { ... }` becomes) is one *block*, scheduled as a unit,
//! as a device runs a branch: it starts on all its qubits at once, after the measurement of its
//! bit has ended and when each of its qubits is free; inside it, its instructions run as soon as
//! their qubits allow from the block's start; and it occupies all its qubits until its last
//! instruction ends, whether the branch is taken or not. The schedule is therefore the same for
//! every outcome: when the condition is false, the block's qubits idle through its window (the
//! noisy simulator relaxes them over it). Feed-forward latency (the time from the end of a
//! measurement to a branch on it) is taken as 0.

use crate::{Clbit, Guard, Instruction, Qubit};
use std::collections::BTreeMap;

/// When each instruction of a circuit runs: its start and duration, indexed like the
/// instructions given to [`schedule_alap`].
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    starts: Vec<f64>,
    durations: Vec<f64>,
    length: f64,
}

/// A window in which `qubit` waits between two of its instructions: from the end of one to the
/// start of the next (`before`, an instruction index).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IdleWindow {
    /// The waiting qubit.
    pub qubit: Qubit,
    /// When the window starts (the end of the qubit's previous instruction).
    pub start: f64,
    /// How long the qubit waits (positive).
    pub duration: f64,
    /// The index of the instruction that ends the window.
    pub before: usize,
}

impl Schedule {
    /// When instruction `index` starts.
    ///
    /// # Panics
    /// If `index` is not an instruction of the scheduled list.
    pub fn start(&self, index: usize) -> f64 {
        self.starts[index]
    }

    /// How long instruction `index` takes (the duration it was scheduled with).
    ///
    /// # Panics
    /// If `index` is not an instruction of the scheduled list.
    pub fn duration(&self, index: usize) -> f64 {
        self.durations[index]
    }

    /// When instruction `index` ends.
    ///
    /// # Panics
    /// If `index` is not an instruction of the scheduled list.
    pub fn end(&self, index: usize) -> f64 {
        self.starts[index] + self.durations[index]
    }

    /// The length of the whole schedule (0 for no instruction).
    pub fn length(&self) -> f64 {
        self.length
    }

    /// The number of instructions scheduled.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// True when no instruction was scheduled.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Every window in which a qubit waits between two of its instructions of `instructions`
    /// (the list this schedule was made for), in order of the instruction that ends it. The time
    /// before a qubit's first instruction and after its last is not a window: the qubit starts in
    /// |0>, and nothing reads it afterwards.
    pub fn idle_windows(&self, instructions: &[Instruction]) -> Vec<IdleWindow> {
        let mut free_at = BTreeMap::<Qubit, f64>::new();
        let mut windows = Vec::new();
        for (index, instr) in instructions.iter().enumerate().take(self.len()) {
            let start = self.starts[index];
            for qubit in instr.op.qubits() {
                if let Some(&end) = free_at.get(&qubit) {
                    if start > end {
                        windows.push(IdleWindow {
                            qubit,
                            start: end,
                            duration: start - end,
                            before: index,
                        });
                    }
                }
                free_at.insert(qubit, start + self.durations[index]);
            }
        }
        windows
    }
}

/// A unit of the schedule: one unconditioned instruction, or a block of consecutive
/// instructions under one condition (see the module docs).
struct Unit {
    /// The instructions `first..end`.
    first: usize,
    end: usize,
    /// The offset of each instruction from the unit's start.
    offsets: Vec<f64>,
    /// The unit's length.
    length: f64,
    /// The qubits it occupies.
    qubits: Vec<Qubit>,
    /// The bits its measurements write.
    writes: Vec<Clbit>,
    /// The bits its condition reads.
    reads: Vec<Clbit>,
}

/// `d` as a duration: negative and non-finite values count as 0.
fn sanitise(d: f64) -> f64 {
    if d.is_finite() && d > 0.0 {
        d
    } else {
        0.0
    }
}

/// The conditioned block instruction `index` belongs to, as the range of its instructions: the
/// maximal run of consecutive instructions under its condition (see the module docs; an
/// unconditioned instruction is a unit of its own, `index..index + 1`). The schedule treats the
/// block as one unit; passes that must not cut into it (dynamical decoupling) ask for it here.
pub fn conditioned_block(instructions: &[Instruction], index: usize) -> std::ops::Range<usize> {
    let Some(guard) = instructions[index].condition.as_ref() else {
        return index..index + 1;
    };
    let same = |i: &Instruction| i.condition.as_ref() == Some(guard);
    let first = index
        - instructions[..index]
            .iter()
            .rev()
            .take_while(|i| same(i))
            .count();
    let end = index
        + 1
        + instructions[index + 1..]
            .iter()
            .take_while(|i| same(i))
            .count();
    first..end
}

/// Splits `instructions` into units and lays each unit's instructions out from its start.
fn units(instructions: &[Instruction], durations: &[f64]) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut first = 0;
    while first < instructions.len() {
        let condition: Option<&Guard> = instructions[first].condition.as_ref();
        let end = conditioned_block(instructions, first).end;
        // As soon as possible inside the unit.
        let mut local = BTreeMap::<Qubit, f64>::new();
        let mut offsets = Vec::with_capacity(end - first);
        let mut writes = Vec::new();
        for (index, instr) in instructions.iter().enumerate().take(end).skip(first) {
            let qubits = instr.op.qubits();
            let offset = qubits
                .iter()
                .map(|q| local.get(q).copied().unwrap_or(0.0))
                .fold(0.0, f64::max);
            for &q in &qubits {
                local.insert(q, offset + durations[index]);
            }
            offsets.push(offset);
            if let crate::Op::Measure { clbit, .. } = instr.op {
                writes.push(clbit);
            }
        }
        let length = local.values().copied().fold(0.0, f64::max);
        units.push(Unit {
            first,
            end,
            offsets,
            length,
            qubits: local.into_keys().collect(),
            writes,
            reads: condition.map(|g| g.clbits().collect()).unwrap_or_default(),
        });
        first = end;
    }
    units
}

/// The as-late-as-possible schedule of `instructions` (see the module docs), with `duration`
/// giving each instruction's duration (in any unit; the schedule's times are in the same).
///
/// Work: one pass over the instructions each way, `O(n log q)` for `n` instructions on `q`
/// qubits.
pub fn schedule_alap(
    instructions: &[Instruction],
    mut duration: impl FnMut(&Instruction) -> f64,
) -> Schedule {
    let durations: Vec<f64> = instructions.iter().map(|i| sanitise(duration(i))).collect();
    let units = units(instructions, &durations);
    // Backwards from the end: `from_end` is, per unit, the time between its end and the end of
    // the schedule; each qubit and each bit holds the earliest time (from the end) the units
    // already placed after it leave free.
    let mut qubit_free = BTreeMap::<Qubit, f64>::new();
    let mut bit_read = BTreeMap::<Clbit, f64>::new();
    let mut from_end = vec![0.0f64; units.len()];
    for (k, unit) in units.iter().enumerate().rev() {
        let after_qubits = unit
            .qubits
            .iter()
            .map(|q| qubit_free.get(q).copied().unwrap_or(0.0))
            .fold(0.0, f64::max);
        // A measurement ends before the units that read its bit start.
        let after_readers = unit
            .writes
            .iter()
            .map(|b| bit_read.get(b).copied().unwrap_or(0.0))
            .fold(0.0, f64::max);
        let gap = after_qubits.max(after_readers);
        from_end[k] = gap;
        for &q in &unit.qubits {
            qubit_free.insert(q, gap + unit.length);
        }
        for &bit in &unit.reads {
            let read = bit_read.entry(bit).or_insert(0.0);
            *read = read.max(gap + unit.length);
        }
    }
    let length = units
        .iter()
        .zip(&from_end)
        .map(|(u, gap)| gap + u.length)
        .fold(0.0, f64::max);
    let mut starts = vec![0.0f64; instructions.len()];
    for (unit, gap) in units.iter().zip(&from_end) {
        let start = length - gap - unit.length;
        for (index, offset) in (unit.first..unit.end).zip(&unit.offsets) {
            starts[index] = start + offset;
        }
    }
    Schedule {
        starts,
        durations,
        length,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Condition, Control, Gate, Op};

    fn q(k: u32) -> Qubit {
        Qubit(k)
    }

    fn x(k: u32) -> Instruction {
        Instruction::gate(Gate::X, &[q(k)], &[])
    }

    fn cz(a: u32, b: u32) -> Instruction {
        Instruction::gate(Gate::Z, &[q(b)], &[Control::one(q(a))])
    }

    fn measure(k: u32, bit: u32) -> Instruction {
        Instruction::new(Op::Measure {
            qubit: q(k),
            clbit: Clbit(bit),
        })
    }

    fn when(bit: u32, i: Instruction) -> Instruction {
        i.with_condition(Condition {
            clbit: Clbit(bit),
            value: true,
        })
    }

    /// Durations by kind: a single-qubit gate 10, a two-qubit gate 40, a measurement 100.
    fn durations(i: &Instruction) -> f64 {
        match &i.op {
            Op::Measure { .. } => 100.0,
            op if op.qubits().len() == 2 => 40.0,
            _ => 10.0,
        }
    }

    fn starts(s: &Schedule) -> Vec<f64> {
        (0..s.len()).map(|i| s.start(i)).collect()
    }

    /// x(0); x(0); cz(0,1); x(1): q1's first gate waits until the CZ needs it, so its idle
    /// time is at the start (in |0>), not between the gates.
    #[test]
    fn gates_start_as_late_as_the_gates_after_them_allow() {
        let instrs = [x(0), x(0), cz(0, 1), x(1), x(2)];
        let s = schedule_alap(&instrs, durations);
        // Length: 10 + 10 + 40 + 10 = 70; x(2) runs at the very end.
        assert_eq!(s.length(), 70.0);
        assert_eq!(starts(&s), vec![0.0, 10.0, 20.0, 60.0, 60.0]);
        assert!(s.idle_windows(&instrs).is_empty());
    }

    /// A qubit measured early that a later gate reuses waits between the two.
    #[test]
    fn idle_windows_are_the_gaps_between_a_qubits_instructions() {
        // q0: x, a cz with q1, then waits while q1 takes five x gates, then another cz.
        let instrs = [x(0), cz(0, 1), x(1), x(1), x(1), x(1), x(1), cz(0, 1)];
        let s = schedule_alap(&instrs, durations);
        // q1's path: cz 40, five x 50, cz 40 = 130 from the first cz's start; q0 before it: x 10.
        assert_eq!(s.length(), 140.0);
        assert_eq!(s.start(1), 10.0);
        assert_eq!(s.start(7), 100.0);
        let windows = s.idle_windows(&instrs);
        assert_eq!(
            windows,
            vec![IdleWindow {
                qubit: q(0),
                start: 50.0,
                duration: 50.0,
                before: 7
            }]
        );
    }

    /// A block conditioned on a measurement starts after the measurement ends, on all its
    /// qubits at once; inside it gates run as soon as possible; its qubits are occupied until it
    /// ends, and the gates after it wait.
    #[test]
    fn a_conditioned_block_is_one_unit_after_its_measurement() {
        let instrs = [
            x(0),
            measure(0, 0),
            x(2),
            when(0, x(1)),
            when(0, x(1)),
            when(0, x(2)),
            x(2),
            x(1),
        ];
        let s = schedule_alap(&instrs, durations);
        // x(0) 0-10, measure 10-110; block 110-130 (x1 110, x1 120, x2 110); then x(2), x(1)
        // at 130. x(2) before the block runs as late as possible: 100-110.
        assert_eq!(
            starts(&s),
            vec![0.0, 10.0, 100.0, 110.0, 120.0, 110.0, 130.0, 130.0]
        );
        assert_eq!(s.length(), 140.0);
        // q2 idles from the end of its block gate (120) to the block's end (130).
        let windows = s.idle_windows(&instrs);
        assert_eq!(
            windows,
            vec![IdleWindow {
                qubit: q(2),
                start: 120.0,
                duration: 10.0,
                before: 6
            }]
        );
    }

    /// Two blocks on different bits are two units; one on the same bit after an unconditioned
    /// instruction is a new unit.
    #[test]
    fn blocks_are_maximal_runs_of_one_condition() {
        let instrs = [
            measure(0, 0),
            measure(1, 1),
            when(0, x(2)),
            when(1, x(3)),
            x(4),
            when(0, x(5)),
        ];
        let s = schedule_alap(&instrs, durations);
        // Both measurements 0-100; the three blocks and x(4) end the schedule at 110.
        assert_eq!(starts(&s), vec![0.0, 0.0, 100.0, 100.0, 100.0, 100.0]);
    }

    /// Zero, negative and non-finite durations count as 0; an empty list has length 0.
    #[test]
    fn durations_are_sanitised() {
        let instrs = [x(0), x(0)];
        let s = schedule_alap(&instrs, |_| f64::NAN);
        assert_eq!((s.length(), s.duration(0)), (0.0, 0.0));
        let s = schedule_alap(&instrs, |_| -5.0);
        assert_eq!(s.end(1), 0.0);
        assert!(schedule_alap(&[], durations).is_empty());
    }
}
