//! Runs of single-qubit gates on one qubit merged into one gate, wherever they sit in the list.
//!
//! [`super::blocks`] only sees gates that are consecutive in the instruction list; a game or an
//! imported program interleaves gates on other qubits between the gates of one qubit (`h a; x b;
//! t a`). This pass follows each qubit on its own: a run is a maximal sequence of plain
//! single-qubit gates on that qubit (no controls, no condition) with no other instruction on the
//! qubit between them. Nothing between two gates of a run touches the qubit, so the run may be
//! gathered at the place of its last gate. Its product (a 2x2 matrix) is written as one gate by
//! [`recognise_unitary`] (a fixed gate of the table, else `p`, `rz`, `ry`, `rx` or `u`), or dropped
//! when it is the identity. The product equals the run up to a global phase, which is reported.

use super::recognise::recognise_unitary;
use crate::gate::Gate;
use crate::ids::Qubit;
use crate::instruction::{Instruction, Op};
use crate::matrix::Matrix;

/// What [`merge_single_qubit_runs`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct MergeReport {
    /// Runs of two or more gates replaced by one gate (or dropped as the identity).
    pub runs_merged: usize,
    /// Instructions removed in all.
    pub gates_removed: usize,
    /// The global phase (radians) dropped: old unitary = `e^{i global_phase}` new one.
    pub global_phase: f64,
}

/// The qubit of a plain single-qubit gate (uncontrolled, unconditioned).
fn plain_single_qubit(instruction: &Instruction) -> Option<(Gate, Qubit)> {
    match &instruction.op {
        Op::Gate {
            gate,
            targets,
            controls,
        } if targets.len() == 1 && controls.is_empty() && instruction.condition.is_none() => {
            Some((*gate, targets[0]))
        }
        _ => None,
    }
}

/// Merges every run of two or more single-qubit gates on one qubit (see the module docs).
pub fn merge_single_qubit_runs(
    instructions: &mut Vec<Instruction>,
    num_qubits: usize,
) -> MergeReport {
    // The open run of each qubit: indices of its gates, in order.
    let mut open: Vec<Vec<usize>> = vec![Vec::new(); num_qubits];
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for (index, instruction) in instructions.iter().enumerate() {
        if let Some((_, qubit)) = plain_single_qubit(instruction) {
            if let Some(run) = open.get_mut(qubit.index()) {
                run.push(index);
                continue;
            }
        }
        for q in instruction.op.qubits() {
            if let Some(run) = open.get_mut(q.index()) {
                runs.push(std::mem::take(run));
            }
        }
    }
    runs.extend(open);
    let mut report = MergeReport::default();
    let mut replacement: Vec<Option<Option<Instruction>>> = vec![None; instructions.len()];
    for run in runs.into_iter().filter(|r| r.len() >= 2) {
        // Later gates multiply from the left.
        let product = run.iter().fold(Matrix::identity(2), |acc, &k| {
            let (gate, _) = plain_single_qubit(&instructions[k]).expect("runs hold plain gates");
            gate.matrix().mul(&acc)
        });
        let Some(found) = recognise_unitary(&product) else {
            continue;
        };
        let last = run[run.len() - 1];
        let (_, qubit) = plain_single_qubit(&instructions[last]).expect("runs hold plain gates");
        for &k in &run {
            replacement[k] = Some(None);
        }
        if found.gate != Gate::I {
            let mut merged = Instruction::gate(found.gate, &[qubit], &[]);
            merged.origin.clone_from(&instructions[run[0]].origin);
            replacement[last] = Some(Some(merged));
        }
        report.runs_merged += 1;
        report.global_phase += found.phase;
    }
    if report.runs_merged == 0 {
        return report;
    }
    let before = instructions.len();
    let old = std::mem::take(instructions);
    *instructions = old
        .into_iter()
        .zip(replacement)
        .filter_map(|(instruction, new)| match new {
            None => Some(instruction),
            Some(new) => new,
        })
        .collect();
    report.gates_removed = before - instructions.len();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text;

    fn list(src: &str) -> Vec<Instruction> {
        text::parse(&format!("qcir 1\nqubits q0 q1\n{src}"))
            .expect("test circuit parses")
            .instructions()
            .to_vec()
    }

    fn merged(src: &str) -> (Vec<Instruction>, MergeReport) {
        let mut instructions = list(src);
        let report = merge_single_qubit_runs(&mut instructions, 2);
        (instructions, report)
    }

    #[test]
    fn interleaved_runs_merge_to_the_gate_they_are() {
        // h x h = z and s s = z exactly (hand-computed), with gates on the other qubit between.
        // Each merged gate sits where the last gate of its run was.
        let (out, report) = merged("h q0\ns q1\nx q0\ns q1\nh q0\n");
        assert_eq!(out, list("z q1\nz q0\n"));
        assert_eq!(report.runs_merged, 2);
        assert_eq!(report.gates_removed, 3);
        assert!(report.global_phase.abs() < 1e-12);
    }

    #[test]
    fn a_run_that_is_the_identity_goes_and_its_phase_is_reported() {
        // x x = I; rx(pi) rx(pi) = (-i X)(-i X) = -I.
        let (out, report) = merged("x q0\nx q0\nrx(pi) q1\nrx(pi) q1\n");
        assert!(out.is_empty());
        assert_eq!(report.gates_removed, 4);
        assert!((report.global_phase.abs() - std::f64::consts::PI).abs() < 1e-12);
    }

    #[test]
    fn a_run_ends_at_any_other_use_of_its_qubit() {
        let src =
            "clbits 1\nh q0\nx q1 ctrl(q0=1)\nh q0\nmeasure q0 -> c0\nh q0\nif c0==1: h q0\nh q0\n";
        let (out, report) = merged(src);
        assert_eq!(out, list(src));
        assert_eq!(report, MergeReport::default());
    }
}
