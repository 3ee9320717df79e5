# The Rust extension module: the classes and functions of `qchess` (see __init__.pyi), and the
# Rust half of `qchess.study`.
from typing import List, Optional

from qchess import *  # noqa: F401,F403
from qchess import QchessError as QchessError

def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a study seeded ``seed`` (output ``index`` of SplitMix64
    started at ``seed``)."""

def study_random_games(
    seed: int,
    first: int,
    count: int,
    plies: int,
    rules: str = "cantwell",
    backend: str = "sparse",
    variant: Optional[str] = None,
    engine_depth: Optional[int] = None,
) -> List[str]:
    """Games ``first .. first + count`` of a study from the start position (random moves, or the
    engine's to ``engine_depth``), each record as JSON text."""

def study_game_file(
    path: str,
    seed: int,
    index: int,
    plies: int = 0,
    rules: Optional[str] = None,
    backend: str = "sparse",
    variant: Optional[str] = None,
    engine_depth: Optional[int] = None,
) -> str:
    """The game file ``path`` as game ``index`` of a study, its record as JSON text."""
