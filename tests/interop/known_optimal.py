#!/usr/bin/env python3
"""Routing benchmarks with a known optimal SWAP count, built the way QUBIKOS builds them (Ping,
Lin, Tan and Cong, arXiv 2502.08839): a circuit written from a hidden placement, in sections,
each section's interactions the whole coupling graph under the placement of the moment, and
between two sections one *special* gate that only one more SWAP can bring together. This file
is its own construction (docs/hardware.md, "Routing benchmarks with a known optimum", gives it
with the proof that no routing needs fewer than `swaps` SWAPs, and a routing with exactly that
many is written beside each circuit).

Families, each on a device graph `G` (n qubits, `E` couplers), all seeded:

* `swaps K`: K special gates, so K SWAPs are needed and K suffice (the reference routing).
  The circuit has n qubits.
* `embed`: a random connected part of `G` (`fraction` of its qubits), its couplers in random
  order, on randomly labelled qubits: it embeds, so it needs no SWAP at all.
* `full`: K = 0 of the first family: one section, every coupler of `G`, so the circuit's
  interaction graph is `G` itself under a random labelling and only an automorphism of `G`
  places it without SWAP.

Every two-qubit gate is a CX with a random single-qubit rotation on both its qubits before it,
so no two gates commute or cancel and each costs exactly one CZ; no two consecutive two-qubit
gates on a qubit act on the same pair, so none merges with another. The circuit's CZ count
before routing is therefore its number of CX gates.

As a module: `devices()` gives the graphs (line, grid, ibm_fez's usable heavy hex, Sycamore),
`build(edges, n, swaps, rng)` one circuit (`Built`: gates, placement, reference routing),
`qasm(built)` its OpenQASM 2 text. As a script it writes a suite:
    known_optimal.py OUT_DIR [--seeds 1,2] [--props props_fez.json]
writes OUT_DIR/NAME.qasm (the circuit), NAME.reference.qasm (the routing with the known number
of SWAPs, on physical qubits) and OUT_DIR/suite.json (every circuit's device, family, SWAP count
and CZ count before routing).
"""
import argparse
import json
import math
import random
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A device's couplers with an error at least this large are left out (as routing does).
BROKEN = 0.5
# Extra gates per section, as a fraction of the couplers: random couplers of the section's
# placement, so that a section is not only each coupler once.
PADDING = 0.25
# SWAP counts per device (the larger devices' circuits are longer: a section has every coupler).
SWAP_COUNTS = {"line16": [5, 10, 20], "grid6x6": [5, 10, 20], "ibm_fez": [5], "sycamore": [5, 10]}
EMBED_FRACTION = 0.6
# Gates of an `embed` circuit per coupler of its part.
EMBED_GATES_PER_EDGE = 6


@dataclass
class Built:
    """One benchmark circuit: `gates` in program order, each `("u", q, (a, b, c))` or
    `("cx", control, target)` on logical qubits; `placement[logical]` the physical qubit it
    starts on in the reference routing; `reference` the routed circuit (physical qubits,
    `("swap", p, q)` entries for the SWAPs); `swaps` the optimal SWAP count."""

    num_qubits: int
    gates: list = field(default_factory=list)
    placement: list = field(default_factory=list)
    reference: list = field(default_factory=list)
    swaps: int = 0

    def cx_count(self):
        return sum(1 for g in self.gates if g[0] == "cx")


def adjacency(n, edges):
    adj = [set() for _ in range(n)]
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return adj


def spanning_tree(adj, root, rng):
    """A random spanning tree of the connected graph `adj` as edges (parent, child) in breadth-first
    order: every child's edge comes after its parent's."""
    seen = {root}
    order, frontier = [], [root]
    while frontier:
        nxt = []
        for v in frontier:
            around = sorted(adj[v])
            rng.shuffle(around)
            for w in around:
                if w not in seen:
                    seen.add(w)
                    order.append((v, w))
                    nxt.append(w)
        rng.shuffle(nxt)
        frontier = nxt
    return order


class Writer:
    """Appends gates on logical qubits and their images on physical qubits; drops a CX on the pair
    of the last two-qubit gate of both its qubits (it would merge with that gate; that gate plays
    its part, see the proof)."""

    def __init__(self, built, rng):
        self.b, self.rng = built, rng
        self.last = [None] * built.num_qubits  # index of the last CX on each logical qubit

    def cx(self, a, b, at):
        """CX on logical a, b, which the current placement `at` (logical -> physical) puts on a
        coupler."""
        if self.last[a] is not None and self.last[a] == self.last[b]:
            return
        for q in (a, b):
            angles = tuple(round(self.rng.uniform(0, 2 * math.pi), 6) for _ in range(3))
            self.b.gates.append(("u", q, angles))
            self.b.reference.append(("u", at[q], angles))
        index = len(self.b.gates)
        self.b.gates.append(("cx", a, b))
        self.b.reference.append(("cx", at[a], at[b]))
        self.last[a] = self.last[b] = index

    def swap(self, p, q):
        self.b.reference.append(("swap", p, q))


