#!/usr/bin/env python3
"""Gate fusion on and off, side by side in one run (docs/performance.md, "Fusion").

Run by hand from the repository root after `cargo build --release -p qc-cli -p qc-sim --example perf`:

    python3 crates/qc-sim/benches/compare_fusion.py [--n 22,24] [--fuse 1,2,3,4] [--rounds 2]
                                                    [--unfused-qchess PATH]

For each round, n and precision (double, single), one process at a time, 2 threads each:
* `perf dense n 1 FUSE [single]`: the seeded 200-gate benchmark circuit on a full state vector
  (every qubit in the vector from the start), once per fusion limit FUSE (1 = off);
* `perf stages FILE [precision] FUSE`: what `qchess run --backend dense` does on the same circuit
  written as portable OpenQASM 3 (import, passes, exact distribution of the first 8 qubits), with
  fusion off (1) and at the library's default;
* with `--unfused-qchess PATH` (a `qchess` built with fusion off), the whole `qchess run` process
  of that binary and of target/release/qchess.
Prints one JSON line per measurement and a table of times and ratios to fusion off.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
PERF = os.path.join(ROOT, "target", "release", "examples", "perf")
QCHESS = os.path.join(ROOT, "target", "release", "qchess")
ENV = dict(os.environ, RAYON_NUM_THREADS="2", OMP_NUM_THREADS="2")


def run_json(cmd):
    out = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=900)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": out.stderr[-300:]}


def whole(cmd):
    start = time.monotonic()
    out = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=900)
    secs = time.monotonic() - start
    if out.returncode != 0:
        return {"error": out.stderr[-300:]}
    return {"whole": secs, "p": json.loads(out.stdout)["probabilities"].get("0" * 8)}


def main():
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    ns = [int(x) for x in opt("--n", "22,24").split(",")]
    fuses = [int(x) for x in opt("--fuse", "1,2,3,4").split(",")]
    rounds = int(opt("--rounds", "2"))
    unfused = opt("--unfused-qchess", None)
    with open("/proc/loadavg") as f:
        print(f"load average at start: {f.read().split()[:3]}", flush=True)
    rows = []
    for r in range(rounds):
        for n in ns:
            qasm = f"/tmp/qchess-fusion-{n}.qasm"
            with open(qasm, "w") as f:
                f.write(subprocess.check_output([PERF, "qasm", str(n), "1", "8"], text=True))
            for precision in ["double", "single"]:
                row = {"round": r, "n": n, "precision": precision}
                for fuse in fuses:
                    d = run_json([PERF, "dense", str(n), "1", str(fuse), precision])
                    row[f"dense_{fuse}"] = d.get("seconds")
                    row[f"dense_{fuse}_blocks"] = d.get("fused_blocks")
                for fuse, key in [("1", "stages_off"), ("", "stages_default")]:
                    d = run_json([PERF, "stages", qasm, precision] + ([fuse] if fuse else []))
                    row[key] = d.get("exact_distribution")
                    row[key + "_blocks"] = d.get("fused_blocks")
                if unfused:
                    extra = [] if precision == "double" else ["--precision", precision]
                    for binary, key in [(unfused, "run_off"), (QCHESS, "run_default")]:
                        row[key] = whole([binary, "run", "--backend", "dense", "--json", qasm] + extra).get("whole")
                rows.append(row)
                print(json.dumps(row), flush=True)
    ratio = lambda a, b: "–" if a is None or b is None else f"{a / b:.2f}"
    print("\n| round | n | precision | " + " | ".join(f"dense fuse <= {f} (s)" for f in fuses)
          + " | " + " | ".join(f"fuse <= {f} / off" for f in fuses[1:])
          + " | run stages off / default (s) | default / off | whole run off / default (s) | default / off |")
    print("|" + "---|" * (3 + 2 * len(fuses) - 1 + 4))
    for row in rows:
        off = row.get(f"dense_{fuses[0]}")
        cells = [f"{row.get(f'dense_{f}'):.3g}" if row.get(f"dense_{f}") else "–" for f in fuses]
        ratios = [ratio(row.get(f"dense_{f}"), off) for f in fuses[1:]]
        so, sd = row.get("stages_off"), row.get("stages_default")
        ro, rd = row.get("run_off"), row.get("run_default")
        fmt = lambda x: "–" if x is None else f"{x:.3g}"
        print(f"| {row['round']} | {row['n']} | {row['precision']} | " + " | ".join(cells + ratios)
              + f" | {fmt(so)} / {fmt(sd)} | {ratio(sd, so)} | {fmt(ro)} / {fmt(rd)} | {ratio(rd, ro)} |")


if __name__ == "__main__":
    main()
