"""Throughput of qchess.study, serial vs threads vs Ray, side by side in one run (docs/scale.md
quotes it): the same study (same seed, so the same games) played each way, its games per second
and games per second per core, and a check that every way gave the same summary.

Usage: study_bench.py [GAMES] [PLIES] [CORES]   (defaults 200 30 2; Ray's part is skipped when Ray
is not installed). Each way is timed whole, Ray's including its cluster's start.
"""

import sys
import time

from qchess import study


def timed(label, cores, call):
    start = time.perf_counter()
    summary = call()
    seconds = time.perf_counter() - start
    games = summary.games
    print(
        f"{label:<28} {seconds:7.2f} s  {games / seconds:7.1f} games/s  "
        f"{games / seconds / cores:7.1f} games/s/core"
    )
    return summary.as_dict()


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    cores = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    print(f"{games} random games of {plies} plies, seed 1, {cores} cores")
    results = [timed("serial (1 thread)", 1, lambda: study.run(games, plies, 1))]
    results.append(
        timed(f"threads (--workers {cores})", cores, lambda: study.run(games, plies, 1, workers=cores))
    )
    try:
        import ray
    except ImportError:
        print("Ray: not installed (pip install ray), skipped")
    else:

        def on_ray():
            ray.init(num_cpus=cores, include_dashboard=False, logging_level="ERROR")
            try:
                return study.run(games, plies, 1, ray=True)
            finally:
                ray.shutdown()

        results.append(timed(f"Ray (--local-ray {cores})", cores, on_ray))
    same = all(r == results[0] for r in results)
    print("same summary every way:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
