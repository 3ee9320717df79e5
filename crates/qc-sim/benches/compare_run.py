#!/usr/bin/env python3
"""End to end: `qchess run` on portable OpenQASM 3 against Qulacs, qsim (qsimcirq) and Qiskit Aer.

Run by hand from the repository root (late, on a quiet machine):

    python3 crates/qc-sim/benches/compare_run.py [--n 20,22,24] [--measured 8] [--timeout 300]
                                                 [--tools qulacs,qsim,aer]

It needs `cargo build --release -p qc-cli -p qc-sim --example perf` and a venv with qulacs, qsimcirq,
qiskit and qiskit-aer ($QCHESS_BENCH_VENV, default .venv-bench in the repository root). For each n it
writes the seeded 200-gate benchmark circuit twice: as portable OpenQASM 3 (`perf qasm`, exactly what
`qchess compile` writes: library gate bodies, X-wrapped 0-controls) for qchess, and as JSON for the
others, which build it natively (Qulacs: dense matrices with controls; qsim: cirq gates; Aer: qiskit
gates). Every tool then computes the exact distribution of the first `--measured` qubits from |0..0>.
The rows are measured side by side in one run, one process at a time, 2 threads each; "whole" is
the wall time of the process (interpreter start and imports included), "sim" the simulation and
distribution as the tool itself times it. Each tool also prints p(0..0) of the measured qubits,
which must agree across tools (a check that all ran the same circuit).
qchess runs twice, in double (complex128) and with `--precision single` (complex64, as qsim).
`--tools` picks the other simulators (default: all three).
Output: a Markdown table on stdout and the raw JSON lines in benches/results_run.json.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
VENV = os.environ.get("QCHESS_BENCH_VENV", os.path.join(ROOT, ".venv-bench"))
PERF = os.path.join(ROOT, "target", "release", "examples", "perf")
QCHESS = os.path.join(ROOT, "target", "release", "qchess")
THREADS = "2"


# --- workers: run inside the venv, one simulator per process -----------------------------------

def worker_qulacs(path, n, m):
    import numpy as np
    from qulacs import QuantumState
    from bench_circuits import load_ops, qulacs_gates

    start = time.perf_counter()
    state = QuantumState(n)
    state.set_zero_state()
    for g in qulacs_gates(load_ops(path)):
        g.update_quantum_state(state)
    # Qulacs: qubit k is bit k of the index (little-endian), like ours.
    probs = np.abs(state.get_vector()) ** 2
    dist = probs.reshape(2 ** (n - m), 2 ** m).sum(axis=0)
    secs = time.perf_counter() - start
    print(json.dumps({"tool": "qulacs", "sim": secs, "p0": float(dist[0])}))


def worker_qsim(path, n, m):
    import numpy as np
    import cirq
    import qsimcirq

    qs = cirq.LineQubit.range(n)
    base = {"iswap": cirq.ISWAP, "siswap": cirq.ISWAP ** 0.5, "x": cirq.X}
    ops = []
    for op in json.load(open(path)):
        g = base[op["gate"]]
        ctrl = op["controls"]
        if ctrl:
            g = g.controlled(num_controls=len(ctrl), control_values=[v for _, v in ctrl])
        ops.append(g.on(*[qs[q] for q, _ in ctrl], *[qs[t] for t in op["targets"]]))
    circuit = cirq.Circuit(ops)
    sim = qsimcirq.QSimSimulator(qsim_options={"t": int(THREADS)})
    start = time.perf_counter()
    result = sim.simulate(circuit, qubit_order=qs)
    probs = np.abs(result.final_state_vector) ** 2
    # Cirq: qubit 0 is the most significant bit.
    dist = probs.reshape(2 ** m, 2 ** (n - m)).sum(axis=1)
    secs = time.perf_counter() - start
    print(json.dumps({"tool": "qsim", "sim": secs, "p0": float(dist[0])}))


def worker_aer(path, n, m):
    from qiskit import transpile
    from qiskit_aer import AerSimulator
    from bench_circuits import load_ops, qiskit_circuit

    qc = qiskit_circuit(load_ops(path), n)
    qc.save_probabilities(list(range(m)))
    sim = AerSimulator(method="statevector", precision="double", max_parallel_threads=int(THREADS))
    start = time.perf_counter()
    result = sim.run(transpile(qc, sim, optimization_level=0), shots=1).result()
    dist = result.data(0)["probabilities"]
    secs = time.perf_counter() - start
    print(json.dumps({"tool": "aer", "sim": secs, "p0": float(dist[0])}))


# --- driver ---------------------------------------------------------------------------------

def timed(cmd, timeout):
    env = dict(os.environ, RAYON_NUM_THREADS=THREADS, OMP_NUM_THREADS=THREADS)
    start = time.monotonic()
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    whole = time.monotonic() - start
    if out.returncode != 0:
        return {"error": (out.stderr or out.stdout)[-300:]}
    return {"whole": whole, "stdout": out.stdout}


def qchess_row(qasm, m, timeout, precision):
    cmd = [QCHESS, "run", "--backend", "dense", "--json", qasm]
    if precision != "double":
        cmd += ["--precision", precision]
    r = timed(cmd, timeout)
    if "error" in r:
        return r
    probs = json.loads(r["stdout"])["probabilities"]
    stages = timed([PERF, "stages", qasm, precision], timeout)
    sim = None
    if "stdout" in stages:
        lines = [l for l in stages["stdout"].splitlines() if l.startswith("{")]
        if lines:
            sim = json.loads(lines[-1]).get("exact_distribution")
    return {"whole": r["whole"], "sim": sim, "p0": probs.get("0" * m, 0.0)}


def main():
    args = sys.argv[1:]
    ns = [int(x) for x in (args[args.index("--n") + 1] if "--n" in args else "20,22,24").split(",")]
    m = int(args[args.index("--measured") + 1]) if "--measured" in args else 8
    timeout = int(args[args.index("--timeout") + 1]) if "--timeout" in args else 300
    tools = (args[args.index("--tools") + 1] if "--tools" in args else "qulacs,qsim,aer").split(",")
    if args and args[0] == "--worker":
        tool, path, n, m = args[1], args[2], int(args[3]), int(args[4])
        {"qulacs": worker_qulacs, "qsim": worker_qsim, "aer": worker_aer}[tool](path, n, m)
        return
    py = os.path.join(VENV, "bin", "python")
    rows = []
    with open("/proc/loadavg") as f:
        print(f"load average at start: {f.read().split()[:3]}")
    for n in ns:
        qasm, js = f"/tmp/qchess-run-{n}.qasm", f"/tmp/qchess-run-{n}.json"
        with open(qasm, "w") as f:
            f.write(subprocess.check_output([PERF, "qasm", str(n), "1", str(m)], text=True))
        with open(js, "w") as f:
            f.write(subprocess.check_output([PERF, "circuit", str(n), "1"], text=True))
        row = {"n": n, "measured": m, "qchess": qchess_row(qasm, m, timeout, "double"),
               "single": qchess_row(qasm, m, timeout, "single")}
        for tool in ["qulacs", "qsim", "aer"]:
            if tool not in tools:
                row[tool] = {"error": "not run"}
                continue
            r = timed([py, __file__, "--worker", tool, js, str(n), str(m)], timeout)
            if "stdout" in r:
                lines = [l for l in r["stdout"].splitlines() if l.startswith("{")]
                r = dict(json.loads(lines[-1]), whole=r["whole"]) if lines else {"error": "no output"}
            row[tool] = r
        rows.append(row)
        print(json.dumps(row), flush=True)
    with open(os.path.join(HERE, "results_run.json"), "w") as f:
        json.dump(rows, f, indent=1)

    def fmt(r, key):
        v = r.get(key)
        return "–" if v is None else f"{v:.3g}"

    def ratio(a, b):
        return "–" if a.get("whole") is None or b.get("whole") is None else f"{a['whole'] / b['whole']:.2f}"

    def sim_ratio(a, b):
        return "–" if a.get("sim") is None or b.get("sim") is None else f"{a['sim'] / b['sim']:.2f}"

    tools = ["qchess", "single", "qulacs", "qsim", "aer"]
    print("\n| n | qchess double whole / sim (s) | qchess single whole / sim | Qulacs whole / sim | qsim whole / sim | Aer whole / sim | double / Qulacs | double / qsim | single / qsim | double / Aer | sim only: double / qsim, single / qsim | p(0..0) double, single, Qulacs, qsim, Aer |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        q, s1, qs = row["qchess"], row["single"], row["qsim"]
        cells = [f"{fmt(row[t], 'whole')} / {fmt(row[t], 'sim')}" for t in tools]
        p0 = ", ".join(fmt(row[t], "p0") for t in tools)
        print(f"| {row['n']} | " + " | ".join(cells) +
              f" | {ratio(q, row['qulacs'])} | {ratio(q, qs)} | {ratio(s1, qs)} | {ratio(q, row['aer'])}"
              f" | {sim_ratio(q, qs)}, {sim_ratio(s1, qs)} | {p0} |")


if __name__ == "__main__":
    main()
