"""Seeded batch studies of many games: per-game statistics and their summary.

A study plays ``games`` random games of up to ``plies`` plies from the start position (or engine
self-play games, ``engine_depth``; or replays game files), game ``i`` seeded with ``game_seed(seed, i)``, and records for each game its plies,
quantum moves (splits and merges; Niel's quantum moves), measurements (moves whose outcome was
sampled or forced), largest state (basis states), final probabilities, result and moves. The
games run in Rust, a chunk of games per call with the GIL released, so that threads
(``workers``) and Ray tasks (``ray``) run them on all cores; the records come back in index
order whoever played them, so the same seed gives the same records and the same summary
serially, on threads and on Ray.

From the command line::

    python -m qchess.study --games 40 --plies 30 --seed 4 [--json]
        [--workers K | --local-ray K | --ray ADDRESS] [--out FILE.jsonl | FILE.parquet]
    python -m qchess.study --files a.qcg b.qcg --seed 4
    python -m qchess.study --games 10 --plies 20 --engine-depth 1 --seed 4

prints the summary (``--json``: as JSON) and streams the records to ``--out``. See docs/scale.md.
"""

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import socket
import sys
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from qchess import _qchess
from qchess._qchess import QchessError, game_seed

__all__ = ["Summary", "game_seed", "records", "run", "main"]

# Games per call into Rust: large enough that the call's cost is nothing beside the games',
# small enough that the workers share the work evenly and records stream out steadily.
CHUNK_MAX = 16
# Plies a random game may be asked for: a bound on the work of one game.
PLIES_MAX = 100_000
# Games one study may be asked for.
GAMES_MAX = 10**9
# The deepest engine search a self-play study may ask for (Rust checks the same bound).
ENGINE_DEPTH_MAX = 4

Record = Dict[str, Any]


class StudyError(ValueError):
    """A study asked for something it cannot do (a bad count, a missing optional package)."""


def _random_chunk(
    seed: int,
    first: int,
    count: int,
    plies: int,
    rules: str,
    backend: str,
    variant: Optional[str],
    engine_depth: Optional[int] = None,
) -> List[Record]:
    """Games ``first .. first + count`` of the study from the start position: one call into Rust
    (GIL released)."""
    texts = _qchess.study_random_games(seed, first, count, plies, rules, backend, variant, engine_depth)
    return [json.loads(text) for text in texts]


def _file_chunk(
    seed: int,
    files: Sequence[Tuple[int, str]],
    plies: int,
    rules: Optional[str],
    backend: str,
    variant: Optional[str],
    engine_depth: Optional[int] = None,
) -> List[Record]:
    """The games of ``files`` ((index, path) pairs), each replayed in Rust with the GIL released."""
    return [
        json.loads(_qchess.study_game_file(path, seed, index, plies, rules, backend, variant, engine_depth))
        for index, path in files
    ]


def _tasks(
    games: Optional[int],
    files: Optional[Sequence[str]],
    plies: int,
    seed: int,
    rules: Optional[str],
    backend: str,
    variant: Optional[str],
    chunk: int,
    engine_depth: Optional[int] = None,
) -> Iterator[Tuple[Callable[..., List[Record]], tuple]]:
    """The study cut into chunks of at most ``chunk`` games: (function, arguments) pairs."""
    if files is not None:
        numbered = list(enumerate(str(f) for f in files))
        for first in range(0, len(numbered), chunk):
            yield _file_chunk, (seed, numbered[first : first + chunk], plies, rules, backend, variant, engine_depth)
    else:
        for first in range(0, games or 0, chunk):
            count = min(chunk, games - first)
            yield _random_chunk, (seed, first, count, plies, rules or "cantwell", backend, variant, engine_depth)


def _in_order(
    tasks: Iterable[Tuple[Callable[..., List[Record]], tuple]],
    submit: Callable[[Callable[..., List[Record]], tuple], Any],
    result: Callable[[Any], List[Record]],
    window: int,
) -> Iterator[Record]:
    """The records of ``tasks`` in order, with at most ``window`` chunks submitted and not yet
    read (memory bounded whatever the number of games)."""
    pending: collections.deque = collections.deque()
    for function, args in tasks:
        pending.append(submit(function, args))
        if len(pending) >= window:
            yield from result(pending.popleft())
    while pending:
        yield from result(pending.popleft())


def _plies(plies: Optional[int], files: Optional[Sequence[str]]) -> int:
    """The random plies of each game: as given, else 40 for random games and 0 after files."""
    if plies is not None:
        return plies
    return 40 if files is None else 0


