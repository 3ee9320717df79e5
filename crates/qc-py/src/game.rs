//! `qchess.Game`: a game of either ruleset on any simulator, with the methods a notebook needs
//! (play, undo, the board and its probabilities, pictures, the state as NumPy arrays, OpenQASM).

use crate::errors::{raise, session_error, ExportError, NotationError, OptionError};
use crate::move_record::{extras_dict, Move};
use num_complex::Complex64;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyImportError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qc_export::{ExportOptions, Target};
use qc_front::{GameInput, RulesKind, Session, SessionSpec};
use qc_ir::{Choice, Square};
use qc_render::{board_svg, board_text};
use qc_rules::{Color, SquarePair};
use std::collections::BTreeMap;

/// A game of Quantum Chess (Cantwell's rules, QCAN moves) or Niel's Chess, played on one of
/// qchess's simulators with exact probabilities.
///
/// Args:
///     fen: the start position in the ruleset's FEN (default: the standard start).
///     rules: ``"cantwell"`` (Quantum Chess) or ``"niels"`` (Niel's Chess).
///     backend: the simulator: ``"sparse"`` (default), ``"dense"`` or ``"reference"``.
///     seed: seed for the outcomes of moves played without one (default: a random seed); the
///         same seed gives the same game as the command line's ``--seed``.
///     variant: Niel's Chess rule options (``"full"``, ``"hadamard"``, ``"full+hadamard"``,
///         ...); Quantum Chess has none.
///
/// Example:
///     >>> g = qchess.Game()
///     >>> move = g.play("b1^a3c3")
///     >>> g.probabilities()["a3"]
///     0.5
#[pyclass(module = "qchess", unsendable)]
pub struct Game {
    /// The game with its dice: the front ends' one dispatch to a ruleset and a simulator.
    session: Session,
    backend_name: String,
}

/// The square called `text`, or a `NotationError`.
fn square(text: &str) -> PyResult<Square> {
    Square::parse(text)
        .ok_or_else(|| NotationError::new_err(format!("bad square `{text}` (expected e.g. e4)")))
}

