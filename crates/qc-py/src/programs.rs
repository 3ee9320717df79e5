//! Programs: `qchess.Program` (a circuit file of any format `qchess run` reads, drawn and run),
//! `qchess.run` (the exact outcome distribution of a program text, as `qchess run` prints it)
//! and `qchess.counts` (a device's counts back into a board, as `qchess counts` does). Reading,
//! drawing and simulating are qc-front's (`qc_front::program`), shared with the command line;
//! the long calls release the GIL.

use crate::drawing::{draw, Picture};
use crate::errors::{io_error, raise, CountsError, OptionError, ProgramError, SimulationError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qc_front::counts::{BoardEstimate as Estimate, CountsFormat, Mitigation};
use qc_front::BackendKind;
use qc_front::{CountsRequest, CountsStepError};
use qc_ir::exec::{in_qiskit_order, qiskit_key, Distribution, MAX_SHOTS};
use qc_ir::Circuit;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The exact probability of every outcome of a program: OpenQASM 2 or 3, or qchess's IR text or
/// JSON (told apart by content), as ``qchess run`` gives it.
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
    let backend = option(backend)?;
    let circuit = py
        .detach(|| qc_front::read_program("program", program))
        .map_err(program_error)?;
    let dist = simulate(py, &circuit, backend, optimize)?;
    // The distribution's size is bounded by `exact_distribution`; the dict is Python's memory,
    // whose exhaustion is a MemoryError, not an abort.
    outcomes_dict(py, &dist)
}

/// An option spelled as the command line spells it, or an `OptionError`.
fn option<T: std::str::FromStr>(text: &str) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|e: T::Err| OptionError::new_err(e.to_string()))
}

/// A circuit file that does not read, as a `ProgramError` with its causes.
fn program_error(error: qc_front::ProgramError) -> PyErr {
    ProgramError::new_err(crate::errors::message(&error))
}

/// The exact distribution of `circuit` on `backend`, computed with the GIL released.
fn simulate(
    py: Python<'_>,
    circuit: &Circuit,
    backend: BackendKind,
    optimize: bool,
) -> PyResult<Distribution> {
    let double = qc_sim::Precision::Double;
    py.detach(|| qc_front::program::distribution(circuit, backend, double, optimize))
        .map_err(|e| raise::<SimulationError>("cannot simulate", &e))
}

/// `outcomes` (probabilities or counts) as a dict keyed in Qiskit's order (``c[0]``
/// rightmost), filled straight from the map, without a map of key strings in between.
fn outcomes_dict<'py, V: Copy + for<'a> IntoPyObject<'a>>(
    py: Python<'py>,
    outcomes: &BTreeMap<Vec<bool>, V>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (bits, value) in in_qiskit_order(outcomes) {
        dict.set_item(qiskit_key(bits), value)?;
    }
    Ok(dict)
}

/// A circuit file of any format ``qchess run`` reads: OpenQASM 2 or 3 (what ``Game.compile``
/// and other tools write) or qchess's IR text or JSON (``compile(format="ir"|"json")``), told
/// apart by content, read and verified as ``qchess run`` and ``qchess draw --circuit`` read it.
///
/// Args:
///     text: the program text.
///     name: its name in messages (default ``"program"``).
///
/// Raises:
///     ProgramError: the text does not parse (the message says where), or is not a
///     well-formed circuit.
///
/// Example:
///     >>> p = qchess.Program.load("circuits/bell_psi_plus.qasm")
///     >>> p.run()
///     {'00': 0.5, '11': 0.5}
#[pyclass(module = "qchess", frozen)]
pub struct Program {
    name: String,
    text: String,
    circuit: Circuit,
}

impl Program {
    /// Draws the program as `picture`, as ``qchess draw --circuit`` does, with the GIL released.
    fn picture(&self, py: Python<'_>, picture: Picture, as_written: bool) -> PyResult<String> {
        py.detach(|| {
            let (circuit, notes) =
                qc_front::program::drawing(&self.text, self.circuit.clone(), as_written);
            draw(&circuit, &notes, picture)
        })
    }
}

