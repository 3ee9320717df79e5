#!/usr/bin/env python3
"""The hardware round trip: game -> qchess program -> simulator or noisy device model -> counts ->
`qchess counts` -> board, checked against `qchess simulate` (issue 11).

* noiseless, every bundled game (circuits/*.qcg) up to LOCAL_MAX_QUBITS qubits: Qiskit Aer (the
  dynamic program), the Amazon Braket local simulator (`--target braket`) and Cirq (`--target
  google --format qasm2`). Each tool's counts go through `qchess counts --json`; every square
  must lie within 5 sigma (from the exact probability and the kept shots) plus one count of
  `qchess simulate --json`. The two full games (49 and 58 qubits) fit no local simulator (Aer's
  matrix product state asked for 115 GB and 520 TB): crates/qc-cli/tests/counts_cli.rs samples
  their exact distributions instead.
* noisy, every bundled game up to NOISY_MAX_QUBITS qubits, and two depth series: the first k
  plies of circuits/full_game.qcg for every k whose program fits, and the wandering king (the
  interference game continued for up to 64 plies on the same 4 qubits). The deferred program (every
  measurement at the end) is routed onto FakeFez twice: by Qiskit's transpiler (device.py, broken
  couplers left out) and by qchess itself (`--target ibm_fez --properties`, FakeFez's
  calibration); each is run with FakeFez's noise model on Aer's density matrix: one simulation,
  then all shots are sampled. (The
  dynamic form's `if` blocks were routed through up to 11 extra physical qubits, and with
  mid-circuit measurements Aer runs every shot as its own trajectory: 360 s for the 7-qubit
  notation_example on 14 physical qubits, against 1 s here.) `qchess counts --exact` gives,
  without mitigation and with each mitigation, the total variation distance (TVD) of the kept
  shots' board to the exact one and the largest error of a square's probability, for either
  router. Mitigation must lower the TVD of every bundled game and every depth step whose raw TVD
  exceeds the sampling floor (MIN_RAW_TVD), whichever compiler routed it.

Writes OUT/results.json (figure.py reads it) and exits 1 on a failure.
Usage: hardware.py OUT_DIR [--noisy-shots N] [--depth-max-plies N] [--noisy-only] [--games DIR]
(--games: a held-out set of games instead of the bundled ones, e.g. seeded random games written by
`qchess play --seed S` with `random` moves and `save`; no depth series then)
"""
import argparse
import json
import math
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import device  # noqa: E402
import noisy  # noqa: E402  (scheduled)
import physical  # noqa: E402  (fez_props_path)
from calibration import calibration, measured_calibration  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SIGMAS = 5.0
SEED = 1234
KEPT_WANTED = 4000      # noiseless shots are budgeted so that about this many are kept
MAX_SHOTS = 400_000
LOCAL_MAX_QUBITS = 18   # Braket and Cirq hold every qubit in one dense state vector
NOISY_MAX_QUBITS = 10   # a density matrix of 2^10 x 2^10 entries: about a second per program
# A routed program may touch more physical qubits than the game has (qchess's router moves a
# qubit to a new physical qubit between lives): above this many, its noisy run samples
# trajectories on a state vector instead (a density matrix of 16 qubits would need 64 GB).
DENSITY_MAX_QUBITS = 12
MIN_RAW_TVD = 0.02      # below this, finite-shot noise (not the device's) dominates the TVD
DEPTH_GAME = ROOT / "circuits" / "full_game.qcg"
WANDER_FEN = "7k/8/8/8/8/8/8/K7 w - - 0 1"
WANDER = ["a1^a2b1", "a2^a1b2", "b1^a1b2", "b2^a2b1"]
WANDER_SPLITS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]
MITIGATIONS = ["none", "postselect", "postselect,symmetry", "postselect,symmetry,readout"]
FULL = MITIGATIONS[-1]


def qchess(*args):
    """Runs the release `qchess` binary; returns (stdout, stderr)."""
    exe = ROOT / "target" / "release" / "qchess"
    done = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"qchess {' '.join(map(str, args))}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout, done.stderr


def header(program_text):
    """The JSON header (`// qchess-export {...}`) of an exported program."""
    for line in program_text.splitlines():
        if line.startswith("// qchess-export "):
            return json.loads(line[len("// qchess-export "):])
    raise ValueError("no qchess-export header")


