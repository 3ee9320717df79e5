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
create_exception!(
    qchess,
    DrawError,
    QchessError,
    "A circuit too large to draw (draw one move, or a smaller circuit)."
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
    m.add("DrawError", py.get_type::<DrawError>())?;
    Ok(())
}

/// The error and its causes, `outer: inner: innermost` (the command line's form).
pub fn message(error: &dyn std::error::Error) -> String {
    qc_front::error_chain(error)
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

/// `error`, raised while a game file was read, with the file and the place of the mistake as
/// the exception's attributes `file`, `line` and `column` (`None` where there is no place).
pub fn with_place<T>(
    py: Python<'_>,
    error: PyErr,
    file: &str,
    place: Option<(usize, usize)>,
) -> PyResult<T> {
    let value = error.value(py);
    value.setattr("file", file)?;
    value.setattr("line", place.map(|(line, _)| line))?;
    value.setattr("column", place.map(|(_, column)| column))?;
    Err(error)
}

/// A file that cannot be read or written, as the `OSError` subclass of its kind
/// (`FileNotFoundError`, `PermissionError`, ...), with `what` (`cannot read PATH`) before the
/// system's reason.
pub fn io_error(py: Python<'_>, what: &str, error: std::io::Error) -> PyErr {
    let text = format!("{what}: {error}");
    PyErr::from_type(PyErr::from(error).get_type(py), text)
}