#[pymethods]
impl Program {
    #[new]
    #[pyo3(signature = (text, name="program"))]
    fn new(py: Python<'_>, text: String, name: &str) -> PyResult<Program> {
        let circuit = py
            .detach(|| qc_front::read_program(name, &text))
            .map_err(program_error)?;
        Ok(Program {
            name: name.to_string(),
            text,
            circuit,
        })
    }

    /// Reads the circuit file ``path`` (see :class:`Program`).
    ///
    /// Raises:
    ///     OSError: the file cannot be read (``FileNotFoundError``, ...). ProgramError: it does
    ///     not parse (the message names the file and says where) or is not well formed.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Program> {
        let name = path.display().to_string();
        let text = py
            .detach(|| std::fs::read_to_string(&path))
            .map_err(|e| io_error(py, &format!("cannot read {name}"), e))?;
        Program::new(py, text, &name)
    }

    /// Its name in messages: the path it was loaded from, or the name it was given.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The program text, as read.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The number of qubits.
    #[getter]
    fn num_qubits(&self) -> usize {
        self.circuit.num_qubits()
    }

    /// The number of classical bits (the outcome keys' length).
    #[getter]
    fn num_clbits(&self) -> usize {
        self.circuit.num_clbits()
    }

    /// The circuit as text, as ``qchess draw --circuit FILE`` draws it: a program
    /// ``Game.compile`` wrote has its wires named by square and, for no hardware target, the
    /// qchess gates drawn as boxes.
    ///
    /// Args:
    ///     width: cut into bands of at most this many characters per line; ``None`` or 0: one
    ///         band.
    ///     as_written: draw the gates exactly as read (``--as-written``).
    ///
    /// Raises:
    ///     DrawError: the circuit is too large to draw.
    #[pyo3(signature = (width=None, as_written=false))]
    fn draw(&self, py: Python<'_>, width: Option<usize>, as_written: bool) -> PyResult<String> {
        self.picture(py, Picture::Text { width }, as_written)
    }

    /// The circuit as SVG, as ``qchess draw --circuit FILE --svg`` draws it (see :meth:`draw`).
    ///
    /// Args:
    ///     width: fold into rows at most this many pixels wide (default 1200); 0: one row.
    ///     as_written: draw the gates exactly as read (``--as-written``).
    #[pyo3(signature = (width=None, as_written=false))]
    fn svg(&self, py: Python<'_>, width: Option<usize>, as_written: bool) -> PyResult<String> {
        self.picture(py, Picture::Svg { width }, as_written)
    }

    /// The circuit as SVG, for Jupyter, which shows a program inline.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        self.svg(py, None, false)
    }

    /// Runs the program as ``qchess run`` does: the exact probability of every outcome, or
    /// ``shots`` samples of it drawn with ``seed`` (the same counts as ``qchess run --shots N
    /// --seed S``), or with ``noise`` ``shots`` noisy trajectories (``qchess run --noise FILE
    /// --shots N --seed S``, the same counts). The GIL is released while it simulates.
    ///
    /// Args:
    ///     shots: sample this many shots (at most 100000000) instead of giving probabilities.
    ///     seed: the seed of the shots (default 0, as the command line's).
    ///     backend: the simulator: ``"sparse"`` (default), ``"dense"`` or ``"reference"``.
    ///     optimize: run the exact passes first, as ``qchess run`` does (``False``:
    ///         ``--no-optimize``); a noisy run simulates the program as written.
    ///     noise: the path of a device calibration (IBM BackendProperties JSON, e.g.
    ///         ``props_fez.json``): each shot is one Monte-Carlo trajectory with that device's
    ///         gate, relaxation and readout errors (docs/hardware.md). Needs ``shots``.
    ///
    /// Returns:
    ///     dict[str, float] or dict[str, int]: bit string (Qiskit's order: ``c[0]`` rightmost)
    ///     -> probability, or -> count with ``shots``.
    ///
    /// Raises:
    ///     OptionError: an unknown backend, more shots than 100000000, or ``noise`` without
    ///     ``shots``. OSError: the calibration cannot be read. SimulationError: the program
    ///     cannot be simulated (with noise: nor the calibration read as one).
    #[pyo3(signature = (shots=None, seed=0, backend="sparse", optimize=true, noise=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        shots: Option<u64>,
        seed: u64,
        backend: &str,
        optimize: bool,
        noise: Option<PathBuf>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let backend = option(backend)?;
        if shots.is_some_and(|n| n > MAX_SHOTS) {
            return Err(OptionError::new_err(format!(
                "shots: at most {MAX_SHOTS} (got {})",
                shots.unwrap_or_default()
            )));
        }
        if let Some(calibration) = noise {
            let Some(shots) = shots else {
                return Err(OptionError::new_err(
                    "noise: a noisy run draws shots: give shots=N",
                ));
            };
            let properties = std::fs::read_to_string(&calibration)
                .map_err(|e| io_error(py, &calibration.display().to_string(), e))?;
            let double = qc_sim::Precision::Double;
            let counts = py
                .detach(|| {
                    qc_front::noise::noisy_run(
                        &self.circuit,
                        &properties,
                        backend,
                        double,
                        shots,
                        seed,
                    )
                })
                .map_err(|e| {
                    SimulationError::new_err(format!(
                        "{}: cannot simulate with the noise of {}: {}",
                        self.name,
                        calibration.display(),
                        crate::errors::message(&e)
                    ))
                })?;
            return outcomes_dict(py, &counts);
        }
        let dist = simulate(py, &self.circuit, backend, optimize)?;
        match shots {
            None => outcomes_dict(py, &dist),
            Some(shots) => {
                let counts = py.detach(|| qc_front::program::sample(&dist, shots, seed));
                drop(dist);
                outcomes_dict(py, &counts)
            }
        }
    }

    /// The program as a ``qiskit.QuantumCircuit``: its circuit written as OpenQASM 3 by
    /// qchess's exporter (as read: no optimisation, no added measurement, qubits in the
    /// program's order) and read by ``qiskit.qasm3.loads``, whatever format it came in.
    ///
    /// Raises:
    ///     ImportError: Qiskit or ``qiskit-qasm3-import`` is not installed (the message names
    ///     the package). ProgramError: the exporter refuses the circuit.
    fn to_qiskit<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let qasm3 = crate::game::import(py, "qiskit.qasm3", "qiskit")?;
        crate::game::import(py, "qiskit_qasm3_import", "qiskit-qasm3-import")?;
        let options = qc_export::ExportOptions {
            measure: qc_export::MeasureScope::None,
            optimize: false,
            ..qc_export::ExportOptions::default()
        };
        let text = py
            .detach(|| qc_export::export_qasm3(&self.circuit, &[], &options))
            .map_err(|e| ProgramError::new_err(format!("{}: {e}", self.name)))?
            .text;
        qasm3.call_method1("loads", (text,))
    }

    fn __repr__(&self) -> String {
        format!(
            "qchess.Program(name={:?}, qubits={}, clbits={}, instructions={})",
            self.name,
            self.circuit.num_qubits(),
            self.circuit.num_clbits(),
            self.circuit.instructions().len()
        )
    }
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
        ..CountsRequest::default()
    };
    qc_front::board_from_counts(program, &text, &request)
        .map(|estimate| BoardEstimate { estimate })
        .map_err(|e| match e {
            CountsStepError::Import(_) => raise::<ProgramError>("program", &e),
            CountsStepError::Simulate(_) | CountsStepError::Replay(_) => {
                raise::<SimulationError>("program", &e)
            }
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

    /// Why there is no board, when the program's map names no square (a Niel's Chess program
    /// measures only its dice rolls): the counts then give only the shots kept and discarded.
    /// ``None`` for a program with a board.
    #[getter]
    fn no_board(&self) -> Option<&'static str> {
        self.estimate.no_board
    }

    fn __repr__(&self) -> String {
        format!(
            "qchess.BoardEstimate(shots={}, kept={}, squares={}{})",
            self.estimate.shots,
            self.estimate.kept,
            self.estimate.squares.len(),
            if self.estimate.no_board.is_some() {
                ", no board"
            } else {
                ""
            }
        )
    }
}
