"""Writes the matrix of every gate of Qiskit's qelib1.inc, as Qiskit computes it, for
crates/qc-export/tests/qelib1.rs (an independent reference for the OpenQASM 2 reader).

Each gate is called once with fixed angles in a one-gate OpenQASM 2 program; Qiskit's `qasm2`
reader builds it from the definitions of the file and `Operator` gives the matrix (qubit k = bit k of the
basis index, the order of `qc_ir`'s `Circuit::unitary`). Regenerate with the interop venv:
    .venv-interop/bin/python tests/interop/qelib1_operators.py crates/qc-export/tests/data/qelib1_operators.json
"""
import json
import re
import sys
from pathlib import Path

import qiskit
from qiskit import qasm2
from qiskit.quantum_info import Operator

ANGLES = [0.3, -1.1, 0.7, 0.2]
library = (Path(qiskit.__file__).parent / "qasm" / "libs" / "qelib1.inc").read_text()
library = re.sub(r"//[^\n]*", "", library)  # comments mention gates too
gates = []
for name, params, qubits in re.findall(r"gate\s+(\w+)\s*(?:\(([^)]*)\))?\s*([^{]*)\{", library):
    n_params = len([p for p in params.split(",") if p.strip()])
    n_qubits = len([q for q in qubits.split(",") if q.strip()])
    angles = ANGLES[:n_params]
    call = name + (f"({', '.join(map(str, angles))})" if angles else "")
    call += " " + ", ".join(f"q[{k}]" for k in range(n_qubits)) + ";"
    # The file's own definitions, pasted in (not included: Qiskit's reader would use its built-in
    # gates, and it has no `u0`), so Qiskit computes every gate from the text qelib1.inc gives.
    program = f"OPENQASM 2.0;\n{library}\nqreg q[{n_qubits}];\n{call}\n"
    matrix = Operator(qasm2.loads(program)).data
    gates.append({
        "name": name,
        "call": call,
        "qubits": n_qubits,
        # row-major, each entry [re, im]
        "matrix": [[float(z.real), float(z.imag)] for z in matrix.flatten()],
    })
out = {"qiskit": qiskit.__version__, "gates": gates}
Path(sys.argv[1]).write_text(json.dumps(out, separators=(",", ":")) + "\n")
print(f"{len(gates)} gates: {' '.join(g['name'] for g in gates)}")