def _check(
    games: Optional[int],
    files: Optional[Sequence[str]],
    plies: int,
    workers: int,
    engine_depth: Optional[int] = None,
) -> None:
    if (games is None) == (files is None):
        raise StudyError("give either games (random games) or files (game files), not both")
    if games is not None and not 1 <= games <= GAMES_MAX:
        raise StudyError(f"games must be between 1 and {GAMES_MAX} (got {games})")
    if files is not None and not files:
        raise StudyError("files is empty: give at least one game file")
    if not 0 <= plies <= PLIES_MAX:
        raise StudyError(f"plies must be between 0 and {PLIES_MAX} (got {plies})")
    if workers < 1:
        raise StudyError(f"workers must be at least 1 (got {workers})")
    if engine_depth is not None and not 1 <= engine_depth <= ENGINE_DEPTH_MAX:
        raise StudyError(f"engine_depth must be between 1 and {ENGINE_DEPTH_MAX} (got {engine_depth})")


def records(
    games: Optional[int] = None,
    plies: Optional[int] = None,
    seed: int = 0,
    *,
    files: Optional[Sequence[str]] = None,
    rules: Optional[str] = None,
    backend: str = "sparse",
    variant: Optional[str] = None,
    workers: int = 1,
    ray: bool = False,
    engine_depth: Optional[int] = None,
) -> Iterator[Record]:
    """The records of a study's games, in index order, as they are played.

    Args:
        games: the number of random games (from the start position).
        plies: the random plies of each game (fewer when it ends first; default 40); after a
            file's moves when ``files`` is given (default 0).
        seed: the study's seed; game ``i`` is seeded with ``game_seed(seed, i)``.
        files: game files to replay instead of random games (outcomes not written in are drawn
            with the game's seed).
        rules, backend, variant: as ``qchess.Game`` takes them (a file's ruleset by default is
            its extension's, else its tags').
        workers: threads playing chunks of games at once (1: serially in this thread).
        ray: play the chunks as Ray tasks (one CPU each) on the cluster ``ray.init()`` joined
            (Ray starts a local one if none).
        engine_depth: engine self-play: every ply (after a file's moves) is qc-engine's choice
            for the side to move, a search to this depth (1 to 4, at most 200000 positions per
            move, no clock: the same game on any machine); ``None`` (default): random moves.

    Raises:
        StudyError: a bad count. qchess errors and OSError: a game file that does not read.
    """
    plies = _plies(plies, files)
    _check(games, files, plies, workers, engine_depth)
    parallel = 0 if not ray and workers == 1 else max(workers, 1)
    if ray:
        import ray as ray_module

        parallel = max(int(ray_module.cluster_resources().get("CPU", 1)), 1)
    total = games if games is not None else len(files or ())
    chunk = max(1, min(CHUNK_MAX, -(-total // max(parallel * 4, 1))))
    tasks = _tasks(games, files, plies, seed, rules, backend, variant, chunk, engine_depth)
    if ray:
        remote = {f: ray_module.remote(num_cpus=1)(f) for f in (_random_chunk, _file_chunk)}
        yield from _in_order(
            tasks,
            lambda f, args: remote[f].remote(*args),
            ray_module.get,
            window=2 * parallel,
        )
    elif parallel == 0:
        for function, args in tasks:
            yield from function(*args)
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            yield from _in_order(
                tasks,
                lambda f, args: pool.submit(f, *args),
                lambda future: future.result(),
                window=2 * workers,
            )


class Summary:
    """The summary of a study, added up from its records in index order: totals, means and
    maxima of the statistics, the results, and a fingerprint (SHA-256) of every record, so that
    two equal summaries mean equal games."""

    def __init__(self, study: Dict[str, Any]):
        self.study = study
        self.games = 0
        self.totals: Dict[str, int] = collections.Counter()
        self.maxima: Dict[str, int] = collections.Counter()
        self.results: Dict[str, int] = collections.Counter()
        self._hash = hashlib.sha256()

    STATISTICS = ("plies", "quantum_moves", "measurements", "largest_state", "superposed_squares")

    def add(self, record: Record) -> None:
        """Counts one game's record (records must come in index order)."""
        self.games += 1
        values = dict(record)
        values["superposed_squares"] = sum(
            1 for p in record["probabilities"].values() if 0.0 < p < 1.0
        )
        for name in self.STATISTICS:
            self.totals[name] += values[name]
            self.maxima[name] = max(self.maxima[name], values[name])
        self.results[record["result"]] += 1
        self._hash.update(json.dumps(record, sort_keys=True).encode())
        self._hash.update(b"\n")

    def as_dict(self) -> Dict[str, Any]:
        """The summary as plain data (what ``--json`` prints)."""
        return {
            "study": self.study,
            "games": self.games,
            **{
                name: {
                    "total": self.totals[name],
                    "mean": self.totals[name] / self.games if self.games else 0.0,
                    "max": self.maxima[name],
                }
                for name in self.STATISTICS
            },
            "results": dict(sorted(self.results.items())),
            "fingerprint": "sha256:" + self._hash.hexdigest(),
        }

    def text(self) -> str:
        """The summary in words (what ``python -m qchess.study`` prints)."""
        d = self.as_dict()
        s = d["study"]
        mover = "random" if s.get("engine_depth") is None else f"engine (depth {s['engine_depth']})"
        what = (
            f"{d['games']} {mover} games of up to {s['plies']} plies"
            if s["files"] is None
            else f"{d['games']} game files (then up to {s['plies']} {mover} plies)"
        )
        lines = [f"study: {what}, seed {s['seed']} ({s['rules'] or 'rules by file'}, {s['backend']})"]
        words = {
            "plies": "plies",
            "quantum_moves": "quantum moves",
            "measurements": "measurements",
            "largest_state": "largest state (basis states)",
            "superposed_squares": "squares in superposition at the end",
        }
        for name, label in words.items():
            v = d[name]
            lines.append(f"{label:<37} mean {v['mean']:.2f}, max {v['max']}, total {v['total']}")
        results = ", ".join(f"{k} {n}" for k, n in d["results"].items())
        lines.append(f"{'results':<37} {results}")
        lines.append(f"{'fingerprint':<37} {d['fingerprint']}")
        return "\n".join(lines)


class _Writer:
    """Streams records to a JSONL file or (with pyarrow) a Parquet file."""

    @staticmethod
    def check(path: str) -> Any:
        """Refuses a path that is neither ``.jsonl`` nor ``.parquet``, and Parquet without
        pyarrow; returns pyarrow for Parquet, else ``None``."""
        if path.endswith(".jsonl"):
            return None
        if not path.endswith(".parquet"):
            raise StudyError(f"--out {path}: the file must end in .jsonl or .parquet")
        try:
            import pyarrow
            import pyarrow.parquet
        except ImportError:
            raise StudyError(
                f"--out {path}: Parquet needs pyarrow: pip install pyarrow "
                "(or pip install './crates/qc-py[parquet]'), or write FILE.jsonl"
            ) from None
        return pyarrow

    def __init__(self, path: str):
        self.path = path
        pyarrow = _Writer.check(path)
        self.parquet = pyarrow is not None
        if self.parquet:
            self._pa = pyarrow
            self.schema = pyarrow.schema(
                [
                    ("index", pyarrow.uint64()),
                    ("seed", pyarrow.uint64()),
                    ("source", pyarrow.string()),
                    ("rules", pyarrow.string()),
                    ("plies", pyarrow.int64()),
                    ("quantum_moves", pyarrow.int64()),
                    ("measurements", pyarrow.int64()),
                    ("largest_state", pyarrow.int64()),
                    ("final_state", pyarrow.int64()),
                    ("result", pyarrow.string()),
                    ("probabilities", pyarrow.map_(pyarrow.string(), pyarrow.float64())),
                    ("moves", pyarrow.list_(pyarrow.string())),
                ]
            )
            self._writer = pyarrow.parquet.ParquetWriter(path, self.schema)
            self._batch: List[Record] = []
        else:
            self._file = open(path, "w", encoding="utf-8")

    def write(self, record: Record) -> None:
        if self.parquet:
            self._batch.append(record)
            if len(self._batch) >= 1024:
                self._flush()
        else:
            self._file.write(json.dumps(record, sort_keys=True) + "\n")

    def _flush(self) -> None:
        if self._batch:
            rows = [dict(r, probabilities=list(r["probabilities"].items())) for r in self._batch]
            self._writer.write_table(self._pa.Table.from_pylist(rows, schema=self.schema))
            self._batch = []

    def close(self) -> None:
        if self.parquet:
            self._flush()
            self._writer.close()
        else:
            self._file.close()


def run(
    games: Optional[int] = None,
    plies: Optional[int] = None,
    seed: int = 0,
    *,
    out: Optional[str] = None,
    **options: Any,
) -> Summary:
    """Plays a study and returns its :class:`Summary`; ``out`` (``.jsonl``, or ``.parquet`` with
    pyarrow) receives every record as it comes. The other arguments (``files``, ``rules``,
    ``backend``, ``variant``, ``workers``, ``ray``, ``engine_depth``) are those of :func:`records`."""
    files = options.get("files")
    study = {
        "games": games,
        "files": None if files is None else len(files),
        "plies": _plies(plies, files),
        "seed": seed,
        "rules": options.get("rules") or (None if files is not None else "cantwell"),
        "backend": options.get("backend", "sparse"),
        "variant": options.get("variant"),
    }
    if options.get("engine_depth") is not None:
        # Only engine studies say so, so that a random study's summary stays as it was.
        study["engine_depth"] = options["engine_depth"]
    _check(games, files, study["plies"], options.get("workers", 1), options.get("engine_depth"))  # before `out` is made
    summary = Summary(study)
    writer = _Writer(out) if out else None
    try:
        for record in records(games, plies, seed, **options):
            summary.add(record)
            if writer:
                writer.write(record)
    finally:
        if writer:
            writer.close()
    return summary


def _count(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {low} to {high}, got {value}")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m qchess.study",
        description="A seeded batch of Quantum Chess games (random, engine self-play, or game files): per-game "
        "statistics and their summary. The same seed gives the same summary serially, on "
        "threads and on Ray.",
        epilog="example: python -m qchess.study --games 40 --plies 30 --seed 4 --workers 2",
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--games", type=_count(1, GAMES_MAX), help="random games from the start")
    source.add_argument("--files", nargs="+", metavar="FILE", help="game files (.qcg, .qng) to replay")
    p.add_argument(
        "--plies",
        type=_count(0, PLIES_MAX),
        help="random plies a game (default 40; after a file's moves: 0)",
    )
    p.add_argument(
        "--engine-depth",
        type=_count(1, ENGINE_DEPTH_MAX),
        metavar="D",
        help="engine self-play: each ply is qc-engine's choice, a search to depth D (1-4; no clock)",
    )
    p.add_argument("--seed", type=_count(0, 2**64 - 1), default=0, help="the study's seed (default 0)")
    p.add_argument("--rules", choices=["cantwell", "niels"], help="the ruleset (default cantwell; files: by file)")
    p.add_argument("--backend", choices=["sparse", "dense", "reference"], default="sparse")
    p.add_argument("--variant", help="Niel's Chess rule options (full, hadamard, full+hadamard, ...)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--out", metavar="FILE", help="stream every game's record to FILE.jsonl or FILE.parquet")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_count(1, 4096), default=1, help="threads (default 1: serial)")
    where.add_argument(
        "--local-ray", type=_count(1, 4096), metavar="K", help="start a local Ray cluster of K CPUs and run on it"
    )
    where.add_argument("--ray", metavar="ADDRESS", help="run on the Ray cluster at ADDRESS (e.g. 10.0.0.1:6379, auto)")
    return p


def _answers(address: Optional[str], seconds: float = 10.0) -> None:
    """Refuses a ``HOST:PORT`` where nothing answers within ``seconds``: ``ray.init`` would wait
    for it without end."""
    if not address or address == "auto" or "://" in address:
        return
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=seconds).close()
    except ValueError:
        raise StudyError(f"--ray {address}: expected HOST:PORT (e.g. 10.0.0.1:6379) or auto") from None
    except OSError as e:
        raise StudyError(f"--ray {address}: nothing answers there ({e}): is the Ray cluster running?") from None


def _start_ray(local: Optional[int], address: Optional[str]) -> Any:
    try:
        import ray
    except ImportError:
        flag = "--local-ray" if local is not None else "--ray"
        raise StudyError(
            f"{flag} needs Ray, which is not installed: pip install ray "
            "(or, from the source tree, pip install './crates/qc-py[ray]')"
        ) from None
    if local is not None:
        ray.init(address="local", num_cpus=local, include_dashboard=False, logging_level="ERROR")
    else:
        _answers(address)
        try:
            ray.init(address=address, logging_level="ERROR")
        except (ConnectionError, ValueError, RuntimeError) as e:
            raise StudyError(
                f"--ray {address}: cannot join the Ray cluster: {e} (is it running? A cluster "
                "with token authentication, Ray's default, needs RAY_AUTH_MODE=token and its "
                "token, ~/.ray/auth_token; on the head node --ray auto finds both)"
            ) from None
    return ray


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m qchess.study``: exit 0, or 2 for bad arguments and unreadable game files."""
    parser = _parser()
    args = parser.parse_args(argv)
    ray = None
    started = time.perf_counter()
    try:
        if args.out:
            _Writer.check(args.out)  # before Ray starts and any game is played
        if args.local_ray is not None or args.ray is not None:
            ray = _start_ray(args.local_ray, args.ray)
        summary = run(
            args.games,
            args.plies,
            args.seed,
            files=args.files,
            rules=args.rules,
            backend=args.backend,
            variant=args.variant,
            workers=args.workers,
            ray=ray is not None,
            out=args.out,
            engine_depth=args.engine_depth,
        )
    except (StudyError, QchessError, OSError) as e:
        print(f"{parser.prog}: {e}", file=sys.stderr)
        return 2
    finally:
        if ray is not None:
            ray.shutdown()
    seconds = time.perf_counter() - started
    print(json.dumps(summary.as_dict(), indent=2, sort_keys=True) if args.json else summary.text())
    where = (
        f"Ray ({args.local_ray} local CPUs)"
        if args.local_ray
        else f"Ray at {args.ray}" if args.ray else f"{args.workers} thread(s)"
    )
    print(
        f"{summary.games} games in {seconds:.2f} s ({summary.games / seconds:.1f} games/s) on {where}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
