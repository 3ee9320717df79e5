#!/usr/bin/env python3
"""OpenQASM 3 as the specification types and writes it (issue 30, items 6 and 10), on Qiskit.

* Angle expressions, where integer literals are integers (`1/2` is 0, `-3/2` is -2 as Qiskit
  divides) and gate parameters named like a constant (`gate g(pi) a { ry(pi) a; }`): each
  expression E is written as `ry(E) q[0]; ry(E) q[1]; h q[1];`, whose probabilities give both
  cos(E) and sin(E), so a wrong value, sign or period shows. Qiskit's statevector
  (qiskit.qasm3.loads, then qiskit.quantum_info.Statevector) against `qchess run --json`: every
  probability to 1e-9. An expression Qiskit refuses (`7/0`) must make qchess exit 2.
* Valid forms the OpenQASM 3 parser under qchess does not read as written (`if (c) stmt;` and
  `else stmt;` without braces, `barrier;` without operands, `OPENQASM 3;`), with a mid-circuit
  measurement: Aer's counts against qchess's exact probabilities, 5 sigma (check.py's test).
Usage: qasm3_forms.py QCHESS OUT_DIR
"""
import json
import subprocess
import sys
from pathlib import Path

from qiskit import qasm3
from qiskit.quantum_info import Statevector
from qiskit_aer import AerSimulator

sys.path.insert(0, str(Path(__file__).parent))
from check import SHOTS, compare, run  # noqa: E402

TOLERANCE = 1e-9
HEAD = 'OPENQASM 3.0;\ninclude "stdgates.inc";\nqubit[2] q;\nbit[2] c;\n'

EXPRESSIONS = [
    "1/2*pi", "pi*(3/2)", "-3/2", "-(3/2)", "7/-2", "-7/2", "(-7)/2", "0o17/10", "0x10/3",
    "0b11/2", "1_0/3", "3/2", "2-3/2", "2*3", "1.0/2", "1e1/4", "3/2.", "pi/2", "euler", "tau",
    "π", "τ", "ℇ", "5/3*pi/2", "pi/(4/3)", "-(-9/4)", "1/3+1/3+1/3", "2*3/4", "2*(3/4)",
]
REFUSED = ["7/0", "pi*(1/0)"]
CONSTANT_NAMES = ["pi", "tau", "euler", "π", "τ", "ℇ"]

MEASURED = "h q[0];\nc[0] = measure q[0];\n"
FORMS = {
    "if_without_braces": f"{HEAD}{MEASURED}if (c[0]) x q[1];\nc[1] = measure q[1];\n",
    "else_without_braces": f"{HEAD}{MEASURED}if (c[0] == false) ry(pi/3) q[1]; else\n  x q[1];\nc[1] = measure q[1];\n",
    "braces_then_braceless_else": f"{HEAD}{MEASURED}if (c[0]) {{ x q[1]; }} else h q[1];\nc[1] = measure q[1];\n",
    "barrier_without_operands": f"{HEAD}h q[0];\nbarrier;\ncx q[0], q[1];\nc = measure q;\n",
    "integer_version": HEAD.replace("3.0;", "3;") + "h q[0];\ncx q[0], q[1];\nc = measure q;\n",
}


def qchess_probabilities(qchess, path):
    out = subprocess.run([qchess, "run", "--json", str(path)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["probabilities"]


def statevector_probabilities(text):
    circuit = qasm3.loads(text).remove_final_measurements(inplace=False)
    return {str(k): float(p) for k, p in Statevector(circuit).probabilities_dict().items()}


def main():
    qchess, out = sys.argv[1], Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    programs = {}
    for k, expr in enumerate(EXPRESSIONS):
        programs[f"angle_{k:02}"] = f"{HEAD}ry({expr}) q[0];\nry({expr}) q[1];\nh q[1];\nc = measure q;\n"
    for k, name in enumerate(CONSTANT_NAMES):
        programs[f"shadow_{k}"] = (
            f"{HEAD}gate g({name}) a {{ ry({name}) a; }}\ng(0.3) q[0];\nry(pi/2) q[1];\nc = measure q;\n"
        )
    for label, text in programs.items():
        path = out / f"{label}.qasm"
        path.write_text(text)
        want, got = statevector_probabilities(text), qchess_probabilities(qchess, path)
        for key in set(want) | set(got):
            w, g = want.get(key, 0.0), got.get(key, 0.0)
            if abs(w - g) > TOLERANCE:
                sys.exit(f"{path}: P({key}) is {g} in qchess, {w} in Qiskit's statevector")
    for k, expr in enumerate(REFUSED):
        text = f"{HEAD}rx({expr}) q[0];\n"
        path = out / f"refused_{k}.qasm"
        path.write_text(text)
        try:
            qasm3.loads(text)
            sys.exit(f"{path}: Qiskit reads it; the check assumes it refuses it")
        except Exception:  # noqa: BLE001 (any refusal of Qiskit's)
            pass
        status = subprocess.run([qchess, "run", str(path)], capture_output=True).returncode
        if status != 2:
            sys.exit(f"{path}: qchess exits {status}, expected 2 (refused)")
    sim = AerSimulator()
    errors = []
    for label, text in FORMS.items():
        path = out / f"{label}.qasm"
        path.write_text(text)
        errors += compare(label, qchess_probabilities(qchess, path), run(qasm3.loads(text), sim), 2)
    if errors:
        sys.exit("\n".join(errors))
    print(f"OpenQASM 3 forms: OK, {len(programs)} programs agree with Qiskit's statevector to {TOLERANCE}, "
          f"{len(REFUSED)} refused by both, {len(FORMS)} forms agree with Aer ({SHOTS} shots, 5 sigma)")


if __name__ == "__main__":
    main()
