//! `qchess.Game`: a game of either ruleset on any simulator, with the methods a notebook needs
//! (play, undo, the board and its probabilities, pictures, the state as NumPy arrays, OpenQASM),
//! game files loaded and saved, and the game's circuit drawn.
//!
//! Threads: the session sits behind a mutex, so one `Game` may be shared by Python threads;
//! each call runs whole, one at a time. Every call takes the lock with the GIL released
//! ([`Game::with`]), so a long call (a move on a large state, the legal moves, compiling) lets
//! other Python threads run, and a thread waiting for the lock never holds the GIL (which the
//! holder may need back: no deadlock).

use crate::drawing::{draw, Picture};
use crate::errors::{
    io_error, raise, session_error, with_place, ExportError, NotationError, OptionError,
};
use crate::move_record::{extras_dict, Move};
use num_complex::Complex64;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyImportError, PyIndexError, PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qc_export::{ExportOptions, Target};
use qc_front::{GameInput, RulesKind, Session, SessionError, SessionSpec, COMPILE_DEFAULTS};
use qc_ir::Choice;
use qc_render::game_drawing::NoSuchMove;
use qc_render::{board_svg, board_text};
use qc_rules::Square;
use qc_rules::{Color, GivenOutcome, OutcomeShapeError, SquarePair};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

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
///
/// A ``Game`` may be shared by threads: its calls are serialised (each runs whole, in the order
/// the threads get the game's lock), and long ones release the GIL.
#[pyclass(module = "qchess", frozen)]
pub struct Game {
    /// The game with its dice (the front ends' one dispatch to a ruleset and a simulator),
    /// locked by one call at a time.
    session: Mutex<Session>,
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
    /// Runs `call` on the session with the GIL released and the lock held (see the module
    /// documentation). A call that panicked cannot leave a half-made move (the rulesets check
    /// before they change anything), so a poisoned lock is taken over.
    fn with<T: Send>(&self, py: Python<'_>, call: impl FnOnce(&mut Session) -> T + Send) -> T {
        py.detach(|| call(&mut self.session.lock().unwrap_or_else(PoisonError::into_inner)))
    }

    /// A game of `session` on the simulator called `backend`.
    fn of(session: Session, backend: &str) -> Game {
        Game {
            session: Mutex::new(session),
            backend_name: backend.to_string(),
        }
    }

    /// The game's circuit (`n`: move `n`'s; 0 = the set-up) drawn as `picture`, as `qchess
    /// draw` draws it; no move `n` is an `IndexError`.
    fn circuit_picture(
        &self,
        py: Python<'_>,
        n: Option<usize>,
        all_wires: bool,
        picture: Picture,
    ) -> PyResult<String> {
        self.with(py, |s| {
            let (circuit, notes) = s.drawing(n, all_wires)?;
            Ok(draw(&circuit, &notes, picture))
        })
        .map_err(|e: NoSuchMove| PyIndexError::new_err(e.to_string()))?
    }

    /// The move text with `outcome` written in as the ruleset writes recorded outcomes
    /// (`.m0`/`.m1` for Quantum Chess, `[e6]` or `[e6,d5]` for Niel's Chess): the session
    /// writes it, so this code knows no ruleset's notation.
    fn with_outcome(
        &self,
        py: Python<'_>,
        mv: &str,
        outcome: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let Some(outcome) = outcome.filter(|o| !o.is_none()) else {
            return Ok(mv.to_string());
        };
        let given = given_outcome(outcome)?;
        self.with(py, |s| s.with_outcome(mv, &given))
            .map_err(|e| match shape_error(&e) {
                Some(shape) => PyTypeError::new_err(format!("outcome {outcome}: {shape}")),
                None => session_error(e),
            })
    }

    /// The game in `format` and `form` with the board measured at the end whatever the
    /// defaults, the rest as compiled by default: what another tool's importer reads.
    fn board_program(&self, py: Python<'_>, format: &str, form: &str) -> PyResult<String> {
        self.compile(
            py,
            Some(format),
            Some(form),
            None,
            Some("board"),
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        )
    }
}

