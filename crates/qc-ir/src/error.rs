//! The error type of qc-ir.

use crate::ids::Qubit;
use thiserror::Error;

/// Errors from IR operations other than verification (see [`crate::VerifyErrors`]).
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum IrError {
    /// The circuit text could not be parsed.
    #[error("line {line}, column {column}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong and what was expected.
        message: String,
    },
    /// An operation that needs a unitary circuit met a non-unitary instruction.
    #[error("instruction {index} is {what}; only measurement-free, unconditioned circuits have an inverse or a unitary")]
    NotUnitary {
        /// Index of the offending instruction.
        index: usize,
        /// What it is.
        what: &'static str,
    },
    /// `Circuit::unitary()` was asked for too many qubits.
    #[error("the circuit has {qubits} qubits; unitary() is limited to {limit}")]
    TooManyQubits {
        /// Qubits in the circuit.
        qubits: usize,
        /// The limit.
        limit: usize,
    },
    /// A qubit index does not exist in the circuit.
    #[error("qubit {qubit} does not exist (the circuit has {len} qubits)")]
    QubitOutOfRange {
        /// The qubit.
        qubit: Qubit,
        /// Number of qubits.
        len: usize,
    },
}
