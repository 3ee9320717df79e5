#!/usr/bin/env python3
"""User gates applied as one matrix against the same program written out gate by gate
(docs/performance.md, "User gates").

Run by hand from the repository root after `cargo build --release -p qc-cli`:

    python3 crates/qc-sim/benches/compare_user_gates.py [--n 20,22,24] [--calls 200] [--rounds 2]

For each round and n it writes one seeded OpenQASM 3 program twice: with two user gates that
match no gate of the table (`g2`, 2 qubits, `g3`, 3 qubits; each call with its own angle, one call
in four under `ctrl @`), and the same program with every call written out as its body (what the
importer gives with the user gate inlined). Then, one process at a time, 2 threads each, it times
the whole `qchess run --backend dense --json` process on:
* `defined`: the program with the gate definitions (each call one `Op::UserGate`, one matrix pass);
* `written-out`: the written-out program (the passes and fusion see the body's gates);
* `no-optimize`: the program with definitions under `--no-optimize` (bodies inlined, no passes).
All three must give the same p(0..0) of the 8 measured qubits. Prints one JSON line per
measurement and a Markdown table of times and ratios to `written-out`.
"""
import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
QCHESS = os.path.join(ROOT, "target", "release", "qchess")
ENV = dict(os.environ, RAYON_NUM_THREADS="2")
MEASURED = 8

# The bodies, with `{t}` for the angle and `{a}`, `{b}`, `{c}` for the qubits.
BODIES = {
    "g2": ["ry({t}) {a};", "cx {a}, {b};", "rz({t}) {b};", "cx {b}, {a};", "rx({t}) {a};"],
    "g3": ["ry({t}) {a};", "cx {a}, {b};", "ry({t}) {c};", "cx {b}, {c};", "rz({t}) {a};",
           "ccx {a}, {b}, {c};", "rx({t}) {c};"],
}
ARITY = {"g2": 2, "g3": 3}


def programs(n, calls, seed):
    """The program with gate definitions and the same program written out."""
    rng = random.Random(seed)
    head = ["OPENQASM 3.0;", 'include "stdgates.inc";', f"qubit[{n}] q;", f"bit[{MEASURED}] c;"]
    defs = []
    for name, body in BODIES.items():
        args = "a, b, c"[: 3 * ARITY[name] - 2]
        lines = " ".join(x.format(t="t", a="a", b="b", c="c") for x in body)
        defs.append(f"gate {name}(t) {args} {{ {lines} }}")
    prep = [f"h q[{k}];" for k in range(n)]
    defined, written = [], []
    for _ in range(calls):
        name = rng.choice(list(BODIES))
        qs = rng.sample(range(n), ARITY[name] + 1)
        control, targets = qs[0], qs[1:]
        t = round(rng.uniform(0.1, 3.0), 6)
        ctrl = rng.random() < 0.25
        operands = ", ".join(f"q[{k}]" for k in ([control] if ctrl else []) + targets)
        defined.append(f"{'ctrl @ ' if ctrl else ''}{name}({t}) {operands};")
        names = dict(zip("abc", (f"q[{k}]" for k in targets)))
        for line in BODIES[name]:
            body = line.format(t=t, **names)
            # `ctrl @ g q[c], ...` written out: each body gate under the same control.
            written.append(ctrl_line(body, control) if ctrl else body)
    tail = [f"c[{k}] = measure q[{k}];" for k in range(MEASURED)]
    return ("\n".join(head + defs + prep + defined + tail) + "\n",
            "\n".join(head + prep + written + tail) + "\n")


def ctrl_line(line, control):
    """`gate(args) ops;` under one more control on `q[control]`."""
    gate, ops = line[:-1].split(" ", 1)
    return f"ctrl @ {gate} q[{control}], {ops};"


def whole(args):
    start = time.monotonic()
    out = subprocess.run([QCHESS] + args, env=ENV, capture_output=True, text=True, timeout=1800)
    secs = time.monotonic() - start
    if out.returncode != 0:
        return {"error": out.stderr[-300:]}
    return {"whole": secs, "p": json.loads(out.stdout)["probabilities"].get("0" * MEASURED, 0.0)}


def main():
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    ns = [int(x) for x in opt("--n", "20,22,24").split(",")]
    calls = int(opt("--calls", "200"))
    rounds = int(opt("--rounds", "2"))
    with open("/proc/loadavg") as f:
        print(f"load average at start: {f.read().split()[:3]}", flush=True)
    rows = []
    for r in range(rounds):
        for n in ns:
            defined, written = programs(n, calls, seed=n)
            paths = {"defined": f"/tmp/qchess-ug-{n}.qasm", "written": f"/tmp/qchess-ug-{n}-written.qasm"}
            for key, text in [("defined", defined), ("written", written)]:
                with open(paths[key], "w") as f:
                    f.write(text)
            row = {"round": r, "n": n}
            base = ["run", "--backend", "dense", "--json"]
            for key, extra in [("written", [paths["written"]]), ("defined", [paths["defined"]]),
                               ("no_optimize", ["--no-optimize", paths["defined"]])]:
                row[key] = whole(base + extra)
            rows.append(row)
            print(json.dumps(row), flush=True)
    fmt = lambda d: "–" if "whole" not in d else f"{d['whole']:.2f}"
    ratio = lambda a, b: "–" if "whole" not in a or "whole" not in b else f"{a['whole'] / b['whole']:.2f}"
    print("\n| round | n | written-out (s) | defined (s) | --no-optimize (s) | defined / written-out | "
          "--no-optimize / written-out | p(0..0) written-out, defined, --no-optimize |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        w, d, o = row["written"], row["defined"], row["no_optimize"]
        ps = ", ".join(f"{x.get('p', float('nan')):.6f}" for x in (w, d, o))
        print(f"| {row['round']} | {row['n']} | {fmt(w)} | {fmt(d)} | {fmt(o)} | {ratio(d, w)} | {ratio(o, w)} | {ps} |")


if __name__ == "__main__":
    main()
