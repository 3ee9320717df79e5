//! Measuring the board at the end (an IR-to-IR pass run after the form and width passes): every
//! square qubit, every captured-piece ancilla, and (for the error check) every ancilla the circuit
//! returns to |0>, each into a fresh bit after the circuit's own bits.
//!
//! Bits are numbered squares first (in square order a1..h8), then captured ancillas (in qubit
//! order), then the zero checks (in circuit order). A square or ancilla the compact width folded
//! away has a value known at compile time: it gets no bit and is reported as fixed.

use crate::header::Holds;
use crate::Form;
use qc_ir::{AncillaKind, Circuit, Clbit, Instruction, Op, Qubit, QubitRole};

/// Which qubits a program measures at the end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum MeasureScope {
    /// Squares, captured-piece ancillas, and a read-out of every ancilla the circuit returns to
    /// |0> (a 1 there marks a faulty shot).
    Board,
    /// The squares only.
    Squares,
    /// Nothing beyond the circuit's own measurements (the library's default, which keeps the
    /// program's distribution equal to the circuit's).
    #[default]
    None,
}

/// One bit the pass added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddedBit {
    /// A square or captured ancilla measured at the end.
    Board {
        /// The bit.
        clbit: usize,
        /// The IR qubit.
        qubit: Qubit,
        /// What it reads.
        holds: Holds,
    },
    /// An ancilla read where the circuit frees it (must read 0).
    Zero {
        /// The bit.
        clbit: usize,
        /// The IR qubit.
        qubit: Qubit,
    },
}

/// The result of [`measure_board`].
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredCircuit {
    /// The circuit with the added measurements.
    pub circuit: Circuit,
    /// The added bits.
    pub added: Vec<AddedBit>,
    /// Squares and captured ancillas with a compile-time value (no bit).
    pub fixed: Vec<(Holds, bool)>,
}

/// Adds the measurements of `scope` to `lowered` (the output of [`crate::export::transform`]).
/// `original` is the circuit before the passes (its qubits come first in `lowered`), `known` the
/// compile-time value of each qubit at the end (`None` = quantum). In the dynamic form a zero
/// check measures the ancilla just before each `free`; in the deferred form every added
/// measurement comes at the end (one read per ancilla freed by its last use; an ancilla used
/// again after its last `free` is not read).
pub fn measure_board(
    lowered: &Circuit,
    original: &Circuit,
    known: &[Option<bool>],
    scope: MeasureScope,
    form: Form,
) -> MeasuredCircuit {
    let mut added = Vec::new();
    let mut fixed = Vec::new();
    if scope == MeasureScope::None {
        return MeasuredCircuit {
            circuit: lowered.clone(),
            added,
            fixed,
        };
    }
    let mut next_clbit = lowered.num_clbits();
    let mut board: Vec<(Holds, Qubit)> = Vec::new();
    let roles = original.qubit_roles();
    for sq in qc_ir::Site::ALL {
        if let Some(q) = original.site_qubit(sq) {
            board.push((Holds::Site(sq), q));
        }
    }
    if scope == MeasureScope::Board {
        let captured = roles
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == QubitRole::Ancilla(AncillaKind::Kept));
        for (k, (index, _)) in captured.enumerate() {
            board.push((Holds::Kept(k), Qubit(index as u32)));
        }
    }
    let mut finals = Vec::new();
    for (holds, qubit) in board {
        match known.get(qubit.index()).copied().flatten() {
            Some(value) => fixed.push((holds, value)),
            None => {
                finals.push(measure(qubit, next_clbit));
                added.push(AddedBit::Board {
                    clbit: next_clbit,
                    qubit,
                    holds,
                });
                next_clbit += 1;
            }
        }
    }
    let mut body = Vec::with_capacity(lowered.instructions().len() + finals.len());
    let mut zero_checked = std::collections::BTreeSet::new();
    for instr in lowered.instructions() {
        let checked = match instr.op {
            Op::Free { qubit } if scope == MeasureScope::Board && instr.condition.is_none() => {
                let original_ancilla = qubit.index() < roles.len()
                    && matches!(roles[qubit.index()], QubitRole::Ancilla(_));
                let quantum = known.get(qubit.index()).copied().flatten().is_none();
                (original_ancilla && quantum).then_some(qubit)
            }
            _ => None,
        };
        if let (Some(qubit), Form::Dynamic) = (checked, form) {
            // Read where it is freed: every use of a reused ancilla is checked.
            added.push(AddedBit::Zero {
                clbit: next_clbit,
                qubit,
            });
            body.push(measure(qubit, next_clbit));
            next_clbit += 1;
        } else if let Some(qubit) = checked {
            zero_checked.insert(qubit);
        } else if !matches!(instr.op, Op::Alloc { .. } | Op::Free { .. }) {
            // A freed ancilla used again (a later move allocates it anew) and not freed after
            // that use holds live state at the end (a Niel's Chess pair never rolled): reading
            // it there says nothing about its earlier return to |0>.
            for qubit in instr.op.qubits() {
                zero_checked.remove(&qubit);
            }
        }
        body.push(instr.clone());
    }
    // Deferred: one read at the end per ancilla still free there (of its last use; nothing may
    // follow a measurement there). The `free` stays: the program gives every IR qubit its own
    // slot.
    for qubit in zero_checked {
        added.push(AddedBit::Zero {
            clbit: next_clbit,
            qubit,
        });
        finals.push(measure(qubit, next_clbit));
        next_clbit += 1;
    }
    body.extend(finals);
    MeasuredCircuit {
        circuit: Circuit::from_parts(lowered.qubit_roles().to_vec(), next_clbit as u32, body),
        added,
        fixed,
    }
}

fn measure(qubit: Qubit, clbit: usize) -> Instruction {
    Instruction::new(Op::Measure {
        qubit,
        clbit: Clbit(clbit as u32),
    })
}
