//! The exceptions of `qchess`, one per kind of mistake, all under `qchess.QchessError`, and the
//! conversion of every library error into one of them. The message is the error with its causes
//! (`cause: cause of the cause`), as the command line prints it.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use qc_rules::niels::NielsError;
use qc_rules::ruleset::CantwellError;

create_exception!(
    qchess,
    QchessError,
    PyException,
    "Base class of every error qchess raises."
);
create_exception!(
    qchess,
    NotationError,
    QchessError,
    "A move, a position (FEN), a square or a game file that does not parse."
);
create_exception!(
    qchess,
    IllegalMove,
    QchessError,
    "A move the rules refuse in the current position (or an undo with no move to take back)."
);
create_exception!(
    qchess,
    OptionError,
    QchessError,
    "An unknown ruleset, backend, format, form, target, rule option or mitigation."
);
create_exception!(
    qchess,
    ExportError,
    QchessError,
    "A game that cannot be compiled as asked (e.g. more qubits than the target has)."
);
create_exception!(
    qchess,
    ProgramError,
    QchessError,
    "An OpenQASM program that cannot be read or simulated."
);
create_exception!(
    qchess,
    CountsError,
    QchessError,
    "Device counts that do not fit the program, or a program without a board map."
);
create_exception!(
    qchess,
    SimulationError,
    QchessError,
    "A simulator failure (e.g. its memory limit), reported instead of a crash."
);

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("QchessError", py.get_type::<QchessError>())?;
    m.add("NotationError", py.get_type::<NotationError>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add("ExportError", py.get_type::<ExportError>())?;
    m.add("ProgramError", py.get_type::<ProgramError>())?;
    m.add("CountsError", py.get_type::<CountsError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    Ok(())
}

/// The error and its causes, `outer: inner: innermost` (the command line's form).
pub fn message(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        // `#[error(transparent)]` and `{source}` in a message already show the cause.
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// The Python exception for an error of a ruleset.
pub trait RulesetError: std::error::Error {
    /// A Python exception of the right class with the error's message, prefixed by `context`
    /// when given (`move 3 \`e2e4\``).
    fn to_py(&self, context: Option<&str>) -> PyErr;
}

fn with_context(context: Option<&str>, error: &dyn std::error::Error) -> String {
    match context {
        Some(c) => format!("{c}: {}", message(error)),
        None => message(error),
    }
}

impl RulesetError for CantwellError {
    fn to_py(&self, context: Option<&str>) -> PyErr {
        let text = with_context(context, self);
        match self {
            CantwellError::Notation(_) | CantwellError::BadTag { .. } => {
                NotationError::new_err(text)
            }
            CantwellError::Move(_) | CantwellError::RecordedClaim { .. } => {
                IllegalMove::new_err(text)
            }
            CantwellError::NoOptions(_) => OptionError::new_err(text),
        }
    }
}

impl RulesetError for NielsError {
    fn to_py(&self, context: Option<&str>) -> PyErr {
        let text = with_context(context, self);
        match self {
            NielsError::Fen { .. }
            | NielsError::Notation { .. }
            | NielsError::RollsInBareMove { .. }
            | NielsError::GameFile { .. }
            | NielsError::BadMove { .. } => NotationError::new_err(text),
            NielsError::UnknownOption { .. } => OptionError::new_err(text),
            NielsError::Illegal { .. }
            | NielsError::BadOutcome { .. }
            | NielsError::OutcomeCount { .. }
            | NielsError::GameOver(_)
            | NielsError::NothingToUndo
            | NielsError::UndoBeyondBudget { .. } => IllegalMove::new_err(text),
            NielsError::Backend { .. } | NielsError::Internal(_) => SimulationError::new_err(text),
        }
    }
}

/// A library error of another kind as exception class `E`, with its causes, after `context`.
pub fn raise<E: pyo3::PyTypeInfo>(context: &str, error: &dyn std::error::Error) -> PyErr {
    PyErr::new::<E, _>(with_context(Some(context), error))
}