def build(edges, n, swaps, rng, padding=PADDING):
    """A circuit on `n` logical qubits for the connected graph `edges` on physical qubits 0..n-1,
    needing exactly `swaps` SWAPs (see the module doc and docs/hardware.md)."""
    adj = adjacency(n, edges)
    at = list(range(n))  # logical -> physical
    rng.shuffle(at)
    who = [0] * n  # physical -> logical
    for logical, p in enumerate(at):
        who[p] = logical
    built = Built(num_qubits=n, placement=list(at), swaps=swaps)
    w = Writer(built, rng)
    # Couplers whose SWAP brings some pair together that was not: an end with another neighbour
    # that is not a neighbour of the other end (every coupler with a degree-2 end on a graph
    # without triangles).
    swappable = [(x, y) for x, y in edges for (s, t) in ((x, y), (y, x)) if adj[t] - adj[s] - {s}]
    if swaps and not swappable:
        raise ValueError("no coupler brings a new pair together: the graph needs a path of 3 qubits")
    root = rng.randrange(n)  # physical root of the first section's diverging tree
    for section in range(swaps + 1):
        # Diverging tree from `root` (a qubit of the special gate before): every qubit's first
        # gate of the section follows that gate.
        out_tree = spanning_tree(adj, root, rng)
        special = None
        if section < swaps:
            x, y = rng.choice(swappable)
            if not adj[y] - adj[x] - {x}:
                x, y = y, x
            z = rng.choice(sorted(adj[y] - adj[x] - {x}))
            # After SWAP(x, y), the logical qubit on x stands on y, next to z's.
            special = (x, y, z)
            in_root = rng.choice([x, z])
        else:
            in_root = rng.randrange(n)
        in_tree = spanning_tree(adj, in_root, rng)
        tree_edges = {frozenset(e) for e in out_tree} | {frozenset(e) for e in in_tree}
        middle = [e for e in edges if frozenset(e) not in tree_edges]
        middle += [rng.choice(edges) for _ in range(int(padding * len(edges)))]
        rng.shuffle(middle)
        for parent, child in out_tree:
            w.cx(*rng.sample([who[parent], who[child]], 2), at)
        for a, b in middle:
            w.cx(*rng.sample([who[a], who[b]], 2), at)
        # Converging tree towards `in_root` (deepest edges first): every qubit's last gate of the
        # section comes before the special gate.
        for parent, child in reversed(in_tree):
            w.cx(*rng.sample([who[parent], who[child]], 2), at)
        if special is not None:
            x, y, z = special
            u, v = who[x], who[z]
            w.swap(x, y)
            who[x], who[y] = who[y], who[x]
            at[who[x]], at[who[y]] = x, y
            w.cx(*rng.sample([u, v], 2), at)
            root = rng.choice([y, z])
    return built


def build_embed(edges, n, fraction, rng, per_edge=EMBED_GATES_PER_EDGE):
    """A circuit whose interaction graph is a random connected part of the graph (about
    `fraction` of its qubits) under a random labelling: it needs no SWAP."""
    adj = adjacency(n, edges)
    size = max(2, round(fraction * n))
    start = rng.randrange(n)
    part, frontier = [start], [start]
    inside = {start}
    while len(part) < size and frontier:
        v = rng.choice(frontier)
        fresh = sorted(adj[v] - inside)
        if not fresh:
            frontier.remove(v)
            continue
        w = rng.choice(fresh)
        inside.add(w)
        part.append(w)
        frontier.append(w)
    sub = [(a, b) for a, b in edges if a in inside and b in inside]
    labels = list(range(len(part)))
    rng.shuffle(labels)
    logical_of = {p: labels[i] for i, p in enumerate(part)}
    at = [0] * len(part)
    for p, logical in logical_of.items():
        at[logical] = p
    built = Built(num_qubits=len(part), placement=list(at), swaps=0)
    w = Writer(built, rng)
    order = list(sub)
    rng.shuffle(order)
    order += [rng.choice(sub) for _ in range((per_edge - 1) * len(sub))]
    for a, b in order:
        w.cx(*rng.sample([logical_of[a], logical_of[b]], 2), at)
    return built


