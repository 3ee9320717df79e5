"""Speed of qchess's noisy simulator against Qiskit Aer on the same device programs, with the
same noise (FakeFez's `props_fez.json`) and the same number of shots, and the agreement of the
two distributions.

For each game (*.qcg of --games): the deferred ibm_fez program qchess compiles for it
(`qchess compile GAME --target ibm_fez --properties props_fez.json --form deferred --measure
board`; deferred because Qiskit does not schedule control flow, and Aer's noise on delays needs
the schedule). Then:

* qchess: `qchess run PROGRAM --noise props_fez.json --shots N --seed 7 --json` timed as a whole
  process (parse, noise model, schedule, trajectories, output).
* Aer: the same program text loaded and scheduled ALAP by Qiskit (noisy.aer_circuit, timed on
  its own), then AerSimulator with NoiseModel.from_backend(FakeFez()) (noisy.aer_run), with the
  method Aer chooses ("automatic") and with "density_matrix". The ratio counts Aer's run alone:
  Python start-up, the imports, the scheduling and NoiseModel.from_backend (built once) are not
  counted, which favours Aer.
* Agreement: noisy.compare, every outcome's two frequencies within 5 pooled standard errors
  (plus two shots) of each other; the worst z-score and the TVD are recorded. 5 sigma rather
  than 3 because hundreds of outcomes are compared at once: a 5-sigma excursion has a
  two-sided probability of 6e-7 per outcome, so a correct simulator fails by chance on under
  one run in a thousand even with 2^10 outcomes, while a wrong noise rate shifts the frequent
  outcomes by tens of sigma at 4000 shots.

Whole-process timings for farm-bench: `noisy_speed.py --aer-once PROGRAM METHOD` runs Aer once
on PROGRAM (imports and the noise model included) and prints its seconds.

Usage: python noisy_speed.py QCHESS_BINARY OUT_DIR --games DIR [--shots N]
"""

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import noisy  # noqa: E402  (fez, aer_counts, compare, SEED)

METHODS = ["automatic", "density_matrix"]
MIN_QUBITS, MAX_QUBITS = 8, 12


def physical_qubits(text):
    """The physical qubits ($k) a program's instructions touch."""
    return {int(k) for line in text.splitlines() if not line.startswith("//")
            for k in re.findall(r"\$(\d+)", line)}


def two_qubit_gates(text):
    return sum(1 for line in text.splitlines() if line.startswith("cz "))


def compile_game(binary, game, props, out):
    program = out / f"{game.stem}.fez.qasm"
    subprocess.run([binary, "compile", str(game), "--target", "ibm_fez", "--properties", str(props),
                    "--form", "deferred", "--measure", "board", "-o", str(program)],
                   check=True, capture_output=True, text=True)
    return program


def time_qchess(binary, program, props, shots):
    started = time.perf_counter()
    counts = noisy.qchess_counts(binary, program, props, shots)
    return time.perf_counter() - started, counts


def aer_once(program, method, shots):
    """One whole Aer run, imports and noise model included (for farm-bench)."""
    from qiskit_aer.noise import NoiseModel

    backend, _ = noisy.fez()
    noisy.aer_counts(Path(program).read_text(), backend, NoiseModel.from_backend(backend), shots, method)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?")
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--games", type=Path)
    parser.add_argument("--shots", type=int, default=4000)
    parser.add_argument("--aer-once", nargs=2, metavar=("PROGRAM", "METHOD"))
    args = parser.parse_args()
    if args.aer_once:
        aer_once(*args.aer_once, args.shots)
        return
    if not (args.binary and args.out and args.games):
        parser.error("QCHESS_BINARY, OUT_DIR and --games are needed")
    from qiskit_aer.noise import NoiseModel

    args.out.mkdir(parents=True, exist_ok=True)
    backend, props = noisy.fez()
    noise_model = NoiseModel.from_backend(backend)
    rows, failures = [], []
    for game in sorted(args.games.glob("*.qcg")):
        program = compile_game(args.binary, game, props, args.out)
        text = program.read_text()
        qubits = len(physical_qubits(text))
        if not MIN_QUBITS <= qubits <= MAX_QUBITS:
            continue
        row = {"game": game.stem, "qubits": qubits, "cz": two_qubit_gates(text), "shots": args.shots}
        row["qchess_s"], ours = time_qchess(args.binary, program, props, args.shots)
        started = time.perf_counter()
        circuit = noisy.aer_circuit(text, backend)
        row["qiskit_schedule_s"] = time.perf_counter() - started
        for method in METHODS:
            started = time.perf_counter()
            theirs = noisy.aer_run(circuit, noise_model, args.shots, method)
            seconds = time.perf_counter() - started
            worst, ok, tvd = noisy.compare(ours, theirs, args.shots)
            row[method] = {"aer_s": seconds, "ratio": seconds / row["qchess_s"], "worst_sigma": worst,
                           "agree": ok, "tvd": tvd, "outcomes": len(set(ours) | set(theirs))}
            if not ok:
                failures.append(f"{game.stem} ({method}): an outcome differs by {worst:.1f} sigma")
        rows.append(row)
        print(f"{row['game']}: {qubits} qubits, {row['cz']} cz, qchess {row['qchess_s']:.2f} s, "
              f"Qiskit schedule {row['qiskit_schedule_s']:.2f} s; " + "; ".join(
            f"Aer {m} {row[m]['aer_s']:.2f} s ({row[m]['ratio']:.1f}x), worst {row[m]['worst_sigma']:.1f} sigma, "
            f"TVD {row[m]['tvd']:.3f}" for m in METHODS), flush=True)
    (args.out / "noisy_speed.json").write_text(json.dumps(rows, indent=1) + "\n")
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures or not rows else 0)


if __name__ == "__main__":
    main()
