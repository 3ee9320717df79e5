//! The pass manager: cheap optimisations that never change what a circuit does, run before
//! simulation (`qchess run`) and before export (fewer gates, less noise on hardware).
//!
//! Passes, repeated until none changes anything (at most [`MAX_ROUNDS`] rounds):
//! 0. **Recognise runs** ([`super::blocks`]): consecutive gates on at most three qubits that
//!    amount to one table gate (an inlined library body, a run of single-qubit gates) become it.
//!    It runs first, so that the passes below do not cut into bodies it would recognise.
//! 1. **Merge single-qubit runs** ([`super::single_qubit`]): the gates of one qubit with
//!    nothing else on that qubit between them, even when gates on other qubits are interleaved,
//!    become one gate (or none, when they multiply to the identity).
//! 2. **Drop identities**: `I`, and rotations and phases by an angle of exactly zero, with any
//!    controls and condition.
//! 3. **Absorb X-wrapped controls**: `x c; G ctrl(c); ...; x c`, where everything between the two
//!    `x` that touches `c` uses it only as a control, becomes the gates between with the polarity
//!    of `c` flipped (the portable OpenQASM spelling of a 0-control, read back).
//! 4. **Cancel adjacent inverses**: a gate directly followed, on all of its qubits, by its inverse
//!    on the same targets with the same controls and condition: both go.
//!
//! Passes 2-4 are exact (no angle arithmetic, so no rounding). Passes 0 and 1 multiply matrices,
//! so they are exact up to rounding (about 1e-15 per run) and drop a global phase, which the
//! report gives: the original unitary is `e^{i global_phase}` times the optimised one. Measurements are
//! untouched, so the outcome distribution is the same.

use crate::circuit::Circuit;
use crate::gate::Gate;
use crate::instruction::{Control, Instruction, Op};

/// Upper bound on rounds of the pass list (each round that changes something removes at least
/// one instruction, so this only guards against a pass that would undo another).
pub const MAX_ROUNDS: usize = 16;

/// What [`optimize`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct OptimizeReport {
    /// Identity gates dropped.
    pub identities_dropped: usize,
    /// `x c ... x c` pairs absorbed into control polarities.
    pub x_wraps_absorbed: usize,
    /// Gate-inverse pairs cancelled.
    pub inverse_pairs_cancelled: usize,
    /// Runs of gates replaced by one table gate (or dropped as the identity).
    pub runs_replaced: usize,
    /// Instructions those replacements removed.
    pub run_gates_removed: usize,
    /// Runs of single-qubit gates on one qubit merged into one gate (or dropped).
    pub single_qubit_runs_merged: usize,
    /// Instructions those merges removed.
    pub single_qubit_gates_removed: usize,
    /// The global phase (radians) dropped: the original unitary is `e^{i global_phase}` times
    /// the optimised one.
    pub global_phase: f64,
}

impl OptimizeReport {
    /// Instructions removed in all.
    pub fn removed(&self) -> usize {
        self.identities_dropped
            + 2 * self.x_wraps_absorbed
            + 2 * self.inverse_pairs_cancelled
            + self.run_gates_removed
            + self.single_qubit_gates_removed
    }
}

/// The circuit with the passes of the module docs applied, and what they did.
pub fn optimize(circuit: &Circuit) -> (Circuit, OptimizeReport) {
    let mut out = circuit.clone();
    let mut report = OptimizeReport::default();
    for _ in 0..MAX_ROUNDS {
        let before = report.removed();
        let instructions = out.instructions_mut();
        // Runs first: cancelling the `sdg` that ends one inlined body against the `s` that starts
        // the next would leave neither body recognisable.
        let runs = super::blocks::recognise_blocks(instructions);
        report.runs_replaced += runs.runs_replaced;
        report.run_gates_removed += runs.gates_removed;
        report.global_phase += runs.global_phase;
        let merged =
            super::single_qubit::merge_single_qubit_runs(instructions, circuit.num_qubits());
        report.single_qubit_runs_merged += merged.runs_merged;
        report.single_qubit_gates_removed += merged.gates_removed;
        report.global_phase += merged.global_phase;
        report.identities_dropped += drop_identities(instructions);
        report.x_wraps_absorbed += absorb_x_wraps(instructions, circuit.num_qubits());
        report.inverse_pairs_cancelled += cancel_inverses(instructions, circuit.num_qubits());
        if report.removed() == before {
            break;
        }
    }
    (out, report)
}

/// True for a gate that is the identity exactly.
fn is_identity(gate: Gate) -> bool {
    match gate {
        Gate::I => true,
        Gate::Rx(a) | Gate::Ry(a) | Gate::Rz(a) | Gate::Phase(a) => a == 0.0,
        Gate::U(a, b, c) => a == 0.0 && b == 0.0 && c == 0.0,
        _ => false,
    }
}

fn drop_identities(instructions: &mut Vec<Instruction>) -> usize {
    let before = instructions.len();
    instructions.retain(|i| !matches!(i.op, Op::Gate { gate, .. } if is_identity(gate)));
    before - instructions.len()
}

