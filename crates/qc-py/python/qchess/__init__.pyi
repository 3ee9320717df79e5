"""Quantum Chess as real quantum circuits, from Python.

Play Quantum Chess (Cantwell's rules) or Niel's Chess on qchess's exact simulators, draw the
board, read the quantum state as NumPy arrays, compile a game to OpenQASM (or a Qiskit/Cirq
circuit) and read a device's counts back into a board. See docs/python.md.
"""

import os
from typing import Dict, List, Literal, Optional, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

class QchessError(Exception):
    """Base class of every error qchess raises."""

class NotationError(QchessError):
    """A move, a position (FEN), a square or a game file that does not parse."""

    file: str
    """Set when raised by ``Game.load``: the game file."""
    line: Optional[int]
    """Set when raised by ``Game.load``: the 1-based line of the mistake (None: no place)."""
    column: Optional[int]
    """Set when raised by ``Game.load``: the 1-based column of the mistake (None: no place)."""

class IllegalMove(QchessError):
    """A move the rules refuse in the current position (or an undo with no move to take back)."""

    file: str
    """Set when raised by ``Game.load``: the game file."""
    line: Optional[int]
    """Set when raised by ``Game.load``: the 1-based line of the refused move."""
    column: Optional[int]
    """Set when raised by ``Game.load``: the 1-based column of the refused move."""

class OptionError(QchessError):
    """An unknown ruleset, backend, format, form, target, rule option or mitigation."""

class ExportError(QchessError):
    """A game that cannot be compiled as asked (e.g. more qubits than the target has)."""

class ProgramError(QchessError):
    """An OpenQASM program that cannot be read or simulated."""

class CountsError(QchessError):
    """Device counts that do not fit the program, or a program without a board map."""

class SimulationError(QchessError):
    """A simulator failure (e.g. its memory limit), reported instead of a crash."""

class DrawError(QchessError):
    """A circuit too large to draw (draw one move, or a smaller circuit)."""

_Path = Union[str, "os.PathLike[str]"]

class Move:
    """A move as played: its text with every outcome written in (so it replays exactly), its
    kind, what happened in words, and the ruleset's own fields."""

    text: str
    """The move with its outcomes written in, e.g. ``b1^a3c3`` or ``a3xb5.m1``."""
    kind: str
    """``jump``, ``slide``, ``split_jump``, ... (Quantum Chess); ``move``, ``capture``, ... (Niel's)."""
    quantum: bool
    """A split or a merge (Quantum Chess); a move other than a classical step, capture or
    castling (Niel's Chess)."""
    outcome_notation: Optional[str]
    """The outcomes written in ``text`` (``.m1``, Niel's ``[e6]``); None when nothing was drawn."""
    detail: str
    """What happened, in words (the command line's column)."""
    instructions: Tuple[int, int]
    """The instructions it added, as ``(start, end)`` indices of the game circuit."""
    extras: Dict[str, object]
    """The ruleset's own fields (as in the command line's JSON output)."""
    @property
    def type(self) -> str:
        """The move's type (the same as ``kind``)."""
    @property
    def outcome(self) -> Union[int, str, None]:
        """0 or 1 for a measured Quantum Chess move; the rolled squares for Niel's Chess; None
        when nothing was sampled."""
    @property
    def outcome_probability(self) -> Optional[float]:
        """The probability the outcome had just before the measurement (None: nothing measured)."""
    @property
    def variant(self) -> Optional[str]:
        """Quantum Chess: ``basic``, ``capture``, ``excluded``, ..."""
    @property
    def measured(self) -> Optional[bool]:
        """Quantum Chess: whether a measurement was made."""
    @property
    def applied(self) -> Optional[bool]:
        """Quantum Chess: whether the move took effect (no measurement, or outcome 1)."""

