#!/usr/bin/env python3
"""Circuits as Qiskit users write them, run by qchess and by Qiskit Aer.

* OpenQASM 2 the textbook way: teleportation with `if(c0==1) z q[2];` on one-bit registers and
  `if(c==1) ...` on one two-bit register, and a register comparison for every value of a
  two-bit register (Qiskit's convention: bit 0 the least significant).
* OpenQASM 3: `measure q -> c;` and `measure q[0] -> c[0];`, `if (c == n)`, `if (c[0] == 1)`,
  and what Qiskit 2.6's `qasm3.dumps` writes for `if_test` (`if (!c[0])`, `if (c != 2)`,
  `if (bool(c))`, nested `if`, `else`, `for int _ in [0:2]`), from circuits built in Qiskit.
  Forms Qiskit's own importer does not read (`for` loops whose variable indexes a register,
  `for i in {0, 2}`, `if (c)` on a register) are run on Aer as the equivalent program it reads.
  Aer's counts against qchess's exact probabilities (`qchess run --json`): check.py's test (every
  outcome within 5 sigma, plus one count; an outcome qchess calls impossible must not occur).
* `qchess run --state` of a 3-qubit QFT of a basis state against Qiskit's Statevector, to 1e-9
  after removing one global phase.
* `qchess counts` of Aer's counts of a program without a board: every bit's marginal within 5
  sigma of qchess's exact one.
* `qchess route --target ibm|google|braket` of the teleportation: the lowered program run on Aer
  (ibm, google) and on the Braket local simulator (braket, whose gate names Qiskit does not know).
Usage: qiskit_programs.py QCHESS OUT_DIR
"""
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
from qiskit import ClassicalRegister, QuantumCircuit, QuantumRegister, qasm2, qasm3
from qiskit.circuit.classical import expr, types
from qiskit.quantum_info import Statevector
from qiskit_aer import AerSimulator

sys.path.insert(0, str(Path(__file__).parent))
from check import SHOTS, SIGMAS, compare, run, run_braket  # noqa: E402

H3 = 'OPENQASM 3.0;\ninclude "stdgates.inc";\n'
H2 = 'OPENQASM 2.0;\ninclude "qelib1.inc";\n'

TELEPORT_BODY = "h q[1];\ncx q[1],q[2];\ncx q[0],q[1];\nh q[0];\n"
TELEPORT2 = (
    f"{H2}qreg q[3];\ncreg c0[1];\ncreg c1[1];\ncreg c2[1];\nu3(1.1,0.4,0.2) q[0];\n{TELEPORT_BODY}"
    "measure q[0] -> c0[0];\nmeasure q[1] -> c1[0];\nif(c0==1) z q[2];\nif(c1==1) x q[2];\n"
    "measure q[2] -> c2[0];\n"
)
TELEPORT2_REGISTER = (
    f"{H2}qreg q[3];\ncreg c[2];\ncreg out[1];\nry(1.1) q[0];\n{TELEPORT_BODY}"
    "measure q[0] -> c[0];\nmeasure q[1] -> c[1];\nif(c==1) z q[2];\nif(c==2) x q[2];\n"
    "if(c==3) y q[2];\nmeasure q[2] -> out[0];\n"
)
# Unequal probabilities for the four values of c, so that a comparison read with the wrong bit
# order gives visibly different counts.
PREPARE = "ry(0.9) q[0];\nry(2.1) q[1];\n"
MEASURE_ARROW = f"{H3}qubit[3] q;\nbit[3] c;\n{PREPARE}cx q[1], q[2];\nmeasure q -> c;\n"
MEASURE_ARROW_ELEMENTS = (
    f"{H3}qubit[2] q;\nbit[2] c;\n{PREPARE}cz q[0], q[1];\nh q[1];\n"
    "measure q[0] -> c[0];\nmeasure q[1] -> c[1];\n"
)


def register_comparisons2():
    """`if(c==v) ry(...) q[2];` on a two-bit register, every value."""
    return {
        f"compare2_{v}": f"{H2}qreg q[3];\ncreg c[2];\ncreg d[1];\n{PREPARE}measure q[0] -> c[0];\n"
        f"measure q[1] -> c[1];\nif(c=={v}) ry(2.5) q[2];\nmeasure q[2] -> d[0];\n"
        for v in range(4)
    }


