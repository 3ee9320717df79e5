//! Functions on program texts: `qchess.run` (the exact outcome distribution of an OpenQASM
//! program, as `qchess run` prints it) and `qchess.counts` (a device's counts back into a board,
//! as `qchess counts` does).

use crate::errors::{raise, CountsError, OptionError, ProgramError, SimulationError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qc_front::counts::{BoardEstimate as Estimate, CountsFormat, Mitigation};
use qc_front::{CountsRequest, CountsStepError};
use std::collections::BTreeMap;

/// The exact probability of every outcome of an OpenQASM 2 or 3 program (told apart by its
/// ``OPENQASM`` line), as ``qchess run`` gives it.
///
/// Args:
///     program: the program text.
///     backend: the simulator: ``"sparse"`` (default), ``"dense"`` or ``"reference"``.
///     optimize: first run the exact passes ``qchess run`` runs (inlined gate bodies recognised
///         as one gate, X-wrapped 0-controls read back, inverse pairs cancelled, identities
///         dropped; small user gates applied as one matrix each); ``False`` simulates the program
///         exactly as written, user gates gate by gate from their bodies (``--no-optimize``).
///
/// Returns:
///     dict[str, float]: bit string (Qiskit's order: ``c[0]`` rightmost) -> probability.
///
/// Raises:
///     ProgramError: the program cannot be read. SimulationError: it cannot be simulated.
#[pyfunction]
#[pyo3(signature = (program, backend="sparse", optimize=true))]
pub fn run<'py>(
    py: Python<'py>,
    program: &str,
    backend: &str,
    optimize: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let choice: qc_front::BackendKind = backend
        .parse()
        .map_err(|e: qc_ir::UnknownChoice| OptionError::new_err(e.to_string()))?;
    let circuit =
        qc_export::import_qasm(program).map_err(|e| raise::<ProgramError>("cannot import", &e))?;
    qc_ir::verify(&circuit).map_err(|e| raise::<ProgramError>("not a well-formed circuit", &e))?;
    let circuit = qc_ir::passes::simulation_form(&circuit, optimize);
    let double = qc_sim::Precision::Double;
    let dist = qc_front::with_simulator!(choice, double, |new_sim| {
        let mut sim = new_sim(qc_sim::MemoryLimit::default());
        qc_ir::exec::exact_distribution(&mut sim, &circuit)
            .map_err(|e| raise::<SimulationError>("cannot simulate", &e))?
    });
    // Straight into the dict, in Qiskit's key order, without a map of key strings in between
    // (the distribution's size is bounded by `exact_distribution`; the dict is Python's memory,
    // whose exhaustion is a MemoryError, not an abort).
    let dict = PyDict::new(py);
    for (bits, p) in qc_ir::exec::in_qiskit_order(&dist) {
        dict.set_item(qc_ir::exec::qiskit_key(bits), p)?;
    }
    Ok(dict)
}

