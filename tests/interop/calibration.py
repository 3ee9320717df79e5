#!/usr/bin/env python3
"""Readout calibration for `qchess counts --calibration FILE`, from a Qiskit backend.

`qchess counts` corrects each square's marginal for the readout errors of the qubit that reads
it. It needs, for every qubit of the program's `q` register, P(read 1 | the qubit is 0) and
P(read 0 | the qubit is 1):

    {"qubits": [{"qubit": 0, "p1_given_0": 0.012, "p0_given_1": 0.031}, ...]}

Qiskit's transpiler moves program qubit `q[i]` onto some physical qubit of the device (and
routing may move it again): `isa.layout.final_index_layout()[i]` is the physical qubit that holds
`q[i]` at the end of the circuit, where the board is measured. The backend's target gives that
physical qubit's readout errors: `prob_meas1_prep0` and `prob_meas0_prep1` when the backend
reports them, else the symmetric `error` of its `measure` instruction (Aer's noise model makes
the same choice).

A program qchess compiled for the device itself (`--target ibm_fez`) is already on physical
qubits `$k`: the qubit a square is read from is the one its `measure` names.
`measured_calibration(circuit, header, backend)` takes it from there for every entry of the
header's board map.

As a module: `calibration(isa_circuit, backend)` returns the dictionary.
As a script (a fake device, no account needed):
    python tests/interop/calibration.py game.qasm cal.json [--device FakeFez]
transpiles `game.qasm` for the device exactly as `device.to_device` does (same seed, hence the
same layout as the transpiled circuit you run) and writes the calibration.
"""
import argparse
import json
import sys
from pathlib import Path


def readout_errors(backend, physical):
    """(P(1|0), P(0|1)) of the backend's physical qubit `physical`."""
    props = backend.target["measure"][(physical,)]
    p1_given_0 = getattr(props, "prob_meas1_prep0", None)
    p0_given_1 = getattr(props, "prob_meas0_prep1", None)
    if p1_given_0 is None or p0_given_1 is None:
        p1_given_0 = p0_given_1 = props.error
    return float(p1_given_0), float(p0_given_1)


def calibration(isa_circuit, backend):
    """The calibration of every program qubit of `isa_circuit` (a circuit transpiled for
    `backend`, whose layout says where each program qubit ended up)."""
    entries = []
    for qubit, physical in enumerate(isa_circuit.layout.final_index_layout()):
        p1_given_0, p0_given_1 = readout_errors(backend, physical)
        entries.append({"qubit": qubit, "p1_given_0": p1_given_0, "p0_given_1": p0_given_1})
    return {"qubits": entries}


def measured_calibration(circuit, header, backend, keyed_by=None):
    """The calibration of a program on physical qubits (`qiskit.qasm3.loads` of a device
    program; qubit index k is `$k`): for every bit of the header's board map, the readout errors
    of the physical qubit its last `measure` reads, keyed by the `qubit` the map of `keyed_by`
    (another program's header with the same bits, e.g. the unrouted program) gives that bit, or
    by the physical qubit."""
    physical_of_bit = {}
    for instr in circuit.data:
        if instr.operation.name == "measure":
            physical_of_bit[circuit.find_bit(instr.clbits[0]).index] = circuit.find_bit(instr.qubits[0]).index
    key_of_bit = {e["bit"]: e["qubit"] for e in (keyed_by or header)["map"].get("measured", [])}
    entries = {}
    for entry in header["map"].get("measured", []):
        p1_given_0, p0_given_1 = readout_errors(backend, physical_of_bit[entry["bit"]])
        key = key_of_bit[entry["bit"]]
        entries[key] = {"qubit": key, "p1_given_0": p1_given_0, "p0_given_1": p0_given_1}
    return {"qubits": list(entries.values())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program", type=Path, help="the OpenQASM 3 program qchess wrote")
    parser.add_argument("out", type=Path, help="where to write the calibration JSON")
    parser.add_argument("--device", default="FakeFez", help="a fake backend of qiskit_ibm_runtime.fake_provider")
    args = parser.parse_args()
    from qiskit import qasm3
    from qiskit_ibm_runtime import fake_provider

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from device import to_device

    backend = getattr(fake_provider, args.device)()
    isa = to_device(qasm3.loads(args.program.read_text()), backend)
    args.out.write_text(json.dumps(calibration(isa, backend), indent=1) + "\n")


if __name__ == "__main__":
    main()
