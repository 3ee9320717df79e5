#!/usr/bin/env python3
"""√iSWAP counts on Sycamore side by side (docs/hardware.md, "Sycamore in its own gate"): qchess's
device programs against its own unrouted program and against Cirq's pipeline, on the same games.

The programs: the bundled games (circuits/*.qcg, the full games full_game and tour among them) and
RANDOM_GAMES seeded random games (`qchess simulate --random-plies 30 --seed k`, k = 1, 2, ..., written out as game
files as route_bench.py writes them). For each:

* qchess: `qchess compile GAME --target sycamore --seed 7`, the √iSWAP-family gates its summary
  counts (and, with --before, the same for another qchess binary: the figures before a change);
* unrouted: qchess's own unrouted program (`--target ibm --form deferred --format qasm2`: CZ
  and single-qubit gates on the game's own qubits, no coupler constraint), merged and written in
  √iSWAP by Cirq's `optimize_for_target_gateset(circuit, gateset=SqrtIswapTargetGateset())` (every run on a pair one
  unitary, KAK, the fewest √iSWAP), and by qchess itself on an all-to-all device of the same
  width (a target file with every pair coupled: qchess's reuse and resynthesis without routing);
* Cirq: the same unrouted program routed by `cirq.RouteCQC` on Sycamore's coupling graph (the
  54-qubit grid of backends/sycamore.toml, checked against `cirq_google.Sycamore` when
  cirq_google is installed), then `SqrtIswapTargetGateset`. RouteCQC has no qubit reuse: a
  program wider than 54 qubits does not fit Sycamore, and is routed on the smallest square grid
  that holds it instead (said in the table).

Every count is of gates, not a time: nothing here is timed. Prints the markdown table
docs/hardware.md quotes; writes OUT/sycamore_synth.json and OUT/sycamore_synth.md.
Usage: sycamore_synth.py OUT_DIR [--qchess PATH] [--before PATH] [--random-games N]
"""
import argparse
import json
import math
import re
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from route_bench import Qchess, device_summary  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 7
RANDOM_GAMES = 3
RANDOM_PLIES = 30


def games(qchess, folder, random_games):
    """[(name, game file)]: the bundled games (circuits/*.qcg: the full games full_game and tour
    among them), then the seeded random games."""
    found = [(p.stem, p) for p in sorted((ROOT / "circuits").glob("*.qcg"))]
    for k in range(1, random_games + 1):
        played = json.loads(qchess.run("simulate", "--random-plies", RANDOM_PLIES, "--seed", k, "--json")[0])
        path = folder / f"random{k:02d}.qcg"
        path.write_text(played["game"] + "\n")
        found.append((f"random{k:02d}", path))
    return found


def sycamore_grid():
    """Sycamore's couplers as GridQubit pairs: backends/sycamore.toml's edges on its qubits, the
    k-th GridQubit in sorted order being physical qubit k (the file's comment)."""
    import cirq

    text = (ROOT / "backends" / "sycamore.toml").read_text()
    target = tomllib.loads(text)
    qubit = {int(k): cirq.GridQubit(int(row), int(col))
             for line in text.splitlines() if line.startswith("#   ")
             for k, row, col in re.findall(r"(\d+) = \((\d+), (\d+)\)", line)}
    assert len(qubit) == target["qubits"], f"{len(qubit)} qubits named, {target['qubits']} in the file"
    edges = {frozenset((qubit[a], qubit[b])) for a, b in target["edges"]}
    try:
        import cirq_google

        theirs = {frozenset(p) for p in cirq_google.Sycamore.metadata.qubit_pairs}
        assert edges == theirs, "backends/sycamore.toml's couplers differ from cirq_google.Sycamore's"
    except ImportError:
        pass
    return edges


def graph_of(edges):
    import networkx as nx

    g = nx.Graph()
    for e in edges:
        a, b = tuple(e)
        g.add_edge(a, b)
    return g


def square_grid(n):
    """The couplers of the smallest square grid of GridQubits with at least n qubits."""
    import cirq

    side = math.ceil(math.sqrt(n))
    qs = cirq.GridQubit.square(side)
    return {frozenset((a, b)) for a in qs for b in qs if a < b and abs(a.row - b.row) + abs(a.col - b.col) == 1}


def sqrt_iswaps(circuit):
    """√iSWAP-family gates of a Cirq circuit (SqrtIswapTargetGateset writes SQRT_ISWAP and its
    inverse); fails on any other two-qubit gate."""
    import cirq

    n = 0
    for op in circuit.all_operations():
        if len(op.qubits) != 2:
            continue
        gate = op.gate
        assert isinstance(gate, cirq.ISwapPowGate) and abs(abs(gate.exponent) - 0.5) < 1e-9, f"not √iSWAP: {op}"
        n += 1
    return n


def resynthesised(circuit):
    import cirq

    return cirq.optimize_for_target_gateset(circuit, gateset=cirq.SqrtIswapTargetGateset())


def on_couplers(circuit, edges):
    return all(frozenset(op.qubits) in edges for op in circuit.all_operations() if len(op.qubits) == 2)


def cirq_pipeline(circuit, edges):
    """RouteCQC on `edges`, then SqrtIswapTargetGateset: (√iSWAP count, every gate on a coupler)."""
    import cirq

    routed = cirq.RouteCQC(graph_of(edges))(circuit)
    out = resynthesised(routed)
    return sqrt_iswaps(out), on_couplers(out, edges)


