//! Instructions: gates with controls, measurement, reset, ancilla allocation, classical
//! conditions and provenance.

use crate::gate::Gate;
use crate::guard::Guard;
use crate::ids::{Clbit, Qubit};
use crate::matrix::Matrix;
use crate::user_gate::UserGate;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::sync::Arc;

/// Which value of a control qubit lets the gate act.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Polarity {
    /// Acts when the control is |1> (a filled dot).
    One,
    /// Acts when the control is |0> (an open dot).
    Zero,
}

impl Polarity {
    /// The control value that enables the gate.
    pub const fn value(self) -> bool {
        matches!(self, Polarity::One)
    }
}

/// A quantum control on a gate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Control {
    /// The control qubit.
    pub qubit: Qubit,
    /// The value it must have.
    pub on: Polarity,
}

impl Control {
    /// A 1-control (filled dot).
    pub const fn one(qubit: Qubit) -> Control {
        Control {
            qubit,
            on: Polarity::One,
        }
    }

    /// A 0-control (open dot).
    pub const fn zero(qubit: Qubit) -> Control {
        Control {
            qubit,
            on: Polarity::Zero,
        }
    }

    /// A control that lets the gate act when `qubit` has `value`.
    pub const fn when(qubit: Qubit, value: bool) -> Control {
        if value {
            Control::one(qubit)
        } else {
            Control::zero(qubit)
        }
    }
}

/// The targets of a gate (one or two qubits).
pub type Targets = SmallVec<[Qubit; 2]>;
/// The controls of a gate.
pub type Controls = SmallVec<[Control; 2]>;

/// What an instruction does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// A gate on `targets`, acting only on basis states where every control has its value.
    Gate {
        /// The gate.
        gate: Gate,
        /// Its targets; `targets.len() == gate.num_targets()`.
        targets: Targets,
        /// Quantum controls (any number, any polarity).
        controls: Controls,
    },
    /// A user gate applied as its matrix on `targets` (one per qubit of the gate, the first
    /// target its most significant bit), acting only where every control has its value. The
    /// gate is shared: copies of a circuit and repeated calls hold the same definition.
    UserGate {
        /// The gate: name, body and matrix.
        gate: Arc<UserGate>,
        /// Its targets; `targets.len() == gate.num_qubits()`.
        targets: Targets,
        /// Quantum controls (any number, any polarity).
        controls: Controls,
    },
    /// Computational-basis measurement of `qubit`, written to the fresh `clbit`.
    Measure {
        /// The measured qubit.
        qubit: Qubit,
        /// The classical bit that receives the outcome (written exactly once in a circuit).
        clbit: Clbit,
    },
    /// Returns `qubit` to |0> (a non-unitary channel: measure and flip if 1, outcome discarded).
    Reset {
        /// The qubit to reset.
        qubit: Qubit,
    },
    /// Starts the life of an ancilla qubit, in |0>.
    Alloc {
        /// The ancilla.
        qubit: Qubit,
    },
    /// Ends the life of an ancilla qubit, which must be back in |0>.
    Free {
        /// The ancilla.
        qubit: Qubit,
    },
    /// `qubit` waits for `duration` nanoseconds: the identity for every simulator, but a timed
    /// instruction for a schedule (it occupies the qubit for its duration, so that pulses can be
    /// spaced across an idle window) and for the noisy simulator (the qubit relaxes over it).
    /// `duration` is finite and not negative (checked where circuits are built and read).
    Delay {
        /// The waiting qubit.
        qubit: Qubit,
        /// How long it waits, in nanoseconds.
        duration: f64,
    },
}

/// A delay's duration that is negative, NaN or infinite.
#[derive(Debug, thiserror::Error, Clone, Copy, PartialEq)]
#[error(
    "a delay of {duration} ns: a delay's duration is a finite number of nanoseconds, not negative"
)]
pub struct BadDelay {
    /// The duration given.
    pub duration: f64,
}

/// `duration` if it is a valid delay duration (finite, not negative; `-0` becomes `0`).
///
/// # Errors
/// [`BadDelay`] otherwise.
pub fn check_delay(duration: f64) -> Result<f64, BadDelay> {
    if duration.is_finite() && duration >= 0.0 {
        // `-0.0 >= 0.0`: normalise so that the text forms never print `-0`.
        Ok(duration + 0.0)
    } else {
        Err(BadDelay { duration })
    }
}

impl Op {
    /// A delay of `duration` nanoseconds on `qubit`.
    ///
    /// # Errors
    /// [`BadDelay`] for a negative or non-finite duration.
    pub fn delay(qubit: Qubit, duration: f64) -> Result<Op, BadDelay> {
        Ok(Op::Delay {
            qubit,
            duration: check_delay(duration)?,
        })
    }

