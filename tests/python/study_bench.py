"""Throughput of qchess.study, serial vs threads vs Ray, side by side in one run (docs/scale.md
quotes it): the same study (same seed, so the same games) played each way, its games per second
and games per second per core, and a check that every way gave the same summary.

Usage: study_bench.py [GAMES] [PLIES] [CORES]   (defaults 200 30 2; Ray's part is skipped when Ray
is not installed). Each way is timed whole; the start of Ray's local cluster is timed apart.
"""

import os
import sys
import time

from qchess import study


def timed(label, cores, call, in_process=True):
    """Runs ``call`` (a study) and prints its wall time, games per second (per core), and, for
    a study run in this process, its CPU time (all threads): games per CPU-second is what a core
    gives when it is not shared, whatever else the machine runs."""
    start, cpu = time.perf_counter(), time.process_time()
    summary = call()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    games = summary.games
    per_cpu = f"{games / cpu:7.1f} games/cpu-s" if in_process else "   (CPU in Ray's workers)"
    print(
        f"{label:<30} {seconds:7.2f} s  {games / seconds:7.1f} games/s  "
        f"{games / seconds / cores:7.1f} games/s/core  {per_cpu}"
    )
    return summary.as_dict()


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    cores = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{games} random games of {plies} plies, seed 1, {cores} cores (load average {load})")
    results = [timed("serial (1 thread)", 1, lambda: study.run(games, plies, 1))]
    results.append(
        timed(f"threads (--workers {cores})", cores, lambda: study.run(games, plies, 1, workers=cores))
    )
    try:
        import ray
    except ImportError:
        print("Ray: not installed (pip install ray), skipped")
    else:

        start = time.perf_counter()
        ray.init(address="local", num_cpus=cores, include_dashboard=False, logging_level="ERROR")
        print(f"{'Ray: its local cluster starts':<30} {time.perf_counter() - start:7.2f} s")
        try:
            results.append(
                timed(
                    f"Ray ({cores} CPUs, started)",
                    cores,
                    lambda: study.run(games, plies, 1, ray=True),
                    in_process=False,
                )
            )
        finally:
            ray.shutdown()
    same = all(r == results[0] for r in results)
    print("same summary every way:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