def all_to_all_target(folder, qubits):
    """A target file like sycamore.toml with every pair of `qubits` coupled (no routing needed)."""
    text = (ROOT / "backends" / "sycamore.toml").read_text()
    target = tomllib.loads(text)
    lines = [f'name = "all_to_all"', f'description = "every pair coupled, Sycamore\'s gates"',
             f"qubits = {qubits}", "feed_forward = false", "measure_reset = true",
             f"native = {json.dumps(target['native'])}", f'single_qubit = "{target["single_qubit"]}"',
             f'two_qubit = "{target["two_qubit"]}"', "include_stdgates = true", "definitions = true",
             "edges = [" + ", ".join(f"[{a}, {b}]" for a in range(qubits) for b in range(a + 1, qubits)) + "]"]
    (folder / "all_to_all.toml").write_text("\n".join(lines) + "\n")
    return folder


def qchess_sqrt_iswaps(qchess, game, target, out, extra=()):
    _, stderr, _ = qchess.run("compile", game, "--target", target, "--seed", SEED, "--json", "-o", out, *extra)
    return device_summary(stderr)["two_qubit_gates"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--qchess", type=Path, default=ROOT / "target" / "release" / "qchess")
    parser.add_argument("--before", type=Path, help="another qchess binary, for the figures before a change")
    parser.add_argument("--random-games", type=int, default=RANDOM_GAMES)
    args = parser.parse_args()
    import cirq
    from cirq.contrib.qasm_import import circuit_from_qasm

    out = args.out
    (out / "games").mkdir(parents=True, exist_ok=True)
    qchess = Qchess(args.qchess)
    before = Qchess(args.before) if args.before else None
    sycamore = sycamore_grid()
    rows = []
    for name, game in games(qchess, out / "games", args.random_games):
        row = {"name": name}
        row["qchess"] = qchess_sqrt_iswaps(qchess, game, "sycamore", out / f"{name}.sycamore.qasm")
        if before:
            row["before"] = qchess_sqrt_iswaps(before, game, "sycamore", out / f"{name}.before.qasm")
        logical_path = out / f"{name}.logical.qasm2"
        qchess.run("compile", game, "--target", "ibm", "--form", "deferred", "--format", "qasm2", "--seed", SEED,
                   "-o", logical_path)
        logical = circuit_from_qasm(logical_path.read_text())
        width = len(logical.all_qubits())
        row["program_qubits"] = width
        row["unrouted_cirq"] = sqrt_iswaps(resynthesised(logical))
        backends = all_to_all_target(out, width)
        row["unrouted_qchess"] = qchess_sqrt_iswaps(qchess, game, "all_to_all", out / f"{name}.all_to_all.qasm",
                                                    ("--backends-dir", backends))
        grid = sycamore if width <= 54 else square_grid(width)
        row["cirq_device"] = "sycamore" if width <= 54 else f"{math.ceil(math.sqrt(width))}x{math.ceil(math.sqrt(width))} grid"
        row["cirq"], fits = cirq_pipeline(logical, grid)
        assert fits, f"{name}: Cirq's routed program has a gate off the couplers"
        rows.append(row)
        print(json.dumps(row), flush=True)
    (out / "sycamore_synth.json").write_text(json.dumps({"cirq": cirq.__version__, "seed": SEED, "rows": rows},
                                                        indent=1) + "\n")
    table = markdown(rows, before is not None)
    (out / "sycamore_synth.md").write_text(table)
    print(table)


def markdown(rows, with_before):
    def ratio(a, b):
        return f"{a / b:.2f}" if b else "-"

    head = ["program", "qubits"]
    if with_before:
        head.append("qchess before")
    head += ["qchess", "unrouted (Cirq resynthesis)", "unrouted (qchess, all-to-all)", "Cirq (RouteCQC + resynthesis)",
             "qchess / unrouted (Cirq; qchess)", "qchess / Cirq"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total = {k: 0 for k in ("before", "qchess", "unrouted_cirq", "unrouted_qchess", "cirq")}
    for r in rows:
        for k in total:
            total[k] += r.get(k, 0)
        cells = [r["name"], str(r["program_qubits"])]
        if with_before:
            cells.append(f"{r['before']:,}")
        cirq_cell = f"{r['cirq']:,}" + ("" if r["cirq_device"] == "sycamore" else f" ({r['cirq_device']})")
        cells += [f"{r['qchess']:,}", f"{r['unrouted_cirq']:,}", f"{r['unrouted_qchess']:,}", cirq_cell,
                  f"{ratio(r['qchess'], r['unrouted_cirq'])}; {ratio(r['qchess'], r['unrouted_qchess'])}",
                  ratio(r["qchess"], r["cirq"])]
        lines.append("| " + " | ".join(cells) + " |")
    cells = ["all", ""]
    if with_before:
        cells.append(f"{total['before']:,}")
    cells += [f"{total['qchess']:,}", f"{total['unrouted_cirq']:,}", f"{total['unrouted_qchess']:,}",
              f"{total['cirq']:,}",
              f"{ratio(total['qchess'], total['unrouted_cirq'])}; {ratio(total['qchess'], total['unrouted_qchess'])}",
              ratio(total["qchess"], total["cirq"])]
    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