    /// The unitary of a gate or user gate without its controls (first target = most significant
    /// bit); `None` for other operations.
    pub fn matrix(&self) -> Option<Cow<'_, Matrix>> {
        match self {
            Op::Gate { gate, .. } => Some(Cow::Owned(gate.matrix())),
            Op::UserGate { gate, .. } => Some(Cow::Borrowed(gate.matrix())),
            _ => None,
        }
    }

    /// The controls of a gate or user gate (empty for other operations).
    pub fn controls(&self) -> &[Control] {
        match self {
            Op::Gate { controls, .. } | Op::UserGate { controls, .. } => controls,
            _ => &[],
        }
    }

    /// The same operation with every qubit `q` renamed `rename(q)`.
    pub fn map_qubits(&self, rename: impl Fn(Qubit) -> Qubit) -> Op {
        let controls = |cs: &Controls| -> Controls {
            cs.iter()
                .map(|c| Control {
                    qubit: rename(c.qubit),
                    on: c.on,
                })
                .collect()
        };
        match self {
            Op::Gate {
                gate,
                targets,
                controls: cs,
            } => Op::Gate {
                gate: *gate,
                targets: targets.iter().map(|&q| rename(q)).collect(),
                controls: controls(cs),
            },
            Op::UserGate {
                gate,
                targets,
                controls: cs,
            } => Op::UserGate {
                gate: Arc::clone(gate),
                targets: targets.iter().map(|&q| rename(q)).collect(),
                controls: controls(cs),
            },
            Op::Measure { qubit, clbit } => Op::Measure {
                qubit: rename(*qubit),
                clbit: *clbit,
            },
            Op::Reset { qubit } => Op::Reset {
                qubit: rename(*qubit),
            },
            Op::Alloc { qubit } => Op::Alloc {
                qubit: rename(*qubit),
            },
            Op::Free { qubit } => Op::Free {
                qubit: rename(*qubit),
            },
            Op::Delay { qubit, duration } => Op::Delay {
                qubit: rename(*qubit),
                duration: *duration,
            },
        }
    }

    /// The same gate or user gate with `controls` instead of its own; other operations unchanged.
    pub fn with_controls(&self, controls: Controls) -> Op {
        match self {
            Op::Gate { gate, targets, .. } => Op::Gate {
                gate: *gate,
                targets: targets.clone(),
                controls,
            },
            Op::UserGate { gate, targets, .. } => Op::UserGate {
                gate: Arc::clone(gate),
                targets: targets.clone(),
                controls,
            },
            other => other.clone(),
        }
    }

    /// Every qubit the operation touches: targets first, then controls.
    pub fn qubits(&self) -> SmallVec<[Qubit; 4]> {
        match self {
            Op::Gate {
                targets, controls, ..
            }
            | Op::UserGate {
                targets, controls, ..
            } => targets
                .iter()
                .copied()
                .chain(controls.iter().map(|c| c.qubit))
                .collect(),
            Op::Measure { qubit, .. }
            | Op::Reset { qubit }
            | Op::Alloc { qubit }
            | Op::Free { qubit }
            | Op::Delay { qubit, .. } => {
                smallvec::smallvec![*qubit]
            }
        }
    }
}

/// One bit of a classical condition: `clbit` holds `value`. An instruction's [`Guard`] is one
/// or more of them, all of which must hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Condition {
    /// The bit read (it must have been written by an earlier measurement).
    pub clbit: Clbit,
    /// The value that lets the instruction run.
    pub value: bool,
}

/// Where an instruction came from: the move that emitted it and the rule that lowered it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Origin {
    /// The move number in the game (0 for set-up instructions).
    pub move_index: u32,
    /// The rule or circuit name, e.g. `capture_slide`. No spaces, `(` or `)`.
    pub rule: Cow<'static, str>,
}

impl Origin {
    /// An origin with a static rule name.
    pub const fn new(move_index: u32, rule: &'static str) -> Origin {
        Origin {
            move_index,
            rule: Cow::Borrowed(rule),
        }
    }
}

/// One instruction of a circuit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instruction {
    /// What it does.
    #[serde(flatten)]
    pub op: Op,
    /// Classical condition, if any: one bit or several, all of which must hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Guard>,
    /// Provenance, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

impl Instruction {
    /// An unconditioned instruction without provenance.
    pub fn new(op: Op) -> Instruction {
        Instruction {
            op,
            condition: None,
            origin: None,
        }
    }

    /// A gate instruction.
    pub fn gate(gate: Gate, targets: &[Qubit], controls: &[Control]) -> Instruction {
        Instruction::new(Op::Gate {
            gate,
            targets: targets.into(),
            controls: controls.into(),
        })
    }

    /// Sets the condition (one [`Condition`] or a [`Guard`] of several).
    pub fn with_condition(mut self, condition: impl Into<Guard>) -> Instruction {
        self.condition = Some(condition.into());
        self
    }

    /// Sets the origin.
    pub fn with_origin(mut self, origin: Origin) -> Instruction {
        self.origin = Some(origin);
        self
    }
}
