#!/usr/bin/env python3
"""Width and depth of the bundled games on hardware (docs/hardware.md, "Width and depth").

For every circuits/*.qcg and every bundled target (generic, ibm, google, braket): qubits,
two-qubit gates and two-qubit depth of the program `qchess compile --target T` writes, or why
the target refuses it (qubits and
depth from qchess's summary; two-qubit gates counted in the program text: every gate statement
on two or more qubits of `q`, so a `ccx` of the generic program counts once). Then the ibm
program routed by Qiskit's transpiler onto FakeFez (device.py): its qubits (physical qubits
touched), `cz` count and `cz` depth, and the estimated success probability (ESP: the product of
(1 - error) over every gate and measurement of the routed circuit, with FakeFez's calibrated
errors): the chance that a shot runs without a single error.

Prints a Markdown table. Usage: widths.py [OUT_DIR]
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import device  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ["generic", "ibm", "google", "braket"]
STATEMENT = re.compile(r"^\s*(?:if \(c\[\d+\]\) \{\s*)?([a-z_0-9]+)(?:\([^)]*\))?\s+(q\[\d+\](?:\s*,\s*q\[\d+\])*)\s*;")


def compile_game(game, target, out):
    path = out / f"{game.stem}.{target}.qasm"
    done = subprocess.run(
        [str(ROOT / "target/release/qchess"), "compile", str(game), "--target", target, "-o", str(path)],
        capture_output=True, text=True,
    )
    too_wide = re.search(r"has (\d+) qubits but this program needs (\d+)", done.stderr)
    if too_wide:
        return None, f"needs {too_wide.group(2)} > {too_wide.group(1)}"
    if done.returncode != 0:
        raise RuntimeError(f"{game.name} --target {target}: {done.stderr.strip()}")
    summary = done.stderr.splitlines()[0]
    qubits = int(re.search(r"qubits: (\d+)", summary).group(1))
    depth = int(re.search(r"two-qubit depth: (\d+)", summary).group(1))
    return path, f"{qubits} / {two_qubit_gates(path.read_text())} / {depth}"


def two_qubit_gates(text):
    """Gate statements on 2+ qubits of `q` (measure and reset are not gates)."""
    n = 0
    for line in text.splitlines():
        m = STATEMENT.match(line)
        if m and m.group(1) not in ("measure", "reset", "barrier") and m.group(2).count("q[") >= 2:
            n += 1
    return n


def on_device(program, backend):
    from qiskit import qasm3

    isa = device.to_device(qasm3.loads(program.read_text()), backend)
    target = backend.target
    esp = 1.0
    for instr in isa.data:
        name = instr.operation.name
        if name in target.operation_names and target[name] is not None:
            qargs = tuple(isa.find_bit(q).index for q in instr.qubits)
            props = target[name].get(qargs)
            if props is not None and props.error is not None:
                esp *= 1.0 - props.error
    two = [i for i in isa.data if i.operation.num_qubits == 2 and i.operation.name != "barrier"]
    depth = isa.depth(lambda i: i.operation.num_qubits == 2 and i.operation.name != "barrier")
    return len(device.physical_qubits([isa])), len(two), depth, esp


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    backend = device.fake_device()
    header = "| game | " + " | ".join(f"{t}: qubits / 2q gates / 2q depth" for t in TARGETS)
    header += f" | ibm on {device.DEVICE} (Qiskit): qubits / cz / cz depth | ESP |"
    print(header)
    print("|" + "---|" * (len(TARGETS) + 3))
    for game in sorted((ROOT / "circuits").glob("*.qcg")):
        cells = []
        for target in TARGETS:
            cells.append(compile_game(game, target, out)[1])
        q, cz, depth, esp = on_device(out / f"{game.stem}.ibm.qasm", backend)
        print(f"| {game.stem} | " + " | ".join(cells) + f" | {q} / {cz} / {depth} | {esp:.2e} |", flush=True)


if __name__ == "__main__":
    main()
