"""The noisy device model of the hardware checks: IBM's FakeFez from qiskit-ibm-runtime.

FakeFez is a snapshot of ibm_fez (Heron r2, 156 qubits on a heavy-hex lattice, native cz, rz,
sx, x, with feed-forward): the coupling map, the gate and readout errors, T1/T2 and gate times
of a real calibration. It is the device `backends/ibm.toml` describes.

`NoiseModel.from_backend(FakeFez())` builds a channel for every gate on every one of the 156
qubits, which took 45 s (170 s on a loaded machine). A game uses a few dozen of them, so
`noise_model` builds the same model restricted to the physical qubits the transpiled programs
touch: the channels on those qubits are the ones Aer would use anyway.
"""
from types import SimpleNamespace

from qiskit import transpile
from qiskit.transpiler import Target
from qiskit_aer.noise import NoiseModel
from qiskit_ibm_runtime.fake_provider import FakeFez

DEVICE = "FakeFez"
TRANSPILE_SEED = 7


def fake_device():
    """The device model (a BackendV2 with FakeFez's target and calibration data)."""
    return FakeFez()


def to_device(circuit, backend):
    """Routes `circuit` onto the backend's coupling map and rewrites it in its native gates."""
    return transpile(circuit, backend=backend, optimization_level=1, seed_transpiler=TRANSPILE_SEED)


def physical_qubits(circuits):
    """The physical qubits any instruction of the transpiled `circuits` acts on (an `if_else`
    lists every qubit its blocks use)."""
    used = set()
    for circ in circuits:
        for instr in circ.data:
            used.update(circ.find_bit(q).index for q in instr.qubits)
    return used


def noise_model(backend, qubits):
    """Aer's noise model of `backend` (gate, thermal-relaxation and readout errors from its
    calibration), built for the physical `qubits` only; the circuits it is used with must not
    touch other qubits (a gate on a qubit outside the set would run without noise)."""
    full = backend.target
    qubits = set(qubits)
    sub = Target(num_qubits=full.num_qubits, dt=full.dt, qubit_properties=full.qubit_properties)
    for name in full.operation_names:
        op = full.operation_from_name(name)
        props = full[name]
        if props is None or None in props:
            sub.add_instruction(op, name=name)  # global (control flow): no per-qubit noise
            continue
        kept = {qargs: p for qargs, p in props.items() if set(qargs) <= qubits}
        if kept:
            sub.add_instruction(op, kept, name=name)
    view = SimpleNamespace(version=2, target=sub, operation_names=backend.operation_names, dt=backend.dt)
    return NoiseModel.from_backend(view)
