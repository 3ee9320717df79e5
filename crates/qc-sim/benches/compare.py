#!/usr/bin/env python3
"""Benchmarks for docs/performance.md: qchess (qc-sim) against the memory limit, Qulacs and Qiskit Aer.

Run by hand from anywhere:  python3 crates/qc-sim/benches/compare.py [--quick] [--max-n 28] [--ext-max-n 28] [--sparse-only]
It creates a virtual environment (default /tmp/qchess-bench-venv, or $QCHESS_BENCH_VENV), pip-installs
qulacs, qiskit and qiskit-aer into it, builds the `perf` example in release mode, and runs every
measurement in a fresh subprocess (one at a time, 2 threads unless stated) so that thread settings and
memory are isolated. Results go to stdout as a Markdown report and to benches/results.json.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
VENV = os.environ.get("QCHESS_BENCH_VENV", "/tmp/qchess-bench-venv")
PERF = os.path.join(ROOT, "target", "release", "examples", "perf")


def ensure_venv():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    try:
        subprocess.check_call([py, "-c", "import qulacs, qiskit, qiskit_aer"], stderr=subprocess.DEVNULL)
    except subprocess.CalledProcessError:
        subprocess.check_call([py, "-m", "pip", "install", "-q", "qulacs", "qiskit", "qiskit-aer"])
    return py


def run(cmd, threads=2, extra_env=None):
    env = dict(os.environ)
    env.update({"RAYON_NUM_THREADS": str(threads), "OMP_NUM_THREADS": str(threads)})
    env.update(extra_env or {})
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if not lines:
        return {"error": (out.stderr or out.stdout)[-500:]}
    return json.loads(lines[-1])


# --- workers: run inside the venv, one simulator per process -----------------------------------

def worker_qulacs(path, n):
    from qulacs import QuantumState
    from bench_circuits import load_ops, qulacs_gates

    gates = qulacs_gates(load_ops(path))
    state = QuantumState(n)
    state.set_zero_state()
    start = time.perf_counter()
    for g in gates:
        g.update_quantum_state(state)
    secs = time.perf_counter() - start
    print(json.dumps({"what": "qulacs", "n": n, "seconds": secs, "per_gate": secs / len(gates)}))


def worker_aer(path, n, fusion):
    from qiskit import transpile
    from qiskit_aer import AerSimulator
    from bench_circuits import load_ops, qiskit_circuit

    ops = load_ops(path)
    qc = qiskit_circuit(ops, n)
    qc.save_state()
    sim = AerSimulator(method="statevector", precision="double", max_parallel_threads=2,
                       fusion_enable=fusion, statevector_parallel_threshold=14)
    tqc = transpile(qc, sim, optimization_level=0)
    start = time.perf_counter()
    result = sim.run(tqc, shots=1).result()
    secs = time.perf_counter() - start
    taken = result.results[0].time_taken
    print(json.dumps({"what": "aer", "n": n, "fusion": fusion, "seconds": taken, "wall": secs,
                      "per_gate": taken / len(ops)}))


# --- driver ---------------------------------------------------------------------------------

def main():
    quick = "--quick" in sys.argv
    max_n = 28
    if "--max-n" in sys.argv:
        max_n = int(sys.argv[sys.argv.index("--max-n") + 1])
    # Qulacs and Aer are run up to this size only (on a loaded 2-core box n = 26, 28 take tens of
    # minutes each); qchess runs every size.
    ext_max_n = 24
    if "--ext-max-n" in sys.argv:
        ext_max_n = int(sys.argv[sys.argv.index("--ext-max-n") + 1])
    # --sparse-only: skip the dense part (and Qulacs/Aer) and write results_sparse.json instead, so
    # a re-measurement of the sparse simulator leaves the full record in results.json alone.
    sparse_only = "--sparse-only" in sys.argv
    py = ensure_venv()
    subprocess.check_call(["cargo", "build", "--release", "-q", "-p", "qc-sim", "--example", "perf"], cwd=ROOT)
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "machine": machine(), "dense": [], "sweep": [], "copy": [], "sparse": []}
    ns = [] if sparse_only else [n for n in (20, 24, 26, 28) if n <= max_n]
    for n in ns:
        sw = run([PERF, "sweep", str(n)])
        results["sweep"].append(sw)
        path = f"/tmp/qchess-circuit-{n}.json"
        with open(path, "w") as f:
            f.write(subprocess.run([PERF, "circuit", str(n), "1"], capture_output=True, text=True).stdout)
        row = {"n": n, "sweep": sw.get("seconds")}
        for fuse in (1, 2):
            r = run([PERF, "dense", str(n), "1", str(fuse)])
            row[f"qchess_fuse{fuse}"] = r.get("seconds")
        if not quick:
            row["qchess_1thread"] = run([PERF, "dense", str(n), "1", "1"], threads=1).get("seconds")
        if n <= ext_max_n:
            row["qulacs"] = run([py, __file__, "worker-qulacs", path, str(n)]).get("seconds")
            for fusion in (True, False):
                r = run([py, __file__, "worker-aer", path, str(n), str(fusion)])
                row["aer_fusion" if fusion else "aer_nofusion"] = r.get("seconds")
        results["dense"].append(row)
        print(json.dumps(row), file=sys.stderr)
    for entries in (100_000, 1_000_000, 10_000_000):
        results["copy"].append(run([PERF, "copy", str(entries)]))
    for k in (10, 12, 16, 20, 23):
        r2 = run([PERF, "sparse", str(k)])
        r1 = run([PERF, "sparse", str(k)], threads=1) if k >= 16 and not quick else {}
        results["sparse"].append({"k": k, "two": r2, "one": r1})
        print(json.dumps(r2), file=sys.stderr)
    game = os.path.join(ROOT, "circuits", "full_game.qcg")
    results["game"] = []
    for spectators in (0, 10, 17, 20):
        r2 = run([PERF, "game", game, str(spectators)])
        r1 = run([PERF, "game", game, str(spectators)], threads=1) if spectators >= 17 and not quick else {}
        results["game"].append({"spectators": spectators, "two": r2, "one": r1})
        print(json.dumps(r2), file=sys.stderr)
    with open(os.path.join(HERE, "results_sparse.json" if sparse_only else "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    report(results)


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = 0
    try:
        with open("/proc/meminfo") as f:
            mem = int(f.readline().split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem / 2**30, 1)}


def fmt(x, digits=3):
    return "n/a" if x is None else f"{x:.{digits}g}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def report(r):
    print(f"Date: {r['date']}; machine: {r['machine']}\n")
    print("| n | sweep s | qchess s/gate (fuse off) | fuse 2 | /sweep | 1 thread s | 2 vs 1 thread | Qulacs s | qchess/Qulacs | Aer fused s | qchess/Aer fused | Aer unfused s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in r["dense"]:
        best = min(x for x in (d.get("qchess_fuse1"), d.get("qchess_fuse2")) if x is not None)
        print(f"| {d['n']} | {fmt(d['sweep'])} | {fmt(d['qchess_fuse1'] and d['qchess_fuse1'] / 200)} | "
              f"{fmt(d['qchess_fuse2'] and d['qchess_fuse2'] / 200)} | {fmt(ratio(best / 200, d['sweep']))} | "
              f"{fmt(d.get('qchess_1thread'))} | {fmt(ratio(d.get('qchess_1thread'), d.get('qchess_fuse1')))} | "
              f"{fmt(d.get('qulacs'))} | {fmt(ratio(best, d.get('qulacs')))} | {fmt(d.get('aer_fusion'))} | "
              f"{fmt(ratio(best, d.get('aer_fusion')))} | {fmt(d.get('aer_nofusion'))} |")
    print("\n| entries | streaming copy s | GB/s |")
    print("|---|---|---|")
    for c in r["copy"]:
        print(f"| {c.get('entries')} | {fmt(c.get('seconds'))} | {fmt(c.get('gb_per_s'))} |")
    print("\n| k | entries | copy of the state s | monomial s/gate | monomial / copy | ns/entry | 1-thread monomial s/gate | 2 vs 1 thread |")
    print("|---|---|---|---|---|---|---|---|")
    for s in r["sparse"]:
        t, o = s["two"], s["one"]
        print(f"| {s['k']} | {t.get('entries')} | {fmt(t.get('copy_seconds'))} | {fmt(t.get('monomial_per_gate'))} | "
              f"{fmt(ratio(t.get('monomial_per_gate'), t.get('copy_seconds')))} | {fmt(t.get('monomial_per_entry_ns'))} | "
              f"{fmt(o.get('monomial_per_gate'))} | {fmt(ratio(o.get('monomial_per_gate'), t.get('monomial_per_gate')))} |")
    print("\n| k | entries | split cold s | split s | merge cold s | merge s | sorted merge: from entries | cold s | s | measure s | 1 thread: split s | merge s | sorted merge s | 2 vs 1 thread (split, merge, sorted) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for s in r["sparse"]:
        t, o = s["two"], s["one"]
        speedups = ", ".join(fmt(ratio(o.get(f), t.get(f))) for f in ("split_seconds", "merge_seconds", "sorted_merge_seconds"))
        print(f"| {s['k']} | {t.get('entries')} | {fmt(t.get('split_cold_seconds'))} | {fmt(t.get('split_seconds'))} | "
              f"{fmt(t.get('merge_cold_seconds'))} | {fmt(t.get('merge_seconds'))} | {t.get('sorted_merge_from_entries')} | "
              f"{fmt(t.get('sorted_merge_cold_seconds'))} | {fmt(t.get('sorted_merge_seconds'))} | {fmt(t.get('measure_seconds'))} | "
              f"{fmt(o.get('split_seconds'))} | {fmt(o.get('merge_seconds'))} | {fmt(o.get('sorted_merge_seconds'))} | {speedups} |")
    print("\n| spectators | max entries | mean entries | s per move | slowest move s | ns per entry and move | move / copy | 1 thread: s per move | slowest | 2 vs 1 thread |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for g in r.get("game", []):
        t, o = g["two"], g["one"]
        print(f"| {g['spectators']} | {t.get('max_entries')} | {fmt(t.get('mean_entries'))} | {fmt(t.get('seconds_per_move'))} | "
              f"{fmt(t.get('slowest_move'))} | {fmt(t.get('ns_per_entry_move'))} | {fmt(t.get('move_over_copy'))} | "
              f"{fmt(o.get('seconds_per_move'))} | {fmt(o.get('slowest_move'))} | {fmt(ratio(o.get('seconds_per_move'), t.get('seconds_per_move')))} |")

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "worker-qulacs":
        worker_qulacs(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "worker-aer":
        worker_aer(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "True")
    else:
        main()
