#!/usr/bin/env python3
"""The hardware round trip: game -> qchess program -> simulator or noisy device model -> counts ->
`qchess counts` -> board, checked against `qchess simulate` (issue 11).

Games: the bundled circuits/*.qcg and seeded random games of the game corpus (FEN and moves from
its NAME.json). For each game:

* noiseless: Qiskit Aer (the dynamic program; statevector with shot branching up to
  SV_MAX_QUBITS qubits, else the deferred program on the matrix-product-state method), the Amazon
  Braket local simulator (`--target braket --form deferred`) and Cirq (`--target google --format
  qasm2`). Each tool's counts file goes through `qchess counts --json`; every square's probability
  must lie within 5 sigma (sigma from the exact probability and the kept shots) plus one count of
  `qchess simulate --json`'s. The Braket and Cirq runs are limited to LOCAL_MAX_QUBITS qubits (both
  simulate every qubit as a dense state vector).
* noisy (games up to NOISY_MAX_QUBITS qubits): the dynamic program transpiled onto FakeFez
  (device.py) and run with its noise model on Aer's density matrix; `qchess counts --exact` gives the total variation
  distance (TVD) to the exact board without mitigation and with each mitigation. The full
  mitigation (postselect,symmetry,readout, calibration from calibration.py) must lower the TVD.

Writes OUT/results.json (figure.py and docs/hardware.md read it) and exits 1 on a failure.
Usage: hardware.py OUT_DIR [--corpus GAME_CORPUS_DIR] [--random N] [--noisy-shots N]
"""
import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import device  # noqa: E402
from calibration import calibration  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SIGMAS = 5.0
SEED = 1234
KEPT_WANTED = 4000      # noiseless shots are budgeted so that about this many are kept
MAX_SHOTS = 400_000
SV_MAX_QUBITS = 22
LOCAL_MAX_QUBITS = 18
# With noise every shot is its own trajectory on a state vector: 500 shots of a 15-qubit game
# routed onto FakeFez (452 CZ) took 800 s on 2 loaded cores. Up to 10 qubits Aer takes the density
# matrix instead: one run for all shots (0.3 s for a 4-qubit case).
NOISY_MAX_QUBITS = 10
MITIGATIONS = ["none", "postselect", "postselect,symmetry", "postselect,readout", "postselect,symmetry,readout"]


def qchess(*args, capture_stderr=False):
    """Runs the release `qchess` binary; returns stdout (and stderr when asked)."""
    exe = ROOT / "target" / "release" / "qchess"
    done = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"qchess {' '.join(map(str, args))}: exit {done.returncode}: {done.stderr.strip()}")
    return (done.stdout, done.stderr) if capture_stderr else done.stdout


def header(program_text):
    """The JSON header (`// qchess-export {...}`) of an exported program."""
    for line in program_text.splitlines():
        if line.startswith("// qchess-export "):
            return json.loads(line[len("// qchess-export "):])
    raise ValueError("no qchess-export header")


class Game:
    """A game as `qchess` arguments: a game file, or a FEN and moves."""

    def __init__(self, name, args):
        self.name, self.args = name, args

    def compile(self, out, suffix, *options):
        path = out / f"{self.name}.{suffix}"
        qchess("compile", *self.args, *options, "-o", path)
        return path

    def exact_squares(self):
        return json.loads(qchess("simulate", *self.args, "--json"))["squares"]


def bundled_games():
    return [Game(p.stem, [p]) for p in sorted((ROOT / "circuits").glob("*.qcg"))]


def corpus_games(corpus, count):
    games = []
    for name in json.loads((corpus / "manifest.json").read_text()):
        if name.startswith("random") and len(games) < count:
            spec = json.loads((corpus / f"{name}.json").read_text())
            games.append(Game(name, ["--fen", spec["fen"], "--moves", spec["moves"]]))
    return games


def write_counts(path, counts):
    path.write_text(json.dumps(dict(sorted(counts.items())), indent=0) + "\n")
    return path