class Game:
    """A game of Quantum Chess (Cantwell's rules, QCAN moves) or Niel's Chess, played on one
    of qchess's simulators with exact probabilities.

    Args:
        fen: the start position in the ruleset's FEN (default: the standard start).
        rules: ``"cantwell"`` (Quantum Chess) or ``"niels"`` (Niel's Chess).
        backend: ``"sparse"`` (default), ``"dense"`` or ``"reference"``.
        seed: seed for the outcomes of moves played without one (default: random); the same
            seed gives the same game as the command line's ``--seed``.
        variant: Niel's Chess rule options (``"full"``, ``"hadamard"``, ``"full+hadamard"``, ...).

    A ``Game`` may be shared by threads: its calls are serialised by a lock, and the long ones
    release the GIL.
    """

    def __init__(
        self,
        fen: Optional[str] = None,
        rules: Literal["cantwell", "niels"] = "cantwell",
        backend: Literal["sparse", "dense", "reference"] = "sparse",
        seed: Optional[int] = None,
        variant: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def load(
        path: _Path,
        rules: Optional[Literal["cantwell", "niels"]] = None,
        backend: Literal["sparse", "dense", "reference"] = "sparse",
        seed: Optional[int] = None,
        variant: Optional[str] = None,
    ) -> "Game":
        """Loads a game file (``.qcg`` Quantum Chess, ``.qng`` Niel's Chess; else by its tags)
        and replays it, as the command line reads it.

        Raises OSError (cannot read), NotationError (does not parse) or IllegalMove (a move
        refused), the last two with ``file``, ``line`` and ``column``."""
    def save(self, path: _Path) -> None:
        """Writes the game file ``load`` replays exactly (with the loaded file's tags).

        Raises OptionError for the other ruleset's extension, OSError when it cannot write."""
    @property
    def rules(self) -> str:
        """``"cantwell"`` or ``"niels"``."""
    @property
    def backend(self) -> str:
        """``"sparse"``, ``"dense"`` or ``"reference"``."""
    @property
    def seed(self) -> int:
        """The seed of the outcomes sampled."""
    @property
    def status(self) -> str:
        """``ongoing``, ``white_wins``, ``black_wins``, ``draw``, ``stalemate``,
        ``draw_fifty_moves``, ``draw_repetition`` or ``draw_insufficient_material``."""
    @property
    def status_text(self) -> str:
        """The status in words, as the command line writes it (``"game on"``, ...)."""
    @property
    def side_to_move(self) -> Literal["white", "black"]:
        """The side to move."""
    def play(self, move: str, outcome: Union[int, str, List[str], None] = None) -> Move:
        """Plays a move in the ruleset's notation; ``outcome`` forces its measurement's outcome
        (0/1 for Quantum Chess, the rolled square(s) for Niel's Chess).

        Raises NotationError (does not parse), IllegalMove (refused; nothing changes) or
        TypeError (an outcome of the other ruleset's shape, or not 0, 1 or squares)."""
    def undo(self) -> Move:
        """Takes back the last move exactly; raises IllegalMove when there is none."""
    @overload
    def legal_moves(self, kinds: Literal[False] = False) -> List[str]: ...
    @overload
    def legal_moves(self, kinds: Literal[True]) -> List[Tuple[str, str]]: ...
    def moves(self) -> List[Move]:
        """The moves played so far."""
    def probabilities(self) -> Dict[str, float]:
        """Square -> probability that it holds its piece (squares that may hold one)."""
    def pieces(self) -> Dict[str, str]:
        """Square -> the piece (FEN letter) that may stand there."""
    def board_distribution(self) -> Optional[Dict[str, float]]:
        """Full-board measurement (``"Ke1 Na3 ..."``) -> exact probability; None for Niel's Chess."""
    def bell(self, square1: str, square2: str) -> Optional[Tuple[List[float], float, float]]:
        """Bell expectations ``<O1>..<O8>`` and the (same, opposite) correlation of two
        different squares (one square twice raises NotationError); None for Niel's Chess."""
    def fen(self) -> str:
        """The current position in the ruleset's FEN."""
    def record(self) -> str:
        """The game file text that replays the game exactly."""
    def extras(self) -> Dict[str, object]:
        """The ruleset's extra facts (as the command line's JSON output gives them)."""
    def svg(self, links: bool = False) -> str:
        """The board as SVG (pieces with probability rings); ``links``: lines between
        strongly correlated squares."""
    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter."""
    def text(self) -> str:
        """The board as text, probabilities in percent."""
    def circuit_text(
        self, move: Optional[int] = None, all_wires: bool = False, width: Optional[int] = None
    ) -> str:
        """The game's circuit (or move ``move``'s; 0 = the set-up) as text, as ``qchess draw``
        draws it; ``width``: characters per band (None or 0: one band).

        Raises IndexError (no such move) or DrawError (too large to draw)."""
    def circuit_svg(
        self, move: Optional[int] = None, all_wires: bool = False, width: Optional[int] = None
    ) -> str:
        """The game's circuit as SVG, as ``qchess draw --svg`` draws it; ``width``: pixels per
        row (default 1200; 0: one row).

        Raises IndexError (no such move) or DrawError (too large to draw)."""
    def state_size(self) -> int:
        """The number of basis states with a nonzero amplitude."""
    def qubits(self) -> List[str]:
        """The names of the circuit's qubits, the columns of ``state()``."""
    def state(self) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.complex128]]:
        """``(basis, amplitudes)``: one 0/1 row per basis state with a nonzero amplitude (one
        column per qubit), and its amplitude; the squared magnitudes add up to 1."""
    def compile(
        self,
        format: Optional[Literal["qasm3", "qasm2", "ir", "json"]] = None,
        form: Optional[Literal["dynamic", "deferred"]] = None,
        target: Optional[str] = None,
        measure: Optional[Literal["board", "squares", "none"]] = None,
        dialect: Optional[Literal["portable", "extended"]] = None,
        width: Optional[Literal["compact", "full"]] = None,
        backends_dir: Optional[str] = None,
        optimize: Optional[bool] = None,
        properties: Optional[_Path] = None,
        seed: Optional[int] = None,
        dd: Optional[Literal["none", "xx", "xy4"]] = None,
    ) -> str:
        """The whole game as one program (what ``qchess compile`` writes), with the recorded
        outcomes for post-selection and the board map in its header. An argument left ``None``
        takes ``qchess compile``'s default: ``format="qasm3"``, ``form="dynamic"``,
        ``measure="board"``, ``dialect="portable"``, ``width="compact"``, ``optimize=True``
        (no target). ``optimize=False`` skips the exact passes that run before export
        (``qchess compile --no-optimize``). On a device target, ``properties`` (a calibration
        file), ``seed`` (of the routing trials, default 0) and ``dd`` (dynamical decoupling,
        default the target's; needs ``properties``) are ``qchess compile``'s ``--properties``,
        ``--seed`` and ``--dd``.

        Raises OptionError (unknown option), OSError (the properties file cannot be read) or
        ExportError (cannot compile as asked)."""
    def to_qiskit(self, form: Literal["dynamic", "deferred"] = "dynamic") -> object:
        """The game as a ``qiskit.QuantumCircuit`` with the board measured at the end.

        Raises ImportError naming the package when Qiskit or qiskit-qasm3-import is missing."""
    def to_cirq(self, form: Literal["dynamic", "deferred"] = "deferred") -> object:
        """The game as a ``cirq.Circuit`` (through OpenQASM 2) with the board measured at the end.

        Raises ImportError naming the package when cirq-core is missing."""

