"""The cost of one play call from Python, against the Rust API and the command line, measured
side by side in one run (docs/python.md quotes the ratios). Plays the same 6-ply game (splits, a
measured capture) on the sparse simulator:

- Rust: crates/qc-front/examples/play_cost.rs (the ruleset interface, in process);
- Python: qchess.Game(...).play(...) for each ply;
- CLI: one `qchess simulate --moves "<the plies so far>"` process per ply, as a script driving
  the command line would do.

Usage: play_cost.py PATH/TO/qchess [REPS]   (run from the repository root)
"""

import subprocess
import sys
import time

import qchess

MOVES = ["b1^a3c3", "b7b5", "a3xb5.m1", "a7a6", "g1^f3h3", "a6xb5"]


def python_us_per_ply(reps: int) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        g = qchess.Game(seed=0)
        for mv in MOVES:
            g.play(mv)
    return (time.perf_counter() - start) * 1e6 / reps / len(MOVES)


def cli_us_per_ply(qchess_bin: str, reps: int) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        for n in range(1, len(MOVES) + 1):
            subprocess.run(
                [qchess_bin, "simulate", "--moves", " ".join(MOVES[:n])],
                check=True,
                stdout=subprocess.DEVNULL,
            )
    return (time.perf_counter() - start) * 1e6 / reps / len(MOVES)


def main() -> None:
    qchess_bin = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rust = float(
        subprocess.run(
            ["cargo", "run", "--quiet", "--release", "-p", "qc-front", "--example", "play_cost", "--", str(reps)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    python = python_us_per_ply(reps)
    cli = cli_us_per_ply(qchess_bin, max(1, reps // 100))
    print(f"Rust API: {rust:.1f} us per play")
    print(f"Python:   {python:.1f} us per play ({python / rust:.2f} x Rust, +{python - rust:.1f} us)")
    print(f"CLI:      {cli:.0f} us per play ({cli / rust:.0f} x Rust, {cli / python:.0f} x Python)")


if __name__ == "__main__":
    main()
