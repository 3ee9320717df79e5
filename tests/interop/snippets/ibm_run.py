"""Run a qchess program on an IBM Quantum device (or, without a device name, on a local model of
ibm_fez with its calibrated noise: tests/interop/device.py) and write its counts and readout
calibration for `qchess counts`.
Usage: python ibm_run.py game.qasm counts.json calibration.json [DEVICE]"""
import json
import sys
from pathlib import Path

from qiskit import qasm3
from qiskit_ibm_runtime import SamplerV2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/interop
import device  # noqa: E402
from calibration import calibration  # noqa: E402

program, counts_file, calibration_file = sys.argv[1:4]
circuit = qasm3.loads(open(program).read())  # needs qiskit-qasm3-import
if len(sys.argv) > 4:
    from qiskit_ibm_runtime import QiskitRuntimeService

    backend = QiskitRuntimeService().backend(sys.argv[4])  # a saved IBM Quantum account
else:
    backend = device.fake_device()  # FakeFez: ibm_fez's coupling map, gates and errors
# Routing onto the working couplers (FakeFez's broken ones, CZ error 1.0, left out) and the
# native gates (cz, rz, sx, x; if_else stays).
isa = device.to_device(circuit, backend)
if len(sys.argv) > 4:
    mode = backend
else:
    from qiskit_aer import AerSimulator

    noise = device.noise_model(backend, device.physical_qubits([isa]))
    mode = AerSimulator(noise_model=noise, shot_branching_enable=True, seed_simulator=1)
result = SamplerV2(mode=mode).run([isa], shots=4000).result()
json.dump(result[0].data.c.get_counts(), open(counts_file, "w"))  # keys: c[0] rightmost
json.dump(calibration(isa, backend), open(calibration_file, "w"))
