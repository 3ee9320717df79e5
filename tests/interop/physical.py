"""Device programs as a device sees them: a target's coupling map, a calibration in IBM's
BackendProperties JSON, and what a program on physical qubits is checked and measured by.

Independent of qchess's compiler: the calibration is read here from the JSON itself, the
program as `qiskit.qasm3.loads` reads it (qubit index k is physical qubit `$k`; the gates of an
`if` block act on the instruction's qubits in order), and the figures are counted here:

* `check(circuit, device, calibration)` lists what makes a program unfit for the device: a gate
  outside the target's native list, a two-qubit gate between qubits that share no coupler, a gate
  on a broken coupler or qubit (calibrated error >= BROKEN), a qubit beyond the device.
* `stats(circuit, calibration)`: two-qubit gates, their depth, the physical qubits touched, and
  the estimated success probability ESP, the product of (1 - error) over every gate and
  measurement (the chance that a shot sees no error at all).

Gates inside an `if` block count as if they always ran (the ESP of the dynamic form is then a
lower bound). A `reset` has no calibrated error in IBM's properties, so `esp` counts it as free;
`esp_reset_as_measure` charges it the qubit's readout error (IBM resets by measuring), which is
what a program that reuses qubits pays on a real device.
"""
import importlib.util
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BROKEN = 0.5  # a calibrated error at least this large means the gate or qubit is not usable
# Operations that are not gates of the native set: always allowed.
STRUCTURE = {"measure", "reset", "barrier", "delay", "if_else"}


def fez_props_path():
    """The ibm_fez calibration snapshot qiskit-ibm-runtime ships with FakeFez (`props_fez.json`,
    IBM's BackendProperties JSON); taken from the installed package, never from the repository."""
    spec = importlib.util.find_spec("qiskit_ibm_runtime.fake_provider.backends.fez")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("qiskit_ibm_runtime is not installed: no props_fez.json")
    return Path(spec.origin).parent / "props_fez.json"


@dataclass
class Device:
    """A device target of `backends/NAME.toml`: qubit count, undirected couplers, native gates;
    on a directed device (`directed = true`, IBM's ECR couplers) the pairs (first, second) each
    coupler drives its gate in."""

    name: str
    qubits: int
    edges: set
    native: set
    drive: set = None

    @classmethod
    def load(cls, name, folder=ROOT / "backends"):
        data = tomllib.loads((Path(folder) / f"{name}.toml").read_text())
        edges = {frozenset(e) for e in data.get("edges", [])}
        if data.get("all_to_all"):
            # An ion trap: every pair of its qubits is a coupler (the TOML lists none).
            n = int(data["qubits"])
            edges = {frozenset((a, b)) for a in range(n) for b in range(a + 1, n)}
        if not edges:
            raise ValueError(f"{name}.toml has no edges: not a device target")
        drive = {tuple(e) for e in data["edges"]} if data.get("directed") else None
        return cls(name, int(data["qubits"]), edges, set(data["native"]), drive)


@dataclass
class Calibration:
    """The errors of IBM's BackendProperties JSON: readout error per qubit, gate error per gate
    name and qubits (a two-qubit gate's error in either order)."""

    qubits: int
    readout: dict
    gates: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path):
        props = json.loads(Path(path).read_text())
        readout = {}
        for q, params in enumerate(props["qubits"]):
            for p in params:
                if p["name"] == "readout_error":
                    readout[q] = float(p["value"])
        gates = {}
        for gate in props["gates"]:
            for p in gate.get("parameters", []):
                if p["name"] == "gate_error":
                    gates[(gate["gate"], frozenset(gate["qubits"]))] = float(p["value"])
        return cls(len(props["qubits"]), readout, gates)

    @classmethod
    def uniform(cls, qubits, readout=0.0):
        """No calibration: every error 0 (ESP 1), nothing broken."""
        return cls(qubits, {q: readout for q in range(qubits)}, {})

    def gate_error(self, name, qubits):
        return self.gates.get((name, frozenset(qubits)), 0.0)

    def broken_couplers(self, gates):
        """Couplers on which one of the two-qubit `gates` (the device's native ones) has a
        calibrated error >= BROKEN. (FakeFez's snapshot also calibrates `rzz`, which no target
        uses, with 49 couplers broken; its `cz` has seven.)"""
        return {q for (name, q), e in self.gates.items() if name in gates and len(q) == 2 and e >= BROKEN}

    def broken_qubits(self):
        """Qubits whose readout error is >= BROKEN."""
        return {q for q, e in self.readout.items() if e >= BROKEN}


