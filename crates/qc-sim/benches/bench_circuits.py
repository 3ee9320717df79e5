"""The seeded benchmark circuit built natively for Qulacs and Qiskit, shared by compare.py and
compare_run.py (imported by their worker processes, which run from this folder).

The circuit comes as the JSON op list `perf circuit` writes: each op has `gate` (`iswap`,
`siswap` or `x`), `targets` (qubit indices) and `controls` (pairs of qubit and the value it
must have).
"""
import json


def load_ops(path):
    with open(path) as f:
        return json.load(f)


def matrices():
    """The three gates' matrices (qubit order as Qulacs and Qiskit take a 2-qubit matrix)."""
    import numpy as np

    s2 = 1 / np.sqrt(2)
    return {
        "iswap": np.array([[1, 0, 0, 0], [0, 0, 1j, 0], [0, 1j, 0, 0], [0, 0, 0, 1]]),
        "siswap": np.array([[1, 0, 0, 0], [0, s2, 1j * s2, 0], [0, 1j * s2, s2, 0], [0, 0, 0, 1]]),
        "x": np.array([[0, 1], [1, 0]]),
    }


def qulacs_gates(ops):
    """One Qulacs dense-matrix gate per op, with its controls."""
    from qulacs.gate import DenseMatrix

    mats = matrices()
    gates = []
    for op in ops:
        g = DenseMatrix(op["targets"], mats[op["gate"]])
        for q, v in op["controls"]:
            g.add_control_qubit(q, v)
        gates.append(g)
    return gates


def qiskit_circuit(ops, n):
    """The ops as a Qiskit circuit on `n` qubits (controlled gates with their control states)."""
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import UnitaryGate, iSwapGate, XGate

    sq = UnitaryGate(matrices()["siswap"], label="siswap")
    qc = QuantumCircuit(n)
    for op in ops:
        base = {"iswap": iSwapGate(), "siswap": sq, "x": XGate()}[op["gate"]]
        ctrl = [q for q, _ in op["controls"]]
        if ctrl:
            # Qiskit's ctrl_state bit k is control k.
            state = sum(v << k for k, (_, v) in enumerate(op["controls"]))
            qc.append(base.control(len(ctrl), ctrl_state=state), ctrl + op["targets"])
        else:
            qc.append(base, op["targets"])
    return qc