# (`bit[1] d`, not `bit d`: Qiskit reads a lone `bit` as a bit outside every register, which
# get_counts leaves out.)
def register_comparisons3():
    """OpenQASM 3 forms Qiskit's importer reads, each with its own rotation."""
    pre = f"{H3}qubit[3] q;\nbit[2] c;\nbit[1] d;\n{PREPARE}c = measure q[0:1];\n"
    forms = {
        "equals": "if (c == 2) { ry(2.5) q[2]; }\n",
        "bit_equals": "if (c[0] == true) { ry(2.5) q[2]; } else { ry(0.7) q[2]; }\n",
        "bit": "if (c[1]) { ry(2.5) q[2]; }\n",
        "not_bit": "if (!c[0]) { ry(1.2) q[2]; }\n",
        "slice": "if (c[0:1] == 1) { ry(2.5) q[2]; }\n",
        "nested": "if (c == 3) { ry(2.5) q[2]; } else { if (c[0]) { ry(1.0) q[2]; } }\n",
    }
    return {f"compare3_{k}": f"{pre}{body}d[0] = measure q[2];\n" for k, body in forms.items()}


def equivalents():
    """(qchess's program, an equivalent one Qiskit's importer reads)."""
    pre = f"{H3}qubit[3] q;\nbit[2] c;\nbit[1] d;\n{PREPARE}c = measure q[0:1];\n"
    out = f"d[0] = measure q[2];\n"
    return {
        "register_truth": (
            f"{pre}if (c) {{ ry(2.5) q[2]; }}\n{out}",
            f"{pre}if (c == 0) {{ }} else {{ ry(2.5) q[2]; }}\n{out}",
        ),
        # Qiskit's importer compares a bit with true/false only.
        "bit_equals_int": (
            f"{pre}if (c[0] == 1) {{ ry(2.5) q[2]; }} else {{ ry(0.7) q[2]; }}\n{out}",
            f"{pre}if (c[0] == true) {{ ry(2.5) q[2]; }} else {{ ry(0.7) q[2]; }}\n{out}",
        ),
        "not_equal_else": (
            f"{pre}if (c != 2) {{ ry(2.5) q[2]; }} else {{ ry(0.7) q[2]; }}\n{out}",
            f"{pre}if (c == 2) {{ ry(0.7) q[2]; }} else {{ ry(2.5) q[2]; }}\n{out}",
        ),
        "loops": (
            f"{H3}qubit[4] q;\nbit[4] c;\nfor uint i in [0:3] {{ ry(0.3 + i * 0.4) q[i]; }}\n"
            "for int i in [0:1] { for int j in [i + 1:2] { cx q[i], q[j]; } }\n"
            "for i in {3, 1} { rz(pi / 3) q[i]; h q[i]; }\nc = measure q;\n",
            f"{H3}qubit[4] q;\nbit[4] c;\nry(0.3) q[0];\nry(0.7) q[1];\nry(1.1) q[2];\nry(1.5) q[3];\n"
            "cx q[0], q[1];\ncx q[0], q[2];\ncx q[1], q[2];\n"
            "rz(pi / 3) q[3];\nh q[3];\nrz(pi / 3) q[1];\nh q[1];\nc = measure q;\n",
        ),
        "slices": (
            f"{H3}qubit[4] q;\nbit[4] c;\nry(1.3) q[0:3];\ncx q[0:1], q[2:3];\nc[0:1] = measure q[0:1];\n"
            "c[3:-1:2] = measure q[2:3];\n",
            f"{H3}qubit[4] q;\nbit[4] c;\nry(1.3) q[0];\nry(1.3) q[1];\nry(1.3) q[2];\nry(1.3) q[3];\n"
            "cx q[0], q[2];\ncx q[1], q[3];\nc[0] = measure q[0];\nc[1] = measure q[1];\n"
            "c[3] = measure q[2];\nc[2] = measure q[3];\n",
        ),
    }


def qiskit_written(cast=True):
    """Circuits built in Qiskit with `if_test` and `for_loop`, as `qasm3.dumps` writes them.
    With `cast` false, `bool(c)` is written `c != 0` (what Aer is run on: see `aer_bool_cast`)."""
    q, c, d = QuantumRegister(3, "q"), ClassicalRegister(2, "c"), ClassicalRegister(1, "d")
    qc = QuantumCircuit(q, c, d)
    qc.ry(0.9, 0)
    qc.ry(2.1, 1)
    qc.measure([0, 1], [0, 1])
    with qc.if_test((c, 3)):
        qc.ry(0.5, 2)
    with qc.if_test(expr.logic_not(c[0])):
        qc.ry(0.4, 2)
    with qc.if_test(expr.not_equal(c, 2)):
        qc.rz(0.3, 2)
        qc.ry(0.2, 2)
    with qc.if_test(expr.cast(c, types.Bool()) if cast else expr.not_equal(c, 0)):
        qc.ry(0.6, 2)
    with qc.if_test((c, 1)) as else_:
        qc.ry(0.8, 2)
    with else_:
        with qc.if_test((c[1], 0)):
            qc.ry(1.3, 2)
    with qc.for_loop(range(3)):
        qc.rx(0.25, 2)
    qc.measure(2, d[0])
    return {"qiskit_dumps": (qasm3.dumps(qc), qc)}


