"""qchess: Quantum Chess as real quantum circuits. Play games of Cantwell's Quantum Chess or
Niel's Chess on exact simulators, draw them, compile them to OpenQASM and read device counts
back into a board (the Rust extension module ``qchess._qchess``); run seeded batch studies of
many games on all cores or on a Ray cluster (``qchess.study``, ``python -m qchess.study``).
See docs/python.md."""

from qchess._qchess import (
    BoardEstimate,
    CountsError,
    DrawError,
    ExportError,
    Game,
    IllegalMove,
    Move,
    NotationError,
    OptionError,
    Program,
    ProgramError,
    QchessError,
    SimulationError,
    __version__,
    counts,
    num_threads,
    run,
)

__all__ = [
    "BoardEstimate",
    "CountsError",
    "DrawError",
    "ExportError",
    "Game",
    "IllegalMove",
    "Move",
    "NotationError",
    "OptionError",
    "Program",
    "ProgramError",
    "QchessError",
    "SimulationError",
    "__version__",
    "counts",
    "num_threads",
    "run",
]
