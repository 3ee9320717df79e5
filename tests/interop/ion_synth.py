#!/usr/bin/env python3
"""Two-qubit gate counts on the trapped-ion target side by side (docs/hardware.md, "Ion traps"):
qchess's `quantinuum_h2` programs against Qiskit's transpiler on the same logical programs.

The programs: the bundled games (circuits/*.qcg and circuits/tour/*.qcg) and RANDOM_GAMES seeded
random games (`qchess simulate --random-plies 30 --seed k`, written out as game files as
route_bench.py writes them). For each form (deferred: no mid-circuit measurement; dynamic:
mid-circuit measurement and `if`):

* qchess: `qchess compile GAME --target quantinuum_h2 --form F --seed 7`, the `rzz` gates its
  summary counts (every pair of ions is coupled, so nothing is routed: the count is synthesis);
* Qiskit: qchess's logical program of the same game and form (`--target ibm`: CZ and
  single-qubit gates on the game's own qubits), read by Qiskit (OpenQASM 2 for the deferred
  form, OpenQASM 3 with `if` for the dynamic one) and transpiled with
  `transpile(circuit, basis_gates=["rz", "rx", "ry", "rzz", ...], optimization_level=3)`
  without a coupling map (all-to-all), counting the `rzz` it writes (inside `if` blocks too).

Both read the same program, so the figure compares the two compilers' two-qubit synthesis and
optimisation. Every count is of gates; the seconds are the whole qchess process and Qiskit's
`transpile` call, for scale only (farm-bench times commands side by side). Prints the markdown
table docs/hardware.md quotes; writes OUT/ion_synth.json and OUT/ion_synth.md.
Usage: ion_synth.py OUT_DIR [--qchess PATH] [--random-games N] [--max-ratio R]
"""
import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from route_bench import Qchess, device_summary, game_list  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 7
RANDOM_GAMES = 3
FORMS = ["deferred", "dynamic"]
BASIS = ["rz", "rx", "ry", "rzz"]


def games(qchess, folder, random_games):
    """[(name, game file)]: the bundled games and the tour's, then the seeded random games (route_bench's
    list without Niel's Chess, whose games the device targets compile like the others)."""
    return [(name, args[0]) for name, group, args in game_list(False, random_games, qchess, folder)
            if group != "niels"]


def two_qubit_ops(circuit):
    """{name: count} of the two-qubit operations of a Qiskit circuit, inside control flow too."""
    counts = {}
    for inst in circuit.data:
        op = inst.operation
        if getattr(op, "blocks", None):
            for block in op.blocks:
                for name, n in two_qubit_ops(block).items():
                    counts[name] = counts.get(name, 0) + n
        elif len(inst.qubits) == 2:
            counts[op.name] = counts.get(op.name, 0) + 1
    return counts


def qiskit_rzz(path, form):
    """(rzz count, seconds of transpile) of Qiskit O3 on the logical program at `path`."""
    from qiskit import QuantumCircuit, transpile

    if form == "deferred":
        circuit = QuantumCircuit.from_qasm_str(path.read_text())
        basis = BASIS
    else:
        import qiskit_qasm3_import

        circuit = qiskit_qasm3_import.parse(path.read_text())
        basis = BASIS + ["measure", "reset", "if_else"]
    start = time.perf_counter()
    out = transpile(circuit, basis_gates=basis, optimization_level=3, seed_transpiler=SEED)
    seconds = time.perf_counter() - start
    ops = two_qubit_ops(out)
    assert set(ops) <= {"rzz"}, f"{path.name}: Qiskit wrote {ops}"
    return ops.get("rzz", 0), seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--qchess", type=Path, default=ROOT / "target" / "release" / "qchess")
    parser.add_argument("--random-games", type=int, default=RANDOM_GAMES)
    parser.add_argument("--max-ratio", type=float,
                        help="exit 1 when qchess's total rzz over Qiskit's exceeds this in either form (CI's bound)")
    args = parser.parse_args()
    import qiskit

    out = args.out
    (out / "games").mkdir(parents=True, exist_ok=True)
    qchess = Qchess(args.qchess)
    rows = []
    for name, game in games(qchess, out / "games", args.random_games):
        stem = name.replace("/", "_")
        row = {"name": name}
        for form in FORMS:
            _, stderr, seconds = qchess.run("compile", game, "--target", "quantinuum_h2", "--form", form,
                                            "--seed", SEED, "--json", "-o", out / f"{stem}.{form}.h2.qasm")
            summary = device_summary(stderr)
            assert summary["exchanges"] == 0, f"{name} ({form}): {summary}"
            logical = out / f"{stem}.{form}.logical.{'qasm2' if form == 'deferred' else 'qasm'}"
            extra = ["--format", "qasm2"] if form == "deferred" else []
            qchess.run("compile", game, "--target", "ibm", "--form", form, "--seed", SEED, *extra, "-o", logical)
            qiskit_count, qiskit_seconds = qiskit_rzz(logical, form)
            row[form] = {"qchess": summary["two_qubit_gates"], "qchess_seconds": seconds,
                         "unrouted_cx": summary["unrouted_two_qubit_gates"],
                         "qiskit": qiskit_count, "qiskit_seconds": qiskit_seconds}
        rows.append(row)
        print(json.dumps(row), flush=True)
    (out / "ion_synth.json").write_text(json.dumps({"qiskit": qiskit.__version__, "seed": SEED, "rows": rows},
                                                   indent=1) + "\n")
    table = markdown(rows)
    (out / "ion_synth.md").write_text(table)
    print(table)
    if args.max_ratio is not None:
        for form in FORMS:
            ours, theirs = (sum(r[form][k] for r in rows) for k in ("qchess", "qiskit"))
            if theirs and ours / theirs > args.max_ratio:
                print(f"ion_synth: {form}: qchess {ours} rzz, Qiskit O3 {theirs}: "
                      f"{ours / theirs:.2f}x, above the bound {args.max_ratio}")
                sys.exit(1)


def markdown(rows):
    def ratio(a, b):
        return f"{a / b:.2f}" if b else "-"

    head = ["program"]
    for form in FORMS:
        head += [f"{form}: qchess rzz", "Qiskit O3 rzz", "qchess / Qiskit"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total = {(f, k): 0 for f in FORMS for k in ("qchess", "qiskit")}
    worse = {f: 0 for f in FORMS}
    for r in rows:
        cells = [r["name"]]
        for form in FORMS:
            q, k = r[form]["qchess"], r[form]["qiskit"]
            total[(form, "qchess")] += q
            total[(form, "qiskit")] += k
            worse[form] += q > k
            cells += [f"{q:,}", f"{k:,}", ratio(q, k)]
        lines.append("| " + " | ".join(cells) + " |")
    cells = [f"all ({len(rows)})"]
    for form in FORMS:
        q, k = total[(form, "qchess")], total[(form, "qiskit")]
        cells += [f"{q:,}", f"{k:,}", f"{ratio(q, k)} (more on {worse[form]})"]
    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