def qasm(gates, num_qubits, measure=True):
    """OpenQASM 2 (qelib1.inc) of `gates`; a `swap` entry is written as `swap`."""
    lines = ["OPENQASM 2.0;", 'include "qelib1.inc";', f"qreg q[{num_qubits}];"]
    if measure:
        lines.append(f"creg c[{num_qubits}];")
    for g in gates:
        if g[0] == "u":
            a, b, c = g[2]
            lines.append(f"u3({a},{b},{c}) q[{g[1]}];")
        else:
            lines.append(f"{g[0]} q[{g[1]}],q[{g[2]}];")
    if measure:
        lines += [f"measure q[{q}] -> c[{q}];" for q in range(num_qubits)]
    return "\n".join(lines) + "\n"


def device_edges(name):
    data = tomllib.loads((ROOT / "backends" / f"{name}.toml").read_text())
    return int(data["qubits"]), [tuple(e) for e in data["edges"]]


def usable_part(n, edges, broken):
    """The largest connected part of the graph without the `broken` couplers, relabelled
    0..m-1: (m, edges, physical qubit of each new label)."""
    kept = [e for e in edges if frozenset(e) not in broken]
    adj = adjacency(n, kept)
    best, seen = [], set()
    for s in range(n):
        if s in seen:
            continue
        comp, stack = {s}, [s]
        while stack:
            v = stack.pop()
            for w in adj[v] - comp:
                comp.add(w)
                stack.append(w)
        seen |= comp
        if len(comp) > len(best):
            best = sorted(comp)
    label = {p: i for i, p in enumerate(best)}
    sub = [(label[a], label[b]) for a, b in kept if a in label and b in label]
    return len(best), sub, best


def broken_couplers(props_path, entangler="cz"):
    """Couplers whose `entangler` error in a BackendProperties JSON is at least BROKEN."""
    props = json.loads(Path(props_path).read_text())
    broken = set()
    for gate in props.get("gates", []):
        if gate.get("gate") == entangler and len(gate.get("qubits", [])) == 2:
            for p in gate.get("parameters", []):
                if p.get("name") == "gate_error" and p.get("value", 0) >= BROKEN:
                    broken.add(frozenset(gate["qubits"]))
    return broken


def devices(props=None):
    """{name: (n, edges, physical)}: the graphs of the suite. `physical[i]` is the device qubit of
    graph qubit i (the identity but for ibm_fez, where the broken couplers of `props` are left
    out and the largest connected part is kept)."""
    out = {"line16": (16, [(i, i + 1) for i in range(15)], list(range(16)))}
    rows, cols = 6, 6
    grid = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    grid += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    out["grid6x6"] = (rows * cols, grid, list(range(rows * cols)))
    n, edges = device_edges("ibm_fez")
    broken = broken_couplers(props) if props else set()
    m, sub, physical = usable_part(n, edges, broken)
    out["ibm_fez"] = (m, sub, physical)
    n, edges = device_edges("sycamore")
    out["sycamore"] = (n, edges, list(range(n)))
    return out


def suite(seeds, props=None, swap_counts=SWAP_COUNTS):
    """[(name, device, family, Built)] for every device, family and seed."""
    out = []
    for dev, (n, edges, _) in devices(props).items():
        for seed in seeds:
            for k in swap_counts[dev]:
                rng = random.Random(f"{dev}/swaps{k}/{seed}")
                out.append((f"{dev}_swaps{k}_s{seed}", dev, f"swaps {k}", build(edges, n, k, rng)))
            rng = random.Random(f"{dev}/full/{seed}")
            out.append((f"{dev}_full_s{seed}", dev, "full", build(edges, n, 0, rng)))
            rng = random.Random(f"{dev}/embed/{seed}")
            out.append((f"{dev}_embed_s{seed}", dev, "embed", build_embed(edges, n, EMBED_FRACTION, rng)))
    return out


def check_reference(built, edges):
    """The reference routing acts on couplers only and has `swaps` SWAPs (a self-check)."""
    pairs = {frozenset(e) for e in edges}
    two = [g for g in built.reference if g[0] in ("cx", "swap")]
    bad = [g for g in two if frozenset(g[1:]) not in pairs]
    if bad:
        raise AssertionError(f"reference gate off the coupling map: {bad[0]}")
    got = sum(1 for g in two if g[0] == "swap")
    if got != built.swaps:
        raise AssertionError(f"reference has {got} SWAPs, expected {built.swaps}")