def operations(circuit, qubits=None, conditional=False):
    """Every operation of `circuit` in program order as (name, physical qubits, operation,
    inside an `if`); an `if_else` is entered (its blocks' qubits are the instruction's, in order)
    and also yielded itself first."""
    index = qubits or [circuit.find_bit(q).index for q in circuit.qubits]
    for instr in circuit.data:
        where = [index[circuit.find_bit(q).index] for q in instr.qubits]
        op = instr.operation
        yield op.name, where, op, conditional
        for block in getattr(op, "blocks", ()):
            yield from operations(block, where, True)


def check(circuit, device, calibration=None):
    """What makes `circuit` unfit for `device`: a list of messages (empty when it is fit)."""
    problems = []
    broken = calibration.broken_couplers(device.native) if calibration else set()
    broken_qubits = calibration.broken_qubits() if calibration else set()
    for name, qubits, _, _ in operations(circuit):
        if name == "barrier":
            continue
        where = f"{name} on {', '.join(f'${q}' for q in qubits)}"
        if any(q >= device.qubits for q in qubits):
            problems.append(f"{where}: beyond the device's {device.qubits} qubits")
        if name in STRUCTURE:
            if name != "if_else" and set(qubits) & broken_qubits:
                problems.append(f"{where}: a broken qubit")
            continue
        if name not in device.native:
            problems.append(f"{where}: not a native gate of {device.name} ({', '.join(sorted(device.native))})")
        if len(qubits) > 2:
            problems.append(f"{where}: a gate on more than two qubits")
        elif len(qubits) == 2:
            pair = frozenset(qubits)
            if pair not in device.edges:
                problems.append(f"{where}: no coupler between these qubits")
            elif pair in broken:
                problems.append(f"{where}: a broken coupler (error >= {BROKEN})")
            elif device.drive is not None and tuple(qubits) not in device.drive:
                problems.append(f"{where}: against the coupler's drive ({qubits[1]} to {qubits[0]} only)")
        elif set(qubits) & broken_qubits:
            problems.append(f"{where}: a broken qubit")
    return problems


def stats(circuit, calibration):
    """Two-qubit gates, their depth, resets, measurements, the physical qubits touched and the
    ESP (see the module docs) of a program on physical qubits."""
    level = {}
    two, resets, measures, used = 0, 0, 0, set()
    esp = esp_reset = 1.0
    for name, qubits, op, _ in operations(circuit):
        if name in ("barrier", "delay"):
            continue
        used.update(qubits)
        if name == "if_else":
            continue
        if name == "measure":
            measures += 1
            ok = 1.0 - calibration.readout.get(qubits[0], 0.0)
            esp *= ok
            esp_reset *= ok
        elif name == "reset":
            resets += 1
            esp_reset *= 1.0 - calibration.readout.get(qubits[0], 0.0)
        else:
            ok = 1.0 - calibration.gate_error(name, qubits)
            esp *= ok
            esp_reset *= ok
            if len(qubits) == 2:
                two += 1
                depth = max(level.get(q, 0) for q in qubits) + 1
                for q in qubits:
                    level[q] = depth
    return {
        "two_qubit": two,
        "two_qubit_depth": max(level.values(), default=0),
        "physical_qubits": len(used),
        "measurements": measures,
        "resets": resets,
        "esp": esp,
        "esp_reset_as_measure": esp_reset,
    }