def aer_bool_cast(sim):
    """How Aer evaluates `if_test(bool(c))` on a two-bit register: for each value of `c`, whether
    the conditioned `x` ran. OpenQASM 3 (and Qiskit's own semantics) casts an integer to true
    when it is not 0; Aer 0.18.2 runs the block when `c == 0` instead."""
    q, c, d = QuantumRegister(3, "q"), ClassicalRegister(2, "c"), ClassicalRegister(1, "d")
    ran = {}
    for value in range(4):
        qc = QuantumCircuit(q, c, d)
        for bit in range(2):
            if value >> bit & 1:
                qc.x(bit)
        qc.measure([0, 1], [0, 1])
        with qc.if_test(expr.cast(c, types.Bool())):
            qc.x(2)
        qc.measure(2, d[0])
        (key,) = sim.run(qc, shots=16).result().get_counts()
        ran[value] = key.split()[0] == "1"
    return ran


def teleport_dumps():
    """Qiskit's textbook teleportation, written by qasm2.dumps and qasm3.dumps."""
    q = QuantumRegister(3, "q")
    crz, crx, out = ClassicalRegister(1, "crz"), ClassicalRegister(1, "crx"), ClassicalRegister(1, "out")
    qc = QuantumCircuit(q, crz, crx, out)
    qc.ry(1.1, 0)
    qc.rz(0.4, 0)
    qc.h(1)
    qc.cx(1, 2)
    qc.cx(0, 1)
    qc.h(0)
    qc.measure(0, crz[0])
    qc.measure(1, crx[0])
    with qc.if_test((crx, 1)):
        qc.x(2)
    with qc.if_test((crz, 1)):
        qc.z(2)
    qc.measure(2, out[0])
    return {"teleport_dumps2": (qasm2.dumps(qc), qc), "teleport_dumps3": (qasm3.dumps(qc), qc)}


def qchess(qchess_bin, *args):
    return subprocess.run([qchess_bin, *args], check=True, capture_output=True, text=True).stdout


def probabilities(qchess_bin, path):
    return json.loads(qchess(qchess_bin, "run", "--json", str(path)))["probabilities"]


def loads(text):
    return qasm2.loads(text, custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS) if text.startswith("OPENQASM 2") else qasm3.loads(text)


def check_state(qchess_bin, out):
    """A 3-qubit QFT of |5> (textbook, with the final swaps): qchess's amplitudes against
    Qiskit's Statevector, up to one global phase."""
    text = (
        f"{H3}qubit[3] q;\nx q[0];\nx q[2];\n"
        "h q[2];\ncp(pi/2) q[1], q[2];\ncp(pi/4) q[0], q[2];\nh q[1];\ncp(pi/2) q[0], q[1];\nh q[0];\nswap q[0], q[2];\n"
    )
    path = out / "qft3.qasm"
    path.write_text(text)
    want = Statevector(qasm3.loads(text)).data
    got = json.loads(qchess(qchess_bin, "run", "--state", "dense", "--json", str(path)))
    (branch,) = got["branches"]
    amps = np.array([complex(re, im) for re, im in branch["amplitudes"]])
    k = int(np.argmax(np.abs(want)))
    phase = want[k] / amps[k]
    if abs(abs(phase) - 1) > 1e-9 or np.max(np.abs(amps * phase - want)) > 1e-9:
        sys.exit(f"{path}: --state {amps} against Qiskit's statevector {want}")
    # Every amplitude of a QFT of a basis state has modulus 1/sqrt(8): the phases are the check.
    return "QFT state agrees with Qiskit's Statevector to 1e-9"