class Game:
    """A game as `qchess` arguments (a game file, or --moves), compiled into `out`."""

    def __init__(self, name, args, out):
        self.name, self.args, self.out = name, [str(a) for a in args], out
        _, summary = qchess("compile", *self.args, "-o", self.path("qasm"))
        self.qubits = header(self.path("qasm").read_text())["qubits"]
        self.deferred = self.compile("deferred.qasm", "--form", "deferred")
        self.deferred_qubits = header(self.deferred.read_text())["qubits"]
        keep = [l.rsplit(" ", 1)[1] for l in summary.splitlines() if l.startswith("post-selection")]
        self.keep = float(keep[0]) if keep else 1.0

    def path(self, suffix):
        return self.out / f"{self.name}.{suffix}"

    def compile(self, suffix, *options):
        qchess("compile", *self.args, *options, "-o", self.path(suffix))
        return self.path(suffix)

    def exact_squares(self):
        return json.loads(qchess("simulate", *self.args, "--json")[0])["squares"]


def full_game_prefixes(out, max_plies):
    """The first k plies of DEPTH_GAME while the program fits, one game per distinct program
    (a classical move adds no gate)."""
    moves = json.loads(qchess("simulate", DEPTH_GAME, "--json")[0])["moves"]
    games, seen = [], set()
    for k in range(1, min(max_plies, len(moves)) + 1):
        g = Game(f"{DEPTH_GAME.stem}_{k:02d}", ["--moves", " ".join(m["move"] for m in moves[:k])], out)
        if g.deferred_qubits > NOISY_MAX_QUBITS:
            break
        body = [l for l in g.deferred.read_text().splitlines() if not l.startswith("//")]
        if g.qubits > 0 and str(body) not in seen:
            seen.add(str(body))
            games.append(g)
    return games


def wandering_king(out, splits):
    """The interference game (circuits/interference.qcg) continued: the lone white king splits
    around a1, a2, b1, b2 again and again (the black king passes). Four qubits whatever the depth,
    a genuine superposition at every step, and 2 two-qubit gates per white move."""
    games = []
    for k in splits:
        moves = " ".join(f"{WANDER[i % 4]} {('h8g8', 'g8h8')[i % 2]}" for i in range(k))
        games.append(Game(f"wander_{2 * k:02d}", ["--fen", WANDER_FEN, "--moves", moves], out))
    return games


def write_counts(path, counts):
    path.write_text(json.dumps(dict(sorted(counts.items())), indent=0) + "\n")
    return path


def board(program, counts_path, counts_format, *extra):
    out = qchess("counts", program, counts_path, "--json", "--counts-format", counts_format, *extra)[0]
    return json.loads(out)


def logical_map(head):
    """A header's board map without qubits: what every bit means, whichever qubit holds it."""
    return {kind: [{k: v for k, v in m.items() if k != "qubit"} for m in entries] if isinstance(entries, list) else entries
            for kind, entries in head["map"].items()}


def unrouted_twin(program, logical):
    """Why the device program `program` cannot be read through its unrouted twin `logical` (the
    same game and form compiled for a logical target), or None when it can.

    `qchess counts --exact` simulates the program it is given, and a program in a device's
    native gates can take far more memory to simulate exactly than the game's own gates (the
    `--target ibm` program of full_game was past 16 GB after 5 minutes); the exact board of a
    device program is the unrouted program's when every bit means the same in both (the same map
    apart from qubits, the same post-selection)."""
    head, twin = header(program.read_text()), header(logical.read_text())
    if logical_map(head) != logical_map(twin):
        return "its board map differs from the unrouted program's (apart from qubits)"
    if head["postselect"] != twin["postselect"]:
        return f"its post-selection {head['postselect']} differs from the unrouted program's {twin['postselect']}"
    return None


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
    return failures


def shots_for(keep):
    return int(min(MAX_SHOTS, max(KEPT_WANTED, math.ceil(KEPT_WANTED / max(keep, 1e-9)))))


def run_aer(game):
    from qiskit import qasm3, transpile
    from qiskit_aer import AerSimulator

    sim = AerSimulator(method="statevector", shot_branching_enable=True, seed_simulator=SEED)
    circ = qasm3.loads(game.path("qasm").read_text())
    counts = sim.run(transpile(circ, sim), shots=shots_for(game.keep)).result().get_counts()
    return game.path("qasm"), write_counts(game.path("aer.json"), counts), "qiskit"


def run_braket(game):
    from braket.devices import LocalSimulator
    from braket.ir.openqasm import Program

    program = game.compile("braket.qasm", "--target", "braket")
    result = LocalSimulator("braket_sv").run(Program(source=program.read_text()), shots=shots_for(game.keep)).result()
    return program, write_counts(game.path("braket.json"), dict(result.measurement_counts)), "braket"


