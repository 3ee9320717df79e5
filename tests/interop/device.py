"""The noisy device model of the hardware checks: IBM's FakeFez from qiskit-ibm-runtime.

FakeFez is a snapshot of ibm_fez (Heron r2, 156 qubits on a heavy-hex lattice, native cz, rz,
sx, x, with feed-forward): the coupling map, the gate and readout errors, T1/T2 and gate times
of a real calibration. It is the device `backends/ibm.toml` describes.

The snapshot has broken couplers: seven pairs (27-28, 31-32, 32-33, 68-69, 80-81, 106-107,
139-155) have a calibrated CZ error of 1.0, so a shot through one of them is noise. A real
device leaves such couplers out of its target; `usable_target` does the same, and `to_device`
routes on it, so no program runs through a broken coupler.

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
QCHESS_TARGET = "ibm_fez"  # qchess's device target of the same device (backends/ibm_fez.toml)
TRANSPILE_SEED = 7
BROKEN = 0.5  # a gate whose calibrated error is at least this is left out (FakeFez: 1.0)


def fake_device():
    """The device model (a BackendV2 with FakeFez's target and calibration data)."""
    return FakeFez()


def sub_target(full, keep):
    """A copy of the Target `full` with the per-qubit entries `keep(name, qargs, props)` accepts
    (global instructions such as control flow are kept as they are)."""
    sub = Target(num_qubits=full.num_qubits, dt=full.dt, qubit_properties=full.qubit_properties)
    for name in full.operation_names:
        op = full.operation_from_name(name)
        props = full[name]
        if props is None or None in props:
            sub.add_instruction(op, name=name)
            continue
        kept = {qargs: p for qargs, p in props.items() if keep(name, qargs, p)}
        if kept:
            sub.add_instruction(op, kept, name=name)
    return sub


def usable_target(backend):
    """The backend's target without its broken gates (error >= BROKEN)."""
    return sub_target(backend.target, lambda name, qargs, p: p is None or p.error is None or p.error < BROKEN)


def to_device(circuit, backend, level=1):
    """Routes `circuit` onto the backend's working couplers and rewrites it in its native gates
    (Qiskit's preset pass manager of optimization `level`)."""
    return transpile(circuit, target=usable_target(backend), optimization_level=level, seed_transpiler=TRANSPILE_SEED)



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
    qubits = set(qubits)
    sub = sub_target(backend.target, lambda name, qargs, p: set(qargs) <= qubits)
    view = SimpleNamespace(version=2, target=sub, operation_names=backend.operation_names, dt=backend.dt)
    return NoiseModel.from_backend(view)