def board(program, counts_path, counts_format, *extra):
    return json.loads(qchess("counts", program, counts_path, "--json", "--counts-format", counts_format, *extra))


def compare_board(label, exact, estimate):
    """Failure strings: squares whose estimate lies outside 5 sigma + one count of the exact value."""
    kept = estimate["kept"]
    if kept == 0:
        return [f"{label}: no shot kept"]
    failures = []
    for sq in sorted(set(exact) | set(estimate["squares"])):
        p = exact.get(sq, {}).get("probability", 0.0)
        got = estimate["squares"].get(sq, {}).get("probability", 0.0)
        bound = SIGMAS * math.sqrt(p * (1 - p) / kept) + 1.0 / kept
        if abs(got - p) > bound:
            failures.append(f"{label}: {sq}: {got:.4f} from {kept} kept shots, exact {p:.4f} (bound {bound:.4f})")
        e_piece, g_piece = exact.get(sq, {}).get("piece"), estimate["squares"].get(sq, {}).get("piece")
        if p > 0 and got > 0 and e_piece != g_piece:
            failures.append(f"{label}: {sq}: piece {g_piece}, exact {e_piece}")
    return failures


def shots_for(keep):
    return int(min(MAX_SHOTS, max(KEPT_WANTED, math.ceil(KEPT_WANTED / max(keep, 1e-9)))))


def run_aer(game, out, keep, qubits):
    from qiskit import qasm3, transpile
    from qiskit_aer import AerSimulator

    shots = shots_for(keep)
    if qubits <= SV_MAX_QUBITS:
        program = game.compile(out, "qasm")
        sim = AerSimulator(method="statevector", shot_branching_enable=True, seed_simulator=SEED)
    else:
        # Wide programs: one matrix-product-state run, sampled at the end (no mid-circuit
        # measurement in the deferred form, so Aer samples all shots from one state).
        program = game.compile(out, "deferred.qasm", "--form", "deferred")
        sim = AerSimulator(method="matrix_product_state", seed_simulator=SEED)
    circ = qasm3.loads(program.read_text())
    counts = sim.run(transpile(circ, sim), shots=shots).result().get_counts()
    return program, write_counts(out / f"{game.name}.aer.json", counts), "qiskit"


def run_braket(game, out, keep):
    from braket.devices import LocalSimulator
    from braket.ir.openqasm import Program

    program = game.compile(out, "braket.qasm", "--target", "braket", "--form", "deferred")
    result = LocalSimulator("braket_sv").run(Program(source=program.read_text()), shots=shots_for(keep)).result()
    counts = dict(result.measurement_counts)
    return program, write_counts(out / f"{game.name}.braket.json", counts), "braket"


def run_cirq(game, out, keep):
    import cirq
    from cirq.contrib.qasm_import import circuit_from_qasm

    program = game.compile(out, "google.qasm2", "--target", "google", "--format", "qasm2")
    circuit = circuit_from_qasm(program.read_text())
    width = header(program.read_text())["clbits"]
    result = cirq.Simulator(seed=SEED).run(circuit, repetitions=shots_for(keep))
    # OpenQASM 2 gives every bit its own register cK; Cirq names the measurement key `cK_0`.
    columns = [result.measurements[f"c{k}_0"][:, 0] for k in range(width)]
    counts = {}
    for shot in zip(*columns):
        key = "".join(str(int(b)) for b in reversed(shot))  # c[0] rightmost, as in Qiskit's keys
        counts[key] = counts.get(key, 0) + 1
    lines = "".join(f"{k},{n}\n" for k, n in sorted(counts.items()))
    path = out / f"{game.name}.cirq.csv"
    path.write_text("bits,count\n" + lines)
    return program, path, "csv"


