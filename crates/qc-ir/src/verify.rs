//! The verifier: checks that a circuit is well formed and collects every problem.
//!
//! A verifier error means a bug in the code that built the circuit (lowering, import), never a
//! user's mistake in a move: moves are checked by the rules before they are lowered.
//!
//! Checks: qubits and clbits in range; gate arity; finite angles; targets and controls pairwise
//! distinct; delays finite and not negative; user gates well formed (at most 3 qubits, a unitary matrix equal to its body's
//! unitary, see [`crate::user_gate`]) with one target per qubit; an ancilla is used only between its `alloc` and `free` and is not allocated twice;
//! `alloc`/`free` only on ancillas; each clbit written once; a clbit read by a condition only after
//! it has been written.

use crate::circuit::{Circuit, QubitRole};
use crate::ids::{Clbit, Qubit};
use crate::instruction::{Op, Origin};
use std::fmt;
use thiserror::Error;

/// What is wrong with one instruction.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum VerifyErrorKind {
    /// A qubit index beyond the qubit table.
    #[error("qubit {0} does not exist")]
    QubitOutOfRange(Qubit),
    /// A clbit index beyond the number of clbits.
    #[error("clbit {0} does not exist")]
    ClbitOutOfRange(Clbit),
    /// Wrong number of targets for the gate.
    #[error("gate `{gate}` takes {expected} target(s), got {got}")]
    WrongArity {
        /// Gate name.
        gate: &'static str,
        /// Targets it takes.
        expected: usize,
        /// Targets given.
        got: usize,
    },
    /// Wrong number of targets for a user gate.
    #[error("user gate `{gate}` takes {expected} target(s), got {got}")]
    UserGateArity {
        /// The user gate's name.
        gate: String,
        /// Targets it takes.
        expected: usize,
        /// Targets given.
        got: usize,
    },
    /// A user gate that is malformed (name, size, body, or a matrix that is not unitary or not
    /// its body's unitary).
    #[error("{0}")]
    UserGate(crate::user_gate::UserGateError),
    /// A NaN or infinite angle.
    #[error("gate `{0}` has a non-finite angle")]
    NonFiniteAngle(&'static str),
    /// The same qubit appears twice among targets and controls.
    #[error("qubit {0} appears more than once among the targets and controls")]
    DuplicateQubit(Qubit),
    /// An ancilla used before its first `alloc`.
    #[error("ancilla {0} is used before it is allocated")]
    UseBeforeAlloc(Qubit),
    /// An ancilla used after `free` (and not allocated again).
    #[error("ancilla {0} is used after it was freed")]
    UseAfterFree(Qubit),
    /// `alloc` of an ancilla that is already live.
    #[error("ancilla {0} is allocated while already live")]
    DoubleAlloc(Qubit),
    /// `free` of an ancilla that is not live.
    #[error("ancilla {0} is freed while not live")]
    FreeNotLive(Qubit),
    /// `alloc` or `free` of a site or plain qubit.
    #[error("qubit {0} is not an ancilla; only ancillas are allocated and freed")]
    NotAnAncilla(Qubit),
    /// A clbit written by a second measurement.
    #[error("clbit {0} is written twice (each clbit is written by one measurement)")]
    ClbitWrittenTwice(Clbit),
    /// A delay whose duration is negative or not finite (the duration as written, since the
    /// error kinds compare exactly).
    #[error(
        "a delay on qubit {qubit} of {duration} ns; a delay is a finite, non-negative duration"
    )]
    BadDelay {
        /// The delayed qubit.
        qubit: Qubit,
        /// The duration, formatted.
        duration: String,
    },
    /// A condition reads a clbit before any measurement wrote it.
    #[error("clbit {0} is read before it is written")]
    ClbitReadBeforeWrite(Clbit),
}

/// One verifier finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError {
    /// Index of the instruction.
    pub index: usize,
    /// Its origin, if it has one.
    pub origin: Option<Origin>,
    /// What is wrong.
    pub kind: VerifyErrorKind,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "instruction {}", self.index)?;
        if let Some(o) = &self.origin {
            write!(f, " (move {} {})", o.move_index, o.rule)?;
        }
        write!(f, ": {}", self.kind)
    }
}