class BoardEstimate:
    """The board estimated from a device's counts (``qchess.counts``)."""

    @property
    def shots(self) -> int:
        """Shots read."""
    @property
    def kept(self) -> int:
        """Shots kept by the mitigations."""
    @property
    def discarded(self) -> Dict[str, int]:
        """Shots discarded, by reason."""
    @property
    def tvd(self) -> Optional[float]:
        """Total variation distance to the exact board (``exact=True``)."""
    @property
    def no_board(self) -> Optional[str]:
        """Why there is no board (the program names no square: a Niel's Chess program measures
        only its dice rolls), else ``None``."""
    def probabilities(self) -> Dict[str, float]:
        """Square -> estimated probability that it is occupied."""
    def stderr(self) -> Dict[str, float]:
        """Square -> standard error of its probability."""
    def pieces(self) -> Dict[str, Optional[str]]:
        """Square -> its piece (FEN letter), when the map knows it."""
    def exact(self) -> Optional[Dict[str, float]]:
        """Square -> exact probability (``exact=True``)."""

class Program:
    """A circuit file of any format ``qchess run`` reads (OpenQASM 2 or 3, qchess's IR text or
    JSON; told apart by content), read and verified as the command line reads it.

    Raises ProgramError when the text does not parse (the message says where) or is not a
    well-formed circuit."""

    def __init__(self, text: str, name: str = "program") -> None: ...
    @staticmethod
    def load(path: _Path) -> "Program":
        """Reads the circuit file ``path``; raises OSError or ProgramError."""
    @property
    def name(self) -> str:
        """Its name in messages (the path it was loaded from)."""
    @property
    def text(self) -> str:
        """The program text."""
    @property
    def num_qubits(self) -> int:
        """The number of qubits."""
    @property
    def num_clbits(self) -> int:
        """The number of classical bits (the outcome keys' length)."""
    def draw(self, width: Optional[int] = None, as_written: bool = False) -> str:
        """The circuit as text, as ``qchess draw --circuit`` draws it."""
    def svg(self, width: Optional[int] = None, as_written: bool = False) -> str:
        """The circuit as SVG, as ``qchess draw --circuit --svg`` draws it."""
    def _repr_svg_(self) -> str:
        """The circuit as SVG, for Jupyter."""
    def to_qiskit(self) -> object:
        """The program as a ``qiskit.QuantumCircuit`` (qchess's OpenQASM 3 of it, as read, through
        ``qiskit.qasm3.loads``). Raises ImportError naming the package when Qiskit or
        qiskit-qasm3-import is missing."""
    @overload
    def run(
        self,
        shots: None = None,
        seed: int = 0,
        backend: Literal["sparse", "dense", "reference"] = "sparse",
        optimize: bool = True,
    ) -> Dict[str, float]: ...
    @overload
    def run(
        self,
        shots: int,
        seed: int = 0,
        backend: Literal["sparse", "dense", "reference"] = "sparse",
        optimize: bool = True,
        noise: Union[str, "os.PathLike[str]", None] = None,
    ) -> Dict[str, int]:
        """``shots`` samples (``qchess run --shots``); with ``noise`` (a device calibration's
        path, IBM BackendProperties JSON) each shot a noisy Monte-Carlo trajectory, the same
        counts as ``qchess run --noise FILE --shots N --seed S``."""

