//! Typed errors of export and import.

use thiserror::Error;

/// Why a circuit could not be exported.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum ExportError {
    /// The circuit does not pass `qc_ir::verify`.
    #[error("the circuit is not valid: {0}")]
    Invalid(String),
    /// An instruction cannot be written in the chosen form/dialect.
    #[error("instruction {index} cannot be exported: {reason}")]
    Unsupported {
        /// Index of the instruction in the circuit.
        index: usize,
        /// What is not expressible.
        reason: String,
    },
    /// The program needs more qubits than the target has.
    #[error("target `{target}` has {available} qubits but this program needs {needed}")]
    TooManyQubits {
        /// Target name.
        target: String,
        /// Qubits needed.
        needed: usize,
        /// Qubits the target has.
        available: usize,
    },
    /// A target file is malformed or names a gate the lowering does not know.
    #[error("target `{target}`: {message}")]
    Target {
        /// Target name or file.
        target: String,
        /// What is wrong.
        message: String,
    },
}

/// Why an OpenQASM text could not be imported.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ImportError {
    /// 1-based line of the offending construct (0 when unknown).
    pub line: usize,
    /// What was wrong, naming the construct.
    pub message: String,
}

impl ImportError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> ImportError {
        ImportError {
            line,
            message: message.into(),
        }
    }
}
