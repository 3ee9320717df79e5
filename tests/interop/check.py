#!/usr/bin/env python3
"""Check qchess's OpenQASM exports on Qiskit Aer against qchess's exact probabilities.

For every NAME.json written by `cargo run -p qc-export --example interop_corpus -- DIR` (sample
circuits) or `cargo run -p qchess-tests --example game_corpus -- DIR` (games; its JSON lists the
forms it wrote in "forms", and it writes no .qasm2):
  NAME.dynamic.qasm, NAME.deferred.qasm, NAME.extended.qasm (ctrl @ / reset), NAME.google.qasm
  (sqrt-iSWAP target, deferred)         -> qiskit.qasm3.loads -> transpile(AerSimulator) -> run
  NAME.ibm.qasm                          -> qiskit.qasm3.loads -> transpile to cz/rz/sx/x on a
                                            line coupling map (routing) -> run on Aer
  NAME.qasm2                             -> qiskit.qasm2.loads -> run on Aer; and when deferred
                                            (games): cirq.contrib.qasm_import -> cirq.Simulator
  NAME.braket.qasm (games: braket target, deferred)
                                         -> the Amazon Braket local simulator (braket_sv)
Cirq simulates every qubit as a dense state vector: programs wider than CIRQ_MAX_QUBITS qubits
are left to Aer. Braket's local simulator interprets the program statement by statement (a
580-line 16-qubit game took over 5 minutes on 2 loaded cores): programs wider than
BRAKET_MAX_QUBITS qubits (the random games) are left to Aer and Cirq.
Counts are compared key by key with a 5-sigma bound (plus one count of slack); any outcome
qchess says is impossible must not occur. Exits 1 with the program and the numbers on a mismatch.
"""
import json
import math
import sys
import time
from pathlib import Path

from qiskit import qasm2, qasm3, transpile
from qiskit.transpiler import CouplingMap
from qiskit_aer import AerSimulator

SHOTS = 4000
SIGMAS = 5.0
SEED = 1234
CIRQ_MAX_QUBITS = 20
BRAKET_MAX_QUBITS = 10


def run_braket(text):
    """Counts of the Braket local simulator, keys in Qiskit order (Braket writes c[0] leftmost)."""
    from braket.devices import LocalSimulator
    from braket.ir.openqasm import Program

    result = LocalSimulator("braket_sv").run(Program(source=text), shots=SHOTS).result()
    return {key[::-1]: n for key, n in result.measurement_counts.items()}


def run_cirq(text, num_clbits):
    """Counts of Cirq's simulator on an OpenQASM 2 program, keys in Qiskit order. OpenQASM 2 gives
    every bit its own register cK; Cirq names its measurement key `cK_0`."""
    import cirq
    from cirq.contrib.qasm_import import circuit_from_qasm

    result = cirq.Simulator(seed=SEED).run(circuit_from_qasm(text), repetitions=SHOTS)
    columns = [result.measurements[f"c{k}_0"][:, 0] for k in range(num_clbits)]
    counts = {}
    for shot in zip(*columns):
        key = "".join(str(int(b)) for b in reversed(shot))
        counts[key] = counts.get(key, 0) + 1
    return counts


def header(text):
    """The JSON header of a qchess program."""
    for line in text.splitlines():
        if line.startswith("// qchess-export "):
            return json.loads(line[len("// qchess-export "):])
    raise ValueError("no qchess-export header")


def width(text):
    """The qubit count of a qchess program."""
    return header(text)["qubits"]


def compare(label, exact, counts, num_clbits):
    """Returns a list of error strings (empty when the counts fit the exact distribution)."""
    shots = sum(counts.values())
    observed = {}
    for key, n in counts.items():
        bits = key.replace(" ", "")
        bits = bits[-num_clbits:] if num_clbits else ""
        observed[bits] = observed.get(bits, 0) + n
    errors = []
    for key in sorted(set(exact) | set(observed)):
        p = exact.get(key, 0.0)
        n = observed.get(key, 0)
        bound = SIGMAS * math.sqrt(max(p * (1 - p), 0.0) / shots) + 1.0 / shots
        if abs(n / shots - p) > bound:
            errors.append(f"{label}: bits {key}: got {n}/{shots} = {n / shots:.4f}, exact {p:.4f} (bound {bound:.4f})")
    return errors


