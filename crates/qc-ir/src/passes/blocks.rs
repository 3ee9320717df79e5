//! Runs of gates that amount to one gate of the table, replaced by it.
//!
//! Importers expand user gate definitions into the gates of their bodies (a controlled iSWAP
//! written portably becomes eight gates with controlled rotations, a 0-control becomes an X on
//! each side). This pass finds such runs again in whatever instruction list it is given, with
//! no help from the importer: every run of at most [`MAX_BLOCK_GATES`] consecutive unconditioned
//! gates on at most three qubits is a candidate, its unitary (a product of 8x8 matrices) goes to
//! [`recognise_unitary`], and a dynamic programme over the list picks the set of disjoint runs
//! that removes the most gates (so a short merge never steals the first gate of a longer body).
//! A run of single-qubit gates on one qubit becomes one gate too (`u` or a named rotation).
//!
//! Gains are counted in gates as an export writes them: a 0-control counts as one gate more (a
//! portable program wraps it in X gates, which only cancel against a neighbour's), so a run is
//! not traded for one gate with more 0-controls unless that is still shorter (`x t; cx c, t`
//! stays, it is not rewritten as one X with a 0-control).
//!
//! The replacement equals the run up to a global phase, which the report adds up: the new list's
//! unitary times `e^{i global_phase}` is the old one's (unobservable, and exact up to rounding of
//! about 1e-15 per replaced run).

use super::recognise::{recognise_unitary, Recognised};
use crate::ids::Qubit;
use crate::instruction::{Control, Instruction, Op};
use crate::matrix::Matrix;
use crate::unitary::apply_gate_reference;

/// Longest run looked at (the longest body of the qchess library, `nciswap`, is ten gates).
pub const MAX_BLOCK_GATES: usize = 16;

/// The qubits of a run: at most this many.
const BLOCK_QUBITS: usize = 3;

/// What [`recognise_blocks`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct BlockReport {
    /// Runs replaced by one gate (or dropped, when the identity).
    pub runs_replaced: usize,
    /// Instructions removed in all.
    pub gates_removed: usize,
    /// The global phase (radians) the replacements dropped: old = `e^{i global_phase}` new.
    pub global_phase: f64,
}

/// A run that may be replaced: it ends before `end` and is `replacement` (none for the identity),
/// which saves `saved` in [`weight`].
struct Candidate {
    end: usize,
    /// The qubits the run acts on.
    qubits: usize,
    replacement: Option<Instruction>,
    phase: f64,
    saved: usize,
}

/// What an instruction costs once exported: one gate, plus one for each 0-control.
fn weight(instruction: &Instruction) -> usize {
    match &instruction.op {
        Op::Gate { controls, .. } => 1 + controls.iter().filter(|c| !c.on.value()).count(),
        _ => 1,
    }
}

/// Replaces runs of gates by the table gate each amounts to (see the module docs).
pub fn recognise_blocks(instructions: &mut Vec<Instruction>) -> BlockReport {
    recognise_runs(instructions, Runs::All)
}

/// Replaces only the runs that amount to one gate on two or three qubits (an inlined body of a
/// multi-qubit gate of the table, such as a program's `iswap` written with the qchess library),
/// and keeps every other gate as it is: no single-qubit merges, no run dropped as the identity.
/// What a drawing of a program uses to show such bodies as the gate they are.
pub fn recognise_gate_bodies(instructions: &mut Vec<Instruction>) -> BlockReport {
    recognise_runs(instructions, Runs::MultiQubitGates)
}

/// Which runs [`recognise_runs`] may replace.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Runs {
    /// Every run that saves gates.
    All,
    /// Runs replaced by one gate on two or more qubits.
    MultiQubitGates,
}

fn recognise_runs(instructions: &mut Vec<Instruction>, runs: Runs) -> BlockReport {
    let n = instructions.len();
    let candidates: Vec<Vec<Candidate>> = (0..n)
        .map(|i| {
            let mut found = runs_from(instructions, i);
            if runs == Runs::MultiQubitGates {
                // The gate must act on every qubit of the run: a run that also holds gates
                // cancelling on another qubit (`x q; x q`) would lose them.
                found.retain(|c| {
                    c.replacement.as_ref().is_some_and(|r| {
                        r.op.qubits().len() >= 2 && r.op.qubits().len() == c.qubits
                    })
                });
            }
            found
        })
        .collect();
    // best[i]: most gates removable from instructions[i..]; choice[i]: the run starting there.
    let mut best = vec![0usize; n + 1];
    let mut choice: Vec<Option<usize>> = vec![None; n];
    for i in (0..n).rev() {
        best[i] = best[i + 1];
        for (k, c) in candidates[i].iter().enumerate() {
            if c.saved + best[c.end] > best[i] {
                best[i] = c.saved + best[c.end];
                choice[i] = Some(k);
            }
        }
    }
    let mut report = BlockReport::default();
    if best[0] == 0 {
        return report;
    }
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        let Some(k) = choice[i] else {
            out.push(instructions[i].clone());
            i += 1;
            continue;
        };
        let c = &candidates[i][k];
        if let Some(replacement) = &c.replacement {
            let mut replacement = replacement.clone();
            replacement.origin.clone_from(&instructions[i].origin);
            out.push(replacement);
        }
        report.runs_replaced += 1;
        report.global_phase += c.phase;
        i = c.end;
    }
    report.gates_removed = n - out.len();
    *instructions = out;
    report
}