/// The qubit of an unconditioned, uncontrolled X.
fn plain_x(instruction: &Instruction) -> Option<crate::Qubit> {
    match &instruction.op {
        Op::Gate {
            gate: Gate::X,
            targets,
            controls,
        } if controls.is_empty() && instruction.condition.is_none() => Some(targets[0]),
        _ => None,
    }
}

/// For every qubit, the indices of the instructions that touch it, in order.
fn touches(instructions: &[Instruction], num_qubits: usize) -> Vec<Vec<usize>> {
    let mut lists = vec![Vec::new(); num_qubits];
    for (index, instruction) in instructions.iter().enumerate() {
        for q in instruction.op.qubits() {
            if let Some(list) = lists.get_mut(q.index()) {
                list.push(index);
            }
        }
    }
    lists
}

fn absorb_x_wraps(instructions: &mut Vec<Instruction>, num_qubits: usize) -> usize {
    let lists = touches(instructions, num_qubits);
    let mut removed = vec![false; instructions.len()];
    let mut absorbed = 0;
    for list in &lists {
        let mut k = 0;
        while k < list.len() {
            let open = list[k];
            let Some(qubit) = plain_x(&instructions[open]).filter(|_| !removed[open]) else {
                k += 1;
                continue;
            };
            // The run of instructions after `open` that use `qubit` only as a control.
            let mut end = k + 1;
            while end < list.len() && controls_only(&instructions[list[end]], qubit) {
                end += 1;
            }
            let closes =
                end < list.len() && end > k + 1 && plain_x(&instructions[list[end]]) == Some(qubit);
            if !closes {
                k += 1;
                continue;
            }
            for &inner in &list[k + 1..end] {
                flip_control(&mut instructions[inner], qubit);
            }
            removed[open] = true;
            removed[list[end]] = true;
            absorbed += 1;
            k = end + 1;
        }
    }
    let mut index = 0;
    instructions.retain(|_| {
        index += 1;
        !removed[index - 1]
    });
    absorbed
}

/// True when `instruction` is a gate with `qubit` among its controls (and not its targets).
fn controls_only(instruction: &Instruction, qubit: crate::Qubit) -> bool {
    match &instruction.op {
        Op::Gate {
            targets, controls, ..
        } => !targets.contains(&qubit) && controls.iter().any(|c| c.qubit == qubit),
        _ => false,
    }
}

fn flip_control(instruction: &mut Instruction, qubit: crate::Qubit) {
    if let Op::Gate { controls, .. } = &mut instruction.op {
        for c in controls.iter_mut().filter(|c| c.qubit == qubit) {
            *c = if c.on.value() {
                Control::zero(qubit)
            } else {
                Control::one(qubit)
            };
        }
    }
}

/// True when `b` undoes `a`: the inverse gate on the same targets (in any order for two-qubit
/// gates, all of which are symmetric) with the same controls and condition.
fn undoes(a: &Instruction, b: &Instruction) -> bool {
    let (
        Op::Gate {
            gate: ga,
            targets: ta,
            controls: ca,
        },
        Op::Gate {
            gate: gb,
            targets: tb,
            controls: cb,
        },
    ) = (&a.op, &b.op)
    else {
        return false;
    };
    let same_targets =
        ta == tb || (ta.len() == 2 && tb.len() == 2 && ta[0] == tb[1] && ta[1] == tb[0]);
    let mut ca: Vec<Control> = ca.to_vec();
    let mut cb: Vec<Control> = cb.to_vec();
    ca.sort_by_key(|c| (c.qubit, c.on.value()));
    cb.sort_by_key(|c| (c.qubit, c.on.value()));
    a.condition == b.condition && ga.inverse() == *gb && same_targets && ca == cb
}

fn cancel_inverses(instructions: &mut Vec<Instruction>, num_qubits: usize) -> usize {
    // For every qubit, the live instructions that touch it (a stack: the top is the latest).
    let mut stacks: Vec<Vec<usize>> = vec![Vec::new(); num_qubits];
    let mut removed = vec![false; instructions.len()];
    let mut cancelled = 0;
    for (index, instruction) in instructions.iter().enumerate() {
        let qubits = instruction.op.qubits();
        let tops: Vec<Option<usize>> = qubits
            .iter()
            .map(|q| stacks.get(q.index()).and_then(|s| s.last().copied()))
            .collect();
        let partner = tops.first().copied().flatten().filter(|&a| {
            tops.iter().all(|t| *t == Some(a))
                && instructions[a].op.qubits().len() == qubits.len()
                && undoes(&instructions[a], instruction)
        });
        if let Some(a) = partner {
            removed[a] = true;
            removed[index] = true;
            cancelled += 1;
            for q in &qubits {
                if let Some(stack) = stacks.get_mut(q.index()) {
                    stack.pop();
                }
            }
            continue;
        }
        for q in &qubits {
            if let Some(stack) = stacks.get_mut(q.index()) {
                stack.push(index);
            }
        }
    }
    let mut index = 0;
    instructions.retain(|_| {
        index += 1;
        !removed[index - 1]
    });
    cancelled
}
