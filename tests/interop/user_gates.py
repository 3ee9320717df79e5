#!/usr/bin/env python3
"""User gates on Qiskit against `qchess run` (issue 14: small user gates applied as one matrix).

Writes seeded random OpenQASM 3 programs the way other tools write them: two or three `gate`
definitions on 2 or 3 qubits with angle parameters, whose bodies mix rotations, Clifford gates and
controlled gates (so they match no gate of qchess's table), called plainly and under `ctrl @`
and `negctrl @`, among ordinary gates. For each program:
  * Qiskit (qiskit.qasm3.loads, then qiskit.quantum_info.Statevector without the final
    measurements) gives the exact probabilities, computed by Qiskit from its own reading of
    the definitions;
  * `qchess run --json --backend B` for B in sparse, dense, reference gives qchess's, where each
    call of a definition is one `Op::UserGate` (`qchess draw --circuit` must show the boxes, so
    the check is known to cover them) and `--no-optimize` gives the inlined form.
Every probability must agree to 1e-9. Usage: user_gates.py QCHESS OUT_DIR [COUNT]
(A first version named the parameters `theta, phi` and found Qiskit binding them in alphabetical
order; that is Qiskit's, checked by hand on `gate g(theta, phi) a { ry(theta) a; }`.)
"""
import json
import random
import subprocess
import sys
from pathlib import Path

from qiskit import qasm3
from qiskit.quantum_info import Statevector

TOLERANCE = 1e-9
ONE_QUBIT = ["h", "s", "t", "x", "sx"]
ROTATIONS = ["rx", "ry", "rz", "p"]


def random_body(rng, qubits, params):
    """A body on the formal qubits `qubits` using the angle names `params`."""
    lines = []
    for _ in range(rng.randint(3, 7)):
        kind = rng.random()
        if kind < 0.35:
            angle = rng.choice(params + [f"{rng.uniform(-3, 3):.6f}"])
            lines.append(f"{rng.choice(ROTATIONS)}({angle}) {rng.choice(qubits)};")
        elif kind < 0.55:
            lines.append(f"{rng.choice(ONE_QUBIT)} {rng.choice(qubits)};")
        elif kind < 0.9 or len(qubits) < 3:
            a, b = rng.sample(qubits, 2)
            gate = rng.choice(["cx", "cz", f"cry({rng.choice(params)})", "swap"])
            lines.append(f"{gate} {a}, {b};")
        else:
            a, b, c = rng.sample(qubits, 3)
            lines.append(f"ccx {a}, {b}, {c};")
    # A controlled gate makes sure the body is no single table gate.
    a, b = rng.sample(qubits, 2)
    lines.append(f"cx {a}, {b};")
    return " ".join(lines)


def random_program(seed):
    rng = random.Random(seed)
    n = rng.randint(3, 5)
    defs, gates = [], []
    for k in range(rng.randint(2, 3)):
        arity = rng.choice([2, 2, 3]) if n > 3 else 2
        qubits = ["a", "b", "c"][:arity]
        # Declared in alphabetical order: Qiskit's importer binds a definition's parameters in
        # alphabetical order of their names, not in the order declared (docs/backends.md, "What
        # real tools accept"); with `(theta, phi)` it would give `theta` the second angle.
        params = ["alpha", "beta"][: rng.randint(1, 2)]
        name = f"g{k}"
        defs.append(f"gate {name}({', '.join(params)}) {', '.join(qubits)} {{ {random_body(rng, qubits, params)} }}")
        gates.append((name, arity, len(params)))
    lines = ["OPENQASM 3.0;", 'include "stdgates.inc";'] + defs + [f"qubit[{n}] q;", f"bit[{n}] c;"]
    lines += [f"h q[{k}];" for k in range(n) if rng.random() < 0.7]
    for _ in range(rng.randint(6, 14)):
        name, arity, nparams = rng.choice(gates)
        angles = ", ".join(f"{rng.uniform(-3, 3):.6f}" for _ in range(nparams))
        mod = rng.random()
        controls = 1 if mod < 0.45 and arity < n else 0
        operands = rng.sample(range(n), arity + controls)
        prefix = ""
        if controls:
            prefix = "ctrl @ " if mod < 0.25 else "negctrl @ "
        lines.append(f"{prefix}{name}({angles}) {', '.join(f'q[{q}]' for q in operands)};")
        if rng.random() < 0.3:
            lines.append(f"ry({rng.uniform(-3, 3):.6f}) q[{rng.randrange(n)}];")
    lines += [f"c[{k}] = measure q[{k}];" for k in range(n)]
    return "\n".join(lines) + "\n", [g[0] for g in gates]


def qiskit_probabilities(text):
    circuit = qasm3.loads(text).remove_final_measurements(inplace=False)
    return {str(k): float(p) for k, p in Statevector(circuit).probabilities_dict().items()}


def main():
    qchess, out = sys.argv[1], Path(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    out.mkdir(parents=True, exist_ok=True)
    runs = 0
    for seed in range(1, count + 1):
        text, names = random_program(seed)
        path = out / f"user_gates_{seed:02}.qasm"
        path.write_text(text)
        want = qiskit_probabilities(text)
        drawing = subprocess.run([qchess, "draw", "--circuit", str(path)], check=True,
                                 capture_output=True, text=True).stdout
        if not any(f"[{name}(" in drawing for name in names):
            sys.exit(f"{path}: no user gate box in qchess's drawing; the check would cover nothing")
        for args in (["--backend", "sparse"], ["--backend", "dense"], ["--backend", "reference"],
                     ["--no-optimize"]):
            got = json.loads(subprocess.run([qchess, "run", "--json", *args, str(path)], check=True,
                                            capture_output=True, text=True).stdout)["probabilities"]
            for key in set(want) | set(got):
                w, g = want.get(key, 0.0), got.get(key, 0.0)
                if abs(w - g) > TOLERANCE:
                    sys.exit(f"{path} {' '.join(args)}: P({key}) is {g} in qchess, {w} in Qiskit")
            runs += 1
    print(f"user gates: OK, {count} programs, {runs} qchess runs agree with Qiskit's statevector to {TOLERANCE}")


if __name__ == "__main__":
    main()