def run_noisy(games, out, shots):
    """Runs each game's dynamic program on the noisy device model; returns per game the TVD of
    each mitigation."""
    from qiskit import qasm3
    from qiskit_aer import AerSimulator

    backend = device.fake_device()
    isas = {g.name: device.to_device(qasm3.loads((out / f"{g.name}.qasm").read_text()), backend) for g in games}
    noise = device.noise_model(backend, device.physical_qubits(isas.values()))
    sim = AerSimulator(noise_model=noise, method="density_matrix", seed_simulator=SEED)
    results = {}
    for g in games:
        isa = isas[g.name]
        program = out / f"{g.name}.qasm"
        counts = sim.run(isa, shots=shots).result().get_counts()
        counts_path = write_counts(out / f"{g.name}.noisy.json", counts)
        cal = out / f"{g.name}.calibration.json"
        cal.write_text(json.dumps(calibration(isa, backend), indent=1) + "\n")
        row = {"two_qubit_gates": sum(n for op, n in isa.count_ops().items() if op in ("cz", "cx", "ecr")), "tvd": {}}
        for m in MITIGATIONS:
            extra = ["--exact", "--mitigate", m] + (["--calibration", cal] if "readout" in m else [])
            est = board(program, counts_path, "qiskit", *extra)
            row["tvd"][m] = est["tvd"]
            row.setdefault("kept", {})[m] = est["kept"]
            row.setdefault("squares", {})[m] = {sq: v["probability"] for sq, v in est["squares"].items()}
        results[g.name] = row
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpus", type=Path, help="a game_corpus directory (random games)")
    parser.add_argument("--random", type=int, default=3, help="random games of the corpus to run")
    parser.add_argument("--noisy-shots", type=int, default=4000)
    args = parser.parse_args()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    games = bundled_games() + (corpus_games(args.corpus, args.random) if args.corpus else [])
    failures, report, noisy = [], {"noiseless": {}, "noisy": {}}, []
    start = time.time()
    for g in games:
        _, summary = qchess("compile", *g.args, "-o", out / f"{g.name}.qasm", capture_stderr=True)
        head = header((out / f"{g.name}.qasm").read_text())
        qubits = head["qubits"]
        keep = float(next((l.rsplit(" ", 1)[1] for l in summary.splitlines() if l.startswith("post-selection")), 1.0))
        exact = g.exact_squares()
        tools = [("aer", lambda: run_aer(g, out, keep, qubits))]
        if qubits <= LOCAL_MAX_QUBITS:
            tools += [("braket", lambda: run_braket(g, out, keep)), ("cirq", lambda: run_cirq(g, out, keep))]
        for tool, run in tools:
            t = time.time()
            try:
                program, counts_path, fmt = run()
                est = board(program, counts_path, fmt)
                failures += compare_board(f"{g.name} on {tool}", exact, est)
                report["noiseless"].setdefault(g.name, {})[tool] = {"shots": est["shots"], "kept": est["kept"], "seconds": round(time.time() - t, 1)}
            except Exception as exc:  # a tool that cannot run the program is a failure of the export
                failures.append(f"{g.name} on {tool}: {type(exc).__name__}: {exc}")
            print(f"  {g.name} ({qubits} qubits) on {tool}: {time.time() - t:.1f}s", flush=True)
        if qubits <= NOISY_MAX_QUBITS:
            noisy.append(g)
    t = time.time()
    report["noisy"] = run_noisy(noisy, out, args.noisy_shots)
    for name, row in report["noisy"].items():
        raw, best = row["tvd"]["none"], row["tvd"]["postselect,symmetry,readout"]
        print(f"  {name} on {device.DEVICE}: TVD " + ", ".join(f"{m}: {v:.3f}" for m, v in row["tvd"].items()))
        if not best < raw:
            failures.append(f"{name} on {device.DEVICE}: mitigation did not lower the TVD ({raw:.4f} -> {best:.4f})")
    print(f"  noisy device model: {time.time() - t:.1f}s")
    (out / "results.json").write_text(json.dumps(report, indent=1) + "\n")
    if failures:
        print(f"hardware: {len(failures)} failure(s):")
        for f in failures:
            print("  " + f)
        sys.exit(1)
    print(f"hardware: OK, {len(games)} games, {time.time() - start:.0f}s")


if __name__ == "__main__":
    main()
