"""qchess's noisy simulator against Qiskit Aer, with the same calibration: FakeFez's
`props_fez.json` given to `qchess run PROGRAM --noise props_fez.json --shots N`, and the noise
model `NoiseModel.from_backend(FakeFez())` built from the same file for Aer, the program
scheduled as late as possible by Qiskit (`transpile(..., scheduling_method="alap")`, whose
delays Aer relaxes), so that idle decoherence is compared too.

The programs: GHZ states on paths of 4, 8 and 12 physical qubits of ibm_fez (the last qubit
measured, reset and entangled again mid-way, so measurement, reset and idle windows all
count), plus any OpenQASM 3 device programs given with
--program (without `if`: Qiskit does not schedule control flow).

Checks, for each program: every outcome's two frequencies within 5 standard errors of each
other (pooled, plus two shots), and the noise visible (Aer's distribution far from the noiseless
one by more than the sampling error), so that a simulator ignoring the noise fails. Prints both
run times.

Usage: python noisy.py QCHESS_BINARY OUT_DIR [--shots N] [--program FILE.qasm ...]
"""

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

SEED = 7
SIGMAS = 5.0


def fez():
    """FakeFez and the path of its calibration file."""
    import qiskit_ibm_runtime.fake_provider.backends.fez as module
    from qiskit_ibm_runtime.fake_provider import FakeFez

    return FakeFez(), Path(module.__file__).parent / "props_fez.json"


def path_of(backend, length, start):
    """A simple path of `length` physical qubits along the coupling map from `start`: depth
    first, lowest neighbour first, at most 10,000 steps (None when none is found)."""
    neighbours = {}
    for a, b in backend.coupling_map.get_edges():
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    stack, steps = [[start]], 0
    while stack and steps < 10_000:
        steps += 1
        path = stack.pop()
        if len(path) == length:
            return path
        for n in sorted(neighbours.get(path[-1], set()) - set(path), reverse=True):
            stack.append(path + [n])
    return None


def ghz_program(path, num_qubits):
    """OpenQASM 3 on the device's physical qubits: a GHZ state along `path` (H as rz sx rz, each
    CNOT as H CZ H), its last qubit measured, reset and entangled again mid-way, then every
    qubit measured. Noiseless, two outcomes; noise spreads them, so the comparison sees it."""
    k = len(path)
    lines = ["OPENQASM 3.0;", 'include "stdgates.inc";', f"qubit[{num_qubits}] q;", f"bit[{k + 1}] c;"]

    def h(p):
        lines.extend([f"rz(pi/2) q[{p}];", f"sx q[{p}];", f"rz(pi/2) q[{p}];"])

    def cnot(a, b):
        h(b)
        lines.append(f"cz q[{a}], q[{b}];")
        h(b)

    h(path[0])
    for a, b in zip(path, path[1:]):
        cnot(a, b)
    lines.append(f"c[{k}] = measure q[{path[-1]}];")
    lines.append(f"reset q[{path[-1]}];")
    cnot(path[-2], path[-1])
    for i, p in enumerate(path):
        lines.append(f"c[{i}] = measure q[{p}];")
    return "\n".join(lines) + "\n"