/// Every problem the verifier found, in instruction order.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct VerifyErrors(pub Vec<VerifyError>);

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the circuit is malformed ({} problem(s)):", self.0.len())?;
        for e in &self.0 {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Life {
    AlwaysLive,
    NeverAllocated,
    Live,
    Freed,
}

/// Checks `circuit`; returns every problem found.
pub fn verify(circuit: &Circuit) -> Result<(), VerifyErrors> {
    let mut errors = Vec::new();
    let mut life: Vec<Life> = circuit
        .qubit_roles()
        .iter()
        .map(|r| match r {
            QubitRole::Ancilla(_) => Life::NeverAllocated,
            QubitRole::Site(_) | QubitRole::Plain => Life::AlwaysLive,
        })
        .collect();
    let mut written = vec![false; circuit.num_clbits()];
    // A user gate shared by many instructions is checked once.
    let mut checked_gates = std::collections::HashSet::new();
    for (index, instr) in circuit.instructions().iter().enumerate() {
        let mut report = |kind| {
            errors.push(VerifyError {
                index,
                origin: instr.origin.clone(),
                kind,
            })
        };
        for clbit in instr.condition.iter().flat_map(|g| g.clbits()) {
            match written.get(clbit.index()) {
                None => report(VerifyErrorKind::ClbitOutOfRange(clbit)),
                Some(false) => report(VerifyErrorKind::ClbitReadBeforeWrite(clbit)),
                Some(true) => {}
            }
        }
        let qubits = instr.op.qubits();
        let mut in_range = true;
        for (k, q) in qubits.iter().enumerate() {
            if q.index() >= life.len() {
                report(VerifyErrorKind::QubitOutOfRange(*q));
                in_range = false;
            } else if qubits[..k].contains(q) {
                report(VerifyErrorKind::DuplicateQubit(*q));
            }
        }
        if let Op::Gate { gate, targets, .. } = &instr.op {
            if targets.len() != gate.num_targets() {
                report(VerifyErrorKind::WrongArity {
                    gate: gate.name(),
                    expected: gate.num_targets(),
                    got: targets.len(),
                });
            }
            if !gate.params_finite() {
                report(VerifyErrorKind::NonFiniteAngle(gate.name()));
            }
        }
        if let Op::UserGate { gate, targets, .. } = &instr.op {
            if checked_gates.insert(std::sync::Arc::as_ptr(gate)) {
                if let Err(e) = gate.check() {
                    report(VerifyErrorKind::UserGate(e));
                }
            }
            if targets.len() != gate.num_qubits() {
                report(VerifyErrorKind::UserGateArity {
                    gate: gate.name().to_string(),
                    expected: gate.num_qubits(),
                    got: targets.len(),
                });
            }
        }
        if let Op::Delay { qubit, duration } = &instr.op {
            if crate::instruction::check_delay(*duration).is_err() {
                report(VerifyErrorKind::BadDelay {
                    qubit: *qubit,
                    duration: duration.to_string(),
                });
            }
        }
        if !in_range {
            continue;
        }
        match &instr.op {
            Op::Alloc { qubit } => match life[qubit.index()] {
                Life::AlwaysLive => report(VerifyErrorKind::NotAnAncilla(*qubit)),
                Life::Live => report(VerifyErrorKind::DoubleAlloc(*qubit)),
                Life::NeverAllocated | Life::Freed => life[qubit.index()] = Life::Live,
            },
            Op::Free { qubit } => match life[qubit.index()] {
                Life::AlwaysLive => report(VerifyErrorKind::NotAnAncilla(*qubit)),
                Life::Live => life[qubit.index()] = Life::Freed,
                Life::NeverAllocated | Life::Freed => report(VerifyErrorKind::FreeNotLive(*qubit)),
            },
            _ => {
                for q in &qubits {
                    match life[q.index()] {
                        Life::NeverAllocated => report(VerifyErrorKind::UseBeforeAlloc(*q)),
                        Life::Freed => report(VerifyErrorKind::UseAfterFree(*q)),
                        Life::AlwaysLive | Life::Live => {}
                    }
                }
            }
        }
        if let Op::Measure { clbit, .. } = &instr.op {
            match written.get_mut(clbit.index()) {
                None => report(VerifyErrorKind::ClbitOutOfRange(*clbit)),
                Some(w) if *w => report(VerifyErrorKind::ClbitWrittenTwice(*clbit)),
                Some(w) => *w = true,
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::AncillaKind;
    use crate::gate::Gate;
    use crate::instruction::{Condition, Control, Instruction};
    use crate::Site;

    fn kinds(c: &Circuit) -> Vec<(usize, VerifyErrorKind)> {
        verify(c)
            .unwrap_err()
            .0
            .into_iter()
            .map(|e| (e.index, e.kind))
            .collect()
    }

    fn base() -> (Circuit, Qubit, Qubit, Qubit) {
        let mut c = Circuit::new();
        let a = c.add_qubit(QubitRole::Site(Site::parse("a1").unwrap()));
        let b = c.add_qubit(QubitRole::Site(Site::parse("b1").unwrap()));
        let anc = c.add_qubit(QubitRole::Ancilla(AncillaKind::Path));
        (c, a, b, anc)
    }

    #[test]
    fn a_good_circuit_passes() {
        let (mut c, a, b, anc) = base();
        c.push(Instruction::new(Op::Alloc { qubit: anc }));
        c.push(Instruction::gate(Gate::X, &[anc], &[Control::one(a)]));
        let m = c.add_clbit();
        c.push(Instruction::new(Op::Measure {
            qubit: anc,
            clbit: m,
        }));
        c.push(Gate::ISwap.on(&[a, b]).with_condition(Condition {
            clbit: m,
            value: true,
        }));
        c.push(Gate::X.on(&[anc]).with_condition(Condition {
            clbit: m,
            value: true,
        }));
        c.push(Instruction::new(Op::Free { qubit: anc }));
        assert_eq!(verify(&c), Ok(()));
    }

    #[test]
    fn out_of_range_qubit_and_clbit() {
        let (mut c, _, _, _) = base();
        c.push(Gate::X.on(&[Qubit(9)]));
        c.push(Instruction::new(Op::Measure {
            qubit: Qubit(0),
            clbit: Clbit(4),
        }));
        assert_eq!(
            kinds(&c),
            vec![
                (0, VerifyErrorKind::QubitOutOfRange(Qubit(9))),
                (1, VerifyErrorKind::ClbitOutOfRange(Clbit(4)))
            ]
        );
    }

    #[test]
    fn wrong_arity_and_bad_angle() {
        let (mut c, a, _, _) = base();
        c.push(Gate::ISwap.on(&[a]));
        c.push(Gate::Rx(f64::NAN).on(&[a]));
        assert_eq!(
            kinds(&c),
            vec![
                (
                    0,
                    VerifyErrorKind::WrongArity {
                        gate: "iswap",
                        expected: 2,
                        got: 1
                    }
                ),
                (1, VerifyErrorKind::NonFiniteAngle("rx")),
            ]
        );
    }

    #[test]
    fn targets_and_controls_must_be_distinct() {
        let (mut c, a, b, _) = base();
        c.push(Gate::ISwap.on(&[a, a]));
        c.push(Instruction::gate(Gate::X, &[b], &[Control::one(b)]));
        assert_eq!(
            kinds(&c),
            vec![
                (0, VerifyErrorKind::DuplicateQubit(a)),
                (1, VerifyErrorKind::DuplicateQubit(b))
            ]
        );
    }

    #[test]
    fn ancilla_lifetime_errors() {
        let (mut c, a, _, anc) = base();
        c.push(Gate::X.on(&[anc])); // before alloc
        c.push(Instruction::new(Op::Alloc { qubit: anc }));
        c.push(Instruction::new(Op::Alloc { qubit: anc })); // double
        c.push(Instruction::new(Op::Free { qubit: anc }));
        c.push(Instruction::gate(Gate::X, &[a], &[Control::one(anc)])); // after free
        c.push(Instruction::new(Op::Free { qubit: anc })); // not live
        c.push(Instruction::new(Op::Alloc { qubit: a })); // not an ancilla
        assert_eq!(
            kinds(&c),
            vec![
                (0, VerifyErrorKind::UseBeforeAlloc(anc)),
                (2, VerifyErrorKind::DoubleAlloc(anc)),
                (4, VerifyErrorKind::UseAfterFree(anc)),
                (5, VerifyErrorKind::FreeNotLive(anc)),
                (6, VerifyErrorKind::NotAnAncilla(a)),
            ]
        );
    }

    #[test]
    fn clbit_rules() {
        let (mut c, a, b, _) = base();
        let m = c.add_clbit();
        c.push(Gate::X.on(&[b]).with_condition(Condition {
            clbit: m,
            value: true,
        })); // read before write
        c.push(Instruction::new(Op::Measure { qubit: a, clbit: m }));
        c.push(Instruction::new(Op::Measure { qubit: b, clbit: m })); // written twice
        assert_eq!(
            kinds(&c),
            vec![
                (0, VerifyErrorKind::ClbitReadBeforeWrite(m)),
                (2, VerifyErrorKind::ClbitWrittenTwice(m))
            ]
        );
    }

    #[test]
    fn errors_name_the_origin() {
        let (mut c, a, _, _) = base();
        c.push(
            Gate::ISwap
                .on(&[a, a])
                .with_origin(Origin::new(7, "split_jump")),
        );
        let text = verify(&c).unwrap_err().to_string();
        assert!(text.contains("instruction 0 (move 7 split_jump)"), "{text}");
    }
}