def run_cirq(game):
    import cirq
    from cirq.contrib.qasm_import import circuit_from_qasm

    program = game.compile("google.qasm2", "--target", "google", "--format", "qasm2")
    width = header(program.read_text())["clbits"]
    result = cirq.Simulator(seed=SEED).run(circuit_from_qasm(program.read_text()), repetitions=shots_for(game.keep))
    # OpenQASM 2 gives every bit its own register cK; Cirq names the measurement key `cK_0`.
    columns = [result.measurements[f"c{k}_0"][:, 0] for k in range(width)]
    counts = {}
    for shot in zip(*columns):
        key = "".join(str(int(b)) for b in reversed(shot))  # c[0] rightmost, as in Qiskit's keys
        counts[key] = counts.get(key, 0) + 1
    path = game.path("cirq.csv")
    path.write_text("bits,count\n" + "".join(f"{k},{n}\n" for k, n in sorted(counts.items())))
    return program, path, "csv"


def run_noiseless(game, report, failures):
    exact = game.exact_squares()
    for tool, run in [("aer", run_aer), ("braket", run_braket), ("cirq", run_cirq)]:
        t = time.time()
        try:
            program, counts_path, fmt = run(game)
            est = board(program, counts_path, fmt)
            failures += compare_board(f"{game.name} on {tool}", exact, est)
            report[tool] = {"shots": est["shots"], "kept": est["kept"], "seconds": round(time.time() - t, 1)}
        except Exception as exc:  # a tool that cannot run the program is a failure of the export
            failures.append(f"{game.name} on {tool}: {type(exc).__name__}: {exc}")
        print(f"  {game.name} ({game.qubits} qubits) on {tool}: {time.time() - t:.1f}s", flush=True)


QISKIT_LEVEL = 3  # Qiskit's preset optimization level routing the deferred programs (--qiskit-level)


def route_with_qiskit(game, backend):
    """The deferred program routed by Qiskit (device.to_device at QISKIT_LEVEL); (circuit run,
    program file for `qchess counts`, readout calibration)."""
    from qiskit import qasm3

    isa = device.to_device(qasm3.loads(game.deferred.read_text()), backend, QISKIT_LEVEL)
    return isa, game.deferred, calibration(isa, backend)


def route_with_qchess(game, backend):
    """The deferred program qchess compiles for the device itself (`--target ibm_fez
    --properties`, FakeFez's calibration); (circuit run, program `qchess counts` reads the
    counts through, readout calibration). The counts are read through the unrouted deferred
    program (unrouted_twin), with the readout errors of the physical qubit each bit is
    measured on keyed by that program's qubits."""
    from qiskit import qasm3

    props = game.out / "props_fez.json"
    if not props.exists():
        shutil.copyfile(physical.fez_props_path(), props)
    program = game.compile("fez.qasm", "--target", device.QCHESS_TARGET, "--properties", props, "--form", "deferred")
    problem = unrouted_twin(program, game.deferred)
    if problem:
        raise RuntimeError(f"{program}: {problem}")
    circuit = qasm3.loads(program.read_text())
    readout = measured_calibration(circuit, header(program.read_text()), backend, header(game.deferred.read_text()))
    return circuit, game.deferred, readout


ROUTERS = {"qiskit": route_with_qiskit, "qchess": route_with_qchess}


def run_noisy(games, shots, schedule=True):
    """Runs each game's deferred program, routed by Qiskit and by qchess, on the noisy device
    model; returns per game and router its routed size and, per mitigation, the kept shots, the
    TVD, the largest square error and the squares. With `schedule`, each routed program is first
    scheduled as late as possible (noisy.scheduled), so that its idle windows relax as a device's
    qubits do while they wait; without, only gates, readout and resets err."""
    from qiskit_aer import AerSimulator

    backend = device.fake_device()
    routed = {(g.name, r): route(g, backend) for g in games for r, route in ROUTERS.items()}
    if schedule:
        routed = {key: (noisy.scheduled(isa, backend), program, readout)
                  for key, (isa, program, readout) in routed.items()}
    noise = device.noise_model(backend, device.physical_qubits(isa for isa, _, _ in routed.values()))
    density = AerSimulator(noise_model=noise, method="density_matrix", seed_simulator=SEED)
    trajectories = AerSimulator(noise_model=noise, method="statevector", shot_branching_enable=True, seed_simulator=SEED)
    results = {}
    for g in games:
        results[g.name] = {"qubits": g.deferred_qubits, "shots": shots}
        for router in ROUTERS:
            t = time.time()
            isa, program, readout = routed[(g.name, router)]
            sim = density if len(device.physical_qubits([isa])) <= DENSITY_MAX_QUBITS else trajectories
            counts_path = write_counts(g.path(f"{router}.noisy.json"), sim.run(isa, shots=shots).result().get_counts())
            cal = g.path(f"{router}.calibration.json")
            cal.write_text(json.dumps(readout, indent=1) + "\n")
            row = {"physical_qubits": len(device.physical_qubits([isa])), "cz": isa.count_ops().get("cz", 0),
                   "cz_depth": isa.depth(lambda i: i.operation.name == "cz"), "by": {}}
            for m in MITIGATIONS:
                extra = ["--exact", "--mitigate", m] + (["--calibration", cal] if "readout" in m else [])
                est = board(program, counts_path, "qiskit", *extra)
                errors = [abs(v["probability"] - est["exact"].get(sq, 0.0)) for sq, v in est["squares"].items()]
                row["by"][m] = {"kept": est["kept"], "tvd": est["tvd"], "max_square_error": max(errors, default=0.0),
                                "squares": {sq: v["probability"] for sq, v in est["squares"].items()}}
            results[g.name]["exact"] = est["exact"]
            results[g.name][router] = row
            tvd = ", ".join(f"{m}: {v['tvd']:.3f}" for m, v in row["by"].items())
            print(f"  {g.name} routed by {router} ({row['physical_qubits']} qubits, {row['cz']} cz) on {device.DEVICE}: "
                  f"TVD {tvd} ({time.time() - t:.1f}s)", flush=True)
    return results


