#!/usr/bin/env python3
"""ECR counts on IBM's Eagle side by side (docs/hardware.md, "ECR on IBM Eagle"): qchess's
`ibm_brisbane` programs against Qiskit's transpiler on the same logical programs, device and
calibration.

The device is ibm_brisbane as qiskit-ibm-runtime's FakeBrisbane models it (127 qubits, heavy
hex, ECR couplers driven one way); its calibration (`props_brisbane.json` from the installed
package) is written to OUT/props_brisbane.json and given to qchess with `--properties`; Qiskit
gets the same calibration through FakeBrisbane's target without its broken couplers
(device.usable_target).

The programs: the bundled games (circuits/*.qcg and circuits/tour/*.qcg, those without a
two-qubit gate left out) and RANDOM_GAMES seeded random games (route_bench.py's list). For each
form (deferred; dynamic: mid-circuit measurement and `if`):

* qchess: `qchess compile GAME --target ibm_brisbane --properties ... --form F --seed 7`;
* Qiskit: qchess's logical program of the same game and form (`--target ibm`: CZ and
  single-qubit gates on the game's own qubits; OpenQASM 2 for the deferred form, OpenQASM 3
  with `if` for the dynamic one) transpiled with `transpile(circuit, target=...,
  optimization_level=3, seed_transpiler=7)`.

Both programs are read back into Qiskit and checked here, independently of qchess's verifier:
every two-qubit gate is an `ecr` on a pair the device's target has, in its direction (inside
`if` blocks too). For both the ECR count and the ESP (the product of 1 - error of every gate
and measurement, from the target's calibration) are computed here; qchess's printed ESP must
agree with the one computed from its program. Prints the markdown table docs/hardware.md
quotes; writes OUT/ecr_bench.json and OUT/ecr_bench.md. With --max-ratio R, exits 1 when
qchess's total ECR over Qiskit's is above R in either form (CI's bound).
Usage: ecr_bench.py OUT_DIR [--qchess PATH] [--random-games N] [--max-ratio R]
"""
import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import device  # noqa: E402
from route_bench import Qchess, device_summary, game_list  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 7
RANDOM_GAMES = 3
FORMS = ["deferred", "dynamic"]
ESP_TOLERANCE = 1e-6  # relative: qchess's printed ESP against the one computed here


def backend():
    from qiskit_ibm_runtime.fake_provider import FakeBrisbane

    return FakeBrisbane()


def props_path():
    import qiskit_ibm_runtime.fake_provider.backends as backends

    return Path(backends.__file__).parent / "brisbane" / "props_brisbane.json"


def operations(circuit):
    """(name, physical qubits) of every operation of `circuit`, inside control flow too."""
    for inst in circuit.data:
        op = inst.operation
        qubits = tuple(circuit.find_bit(q).index for q in inst.qubits)
        if getattr(op, "blocks", None):
            for block in op.blocks:
                # A block's qubits are the if_else's qubits, in order.
                for name, inner in operations(block):
                    yield name, tuple(qubits[i] for i in inner)
        else:
            yield op.name, qubits


def figures(circuit, target):
    """{ecr, esp, unfit}: the ECR count, the ESP from `target`'s errors, and what breaks the
    device's rules (a two-qubit gate other than ECR, or on no coupler in its direction)."""
    ecr, esp, unfit = 0, 1.0, []
    for name, qubits in operations(circuit):
        if name in ("barrier", "delay"):
            continue
        if len(qubits) == 2:
            if name != "ecr" or qubits not in target["ecr"]:
                unfit.append(f"{name} {qubits}")
            ecr += name == "ecr"
        props = target[name].get(qubits) if name in target.operation_names else None
        if props is not None and props.error is not None:
            esp *= 1.0 - props.error
    return {"ecr": ecr, "esp": esp, "unfit": unfit}