/// Every run starting at `start` (two gates or more) that is one gate of the table.
fn runs_from(instructions: &[Instruction], start: usize) -> Vec<Candidate> {
    let mut frame: Vec<Qubit> = Vec::with_capacity(BLOCK_QUBITS);
    // The run's unitary on the frame's qubits, stored so that entry (row, col) is at index
    // `row * 8 + col`: frame qubit k is bit `k + 3` of the index, and a gate applied to it
    // multiplies the matrix from the left.
    let dim = 1usize << BLOCK_QUBITS;
    let mut product = Matrix::identity(dim).as_slice().to_vec();
    let mut out = Vec::new();
    let mut run_weight = 0;
    for (end, instruction) in instructions
        .iter()
        .enumerate()
        .skip(start)
        .take(MAX_BLOCK_GATES)
    {
        let Op::Gate {
            gate,
            targets,
            controls,
        } = &instruction.op
        else {
            break;
        };
        if instruction.condition.is_some() {
            break;
        }
        let mut local = |q: Qubit| -> Option<Qubit> {
            let k = match frame.iter().position(|f| *f == q) {
                Some(k) => k,
                None if frame.len() < BLOCK_QUBITS => {
                    frame.push(q);
                    frame.len() - 1
                }
                None => return None,
            };
            Some(Qubit((k + BLOCK_QUBITS) as u32))
        };
        let Some(local_targets) = targets
            .iter()
            .map(|&t| local(t))
            .collect::<Option<Vec<_>>>()
        else {
            break;
        };
        let Some(local_controls) = controls
            .iter()
            .map(|c| local(c.qubit).map(|qubit| Control { qubit, on: c.on }))
            .collect::<Option<Vec<_>>>()
        else {
            break;
        };
        apply_gate_reference(&mut product, *gate, &local_targets, &local_controls);
        run_weight += weight(instruction);
        if end == start {
            continue;
        }
        let unitary = Matrix::from_row_major(dim, product.clone());
        if let Some(found) = recognise_unitary(&unitary) {
            let replacement = (found.gate != crate::Gate::I).then(|| on_frame(&found, &frame));
            let new_weight = replacement.as_ref().map_or(0, weight);
            if new_weight < run_weight {
                out.push(Candidate {
                    end: end + 1,
                    qubits: frame.len(),
                    replacement,
                    phase: found.phase,
                    saved: run_weight - new_weight,
                });
            }
        }
    }
    out
}

/// The recognised gate on the circuit's qubits (`frame[k]` is the run's qubit `k`).
fn on_frame(found: &Recognised, frame: &[Qubit]) -> Instruction {
    let targets: Vec<Qubit> = found.targets.iter().map(|q| frame[q.index()]).collect();
    let controls: Vec<Control> = found
        .controls
        .iter()
        .map(|c| Control {
            qubit: frame[c.qubit.index()],
            on: c.on,
        })
        .collect();
    Instruction::gate(found.gate, &targets, &controls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Gate;

    fn gate(g: Gate, targets: &[u32], controls: &[u32]) -> Instruction {
        let t: Vec<Qubit> = targets.iter().map(|&q| Qubit(q)).collect();
        let c: Vec<Control> = controls
            .iter()
            .map(|&q| Control::when(Qubit(q), true))
            .collect();
        Instruction::gate(g, &t, &c)
    }

    /// The qchess library's iSWAP body between single-qubit runs: the drawing's recognition
    /// names the body and leaves the runs alone; the optimiser's merges them too.
    #[test]
    fn gate_bodies_are_named_and_nothing_else_changes() {
        let body = [
            gate(Gate::S, &[0], &[]),
            gate(Gate::S, &[1], &[]),
            gate(Gate::H, &[0], &[]),
            gate(Gate::X, &[1], &[0]),
            gate(Gate::X, &[0], &[1]),
            gate(Gate::H, &[1], &[]),
        ];
        let mut program = vec![gate(Gate::H, &[2], &[]), gate(Gate::T, &[2], &[])];
        program.extend(body.iter().cloned());
        program.push(gate(Gate::X, &[2], &[]));
        program.push(gate(Gate::X, &[2], &[]));
        let mut drawn = program.clone();
        let report = recognise_gate_bodies(&mut drawn);
        assert_eq!(report.runs_replaced, 1, "{drawn:?}");
        assert_eq!(
            drawn,
            vec![
                gate(Gate::H, &[2], &[]),
                gate(Gate::T, &[2], &[]),
                gate(Gate::ISwap, &[0, 1], &[]),
                gate(Gate::X, &[2], &[]),
                gate(Gate::X, &[2], &[]),
            ]
        );
        let mut optimised = program;
        let report = recognise_blocks(&mut optimised);
        assert!(report.runs_replaced >= 3, "{optimised:?}");
        assert!(optimised.len() < drawn.len());
    }
}