def run(circuit, sim, **transpile_args):
    compiled = transpile(circuit, sim, **transpile_args) if not transpile_args else transpile(circuit, **transpile_args)
    return sim.run(compiled, shots=SHOTS, seed_simulator=1234).result().get_counts()


def main():
    out = Path(sys.argv[1])
    # Shot branching splits the state at each mid-circuit measurement instead of simulating every
    # shot alone: a 15-qubit dynamic game takes 2 s instead of 100 s for 4000 shots.
    sim = AerSimulator(shot_branching_enable=True)
    names = json.loads((out / "manifest.json").read_text())
    failures = []
    checked = 0
    start = time.time()
    for name in names:
        print(f"  {name}", flush=True)
        spec = json.loads((out / f"{name}.json").read_text())
        exact = spec["probabilities"]
        m = spec["num_clbits"]
        # The sample corpus has every form; the game corpus lists its own.
        forms = spec.get("forms", ["dynamic", "deferred", "extended", "google"])
        for form in forms:
            label = f"{name}.{form}.qasm"
            try:
                circ = qasm3.loads((out / label).read_text())
                counts = run(circ, sim)
            except Exception as exc:  # a load failure is a failure of the export
                failures.append(f"{label}: {type(exc).__name__}: {exc}")
                continue
            failures += compare(label, exact, counts, m)
            checked += 1
        label = f"{name}.ibm.qasm"
        try:
            circ = qasm3.loads((out / label).read_text())
            ops = set(circ.count_ops())
            allowed = {"rz", "sx", "x", "cz", "measure", "if_else", "barrier"}
            if not ops <= allowed:
                failures.append(f"{label}: non-native operations {sorted(ops - allowed)}")
            n = max(circ.num_qubits, 2)
            routed = transpile(
                circ,
                basis_gates=["rz", "sx", "x", "cz"],
                coupling_map=CouplingMap.from_line(n),
                optimization_level=1,
                seed_transpiler=7,
            )
            counts = sim.run(routed, shots=SHOTS, seed_simulator=1234).result().get_counts()
            failures += compare(label + " (transpiled, line coupling map)", exact, counts, m)
            checked += 1
        except Exception as exc:
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
        label = f"{name}.braket.qasm"
        if (out / label).exists() and width((out / label).read_text()) <= BRAKET_MAX_QUBITS:
            try:
                counts = run_braket((out / label).read_text())
                failures += compare(label + " (Braket local simulator)", exact, counts, m)
                checked += 1
            except Exception as exc:
                failures.append(f"{label} (Braket): {type(exc).__name__}: {exc}")
        label = f"{name}.qasm2"
        if not (out / label).exists():
            continue
        text = (out / label).read_text()
        try:
            circ = qasm2.loads(text, custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS)
            counts = run(circ, sim)
            failures += compare(label, exact, counts, m)
            checked += 1
        except Exception as exc:
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
        # Cirq runs the deferred programs (the games'): terminal measurements, sampled once.
        if m > 0 and header(text)["form"] == "deferred" and width(text) <= CIRQ_MAX_QUBITS:
            try:
                failures += compare(label + " (Cirq)", exact, run_cirq(text, m), m)
                checked += 1
            except Exception as exc:
                failures.append(f"{label} (Cirq): {type(exc).__name__}: {exc}")
    elapsed = time.time() - start
    if failures:
        print(f"interop: {len(failures)} mismatch(es) in {checked} runs ({elapsed:.1f}s):")
        for f in failures:
            print("  " + f)
        sys.exit(1)
    print(f"interop: OK, {checked} programs from {len(names)} circuits match qchess's exact probabilities "
          f"({SHOTS} shots each, {SIGMAS:g}-sigma, {elapsed:.1f}s)")


if __name__ == "__main__":
    main()