def qchess_counts(binary, program, props, shots, noisy=True):
    """`qchess run` on the program file: noisy counts, or the exact probabilities."""
    command = [binary, "run", str(program), "--json"]
    if noisy:
        command += ["--noise", str(props), "--shots", str(shots), "--seed", str(SEED)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    return data["counts"] if noisy else data["probabilities"]


def aer_circuit(text, backend):
    """The program as Aer runs it: scheduled ALAP by Qiskit with the target's durations, the
    delays on qubits the program does not use dropped (so that Aer truncates them)."""
    from qiskit import qasm3

    return scheduled(qasm3.loads(text), backend)


def scheduled(circuit, backend):
    """`circuit` (on the backend's physical qubits, in its native gates) scheduled as late as
    possible by Qiskit with the backend's durations: every idle window becomes a delay, which
    Aer's noise model relaxes (unscheduled, a qubit that waits for another's gate or measurement
    does not decay at all); the delays on qubits the program does not use dropped."""
    from qiskit import transpile

    timed = transpile(circuit, backend, optimization_level=0, layout_method="trivial",
                      scheduling_method="alap", seed_transpiler=SEED)
    return without_idle_delays(timed)


def without_idle_delays(circuit):
    """`circuit` without the delays on qubits nothing else touches (Aer then leaves them out)."""
    from qiskit import QuantumCircuit
    from qiskit.circuit import Delay

    used = {circuit.find_bit(q).index for i in circuit.data if not isinstance(i.operation, Delay) for q in i.qubits}
    kept = QuantumCircuit(*circuit.qregs, *circuit.cregs)
    for instr in circuit.data:
        if isinstance(instr.operation, Delay) and circuit.find_bit(instr.qubits[0]).index not in used:
            continue
        kept.append(instr.operation, instr.qubits, instr.clbits)
    return kept


def aer_run(circuit, noise_model, shots, method="statevector"):
    """Aer's noisy counts of a circuit from aer_circuit, with Aer's simulation `method`
    ("automatic" lets Aer choose)."""
    from qiskit_aer import AerSimulator

    sim = AerSimulator(noise_model=noise_model, method=method, seed_simulator=SEED)
    return sim.run(circuit, shots=shots).result().get_counts()


def aer_counts(text, backend, noise_model, shots, method="statevector"):
    """Aer's noisy counts of the program text (aer_circuit, then aer_run)."""
    return aer_run(aer_circuit(text, backend), noise_model, shots, method)


def compare(a, b, shots):
    """(largest |difference| in pooled standard errors, whether all are within SIGMAS, TVD)."""
    worst, ok, tvd = 0.0, True, 0.0
    for key in set(a) | set(b):
        pa, pb = a.get(key, 0) / shots, b.get(key, 0) / shots
        pooled = (pa + pb) / 2
        sigma = math.sqrt(max(pooled * (1 - pooled), 0.0) * 2 / shots)
        tolerance = SIGMAS * sigma + 2 / shots
        worst = max(worst, abs(pa - pb) / max(sigma, 1 / shots))
        ok = ok and abs(pa - pb) <= tolerance
        tvd += abs(pa - pb) / 2
    return worst, ok, tvd


def tvd_to_exact(counts, exact, shots):
    keys = set(counts) | set(exact)
    return sum(abs(counts.get(k, 0) / shots - exact.get(k, 0.0)) for k in keys) / 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("qchess")
    parser.add_argument("out", type=Path)
    parser.add_argument("--shots", type=int, default=4000)
    parser.add_argument("--program", type=Path, action="append", default=[])
    # CI compares the 4-qubit GHZ only (Aer takes minutes per program on FakeFez's model).
    parser.add_argument("--max-qubits", type=int, default=12)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    backend, props = fez()
    programs = []
    for length, start in [(4, 0), (8, 20), (12, 40)]:
        if length > args.max_qubits:
            continue
        path = path_of(backend, length, start)
        if path is None:
            sys.exit(f"no path of {length} qubits from {start} on ibm_fez")
        file = args.out / f"ghz_{length}.qasm"
        file.write_text(ghz_program(path, backend.num_qubits))
        programs.append(file)
    programs += args.program
    from qiskit_aer.noise import NoiseModel

    started = time.perf_counter()
    noise_model = NoiseModel.from_backend(backend)
    print(f"Aer's NoiseModel.from_backend(FakeFez()): {time.perf_counter() - started:.1f} s (not counted below)")
    failed = False
    print(f"{'program':<28} {'qubits':>6} {'TVD qchess-Aer':>14} {'worst z':>8} "
          f"{'TVD Aer-exact':>13} {'qchess s':>8} {'Aer s':>7} {'Aer/qchess':>10}")
    for file in programs:
        text = file.read_text()
        started = time.perf_counter()
        ours = qchess_counts(args.qchess, file, props, args.shots)
        ours_time = time.perf_counter() - started
        started = time.perf_counter()
        theirs = aer_counts(text, backend, noise_model, args.shots)
        theirs_time = time.perf_counter() - started
        exact = qchess_counts(args.qchess, file, props, args.shots, noisy=False)
        worst, ok, tvd = compare(ours, theirs, args.shots)
        noise = tvd_to_exact(theirs, exact, args.shots)
        # Sampling alone moves the TVD to the exact distribution by about sqrt(outcomes / shots) / 2.
        visible = noise > 2 * 0.5 * math.sqrt(len(exact) / args.shots)
        qubits = len({int(w.split("[")[1].split("]")[0]) for w in text.split() if w.startswith("q[")})
        print(f"{file.name:<28} {qubits:>6} {tvd:>14.4f} {worst:>8.2f} {noise:>13.4f} "
              f"{ours_time:>8.2f} {theirs_time:>7.2f} {theirs_time / ours_time:>10.2f}")
        if not ok:
            print(f"  FAIL: an outcome differs by more than {SIGMAS} standard errors")
            failed = True
        if not visible and len(args.program) == 0:
            print("  FAIL: the noise is not visible against the exact distribution")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