def load(path, form):
    if form == "deferred" and path.suffix == ".qasm2":
        from qiskit import QuantumCircuit

        return QuantumCircuit.from_qasm_str(path.read_text())
    import qiskit_qasm3_import

    return qiskit_qasm3_import.parse(path.read_text())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--qchess", type=Path, default=ROOT / "target" / "release" / "qchess")
    parser.add_argument("--random-games", type=int, default=RANDOM_GAMES)
    parser.add_argument("--max-ratio", type=float,
                        help="exit 1 when qchess's total ECR over Qiskit's exceeds this in either form (CI's bound)")
    args = parser.parse_args()
    import qiskit
    from qiskit import transpile

    out = args.out
    (out / "games").mkdir(parents=True, exist_ok=True)
    props = out / "props_brisbane.json"
    shutil.copyfile(props_path(), props)
    target = device.usable_target(backend())
    qchess = Qchess(args.qchess)
    rows, failures = [], []
    for name, group, game_args in game_list(False, args.random_games, qchess, out / "games"):
        if group == "niels":
            continue
        stem = name.replace("/", "_")
        row = {"name": name}
        for form in FORMS:
            path = out / f"{stem}.{form}.brisbane.qasm"
            _, stderr, seconds = qchess.run("compile", *game_args, "--target", "ibm_brisbane", "--properties", props,
                                            "--form", form, "--seed", SEED, "--json", "-o", path)
            summary = device_summary(stderr)
            ours = figures(load(path, form), target)
            printed = summary.get("esp")
            if printed is not None and abs(printed - ours["esp"]) > ESP_TOLERANCE * max(ours["esp"], 1e-300):
                failures.append(f"{name} ({form}): qchess prints ESP {printed}, computed {ours['esp']}")
            if ours["ecr"] != summary.get("two_qubit_gates"):
                failures.append(f"{name} ({form}): {ours['ecr']} ecr in the program, {summary} in the summary")
            logical = out / f"{stem}.{form}.logical.{'qasm2' if form == 'deferred' else 'qasm'}"
            extra = ["--format", "qasm2"] if form == "deferred" else []
            qchess.run("compile", *game_args, "--target", "ibm", "--form", form, "--seed", SEED, *extra, "-o", logical)
            isa = transpile(load(logical, form), target=target, optimization_level=3, seed_transpiler=SEED)
            theirs = figures(isa, target)
            for who, fig in (("qchess", ours), ("Qiskit", theirs)):
                if fig["unfit"]:
                    failures.append(f"{name} ({form}): {who}'s program: {fig['unfit'][:3]}")
            row[form] = {"qchess": ours["ecr"], "qchess_esp": ours["esp"], "qchess_seconds": seconds,
                         "qiskit": theirs["ecr"], "qiskit_esp": theirs["esp"]}
        if all(row[f]["qchess"] == 0 and row[f]["qiskit"] == 0 for f in FORMS):
            continue
        rows.append(row)
        print(json.dumps(row), flush=True)
    (out / "ecr_bench.json").write_text(json.dumps({"qiskit": qiskit.__version__, "seed": SEED, "rows": rows},
                                                   indent=1) + "\n")
    table = markdown(rows)
    (out / "ecr_bench.md").write_text(table)
    print(table)
    if failures:
        print("ecr_bench: " + "\n  ".join(failures))
        sys.exit(1)
    if args.max_ratio is not None:
        for form in FORMS:
            ours, theirs = (sum(r[form][k] for r in rows) for k in ("qchess", "qiskit"))
            if theirs and ours / theirs > args.max_ratio:
                print(f"ecr_bench: {form}: qchess {ours} ecr, Qiskit O3 {theirs}: "
                      f"{ours / theirs:.2f}x, above the bound {args.max_ratio}")
                sys.exit(1)


def markdown(rows):
    def ratio(a, b):
        return f"{a / b:.2f}" if b else "-"

    head = ["program"]
    for form in FORMS:
        head += [f"{form}: qchess ecr", "Qiskit O3 ecr", "ratio", "ESP qchess / Qiskit"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total = {(f, k): 0 for f in FORMS for k in ("qchess", "qiskit")}
    worse = {f: 0 for f in FORMS}
    esp_better = {f: 0 for f in FORMS}
    for r in rows:
        cells = [r["name"]]
        for form in FORMS:
            q, k = r[form]["qchess"], r[form]["qiskit"]
            total[(form, "qchess")] += q
            total[(form, "qiskit")] += k
            worse[form] += q > k
            esp_better[form] += r[form]["qchess_esp"] >= r[form]["qiskit_esp"]
            cells += [f"{q:,}", f"{k:,}", ratio(q, k), ratio(r[form]["qchess_esp"], r[form]["qiskit_esp"])]
        lines.append("| " + " | ".join(cells) + " |")
    cells = [f"all ({len(rows)})"]
    for form in FORMS:
        q, k = total[(form, "qchess")], total[(form, "qiskit")]
        cells += [f"{q:,}", f"{k:,}", f"{ratio(q, k)} (more on {worse[form]})",
                  f"qchess's at least as high on {esp_better[form]}"]
    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
