"""The generic circuits of the routing benchmark (route_bench.py): programs that are not games,
written as OpenQASM 2 with qelib1.inc gates, as a user would hand them to a compiler.

* `qft_N`: the quantum Fourier transform on N qubits (Qiskit's `synth_qft_full`: h, cp, and the
  final swaps; cp written as cu1, a swap as three cx) of a random product state;
* `adder_N`: the ripple-carry adder of Cuccaro et al. on two N-bit registers, a carry in and a
  carry out (Qiskit's `adder_ripple_c04`, 2N + 2 qubits, in cx and ccx), adding two uniform
  superpositions;
* `random_cx_N`: ten layers on N qubits, each a random single-qubit rotation on every qubit and a
  CX on every pair of a random perfect matching, so the interactions are long range.

Every input is a superposition: on a basis state the adder is a classical computation, and a
compiler that tracks classical values (qchess's does) would fold it away, which says nothing
about routing. Everything is seeded: the same files every run.

Usage: generic_circuits.py OUT_DIR [--quick]  (writes OUT_DIR/NAME.qasm and prints the names)
"""
import argparse
import math
import random
from pathlib import Path

from qiskit import QuantumCircuit, qasm2, transpile
from qiskit.synthesis import synth_qft_full
from qiskit.synthesis.arithmetic import adder_ripple_c04

# The gates the written programs use: those of the OpenQASM 2 paper's qelib1.inc (what Qiskit's
# qasm2.loads reads without extra definitions; a swap is three cx), all read by qchess too.
BASIS = ["h", "x", "u3", "cx", "ccx", "cu1"]
SIZES = {"qft": [8, 16, 32], "adder": [4, 8, 16], "random_cx": [10, 20, 40]}
QUICK_SIZES = {"qft": [8], "adder": [4], "random_cx": [10]}
LAYERS = 10


def random_layer(circuit, rng):
    for q in range(circuit.num_qubits):
        circuit.u(*(rng.uniform(0, 2 * math.pi) for _ in range(3)), q)


def qft(n):
    circuit = QuantumCircuit(n)
    random_layer(circuit, random.Random(2000 + n))
    return circuit.compose(synth_qft_full(n))


def adder(n):
    body = adder_ripple_c04(n, kind="full")
    circuit = QuantumCircuit(*body.qregs)
    circuit.h(range(1, 2 * n + 1))  # the registers a and b (the carries start at 0)
    return circuit.compose(body)


def random_cx(n):
    rng = random.Random(1000 + n)
    circuit = QuantumCircuit(n)
    for _ in range(LAYERS):
        random_layer(circuit, rng)
        order = list(range(n))
        rng.shuffle(order)
        for a, b in zip(order[0::2], order[1::2]):
            circuit.cx(a, b)
    return circuit


MAKERS = {"qft": qft, "adder": adder, "random_cx": random_cx}


def write(out, quick=False):
    """Writes every generic circuit as OUT/NAME.qasm (OpenQASM 2, measured at the end);
    returns [(name, path)]."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, sizes in (QUICK_SIZES if quick else SIZES).items():
        for n in sizes:
            circuit = transpile(MAKERS[kind](n), basis_gates=BASIS, optimization_level=0)
            circuit.measure_all()
            path = out / f"{kind}_{n}.qasm"
            path.write_text(qasm2.dumps(circuit) + "\n")
            written.append((f"{kind}_{n}", path))
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    for name, _ in write(args.out, args.quick):
        print(name)


if __name__ == "__main__":
    main()