/// A Python outcome as the rules take it: 0 or 1 (a bit), a square's name, or a list of them.
fn given_outcome(outcome: &Bound<'_, PyAny>) -> PyResult<GivenOutcome> {
    let square = |name: &str| {
        Square::parse(name).ok_or_else(|| {
            NotationError::new_err(format!("outcome: `{name}` is not a square (a1 to h8)"))
        })
    };
    if let Ok(bit) = outcome.extract::<u8>() {
        return match bit {
            0 | 1 => Ok(GivenOutcome::Bit(bit == 1)),
            _ => Err(PyTypeError::new_err(format!(
                "outcome must be 0 or 1, a square or a list of squares (got {outcome})"
            ))),
        };
    }
    if let Ok(name) = outcome.extract::<String>() {
        return Ok(GivenOutcome::Squares(vec![square(&name)?]));
    }
    match outcome.extract::<Vec<String>>() {
        Ok(names) => Ok(GivenOutcome::Squares(
            names.iter().map(|n| square(n)).collect::<PyResult<_>>()?,
        )),
        Err(_) => Err(PyTypeError::new_err(format!(
            "outcome must be 0 or 1, a square or a list of squares (got {outcome})"
        ))),
    }
}

/// The rules' refusal of an outcome of the wrong shape behind `error`, if that is what it is
/// (a type error in Python: the caller passed the wrong kind of value).
fn shape_error(error: &SessionError) -> Option<&OutcomeShapeError> {
    error
        .rules_error()?
        .inner()
        .downcast_ref::<OutcomeShapeError>()
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (fen=None, rules="cantwell", backend="sparse", seed=None, variant=None))]
    fn new(
        py: Python<'_>,
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
        let session = py
            .detach(|| Session::open(&spec, start, 0))
            .map_err(session_error)?;
        Ok(Game::of(session, backend))
    }

    /// Loads a game file (``.qcg`` Quantum Chess, ``.qng`` Niel's Chess): its moves are replayed
    /// (outcomes not written in drawn from the seed), as ``qchess board GAME`` reads it.
    ///
    /// Args:
    ///     path: the game file.
    ///     rules: the ruleset (default: by the file's extension, else by its tags: a ``Variant``
    ///         tag is Niel's Chess, else Quantum Chess).
    ///     backend: the simulator: ``"sparse"`` (default), ``"dense"`` or ``"reference"``.
    ///     seed: seed for the outcomes not written in the file, and of moves played next
    ///         (default: a random seed).
    ///     variant: Niel's Chess rule options; they override the file's ``Variant`` tag.
    ///
    /// Raises:
    ///     OSError: the file cannot be read (``FileNotFoundError``, ...). NotationError: it does
    ///     not parse. IllegalMove: the rules refuse one of its moves. Both carry ``file``,
    ///     ``line`` and ``column`` (1-based; ``None`` when the mistake has no place) and say
    ///     them in the message.
    #[staticmethod]
    #[pyo3(signature = (path, rules=None, backend="sparse", seed=None, variant=None))]
    fn load(
        py: Python<'_>,
        path: PathBuf,
        rules: Option<&str>,
        backend: &str,
        seed: Option<u64>,
        variant: Option<&str>,
    ) -> PyResult<Game> {
        let backend_kind = option(backend)?;
        let rules: Option<RulesKind> = rules.map(option).transpose()?;
        let name = path.display().to_string();
        let text = py
            .detach(|| std::fs::read_to_string(&path))
            .map_err(|e| io_error(py, &format!("cannot read {name}"), e))?;
        let spec = SessionSpec {
            rules: rules.unwrap_or_else(|| RulesKind::of_game_file(&name, &text)),
            variant: variant.map(str::to_string),
            backend: backend_kind,
            precision: qc_sim::Precision::Double,
            seed: seed.unwrap_or_else(rand::random),
        };
        let input = GameInput::File {
            name: &name,
            text: &text,
        };
        match py.detach(|| Session::open(&spec, input, 0)) {
            Ok(session) => Ok(Game::of(session, backend)),
            Err(e) => {
                let place = e.place();
                with_place(py, session_error(e), &name, place)
            }
        }
    }

    /// Saves the game as a game file that :meth:`load` replays exactly (the start position,
    /// the rule options, every move with its outcomes, and the tags of the file it was loaded
    /// from): the text of :meth:`record` with those tags.
    ///
    /// Raises:
    ///     OptionError: the path's extension is the other ruleset's (``.qcg`` for a Niel's
    ///     Chess game), which :meth:`load` would read by the wrong rules. OSError: the file
    ///     cannot be written.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let (rules, extension, text) = self.with(py, |s| {
            (s.rules(), s.game_file_extension(), s.game_file(true))
        });
        let name = path.display().to_string();
        if RulesKind::of_game_file(&name, &text) != rules {
            return Err(OptionError::new_err(format!(
                "{name}: a {} game goes in a .{extension} file (load would read this one by the other rules)",
                rules.name()
            )));
        }
        py.detach(|| std::fs::write(&path, text))
            .map_err(|e| io_error(py, &format!("cannot write {name}"), e))
    }

    /// The ruleset: ``"cantwell"`` or ``"niels"``.
    #[getter]
    fn rules(&self, py: Python<'_>) -> &'static str {
        self.with(py, |s| s.rules().name())
    }

    /// The simulator: ``"sparse"``, ``"dense"`` or ``"reference"``.
    #[getter]
    fn backend(&self) -> &str {
        &self.backend_name
    }

    /// The seed of the outcomes sampled so far.
    #[getter]
    fn seed(&self, py: Python<'_>) -> u64 {
        self.with(py, |s| s.seed())
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
        &self,
        py: Python<'_>,
        r#move: &str,
        outcome: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Move> {
        let text = self.with_outcome(py, r#move, outcome)?;
        let played = self.with(py, |s| s.play(&text)).map_err(session_error)?;
        Move::new(py, played)
    }

    /// Takes back the last move exactly (state, circuit, position) and returns it.
    ///
    /// Raises:
    ///     IllegalMove: no move to take back.
    fn undo(&self, py: Python<'_>) -> PyResult<Move> {
        let played = self.with(py, |s| s.undo()).map_err(session_error)?;
        Move::new(py, played)
    }

    /// The legal moves of the side to move (none once the game is over).
    ///
    /// Args:
    ///     kinds: return ``(move, kind)`` pairs (kind: ``jump``, ``split_slide``, ...).
    #[pyo3(signature = (kinds=false))]
    fn legal_moves<'py>(&self, py: Python<'py>, kinds: bool) -> PyResult<Bound<'py, PyAny>> {
        let moves: Vec<(String, &str)> = self.with(py, |s| {
            s.legal_moves()
                .into_iter()
                .map(|m| (m.text, m.kind))
                .collect()
        });
        if kinds {
            Ok(moves.into_pyobject(py)?.into_any())
        } else {
            let texts: Vec<String> = moves.into_iter().map(|(text, _)| text).collect();
            Ok(texts.into_pyobject(py)?.into_any())
        }
    }

    /// The moves played so far.
    fn moves(&self, py: Python<'_>) -> PyResult<Vec<Move>> {
        self.with(py, |s| s.moves())
            .into_iter()
            .map(|m| Move::new(py, m))
            .collect()
    }

    /// Whether the game goes on: ``"ongoing"``, ``"white_wins"``, ``"black_wins"``, ``"draw"``,
    /// ``"stalemate"``, ``"draw_fifty_moves"``, ``"draw_repetition"`` or
    /// ``"draw_insufficient_material"``.
    #[getter]
    fn status(&self, py: Python<'_>) -> &'static str {
        self.with(py, |s| s.status().name())
    }

    /// The status in words, as the command line writes it (``"game on"``, ``"White wins (king
    /// captured)"``, ...).
    #[getter]
    fn status_text(&self, py: Python<'_>) -> String {
        self.with(py, |s| s.status().to_string())
    }

    /// The side to move: ``"white"`` or ``"black"``.
    #[getter]
    fn side_to_move(&self, py: Python<'_>) -> &'static str {
        colour_name(self.with(py, |s| s.side_to_move()))
    }

    /// The probability that each square holds its piece (squares that may hold one; the
    /// others are empty for certain).
    fn probabilities(&self, py: Python<'_>) -> BTreeMap<String, f64> {
        let view = self.with(py, |s| s.board_view(false));
        view.board_squares()
            .filter_map(|sq| view.get(sq).map(|s| (sq.to_string(), s.probability)))
            .collect()
    }

    /// The piece that may stand on each square (FEN letter), for the squares
    /// ``probabilities()`` names.
    fn pieces(&self, py: Python<'_>) -> BTreeMap<String, char> {
        let view = self.with(py, |s| s.board_view(false));
        view.board_squares()
            .filter_map(|sq| view.get(sq).map(|s| (sq.to_string(), s.piece)))
            .collect()
    }

    /// The exact probability of each full-board measurement, named by its pieces and squares
    /// (``"Ke1 Na3 ..."``). ``None`` for Niel's Chess, whose squares have no qubits.
    fn board_distribution(&self, py: Python<'_>) -> Option<BTreeMap<String, f64>> {
        self.with(py, |s| s.board_distribution())
            .map(|d| d.into_iter().collect())
    }

    /// The Bell-operator expectations ``<O1>..<O8>`` of two different squares and their (same,
    /// opposite) correlation, as ``(expectations, same, opposite)``; ``None`` for Niel's Chess.
    /// One square twice raises ``NotationError``.
    fn bell(
        &self,
        py: Python<'_>,
        square1: &str,
        square2: &str,
    ) -> PyResult<Option<(Vec<f64>, f64, f64)>> {
        let (a, b) = (square(square1)?, square(square2)?);
        let pair = SquarePair::new(a, b).map_err(|e| NotationError::new_err(e.to_string()))?;
        Ok(self
            .with(py, |s| s.bell(pair))
            .map(|(o, (same, opposite))| (o.to_vec(), same, opposite)))
    }

    /// The current position in the ruleset's FEN.
    fn fen(&self, py: Python<'_>) -> String {
        self.with(py, |s| s.fen())
    }

    /// The game as a game file (``.qcg``/``.qng`` text) that replays exactly: the start
    /// position, the rule options and every move with its outcomes.
    fn record(&self, py: Python<'_>) -> String {
        self.with(py, |s| s.game_file(false))
    }

    /// The ruleset's extra facts (Quantum Chess: the draw rules' counters; Niel's Chess: the
    /// rule options, check), as the command line's JSON output gives them.
    fn extras<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        extras_dict(py, &self.with(py, |s| s.extras()))
    }

    /// The board as SVG: pieces with a ring whose arc is the probability (the picture
    /// ``qchess board --svg`` draws).
    ///
    /// Args:
    ///     links: also draw lines between strongly correlated squares.
    #[pyo3(signature = (links=false))]
    fn svg(&self, py: Python<'_>, links: bool) -> String {
        self.with(py, |s| board_svg::draw(&s.board_view(links)))
    }

    /// The board in SVG for Jupyter, which shows a game inline as its board (its circuit is
    /// :meth:`circuit_svg`; a ``Program`` shows its circuit).
    fn _repr_svg_(&self, py: Python<'_>) -> String {
        self.svg(py, false)
    }

    /// The board as text, with probabilities in percent (as ``qchess board`` prints it).
    fn text(&self, py: Python<'_>) -> String {
        self.with(py, |s| board_text::draw(&s.board_view(false)))
    }

    /// The game's circuit as text, as ``qchess draw`` draws it: moves labelled with their
    /// number and notation, only the wires the drawn instructions use.
    ///
    /// Args:
    ///     move: draw only this move (1 = the first; 0 = the set-up); default: the whole game.
    ///     all_wires: also draw the set-up wires of squares no move touches.
    ///     width: cut the drawing into bands of at most this many characters per line
    ///         (``qchess draw --width``); ``None`` or 0: one band, however wide.
    ///
    /// Raises:
    ///     IndexError: there is no move ``move``. DrawError: the circuit is too large to draw.
    #[pyo3(signature = (r#move=None, all_wires=false, width=None))]
    fn circuit_text(
        &self,
        py: Python<'_>,
        r#move: Option<usize>,
        all_wires: bool,
        width: Option<usize>,
    ) -> PyResult<String> {
        self.circuit_picture(py, r#move, all_wires, Picture::Text { width })
    }

    /// The game's circuit as SVG, as ``qchess draw --svg`` draws it (see :meth:`circuit_text`).
    ///
    /// Args:
    ///     move: draw only this move (1 = the first; 0 = the set-up); default: the whole game.
    ///     all_wires: also draw the set-up wires of squares no move touches.
    ///     width: fold the picture into rows at most this many pixels wide (default 1200, as
    ///         ``qchess draw``); 0: one row, however wide.
    ///
    /// Raises:
    ///     IndexError: there is no move ``move``. DrawError: the circuit is too large to draw.
    #[pyo3(signature = (r#move=None, all_wires=false, width=None))]
    fn circuit_svg(
        &self,
        py: Python<'_>,
        r#move: Option<usize>,
        all_wires: bool,
        width: Option<usize>,
    ) -> PyResult<String> {
        self.circuit_picture(py, r#move, all_wires, Picture::Svg { width })
    }

    fn __str__(&self, py: Python<'_>) -> String {
        self.text(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let (fen, rules, seed) = self.with(py, |s| (s.fen(), s.rules().name(), s.seed()));
        format!(
            "qchess.Game(fen={fen:?}, rules={rules:?}, backend={:?}, seed={seed})",
            self.backend_name,
        )
    }

    /// The number of basis states with a nonzero amplitude.
    fn state_size(&self, py: Python<'_>) -> usize {
        self.with(py, |s| s.state_size())
    }

    /// The names of the game circuit's qubits, indexed like the columns of ``state()``:
    /// squares (``"e4"``), then ancillas (``"path0"``, ``"cap1"``, ...).
    fn qubits(&self, py: Python<'_>) -> Vec<String> {
        self.with(py, |s| s.circuit().qubit_names())
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
        let (width, states) = self.with(py, |s| (s.circuit().num_qubits(), s.basis_states()));
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
    /// An argument left ``None`` takes ``qchess compile``'s default (the same for the web
    /// API): ``format="qasm3"``, ``form="dynamic"``, ``measure="board"``,
    /// ``dialect="portable"``, ``width="compact"``, ``optimize=True``.
    ///
    /// Args:
    ///     format: ``"qasm3"`` (default), ``"qasm2"``, ``"ir"`` (qchess's circuit text) or
    ///         ``"json"``.
    ///     form: ``"dynamic"`` (default: mid-circuit measurement and ``if``) or ``"deferred"``.
    ///     target: a hardware target (``"generic"``, ``"ibm"``, ``"google"``, ``"braket"``):
    ///         lowered to its native gates, refused when it has too few qubits.
    ///     measure: what the program measures at the end: ``"board"`` (default),
    ///         ``"squares"``, ``"none"``.
    ///     dialect: ``"portable"`` (default) or ``"extended"`` (Qiskit: ``ctrl @`` modifiers,
    ///         ``reset``).
    ///     width: ``"compact"`` (default: squares that take part) or ``"full"`` (all 64).
    ///     backends_dir: a folder of target files ``NAME.toml`` that add to (or override) the
    ///         bundled targets.
    ///     optimize: run the exact passes before export (default ``True``, as ``qchess
    ///         compile`` does: runs of gates recognised as one gate, single-qubit runs merged,
    ///         identities dropped, X-wrapped 0-controls read back, inverse pairs cancelled);
    ///         ``False`` exports the circuit exactly as the moves were lowered (``qchess
    ///         compile --no-optimize``).
    ///     properties: on a device target, the path of a calibration (IBM's BackendProperties
    ///         JSON or Google's calibration, as ``qchess compile --properties``): broken qubits
    ///         and couplers are never used and placement maximises the success probability.
    ///     seed: on a device target, the seed of the routing trials (default 0, as ``qchess
    ///         compile --seed``).
    ///     dd: on a device target, dynamical decoupling: ``"none"``, ``"xx"`` or ``"xy4"``
    ///         (default: the target's; needs ``properties`` for the durations, as ``qchess
    ///         compile --dd``).
    ///
    /// Raises:
    ///     OptionError: an unknown format, form, target, dd, ... OSError: the properties file
    ///     cannot be read. ExportError: the game cannot be compiled as asked (a calibration
    ///     for another device, ``dd`` without ``properties``, ...).
    // Every default is None, read from qc_front::COMPILE_DEFAULTS (the one declaration the
    // command line and the web API read too), not repeated here.
    #[pyo3(signature = (format=None, form=None, target=None, measure=None, dialect=None, width=None, backends_dir=None, optimize=None, properties=None, seed=None, dd=None))]
    #[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn compile(
        &self,
        py: Python<'_>,
        format: Option<&str>,
        form: Option<&str>,
        target: Option<&str>,
        measure: Option<&str>,
        dialect: Option<&str>,
        width: Option<&str>,
        backends_dir: Option<std::path::PathBuf>,
        optimize: Option<bool>,
        properties: Option<std::path::PathBuf>,
        seed: Option<u64>,
        dd: Option<&str>,
    ) -> PyResult<String> {
        let defaults = COMPILE_DEFAULTS.options;
        let options = ExportOptions {
            form: option_or(form, defaults.form)?,
            dialect: option_or(dialect, defaults.dialect)?,
            width: option_or(width, defaults.width)?,
            measure: option_or(measure, defaults.measure)?,
            optimize: optimize.unwrap_or(defaults.optimize),
        };
        let target = target
            .map(|name| load_target(name, backends_dir.as_deref()))
            .transpose()?;
        let format = option_or(format, COMPILE_DEFAULTS.format)?;
        let properties = properties
            .map(|path| {
                std::fs::read_to_string(&path)
                    .map_err(|e| PyOSError::new_err(format!("cannot read {}: {e}", path.display())))
            })
            .transpose()?;
        let device = qc_front::DeviceOptions {
            properties: properties.as_deref(),
            seed: seed.unwrap_or_default(),
            dd: dd.map(option).transpose()?,
            ..qc_front::DeviceOptions::default()
        };
        self.with(py, |s| {
            s.compile(format, &options, target.as_ref(), &device)
        })
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
        // Qiskit's importer reads OpenQASM 3.
        let text = self.board_program(py, "qasm3", form)?;
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
        // Cirq's importer reads OpenQASM 2.
        let text = self.board_program(py, "qasm2", form)?;
        importer.call_method1("circuit_from_qasm", (text,))
    }
}

/// An option spelled as the command line spells it, or an `OptionError`.
pub(crate) fn option<T: std::str::FromStr>(text: &str) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|e: T::Err| OptionError::new_err(e.to_string()))
}

/// An option given (spelled as the command line spells it), else `default`.
fn option_or<T: std::str::FromStr>(text: Option<&str>, default: T) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    text.map_or(Ok(default), option)
}

/// The hardware target `name`.
fn load_target(name: &str, dir: Option<&std::path::Path>) -> PyResult<Target> {
    Target::find(name, dir).map_err(|e| raise::<OptionError>(&format!("target {name}"), &e))
}

/// Imports `module`, or raises an ImportError that names the package to install.
pub(crate) fn import<'py>(
    py: Python<'py>,
    module: &str,
    package: &str,
) -> PyResult<Bound<'py, PyModule>> {
    py.import(module).map_err(|e| {
        PyImportError::new_err(format!(
            "{module} is needed: install the package `{package}` (pip install {package}): {e}"
        ))
    })
}