/// `white` or `black`.
fn colour_name(colour: Color) -> &'static str {
    match colour {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Game {
    /// The move text with `outcome` written in, as the ruleset writes recorded outcomes:
    /// `.m0`/`.m1` (Quantum Chess), `[e6]` or `[e6,d5]` (Niel's Chess).
    fn with_outcome(&self, mv: &str, outcome: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let Some(outcome) = outcome.filter(|o| !o.is_none()) else {
            return Ok(mv.to_string());
        };
        if self.session.rules() == RulesKind::Cantwell {
            match outcome.extract::<u8>() {
                Ok(bit @ (0 | 1)) => Ok(format!("{mv}.m{bit}")),
                _ => Err(PyTypeError::new_err(format!(
                    "outcome must be 0 or 1 for a Quantum Chess move (got {outcome})"
                ))),
            }
        } else if let Ok(one) = outcome.extract::<String>() {
            Ok(format!("{mv}[{one}]"))
        } else {
            let squares: Vec<String> = outcome.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "outcome must be a square or a list of squares for a Niel's Chess move (got {outcome})"
                ))
            })?;
            Ok(format!("{mv}[{}]", squares.join(",")))
        }
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (fen=None, rules="cantwell", backend="sparse", seed=None, variant=None))]
    fn new(
        fen: Option<&str>,
        rules: &str,
        backend: &str,
        seed: Option<u64>,
        variant: Option<&str>,
    ) -> PyResult<Game> {
        // The simulator's name is checked first, as before the session.
        let backend_kind = option(backend)?;
        let spec = SessionSpec {
            rules: option(rules)?,
            variant: variant.map(str::to_string),
            backend: backend_kind,
            precision: qc_sim::Precision::Double,
            seed: seed.unwrap_or_else(rand::random),
        };
        let start = GameInput::Position {
            name: "fen",
            fen,
            moves: None,
        };
        Ok(Game {
            session: Session::open(&spec, start, 0).map_err(session_error)?,
            backend_name: backend.to_string(),
        })
    }

    /// The ruleset: ``"cantwell"`` or ``"niels"``.
    #[getter]
    fn rules(&self) -> &'static str {
        self.session.rules().name()
    }

    /// The simulator: ``"sparse"``, ``"dense"`` or ``"reference"``.
    #[getter]
    fn backend(&self) -> &str {
        &self.backend_name
    }

    /// The seed of the outcomes sampled so far.
    #[getter]
    fn seed(&self) -> u64 {
        self.session.seed()
    }

    /// Plays a move in the ruleset's notation (``"b1^a3c3"``, ``"a3xb5"``; Niel's ``"f5xe6"``).
    ///
    /// Args:
    ///     move: the move; an outcome may be written in (``"a3xb5.m1"``, ``"f5xe6[e6]"``).
    ///     outcome: forces the outcome of the move's measurement: 0 or 1 (Quantum Chess), the
    ///         square(s) the rolls give (Niel's Chess). Default: sampled from the seed.
    ///
    /// Returns:
    ///     Move: what was played, with its outcome written in.
    ///
    /// Raises:
    ///     NotationError: the move does not parse. IllegalMove: the rules refuse it (nothing
    ///     changes).
    #[pyo3(signature = (r#move, outcome=None))]
    fn play(
        &mut self,
        py: Python<'_>,
        r#move: &str,
        outcome: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Move> {
        let text = self.with_outcome(r#move, outcome)?;
        let played = self.session.play(&text).map_err(session_error)?;
        Move::new(py, played)
    }

    /// Takes back the last move exactly (state, circuit, position) and returns it.
    ///
    /// Raises:
    ///     IllegalMove: no move to take back.
    fn undo(&mut self, py: Python<'_>) -> PyResult<Move> {
        let played = self.session.undo().map_err(session_error)?;
        Move::new(py, played)
    }

    /// The legal moves of the side to move (none once the game is over).
    ///
    /// Args:
    ///     kinds: return ``(move, kind)`` pairs (kind: ``jump``, ``split_slide``, ...).
    #[pyo3(signature = (kinds=false))]
    fn legal_moves<'py>(&self, py: Python<'py>, kinds: bool) -> PyResult<Bound<'py, PyAny>> {
        let moves: Vec<(String, &str)> = self
            .session
            .legal_moves()
            .into_iter()
            .map(|m| (m.text, m.kind))
            .collect();
        if kinds {
            Ok(moves.into_pyobject(py)?.into_any())
        } else {
            let texts: Vec<String> = moves.into_iter().map(|(text, _)| text).collect();
            Ok(texts.into_pyobject(py)?.into_any())
        }
    }

    /// The moves played so far.
    fn moves(&self, py: Python<'_>) -> PyResult<Vec<Move>> {
        self.session
            .moves()
            .into_iter()
            .map(|m| Move::new(py, m))
            .collect()
    }

    /// Whether the game goes on: ``"ongoing"``, ``"white_wins"``, ``"black_wins"``, ``"draw"``,
    /// ``"stalemate"``, ``"draw_fifty_moves"``, ``"draw_repetition"`` or
    /// ``"draw_insufficient_material"``.
    #[getter]
    fn status(&self) -> &'static str {
        self.session.status().name()
    }

    /// The status in words, as the command line writes it (``"game on"``, ``"White wins (king
    /// captured)"``, ...).
    #[getter]
    fn status_text(&self) -> String {
        self.session.status().to_string()
    }

    /// The side to move: ``"white"`` or ``"black"``.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        colour_name(self.session.side_to_move())
    }

    /// The probability that each square holds its piece (squares that may hold one; the
    /// others are empty for certain).
    fn probabilities(&self) -> BTreeMap<String, f64> {
        let view = self.session.board_view(false);
        view.board_squares()
            .filter_map(|sq| view.get(sq).map(|s| (sq.to_string(), s.probability)))
            .collect()
    }

    /// The piece that may stand on each square (FEN letter), for the squares
    /// ``probabilities()`` names.
    fn pieces(&self) -> BTreeMap<String, char> {
        let view = self.session.board_view(false);
        view.board_squares()
            .filter_map(|sq| view.get(sq).map(|s| (sq.to_string(), s.piece)))
            .collect()
    }

    /// The exact probability of each full-board measurement, named by its pieces and squares
    /// (``"Ke1 Na3 ..."``). ``None`` for Niel's Chess, whose squares have no qubits.
    fn board_distribution(&self) -> Option<BTreeMap<String, f64>> {
        self.session
            .board_distribution()
            .map(|d| d.into_iter().collect())
    }

    /// The Bell-operator expectations ``<O1>..<O8>`` of two different squares and their (same,
    /// opposite) correlation, as ``(expectations, same, opposite)``; ``None`` for Niel's Chess.
    /// One square twice raises ``NotationError``.
    fn bell(&self, square1: &str, square2: &str) -> PyResult<Option<(Vec<f64>, f64, f64)>> {
        let (a, b) = (square(square1)?, square(square2)?);
        let pair = SquarePair::new(a, b).map_err(|e| NotationError::new_err(e.to_string()))?;
        Ok(self
            .session
            .bell(pair)
            .map(|(o, (same, opposite))| (o.to_vec(), same, opposite)))
    }

    /// The current position in the ruleset's FEN.
    fn fen(&self) -> String {
        self.session.fen()
    }

    /// The game as a game file (``.qcg``/``.qng`` text) that replays exactly: the start
    /// position, the rule options and every move with its outcomes.
    fn record(&self) -> String {
        self.session.game_file(false)
    }

    /// The ruleset's extra facts (Quantum Chess: the draw rules' counters; Niel's Chess: the
    /// rule options, check), as the command line's JSON output gives them.
    fn extras<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        extras_dict(py, &self.session.extras())
    }

    /// The board as SVG: pieces with a ring whose arc is the probability (the picture
    /// ``qchess board --svg`` draws).
    ///
    /// Args:
    ///     links: also draw lines between strongly correlated squares.
    #[pyo3(signature = (links=false))]
    fn svg(&self, links: bool) -> String {
        board_svg::draw(&self.session.board_view(links))
    }

    /// The board in SVG for Jupyter, which shows a game inline.
    fn _repr_svg_(&self) -> String {
        self.svg(false)
    }

    /// The board as text, with probabilities in percent (as ``qchess board`` prints it).
    fn text(&self) -> String {
        board_text::draw(&self.session.board_view(false))
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!(
            "qchess.Game(fen={:?}, rules={:?}, backend={:?}, seed={})",
            self.fen(),
            self.rules(),
            self.backend_name,
            self.seed()
        )
    }

    /// The number of basis states with a nonzero amplitude.
    fn state_size(&self) -> usize {
        self.session.state_size()
    }

    /// The names of the game circuit's qubits, indexed like the columns of ``state()``:
    /// squares (``"e4"``), then ancillas (``"path0"``, ``"cap1"``, ...).
    fn qubits(&self) -> Vec<String> {
        self.session.circuit().qubit_names()
    }

    /// The quantum state as NumPy arrays ``(basis, amplitudes)``: ``basis`` has one row of
    /// 0/1 (``uint8``) per basis state with a nonzero amplitude and one column per qubit
    /// (named by ``qubits()``); ``amplitudes`` (``complex128``) has one entry per row. The
    /// squared magnitudes add up to 1.
    #[allow(
        clippy::type_complexity,
        reason = "a NumPy pair, as the stub spells it"
    )]
    fn state<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<Complex64>>)> {
        let (width, states) = (
            self.session.circuit().num_qubits(),
            self.session.basis_states(),
        );
        let mut basis = Array2::<u8>::zeros((states.len(), width));
        let mut amplitudes = Vec::with_capacity(states.len());
        for (row, (ones, amplitude)) in states.iter().enumerate() {
            for qubit in ones {
                if let Some(cell) = basis.get_mut((row, qubit.index())) {
                    *cell = 1;
                }
            }
            amplitudes.push(*amplitude);
        }
        Ok((basis.into_pyarray(py), PyArray1::from_vec(py, amplitudes)))
    }

    /// The whole game as one circuit, in OpenQASM 3 or 2 (what ``qchess compile`` writes),
    /// carrying the recorded outcomes for post-selection and the board map in its header.
    ///
    /// Args:
    ///     format: ``"qasm3"``, ``"qasm2"``, ``"ir"`` (qchess's circuit text) or ``"json"``.
    ///     form: ``"dynamic"`` (mid-circuit measurement and ``if``) or ``"deferred"``.
    ///     target: a hardware target (``"generic"``, ``"ibm"``, ``"google"``, ``"braket"``):
    ///         lowered to its native gates, refused when it has too few qubits.
    ///     measure: what the program measures at the end: ``"board"``, ``"squares"``, ``"none"``.
    ///     dialect: ``"portable"`` or ``"extended"`` (Qiskit: ``ctrl @`` modifiers, ``reset``).
    ///     width: ``"compact"`` (squares that take part) or ``"full"`` (all 64).
    ///     backends_dir: a folder of target files ``NAME.toml`` that add to (or override) the
    ///         bundled targets.
    ///     optimize: run the exact passes before export, as ``qchess compile`` does (runs of
    ///         gates recognised as one gate, single-qubit runs merged, identities dropped,
    ///         X-wrapped 0-controls read back, inverse pairs cancelled); ``False`` exports the
    ///         circuit exactly as the moves were lowered (``qchess compile --no-optimize``).
    ///
    /// Raises:
    ///     OptionError: an unknown format, form, target, ... ExportError: the game cannot be
    ///     compiled as asked.
    #[pyo3(signature = (format="qasm3", form="dynamic", target=None, measure="board", dialect="portable", width="compact", backends_dir=None, optimize=true))]
    #[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn compile(
        &self,
        format: &str,
        form: &str,
        target: Option<&str>,
        measure: &str,
        dialect: &str,
        width: &str,
        backends_dir: Option<std::path::PathBuf>,
        optimize: bool,
    ) -> PyResult<String> {
        let options = ExportOptions {
            form: option(form)?,
            dialect: option(dialect)?,
            width: option(width)?,
            measure: option(measure)?,
            optimize,
        };
        let target = target
            .map(|name| load_target(name, backends_dir.as_deref()))
            .transpose()?;
        self.session
            .compile(
                option(format)?,
                &options,
                target.as_ref(),
                &qc_front::DeviceOptions::default(),
            )
            .map(|compiled| compiled.text)
            .map_err(|e| raise::<ExportError>("cannot compile", &e))
    }

    /// The game as a Qiskit ``QuantumCircuit`` (OpenQASM 3 through Qiskit's importer), with
    /// the board measured at the end.
    ///
    /// Args:
    ///     form: ``"dynamic"`` or ``"deferred"``.
    ///
    /// Raises:
    ///     ImportError: Qiskit or ``qiskit-qasm3-import`` is not installed.
    #[pyo3(signature = (form="dynamic"))]
    fn to_qiskit<'py>(&self, py: Python<'py>, form: &str) -> PyResult<Bound<'py, PyAny>> {
        let qasm3 = import(py, "qiskit.qasm3", "qiskit")?;
        import(py, "qiskit_qasm3_import", "qiskit-qasm3-import")?;
        let text = self.compile(
            "qasm3", form, None, "board", "portable", "compact", None, true,
        )?;
        qasm3.call_method1("loads", (text,))
    }

    /// The game as a Cirq ``Circuit`` (OpenQASM 2 through Cirq's importer), with the board
    /// measured at the end.
    ///
    /// Args:
    ///     form: ``"deferred"`` (default) or ``"dynamic"``.
    ///
    /// Raises:
    ///     ImportError: ``cirq-core`` is not installed.
    #[pyo3(signature = (form="deferred"))]
    fn to_cirq<'py>(&self, py: Python<'py>, form: &str) -> PyResult<Bound<'py, PyAny>> {
        let importer = import(py, "cirq.contrib.qasm_import", "cirq-core")?;
        let text = self.compile(
            "qasm2", form, None, "board", "portable", "compact", None, true,
        )?;
        importer.call_method1("circuit_from_qasm", (text,))
    }
}

/// An option spelled as the command line spells it, or an `OptionError`.
fn option<T: std::str::FromStr>(text: &str) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|e: T::Err| OptionError::new_err(e.to_string()))
}

/// The hardware target `name`.
fn load_target(name: &str, dir: Option<&std::path::Path>) -> PyResult<Target> {
    Target::find(name, dir).map_err(|e| raise::<OptionError>(&format!("target {name}"), &e))
}

/// Imports `module`, or raises an ImportError that names the package to install.
fn import<'py>(py: Python<'py>, module: &str, package: &str) -> PyResult<Bound<'py, PyModule>> {
    py.import(module).map_err(|e| {
        PyImportError::new_err(format!(
            "{module} is needed: install the package `{package}` (pip install {package}): {e}"
        ))
    })
}
