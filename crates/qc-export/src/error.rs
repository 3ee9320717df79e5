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
    /// OpenQASM 2 was asked for a target that renames gates for its own OpenQASM 3 dialect.
    #[error("target `{target}` has no OpenQASM 2 form: it renames gates ({}) for its own OpenQASM 3 dialect; use --format qasm3", .renamed.join(", "))]
    NoQasm2 {
        /// Target name.
        target: String,
        /// The gates it renames.
        renamed: Vec<String>,
    },
    /// `--target NAME` names neither a bundled target nor a file in the backends directory.
    #[error("unknown target `{name}`: {}the bundled targets are {}", .dir.as_ref().map(|d| format!("no {name}.toml in {}, and ", d.display())).unwrap_or_default(), .bundled.join(", "))]
    UnknownTarget {
        /// The name asked for.
        name: String,
        /// The backends directory searched (`--backends-dir`), if any.
        dir: Option<std::path::PathBuf>,
        /// The names of the bundled targets.
        bundled: Vec<&'static str>,
    },
}

impl ExportError {
    /// A target error from parsing TOML text, renamed to the target `name` it was read for.
    pub(crate) fn for_target(self, name: &str) -> ExportError {
        match self {
            ExportError::Target { message, .. } => ExportError::Target {
                target: name.into(),
                message,
            },
            other => other,
        }
    }
}

/// Why an OpenQASM text could not be imported: where (1-based line and column; 0 when unknown)
/// and what was wrong, naming the construct.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{}{message}", position(*.line, *.column))]
pub struct ImportError {
    /// 1-based line of the offending construct (0 when unknown).
    pub line: usize,
    /// 1-based column (in characters) of the offending construct (0 when unknown).
    pub column: usize,
    /// What was wrong, naming the construct.
    pub message: String,
    /// Byte offset, until [`ImportError::locate`] turns it into line and column.
    offset: Option<usize>,
}

impl ImportError {
    pub(crate) fn at_offset(offset: Option<usize>, message: impl Into<String>) -> ImportError {
        ImportError {
            line: 0,
            column: 0,
            message: message.into(),
            offset,
        }
    }

    /// The byte offset, before [`ImportError::locate`].
    pub(crate) fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// Fills in line and column from the byte offset in `src` (once, when the error leaves the
    /// importer).
    pub(crate) fn locate(mut self, src: &str) -> ImportError {
        if let Some(offset) = self.offset.take() {
            let mut offset = offset.min(src.len());
            while !src.is_char_boundary(offset) {
                offset -= 1;
            }
            let before = &src[..offset];
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            self.line = before.matches('\n').count() + 1;
            self.column = before[line_start..].chars().count() + 1;
        }
        self
    }
}

/// `line L, column C: ` for an [`ImportError`] whose position is known, nothing when it is not
/// (line 0), so that no message names a position that does not exist.
fn position(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}, column {column}: ")
    }
}
