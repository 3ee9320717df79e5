//! The exceptions of `qchess`, one per kind of mistake, all under `qchess.QchessError`, and the
//! conversion of every library error into one of them. The message is the error with its causes
//! (`cause: cause of the cause`), as the command line prints it.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use qc_front::{ErrorKind, SessionError};

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

fn with_context(context: Option<&str>, error: &dyn std::error::Error) -> String {
    match context {
        Some(c) => format!("{c}: {}", message(error)),
        None => message(error),
    }
}

/// The exception class of a ruleset's kind of mistake, with `text`.
fn of_kind(kind: ErrorKind, text: String) -> PyErr {
    match kind {
        ErrorKind::Notation => NotationError::new_err(text),
        ErrorKind::Illegal => IllegalMove::new_err(text),
        ErrorKind::Option => OptionError::new_err(text),
        ErrorKind::Simulation => SimulationError::new_err(text),
    }
}

/// A session's error as the exception of its kind of mistake (`fen: ...`, `variant: ...` for
/// what the constructor reads; a precision off the dense simulator is an option error).
pub fn session_error(error: SessionError) -> PyErr {
    match &error {
        SessionError::Precision(e) => OptionError::new_err(message(e)),
        SessionError::Read { input, source } => of_kind(
            source.kind(),
            with_context(Some(&input.to_string()), source),
        ),
        SessionError::SetUp { source, .. } => of_kind(
            source.kind(),
            with_context(Some("cannot set up the start position"), source),
        ),
        SessionError::Replay { source, .. } | SessionError::Finish { source, .. } => {
            of_kind(source.kind(), message(&error))
        }
        SessionError::Rules(e) => of_kind(e.kind(), message(e)),
    }
}

/// A library error of another kind as exception class `E`, with its causes, after `context`.
pub fn raise<E: pyo3::PyTypeInfo>(context: &str, error: &dyn std::error::Error) -> PyErr {
    PyErr::new::<E, _>(with_context(Some(context), error))
}
