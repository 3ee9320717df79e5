//! # qc-ir: the qchess circuit IR
//!
//! The bottom layer of qchess: qubit, bit and grid-site ids, a gate set with exact matrices
//! ([`Gate`]), instructions with any number of 1-/0-controls, measurement into write-once
//! classical bits, reset, classical conditions and provenance ([`Instruction`]), circuits whose
//! qubits know their role (a grid site, an ancilla or plain: [`Circuit`]), a builder with
//! ancilla reuse ([`CircuitBuilder`]), a verifier ([`verify()`]), a text format that
//! round-trips ([`text`]), and the [`Backend`] trait simulators implement, with an executor
//! ([`exec`]). Nothing here knows chess: the rulesets above name their squares' qubits by
//! site.
//!
//! This crate depends on no other qchess crate.

pub mod angle;
pub mod backend;
pub mod builder;
pub mod choice;
pub mod circuit;
pub mod coupling;
pub mod decoupling;
pub mod entangler;
pub mod error;
pub mod exec;
pub mod gate;
pub mod gate_data;
pub mod guard;
pub mod ids;
pub mod instruction;
pub mod interrupt;
pub mod matrix;
pub mod passes;
pub mod text;
pub mod unitary;
pub mod user_gate;
pub mod verify;

pub use backend::{
    Backend, BackendError, GateCall, GateRunError, MeasureChoice, AMPLITUDE_EPSILON,
    IMPOSSIBLE_PROBABILITY,
};
pub use builder::{BuilderMark, CircuitBuilder};
pub use choice::{Choice, UnknownChoice};
pub use circuit::{AncillaKind, Circuit, QubitRole};
pub use coupling::{CouplingError, CouplingMap, MAX_DEVICE_QUBITS};
pub use decoupling::DdSequence;
pub use entangler::Entangler;
pub use error::IrError;
pub use exec::{ClassicalRecord, Distribution, ExecError, OutcomePolicy};
pub use gate::{Gate, GateKind};
pub use gate_data::GateInfo;
pub use guard::{Guard, GuardError};
pub use ids::{Clbit, Qubit, Site};
pub use instruction::{
    check_delay, BadDelay, Condition, Control, Instruction, Op, Origin, Polarity,
};
pub use matrix::Matrix;
pub use num_complex::Complex64;
pub use user_gate::{UserGate, UserGateError};
pub use verify::{verify, VerifyError, VerifyErrorKind, VerifyErrors};