def num_threads() -> int:
    """The threads qchess's simulators use in this process: ``QCHESS_NUM_THREADS``, else
    ``RAYON_NUM_THREADS``, else ``OMP_NUM_THREADS`` (Ray sets it for its workers), else the CPUs
    the process may run on; read once, when ``qchess`` is imported."""

def run(
    program: str,
    backend: Literal["sparse", "dense", "reference"] = "sparse",
    optimize: bool = True,
) -> Dict[str, float]:
    """The exact probability of every outcome of a program (OpenQASM 2 or 3, IR text or JSON): bit string
    (Qiskit's order, ``c[0]`` rightmost) -> probability, as ``qchess run`` gives it.
    ``optimize=False`` skips the exact passes ``qchess run`` runs first and simulates the
    program exactly as written, user gates gate by gate from their bodies
    (``qchess run --no-optimize``)."""

def counts(
    program: str,
    counts: Union[Dict[str, int], str],
    mitigate: str = "postselect,symmetry",
    calibration: Optional[str] = None,
    counts_format: Optional[Literal["qiskit", "braket", "csv"]] = None,
    exact: bool = False,
) -> BoardEstimate:
    """The board from a device's counts of a program ``Game.compile`` wrote (the same code as
    ``qchess counts``). Raises CountsError when the counts do not fit the program."""