def check_mitigation(name, row, failures):
    for router in ROUTERS:
        raw, best = row[router]["by"]["none"]["tvd"], row[router]["by"][FULL]["tvd"]
        if raw > MIN_RAW_TVD and not best < raw:
            failures.append(f"{name} on {device.DEVICE} routed by {router}: mitigation did not lower the TVD ({raw:.4f} -> {best:.4f})")


def main():
    global QISKIT_LEVEL
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--noisy-shots", type=int, default=4000)
    parser.add_argument("--depth-max-plies", type=int, default=30)
    parser.add_argument("--noisy-only", action="store_true", help="skip the noiseless tools")
    parser.add_argument("--qiskit-level", type=int, default=QISKIT_LEVEL, choices=[0, 1, 2, 3],
                        help="Qiskit's optimization level for its routing of each game")
    parser.add_argument("--unscheduled", action="store_true", help="run the routed programs as "
                        "written (idle qubits do not decay) instead of scheduled as late as possible")
    parser.add_argument("--games", type=Path, help="the *.qcg games of this folder instead of the "
                        "bundled ones (a held-out set), and no depth series")
    args = parser.parse_args()
    QISKIT_LEVEL = args.qiskit_level
    args.out.mkdir(parents=True, exist_ok=True)
    import qiskit
    import qiskit_aer

    start = time.time()
    failures = []
    report = {"seed": SEED, "transpile_seed": device.TRANSPILE_SEED, "device": device.DEVICE,
              "qiskit": qiskit.__version__, "qiskit_aer": qiskit_aer.__version__,
              "noiseless": {}, "noiseless_skipped": {}}
    folder = args.games or ROOT / "circuits"
    games = [Game(p.stem, [p], args.out) for p in sorted(folder.glob("*.qcg"))]
    for g in games:
        if args.noisy_only:
            pass
        elif g.qubits <= LOCAL_MAX_QUBITS:
            run_noiseless(g, report["noiseless"].setdefault(g.name, {}), failures)
        else:
            report["noiseless_skipped"][g.name] = g.qubits
    schedule = not args.unscheduled
    report["qiskit_level"], report["scheduled"] = QISKIT_LEVEL, schedule
    report["noisy"] = run_noisy([g for g in games if g.deferred_qubits <= NOISY_MAX_QUBITS], args.noisy_shots, schedule)
    series = args.games is None
    report["full_game"] = run_noisy(full_game_prefixes(args.out, args.depth_max_plies), args.noisy_shots, schedule) if series else {}
    report["wandering_king"] = run_noisy(wandering_king(args.out, WANDER_SPLITS), args.noisy_shots, schedule) if series else {}
    for name, row in [*report["noisy"].items(), *report["full_game"].items(), *report["wandering_king"].items()]:
        check_mitigation(name, row, failures)
    report["seconds"] = round(time.time() - start)
    (args.out / "results.json").write_text(json.dumps(report, indent=1) + "\n")
    if failures:
        print(f"hardware: {len(failures)} failure(s):")
        print("\n".join("  " + f for f in failures))
        sys.exit(1)
    print(f"hardware: OK, {len(games)} games, {len(report['full_game']) + len(report['wandering_king'])} depth steps, {report['seconds']}s")


if __name__ == "__main__":
    main()