/// The board estimated from a device's counts of a program ``Game.compile`` (or ``qchess
/// compile``) wrote: the same code as ``qchess counts``.
///
/// Args:
///     program: the program text (its header holds the board map).
///     counts: Qiskit's ``get_counts()`` dict, or the text of a counts file (Qiskit or Braket
///         JSON, or CSV ``bits,count``).
///     mitigate: comma-separated ``postselect``, ``symmetry``, ``readout``, or ``none``.
///     calibration: the readout calibration's JSON text (needed by ``readout``).
///     counts_format: ``"qiskit"``, ``"braket"`` or ``"csv"`` (default: detected; a dict is
///         Qiskit's).
///     exact: also simulate the program and give the exact board and the distance to it.
///
/// Raises:
///     CountsError: the counts do not fit the program, or it has no board map.
#[pyfunction]
#[pyo3(signature = (program, counts, mitigate="postselect,symmetry", calibration=None, counts_format=None, exact=false))]
pub fn counts(
    program: &str,
    counts: &Bound<'_, PyAny>,
    mitigate: &str,
    calibration: Option<&str>,
    counts_format: Option<&str>,
    exact: bool,
) -> PyResult<BoardEstimate> {
    let option_error = |e: qc_export::UnknownChoice| OptionError::new_err(e.to_string());
    let mitigation: Mitigation = mitigate.parse().map_err(option_error)?;
    let mut format: Option<CountsFormat> = counts_format
        .map(str::parse)
        .transpose()
        .map_err(option_error)?;
    let text = if let Ok(text) = counts.extract::<String>() {
        text
    } else if let Ok(dict) = counts.cast::<PyDict>() {
        // A get_counts() dict, read by the same parser as a counts file.
        let mut object = serde_json::Map::new();
        for (key, value) in dict.iter() {
            let key: String = key
                .extract()
                .map_err(|_| PyTypeError::new_err(format!("counts key {key} is not a string")))?;
            let value: u64 = value.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "count {value} of {key:?} is not a whole non-negative number"
                ))
            })?;
            object.insert(key, value.into());
        }
        format.get_or_insert(CountsFormat::Qiskit);
        serde_json::Value::Object(object).to_string()
    } else {
        return Err(PyTypeError::new_err(
            "counts must be a dict (Qiskit get_counts()) or the text of a counts file",
        ));
    };
    let request = CountsRequest {
        format,
        mitigation,
        calibration,
        exact,
    };
    qc_front::board_from_counts(program, &text, &request)
        .map(|estimate| BoardEstimate { estimate })
        .map_err(|e| match e {
            CountsStepError::Import(_) => raise::<ProgramError>("program", &e),
            CountsStepError::Simulate(_) => raise::<SimulationError>("program", &e),
            CountsStepError::Calibration(_) => raise::<CountsError>("calibration", &e),
            CountsStepError::Counts(_) => raise::<CountsError>("counts", &e),
            CountsStepError::MissingCalibration => raise::<OptionError>("mitigate", &e),
            CountsStepError::Map(_) | CountsStepError::Exact(_) => {
                raise::<CountsError>("program", &e)
            }
        })
}

/// The board estimated from counts (``qchess.counts``).
#[pyclass(module = "qchess", frozen)]
pub struct BoardEstimate {
    estimate: Estimate,
}

#[pymethods]
impl BoardEstimate {
    /// Shots read.
    #[getter]
    fn shots(&self) -> u64 {
        self.estimate.shots
    }

    /// Shots kept by the mitigations.
    #[getter]
    fn kept(&self) -> u64 {
        self.estimate.kept
    }

    /// Shots discarded, by reason (``postselect``, ``ancilla``, ``conserved_NAME``).
    #[getter]
    fn discarded(&self) -> BTreeMap<String, u64> {
        self.estimate.discarded.clone()
    }

    /// The estimated probability that each square is occupied.
    fn probabilities(&self) -> BTreeMap<String, f64> {
        self.estimate
            .squares
            .iter()
            .map(|(sq, s)| (sq.to_string(), s.probability))
            .collect()
    }

    /// The standard error of each square's probability.
    fn stderr(&self) -> BTreeMap<String, f64> {
        self.estimate
            .squares
            .iter()
            .map(|(sq, s)| (sq.to_string(), s.stderr))
            .collect()
    }

    /// The piece (FEN letter) of each square, when the map knows it.
    fn pieces(&self) -> BTreeMap<String, Option<String>> {
        self.estimate
            .squares
            .iter()
            .map(|(sq, s)| (sq.to_string(), s.piece.clone()))
            .collect()
    }

    /// The exact probability of each square (with ``exact=True``), else ``None``.
    fn exact(&self) -> Option<BTreeMap<String, f64>> {
        self.estimate
            .exact
            .as_ref()
            .map(|e| e.iter().map(|(sq, p)| (sq.to_string(), *p)).collect())
    }

    /// The total variation distance between the kept shots' board and the exact one (with
    /// ``exact=True``), else ``None``.
    #[getter]
    fn tvd(&self) -> Option<f64> {
        self.estimate.tvd
    }

    fn __repr__(&self) -> String {
        format!(
            "qchess.BoardEstimate(shots={}, kept={}, squares={})",
            self.estimate.shots,
            self.estimate.kept,
            self.estimate.squares.len()
        )
    }
}
