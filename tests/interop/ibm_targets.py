#!/usr/bin/env python3
"""Writes the device target of IBM's Eagle processor ibm_brisbane (backends/ibm_brisbane.toml:
ECR couplers, each driven one way) from the fake backend qiskit-ibm-runtime ships, and checks it.

Its couplers are the fake backend's `coupling_map` (conf_brisbane.json), which lists each
coupler once, the way the device drives its ECR: [first, second] is `ecr first, second`. They
are checked equal to the directed qubit pairs of the calibration's `ecr` entries
(props_brisbane.json) and to the Target of `FakeBrisbane()`. With --check, the file is compared
with what would be written instead (CI: the bundled target stays what qiskit-ibm-runtime says).

The calibration itself is not copied into the repository: pass props_brisbane.json to qchess
with --properties, or write it out with --calibrations DIR.
Usage: ibm_targets.py [--check] [--calibrations DIR]
"""
import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# name: (fake backend class, its folder in qiskit_ibm_runtime/fake_provider/backends, what it is)
PROCESSORS = {
    "ibm_brisbane": ("FakeBrisbane", "brisbane", "IBM ibm_brisbane, Eagle r3"),
}


def backend_files(folder):
    import qiskit_ibm_runtime.fake_provider.backends as backends

    base = Path(backends.__file__).parent / folder
    return base / f"conf_{folder}.json", base / f"props_{folder}.json"


def directed_couplers(conf, props, fake_class):
    """The couplers [first, second] as the configuration lists them, checked against the
    calibration's ECR entries and the fake backend's Target."""
    import qiskit_ibm_runtime.fake_provider as fake_provider

    config = json.loads(conf.read_text())
    pairs = [tuple(p) for p in config["coupling_map"]]
    assert len(set(pairs)) == len(pairs), "a coupler listed twice"
    assert not any((b, a) in set(pairs) for a, b in pairs), "a coupler listed both ways"
    calibrated = {tuple(g["qubits"]) for g in json.loads(props.read_text())["gates"] if g["gate"] == "ecr"}
    assert calibrated == set(pairs), "the calibration's ECR pairs differ from the coupling map"
    backend = getattr(fake_provider, fake_class)()
    assert set(backend.target["ecr"].keys()) == set(pairs), "the Target's ECR pairs differ"
    assert "if_else" in config["supported_instructions"], "no feed-forward"
    assert sorted(config["basis_gates"]) == ["ecr", "id", "rz", "sx", "x"], config["basis_gates"]
    return config["n_qubits"], pairs


def toml(name, folder, what, qubits, pairs):
    lines = [
        f"# {what}: {qubits} fixed-frequency qubits on a heavy-hex lattice, ECR couplers;",
        "# ecr, rz, sx, x; dynamic circuits (mid-circuit measurement, reset and `if`).",
        f"# A device target: `qchess compile --target {name}` places and routes the program onto",
        "# these couplers, each ECR the way its coupler drives it, and writes it on physical qubits",
        f"# $0..${qubits - 1} (docs/backends.md).",
        "# Written by tests/interop/ibm_targets.py from qiskit-ibm-runtime's fake backend",
        f"# (fake_provider/backends/{folder}/conf_{folder}.json, `coupling_map`: each coupler once,",
        "# [first, second] = `ecr first, second`; equal to the directed pairs of the calibration's",
        "# ecr entries). Calibration (broken couplers, error rates) is not part of the target: pass",
        f"# it with --properties (BackendProperties JSON, props_{folder}.json).",
        f'name = "{name}"',
        f'description = "{what} ({qubits} qubits, heavy-hex; ecr, rz, sx, x; dynamic circuits)"',
        f"qubits = {qubits}",
        "feed_forward = true",
        'native = ["rz", "sx", "x", "ecr"]',
        'single_qubit = "zsx"',
        'two_qubit = "ecr"',
        "# Each coupler drives its ECR one way: [first, second] below.",
        "directed = true",
        "# ecr is not in stdgates.inc: inline its exact definition so simulators can run the text.",
        "definitions = true",
        "# Dynamical decoupling by default: none (as ibm_fez; `qchess compile --dd xx|xy4` asks for it).",
        'dd = "none"',
        "edges = [",
    ]
    for i in range(0, len(pairs), 10):
        lines.append("    " + " ".join(f"[{a}, {b}]," for a, b in pairs[i:i + 10]))
    lines.append("]")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare backends/NAME.toml instead of writing it")
    parser.add_argument("--calibrations", type=Path, help="also copy the calibrations into this folder")
    args = parser.parse_args()
    stale = []
    for name, (fake_class, folder, what) in PROCESSORS.items():
        conf, props = backend_files(folder)
        qubits, pairs = directed_couplers(conf, props, fake_class)
        text = toml(name, folder, what, qubits, pairs)
        target = ROOT / "backends" / f"{name}.toml"
        if args.check:
            if not target.exists() or target.read_text() != text:
                stale.append(str(target))
        else:
            target.write_text(text)
        if args.calibrations:
            args.calibrations.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(props, args.calibrations / f"{name}_properties.json")
        print(f"{name}: {qubits} qubits, {len(pairs)} directed couplers", flush=True)
    if stale:
        print("stale (run tests/interop/ibm_targets.py):", ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()