def write_suite(out, seeds, props=None):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    graphs = devices(props)
    entries = []
    for name, dev, family, built in suite(seeds, props):
        n, edges, physical = graphs[dev]
        check_reference(built, edges)
        (out / f"{name}.qasm").write_text(qasm(built.gates, built.num_qubits))
        (out / f"{name}.reference.qasm").write_text(qasm(built.reference, n, measure=False))
        entries.append({"name": name, "device": dev, "family": family, "qubits": built.num_qubits,
                        "swaps": built.swaps, "cz_unrouted": built.cx_count(),
                        "placement": built.placement})
    meta = {dev: {"qubits": n, "edges": edges, "physical": physical} for dev, (n, edges, physical) in graphs.items()}
    (out / "suite.json").write_text(json.dumps({"devices": meta, "circuits": entries}) + "\n")
    return entries


def optimal_swaps(built, edges, limit=200_000):
    """The fewest SWAPs any routing of `built` onto the graph `edges` needs, by exhaustive search
    (for tiny graphs: the independent check of the construction). A routing keeps the order of the
    two-qubit gates on each qubit; it starts from any placement (all are tried at cost 0) and each
    SWAP on a coupler costs 1. Running a gate whose qubits are adjacent never hurts, so each state
    runs all it can; a 0-1 breadth-first search over (placement, progress) finds the optimum.
    None when more than `limit` states would be needed."""
    import itertools
    from collections import deque

    n = built.num_qubits
    pairs = {frozenset(e) for e in edges}
    seq = [[] for _ in range(n)]  # per logical qubit: indices of its CX gates, in order
    cx = [g for g in built.gates if g[0] == "cx"]
    for i, (_, a, b) in enumerate(cx):
        seq[a].append(i)
        seq[b].append(i)

    def settle(at, progress):
        progress = list(progress)
        moved = True
        while moved:
            moved = False
            for q in range(n):
                if progress[q] < len(seq[q]):
                    i = seq[q][progress[q]]
                    _, a, b = cx[i]
                    if (seq[a][progress[a]] == i and seq[b][progress[b]] == i
                            and frozenset((at[a], at[b])) in pairs):
                        progress[a] += 1
                        progress[b] += 1
                        moved = True
        return tuple(progress)

    done = tuple(len(s) for s in seq)
    start = [0] * n
    queue, seen = deque(), {}
    for at in itertools.permutations(range(n)):
        state = (at, settle(at, start))
        seen[state] = 0
        queue.append(state)
    while queue:
        at, progress = queue.popleft()
        cost = seen[(at, progress)]
        if progress == done:
            return cost
        for x, y in edges:
            moved = list(at)
            for q in range(n):
                if at[q] == x:
                    moved[q] = y
                elif at[q] == y:
                    moved[q] = x
            moved = tuple(moved)
            state = (moved, settle(moved, progress))
            if state not in seen:
                if len(seen) > limit:
                    return None
                seen[state] = cost + 1
                queue.append(state)
    return None


def selftest():
    """The construction against exhaustive search on tiny graphs: the optimum equals `swaps`."""
    graphs = {"line4": (4, [(0, 1), (1, 2), (2, 3)]),
              "line5": (5, [(0, 1), (1, 2), (2, 3), (3, 4)]),
              "star4": (4, [(0, 1), (0, 2), (0, 3)]),
              "grid2x3": (6, [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)])}
    checked = 0
    for name, (n, edges) in graphs.items():
        for k in (1, 2, 3):
            for seed in range(4):
                built = build(edges, n, k, random.Random(f"selftest/{name}/{k}/{seed}"), padding=0.0)
                check_reference(built, edges)
                got = optimal_swaps(built, edges)
                if got != k:
                    raise AssertionError(f"{name} swaps={k} seed={seed}: the optimum is {got}, not {k}")
                checked += 1
    print(f"known_optimal selftest: {checked} circuits, each optimum equals its SWAP count")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--selftest", action="store_true", help="check the construction against exhaustive search")
    parser.add_argument("--seeds", default="1,2", help="comma-separated seeds")
    parser.add_argument("--props", type=Path, help="ibm_fez calibration (BackendProperties JSON): its broken couplers are left out")
    args = parser.parse_args()
    if args.selftest:
        selftest()
        return
    if args.out is None:
        parser.error("OUT_DIR is needed")
    seeds = [int(s) for s in args.seeds.split(",")]
    for e in write_suite(args.out, seeds, args.props):
        print(f"{e['name']}: {e['qubits']} qubits, {e['cz_unrouted']} CX, optimum {e['swaps']} SWAPs")


if __name__ == "__main__":
    main()