def check_counts(qchess_bin, out, sim):
    """Aer's counts of a program without a board, read back by `qchess counts`."""
    path = out / "measure_arrow.qasm"
    counts = run(qasm3.loads(path.read_text()), sim)
    counts_path = out / "measure_arrow.counts.json"
    counts_path.write_text(json.dumps(counts))
    summary = json.loads(qchess(qchess_bin, "counts", str(path), str(counts_path), "--counts-format", "qiskit", "--exact", "--json"))
    if summary["shots"] != SHOTS:
        sys.exit(f"{counts_path}: qchess counts read {summary['shots']} shots, Aer ran {SHOTS}")
    for m in summary["marginals"]:
        p, got = m["exact"], m["probability"]
        bound = SIGMAS * math.sqrt(max(p * (1 - p), 0) / SHOTS) + 1 / SHOTS
        if abs(got - p) > bound:
            sys.exit(f"{counts_path}: c{m['bit']} reads 1 in {got:.4f} of the shots, exact {p:.4f}")
    return f"qchess counts of Aer's counts: {len(summary['marginals'])} marginals within 5 sigma"


def check_targets(qchess_bin, out, sim):
    """The teleportation lowered to the logical targets by `qchess route`, run on Aer."""
    source = out / "teleport2.qasm"
    exact = probabilities(qchess_bin, source)
    errors = []
    for target in ["ibm", "google", "braket"]:
        text = qchess(qchess_bin, "route", str(source), "--target", target)
        path = out / f"teleport2.{target}.qasm"
        path.write_text(text)
        # Braket's program uses Braket's gate names (`cnot`): its own local simulator runs it.
        counts = run_braket(text) if target == "braket" else run(qasm3.loads(text), sim)
        errors += compare(path.name, exact, counts, 3)
    return errors


def main():
    qchess_bin, out = sys.argv[1], Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    sim = AerSimulator()
    errors = []
    programs = {
        "teleport2": TELEPORT2,
        "teleport2_register": TELEPORT2_REGISTER,
        "measure_arrow": MEASURE_ARROW,
        "measure_arrow_elements": MEASURE_ARROW_ELEMENTS,
        **register_comparisons2(),
        **register_comparisons3(),
    }
    for name, text in programs.items():
        path = out / f"{name}.qasm"
        path.write_text(text)
        exact = probabilities(qchess_bin, path)
        width = len(next(iter(exact)))
        errors += compare(name, exact, run(loads(text), sim), width)
    for name, (ours, theirs) in equivalents().items():
        path = out / f"{name}.qasm"
        path.write_text(ours)
        (out / f"{name}.qiskit.qasm").write_text(theirs)
        exact = probabilities(qchess_bin, path)
        errors += compare(name, exact, run(loads(theirs), sim), len(next(iter(exact))))
    # qiskit_written()'s circuit: qchess reads what `qasm3.dumps` wrote, `if (bool(c))` and all;
    # Aer runs the same circuit with `bool(c)` written `c != 0`, because Aer gets the cast wrong
    # (aer_bool_cast: it ran the block for c == 0 only), which once made the two disagree
    # (P(d = 1) 0.373 from qchess, 0.287 on Aer; by hand the cast's block alone gives
    # P(c != 0) sin^2(0.3) = 0.0698, which qchess gives and Aer's 0.0195 is not).
    cast = aer_bool_cast(sim)
    ((text, _),) = qiskit_written().values()
    ((_, aer_circuit),) = qiskit_written(cast=False).values()
    path = out / "qiskit_dumps.qasm"
    path.write_text(text)
    exact = probabilities(qchess_bin, path)
    errors += compare("qiskit_dumps", exact, run(aer_circuit, sim), len(next(iter(exact))))
    for name, (text, circuit) in teleport_dumps().items():
        path = out / f"{name}.qasm"
        path.write_text(text)
        exact = probabilities(qchess_bin, path)
        errors += compare(name, exact, run(circuit, sim), len(next(iter(exact))))
    errors += check_targets(qchess_bin, out, sim)
    if errors:
        sys.exit("\n".join(errors))
    notes = [check_state(qchess_bin, out), check_counts(qchess_bin, out, sim)]
    if cast != {0: False, 1: True, 2: True, 3: True}:
        notes.append(f"Aer's bool(c) ran its block for c in {[v for v, r in cast.items() if r]} (OpenQASM 3: c != 0)")
    total = len(programs) + len(equivalents()) + 1 + 2 + 3
    print(f"Qiskit programs: OK, {total} programs agree with Aer ({SHOTS} shots, 5 sigma); " + "; ".join(notes))


if __name__ == "__main__":
    main()
