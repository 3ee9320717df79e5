//! `qchess.Move`: a played (or taken back) move as the ruleset reports it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use qc_front::MoveView;
use serde_json::Value;

/// How deep a ruleset's extra fields may nest (they are flat records; this only bounds the
/// conversion).
const MAX_DEPTH: usize = 16;

/// A move as played: its text with every outcome written in (so it replays exactly), its kind,
/// what happened in words, and the ruleset's own fields.
///
/// Quantum Chess moves also have ``variant`` (``basic``, ``capture``, ``excluded``, ...),
/// ``measured`` (a measurement was made), ``outcome`` (0 or 1), ``outcome_probability`` (the
/// probability the outcome had) and ``applied`` (the move took effect). Niel's Chess moves have
/// ``outcome`` (the squares the rolls gave, as written in brackets) and ``extras['rolls']``.
#[pyclass(module = "qchess", frozen, get_all)]
pub struct Move {
    /// The move with its outcomes written in, e.g. ``b1^a3c3`` or ``a3xb5.m1``.
    pub text: String,
    /// Its kind: ``jump``, ``slide``, ``split_jump``, ... (Quantum Chess); ``move``,
    /// ``capture``, ``superposition``, ... (Niel's Chess).
    pub kind: String,
    /// Whether it is a quantum move: a split or a merge (Quantum Chess); a move other than a
    /// classical step, capture or castling (Niel's Chess).
    pub quantum: bool,
    /// The outcomes written in ``text`` as the ruleset writes them (``.m1``, Niel's ``[e6]``),
    /// ``None`` when nothing was drawn: ``text`` is the move as chosen, then this.
    pub outcome_notation: Option<String>,
    /// What happened, in words (the command line's column).
    pub detail: String,
    /// The instructions it added, as ``(start, end)`` indices of the game circuit.
    pub instructions: (usize, usize),
    /// The ruleset's own fields (as in the command line's JSON output).
    pub extras: Py<PyDict>,
    outcome_text: Option<String>,
}

impl Move {
    /// The Python record of `played`.
    pub fn new(py: Python<'_>, played: MoveView) -> PyResult<Move> {
        let extras = PyDict::new(py);
        for (key, value) in &played.extras {
            extras.set_item(key, to_python(py, value, 0)?)?;
        }
        Ok(Move {
            text: played.text,
            kind: played.kind.to_string(),
            quantum: played.quantum,
            outcome_notation: played.outcome_notation,
            detail: played.detail,
            instructions: (played.instructions.start, played.instructions.end),
            extras: extras.unbind(),
            outcome_text: played.outcome,
        })
    }

    fn extra<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(self.extras.bind(py).get_item(key)?.filter(|v| !v.is_none()))
    }
}

#[pymethods]
impl Move {
    /// The move's type (the same as ``kind``).
    #[getter(r#type)]
    fn move_type(&self) -> &str {
        &self.kind
    }

    /// The outcome: 0 or 1 for a measured Quantum Chess move, the rolled squares (``"e6"``,
    /// ``"e6,d5"``) for Niel's Chess, ``None`` when nothing was sampled.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.extra(py, "outcome")? {
            Some(v) => Ok(Some(v)),
            None => Ok(self
                .outcome_text
                .as_ref()
                .map(|t| t.clone().into_pyobject(py).map(|s| s.into_any()))
                .transpose()?),
        }
    }

    /// The probability the outcome had just before the measurement; ``None`` when nothing was
    /// measured (or the ruleset does not say).
    #[getter]
    fn outcome_probability<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.extra(py, "outcome_probability")
    }

    /// Quantum Chess: the move's variant (``basic``, ``capture``, ``excluded``, ...).
    #[getter]
    fn variant<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.extra(py, "variant")
    }

    /// Quantum Chess: whether a measurement was made.
    #[getter]
    fn measured<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.extra(py, "measured")
    }

    /// Quantum Chess: whether the move took effect (no measurement, or outcome 1).
    #[getter]
    fn applied<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.extra(py, "applied")
    }

    fn __repr__(&self) -> String {
        format!(
            "Move({:?}, kind={:?}, detail={:?})",
            self.text, self.kind, self.detail
        )
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// A JSON value of a ruleset's extras as a Python object.
fn to_python<'py>(py: Python<'py>, value: &Value, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(
            "a move's extra fields nest too deeply",
        ));
    }
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u), _) => u.into_pyobject(py)?.into_any(),
            (_, _, f) => f.unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item, depth + 1)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v, depth + 1)?)?;
            }
            dict.into_any()
        }
    })
}

/// A game's extra fields (`QuantumGame::extras`) as a Python dict.
pub fn extras_dict<'py>(
    py: Python<'py>,
    extras: &serde_json::Map<String, Value>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in extras {
        dict.set_item(key, to_python(py, value, 0)?)?;
    }
    Ok(dict)
}
