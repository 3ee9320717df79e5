#!/usr/bin/env python3
"""Checks the inputs and the checker of the device checks (issue 25): the bundled device files
against independent descriptions of the devices (ibm_fez.toml against FakeFez's coupling map
from qiskit-ibm-runtime, sycamore.toml against Google's grid as Cirq lays it out); physical.py's
device check and ESP on hand-written programs (the checker and the benchmark's figures must be
able to fail): a gate off the coupling map, on a broken coupler, a non-native gate, a qubit
beyond the device, inside and outside an `if` block, an ECR against its coupler's drive; the ESP of a small program against the
product written out by hand from props_fez.json's numbers; the calibration's broken couplers
against the seven FakeFez is known to have.
Usage: physical_selftest.py  (exits 1 on a failure)
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import physical  # noqa: E402

FEZ_BROKEN = {(27, 28), (31, 32), (32, 33), (68, 69), (80, 81), (106, 107), (139, 155)}
# Google's Sycamore as Cirq lays it out (cirq_google.Sycamore): a letter is a qubit at that row
# and column, couplers join horizontal and vertical neighbours (54 qubits, 88 couplers).
SYCAMORE_GRID = """\
-----AB---
----ABCD--
---ABCDEF-
--ABCDEFGH
-ABCDEFGHI
ABCDEFGHI-
-CDEFGHI--
--EFGHI---
---GHI----
----I-----"""


def check_device_files(backend):
    """Failures of the bundled device files against independent descriptions of the devices:
    ibm_fez.toml against FakeFez's coupling map, sycamore.toml against SYCAMORE_GRID (physical
    qubit k is the k-th grid position in row-major order, as the file says)."""
    failures = []
    fez = physical.Device.load("ibm_fez")
    coupling = {frozenset(e) for e in backend.coupling_map.get_edges()}
    if fez.qubits != backend.num_qubits or fez.edges != coupling:
        failures.append(f"ibm_fez.toml: {fez.qubits} qubits, {len(fez.edges)} couplers; FakeFez has "
                        f"{backend.num_qubits} and {len(coupling)} ({len(fez.edges ^ coupling)} couplers differ)")
    syc = physical.Device.load("sycamore")
    cells = [(r, c) for r, line in enumerate(SYCAMORE_GRID.splitlines()) for c, ch in enumerate(line) if ch != "-"]
    index = {cell: k for k, cell in enumerate(cells)}  # physical qubit k: the k-th (row, column)
    grid = {frozenset((k, index[nb])) for (r, c), k in index.items() for nb in ((r, c + 1), (r + 1, c)) if nb in index}
    if syc.qubits != len(cells) or syc.edges != grid:
        failures.append(f"sycamore.toml: {syc.qubits} qubits, {len(syc.edges)} couplers; Sycamore's grid has "
                        f"{len(cells)} and {len(grid)} ({len(syc.edges ^ grid)} couplers differ)")
    return failures


def program(body, clbits=2):
    from qiskit import qasm3

    return qasm3.loads(f'OPENQASM 3.0;\ninclude "stdgates.inc";\nbit[{clbits}] c;\n{body}\n')


def error_of(props, gate, qubits):
    for g in props["gates"]:
        if g["gate"] == gate and sorted(g["qubits"]) == sorted(qubits):
            return next(p["value"] for p in g["parameters"] if p["name"] == "gate_error")
    raise KeyError((gate, qubits))


def readout_of(props, qubit):
    return next(p["value"] for p in props["qubits"][qubit] if p["name"] == "readout_error")


def main():
    failures = []
    props_path = physical.fez_props_path()
    props = json.loads(props_path.read_text())
    cal = physical.Calibration.load(props_path)
    from qiskit_ibm_runtime.fake_provider import FakeFez

    backend = FakeFez()
    failures += check_device_files(backend)
    fez = physical.Device.load("ibm_fez")
    broken = {tuple(sorted(c)) for c in cal.broken_couplers({"cz"})}
    if broken != FEZ_BROKEN:
        failures.append(f"broken couplers {sorted(broken)}, expected {sorted(FEZ_BROKEN)}")
    a, b = sorted(next(iter(fez.edges - {frozenset(p) for p in FEZ_BROKEN})))
    far = next(q for q in range(fez.qubits) if frozenset((a, q)) not in fez.edges and q != a)
    cases = {
        "fit": (f"sx ${a};\nrz(0.5) ${b};\ncz ${a}, ${b};\nc[0] = measure ${a};\nreset ${a};\nc[1] = measure ${b};", []),
        "off the map": (f"cz ${a}, ${far};", ["no coupler"]),
        "off the map in an if": (f"c[0] = measure ${a};\nif (c[0]) {{ cz ${a}, ${far}; }}", ["no coupler"]),
        "broken coupler": ("cz $68, $69;", ["broken coupler"]),
        "broken coupler in an if": ("c[0] = measure $27;\nif (c[0]) { cz $28, $27; }", ["broken coupler"]),
        "not native": (f"h ${a};\ncx ${a}, ${b};", ["not a native gate", "not a native gate"]),
        "three qubits": (f"ccx ${a}, ${b}, ${far};", ["not a native gate", "more than two qubits"]),
        "beyond the device": ("x $200;", ["beyond the device"]),
    }
    for name, (body, expected) in cases.items():
        found = physical.check(program(body), fez, cal)
        if len(found) != len(expected) or not all(e in f for e, f in zip(expected, found)):
            failures.append(f"check, {name}: found {found}, expected {expected}")
    # A directed device: ECR the way ibm_brisbane's coupler 1-0 drives it, and against it.
    brisbane = physical.Device.load("ibm_brisbane")
    ecr_def = "gate ecr a, b { x a; h b; cx a, b; rz(-pi/2) b; cx a, b; h b; }\n"
    for name, body, expected in [
        ("ecr with the drive", "ecr $1, $0;", []),
        ("ecr against the drive", "ecr $0, $1;", ["against the coupler's drive"]),
        ("ecr against the drive in an if", "c[0] = measure $0;\nif (c[0]) { ecr $0, $1; }", ["against the coupler's drive"]),
    ]:
        found = physical.check(program(ecr_def + body), brisbane)
        if len(found) != len(expected) or not all(e in f for e, f in zip(expected, found)):
            failures.append(f"check, {name}: found {found}, expected {expected}")
    # ESP by hand: sx and cz gate errors, two readouts; rz is free, reset free (or a readout).
    stats = physical.stats(program(cases["fit"][0]), cal)
    by_hand = ((1 - error_of(props, "sx", [a])) * (1 - error_of(props, "cz", [a, b]))
               * (1 - readout_of(props, a)) * (1 - readout_of(props, b)))
    if abs(stats["esp"] - by_hand) > 1e-12:
        failures.append(f"ESP {stats['esp']}, by hand {by_hand}")
    if abs(stats["esp_reset_as_measure"] - by_hand * (1 - readout_of(props, a))) > 1e-12:
        failures.append(f"ESP with resets {stats['esp_reset_as_measure']}")
    want = {"two_qubit": 1, "two_qubit_depth": 1, "physical_qubits": 2, "measurements": 2, "resets": 1}
    if {k: stats[k] for k in want} != want:
        failures.append(f"stats {stats}, expected {want}")
    depth = physical.stats(program(f"cz ${a}, ${b};\nc[0] = measure ${a};\nif (c[0]) {{ cz ${a}, ${b}; }}\ncz ${a}, ${b};"), cal)
    if (depth["two_qubit"], depth["two_qubit_depth"]) != (3, 3):
        failures.append(f"two-qubit gates in and around an if: {depth}")
    if failures:
        print("physical_selftest: " + "\n  ".join(["FAILED"] + failures))
        sys.exit(1)
    print(f"physical_selftest: OK (device files, {len(cases)} programs checked, ESP by hand)")


if __name__ == "__main__":
    main()
