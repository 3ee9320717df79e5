#!/usr/bin/env python3
"""Dynamical decoupling side by side (issue 39, docs/hardware.md "Dynamical decoupling"): the
bundled games' deferred programs on FakeFez's noise model in Aer, compiled by qchess with
`--dd none|xx|xy4` and by Qiskit's O3 with and without its PadDynamicalDecoupling (X X), in one
run, with the same noise model, shots and seed.

* qchess: `qchess compile GAME --target ibm_fez --properties props_fez.json --form deferred
  --dd D`, run in Aer as noisy.py's aer_circuit runs a program (`qasm3.loads`, scheduled ALAP
  with the target's durations at optimization level 0, so that idle windows become delays and
  relax; qchess's own pulses and delays kept).
* Qiskit: qchess's logical program of the game (`--target ibm --form deferred`: CZ and
  single-qubit gates on the game's own qubits) through `transpile(optimization_level=3)` on
  FakeFez's target without its broken couplers (device.usable_target), then scheduled
  (`ALAPScheduleAnalysis`) and padded with delays (`PadDelay`) or with X X pulses
  (`PadDynamicalDecoupling`). (XY4 needs a Y gate, which FakeFez's target has not.)

Every program runs on `NoiseModel.from_backend(FakeFez())` restricted to the qubits in use
(device.noise_model), density matrix, 4000 shots, seed 7; `qchess counts --exact` gives the TVD
to the exact board, raw (`--mitigate none`) and mitigated (the default). Prints the markdown
table; writes OUT/dd_qiskit.json.
Usage: dd_qiskit.py OUT_DIR [--games NAME...] [--shots N]
"""
import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import device  # noqa: E402
import noisy  # noqa: E402
import physical  # noqa: E402
from hardware import board, qchess, write_counts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 7
SHOTS = 4000
GAMES = ["bell_psi_minus", "bell_psi_plus", "interference", "notation_example"]


def qiskit_programs(logical, target):
    """{label: scheduled circuit} of Qiskit O3 on the logical program, with delays and with X X."""
    from qiskit import QuantumCircuit, transpile
    from qiskit.circuit.library import XGate
    from qiskit.transpiler import PassManager
    from qiskit.transpiler.passes import ALAPScheduleAnalysis, PadDelay, PadDynamicalDecoupling

    isa = transpile(QuantumCircuit.from_qasm_str(logical.read_text()), target=target, optimization_level=3,
                    seed_transpiler=SEED)
    padded = PassManager([ALAPScheduleAnalysis(target=target), PadDelay(target=target)]).run(isa)
    dd = PassManager([ALAPScheduleAnalysis(target=target),
                      PadDynamicalDecoupling(target=target, dd_sequence=[XGate(), XGate()])]).run(isa)
    return {"Qiskit O3": noisy.without_idle_delays(padded), "Qiskit O3 + DD (X X)": noisy.without_idle_delays(dd)}


def tvds(program, counts_path):
    raw = board(program, counts_path, "qiskit", "--exact", "--mitigate", "none")["tvd"]
    mitigated = board(program, counts_path, "qiskit", "--exact")["tvd"]
    return raw, mitigated


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--shots", type=int, default=SHOTS)
    args = parser.parse_args()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    props = out / "props_fez.json"
    shutil.copyfile(physical.fez_props_path(), props)
    backend = device.fake_device()
    target = device.usable_target(backend)
    rows = []
    for name in args.games:
        game = ROOT / "circuits" / f"{name}.qcg"
        logical = out / f"{name}.logical.qasm2"
        qchess("compile", game, "--target", "ibm", "--form", "deferred", "--format", "qasm2", "-o", logical)
        # The logical program as OpenQASM 3 is what `qchess counts` reads Qiskit's counts through.
        reader = out / f"{name}.logical.qasm"
        qchess("compile", game, "--target", "ibm", "--form", "deferred", "-o", reader)
        runs = []
        for dd in ["none", "xx", "xy4"]:
            program = out / f"{name}.fez.{dd}.qasm"
            qchess("compile", game, "--target", "ibm_fez", "--properties", props, "--form", "deferred",
                   "--seed", SEED, "--dd", dd, "-o", program)
            runs.append((f"qchess --dd {dd}", noisy.aer_circuit(program.read_text(), backend), program))
        for label, circuit in qiskit_programs(logical, target).items():
            runs.append((label, circuit, reader))
        qubits = device.physical_qubits(c for _, c, _ in runs)
        noise = device.noise_model(backend, qubits)
        for label, circuit, reader_program in runs:
            counts = noisy.aer_run(circuit, noise, args.shots, method="density_matrix")
            path = write_counts(out / f"{name}.{label.replace(' ', '_').replace('/', '')}.counts.json", counts)
            raw, mitigated = tvds(reader_program, path)
            row = {"game": name, "compiler": label, "physical_qubits": len(device.physical_qubits([circuit])),
                   "cz": circuit.count_ops().get("cz", 0), "dd_pulses": sum(circuit.count_ops().get(g, 0) for g in ("x",)),
                   "tvd_raw": raw, "tvd_mitigated": mitigated}
            rows.append(row)
            print(json.dumps(row), flush=True)
    (out / "dd_qiskit.json").write_text(json.dumps({"shots": args.shots, "seed": SEED, "rows": rows}, indent=1) + "\n")
    print(markdown(rows))


def markdown(rows):
    lines = ["| game | compiler | physical qubits | CZ | Aer TVD raw | Aer TVD mitigated |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['compiler']} | {r['physical_qubits']} | {r['cz']} | "
                     f"{r['tvd_raw']:.4f} | {r['tvd_mitigated']:.4f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
