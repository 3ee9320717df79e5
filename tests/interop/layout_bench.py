#!/usr/bin/env python3
"""Layout and routing against a known optimum, side by side in one run: `qchess route` against
Qiskit's `transpile(optimization_level=3)` and against Qiskit with a tuned SabreLayout (100
layout trials and 100 swap trials), on the same coupling map and CZ basis.

The circuits:

* known-optimal ones (known_optimal.py): on a line of 16 qubits, a 6x6 grid, ibm_fez's heavy hex
  (FakeFez's calibration, broken couplers left out) and Sycamore's grid, each family (`swaps K`:
  K SWAPs needed and enough; `full`: the whole coupling graph, no SWAP needed; `embed`: a part of
  the device, no SWAP needed) for the TUNED seeds (the ones qchess's layout was tuned on) and the
  HELD_OUT seeds (never looked at while tuning); both are reported;
* the standard ones: generic_circuits.py (QFT, adders, random CX) and a few MQT Bench circuits
  (when `mqt.bench` is installed), on ibm_fez and Sycamore.

Sycamore is routed to a CZ basis on its own coupling map (a target file written into OUT/targets:
Sycamore's couplers, natives cz, rz, sx, x), as are the line and the grid; ibm_fez uses its own
target with `--properties`. For each circuit and compiler: CZ count, ESP (ibm_fez), time, and
for the known-optimal circuits the routing overhead (CZ beyond the circuit's own) over the
reference routing's (3 CZ per SWAP of the optimum).

Writes OUT/layout_bench.json and OUT/layout_bench.md (the tables of docs/hardware.md), prints
the summary; exits 1 when a routed program is unfit for its device.
Usage: layout_bench.py OUT_DIR [--quick] [--qchess PATH] [--qchess-before PATH] [--seeds-per-set N]
                       [--devices line16,grid6x6,ibm_fez,sycamore] [--parts known,standard]
"""
import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generic_circuits  # noqa: E402
import known_optimal  # noqa: E402
import physical  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 7                  # qchess --seed and Qiskit's seed_transpiler
TUNED = [1, 2]            # known-optimal seeds the layout was tuned on
HELD_OUT = [101, 102]     # never looked at while tuning
SABRE_TRIALS = 100
MQT = [("ghz", 20), ("qftentangled", 16), ("dj", 20), ("graphstate", 20), ("qaoa", 12), ("wstate", 16),
       ("vqe_real_amp", 12)]
COMPILERS = ["qchess", "O3", "sabre100"]
BEFORE = "qchess before"  # --qchess-before: another qchess binary, the same circuits
CZ_BASIS = ["cz", "rz", "sx", "x"]


def target_file(folder, name, n, edges):
    """A qchess device target with a CZ basis on the couplers `edges`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.toml").write_text(
        f'name = "{name}"\ndescription = "{name} with a CZ basis"\nqubits = {n}\nfeed_forward = false\n'
        f'measure_reset = true\nnative = ["rz", "sx", "x", "cz"]\nsingle_qubit = "zsx"\ntwo_qubit = "cz"\n'
        f"include_stdgates = true\nedges = {json.dumps([list(e) for e in edges])}\n")


class Setup:
    """The devices: qchess target names, Qiskit targets or coupling maps, calibrations."""

    def __init__(self, out, props):
        from qiskit.transpiler import CouplingMap

        import device

        self.out, self.props = out, props
        self.targets = out / "targets"
        self.qiskit, self.qchess_target, self.dev, self.cal = {}, {}, {}, {}
        backend = device.fake_device()
        self.qiskit["ibm_fez"] = {"target": device.usable_target(backend)}
        self.qchess_target["ibm_fez"] = "ibm_fez"
        self.dev["ibm_fez"] = physical.Device.load("ibm_fez")
        self.cal["ibm_fez"] = physical.Calibration.load(props)
        graphs = known_optimal.devices(props)
        for name in ("line16", "grid6x6", "sycamore"):
            n, edges, _ = graphs[name]
            target_file(self.targets, f"{name}_cz", n, edges)
            self.qchess_target[name] = f"{name}_cz"
            cmap = CouplingMap([list(e) for e in edges] + [[b, a] for a, b in edges])
            self.qiskit[name] = {"coupling_map": cmap, "basis_gates": CZ_BASIS}
            self.dev[name] = physical.Device.load(f"{name}_cz", self.targets)
            self.cal[name] = physical.Calibration.uniform(n)


def qchess_route(exe, setup, dev, path, out_path):
    args = [exe, "route", path, "--target", setup.qchess_target[dev], "--seed", SEED, "--json",
            "--backends-dir", setup.targets, "-o", out_path]
    if dev == "ibm_fez":
        args += ["--properties", setup.props]
    start = time.perf_counter()
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"qchess route {path} on {dev}: {done.stderr.strip()}")
    from qiskit import qasm3

    summary = json.loads(done.stderr.strip().splitlines()[-1])["device"]
    return qasm3.loads(out_path.read_text()), seconds, summary


def sabre_pass_manager(options, trials):
    """Qiskit's level-3 pass manager with its SabreLayout given `trials` layout and swap trials."""
    from qiskit.transpiler import generate_preset_pass_manager
    from qiskit.transpiler.passes import SabreLayout

    pm = generate_preset_pass_manager(optimization_level=3, seed_transpiler=SEED, **options)
    found = []

    def walk(x):
        if isinstance(x, SabreLayout):
            x.swap_trials = x.layout_trials = trials
            found.append(x)
            return
        for t in getattr(x, "_tasks", None) or getattr(x, "tasks", None) or []:
            for u in (t if isinstance(t, (list, tuple)) else [t]):
                walk(u)

    walk(pm.layout)
    if not found:
        raise RuntimeError("no SabreLayout in Qiskit's level-3 layout stage")
    return pm


def qiskit_route(circuit, options, how):
    from qiskit import transpile

    start = time.perf_counter()
    if how == "O3":
        isa = transpile(circuit, optimization_level=3, seed_transpiler=SEED, **options)
    else:
        isa = sabre_pass_manager(options, SABRE_TRIALS).run(circuit)
    return isa, time.perf_counter() - start


def bench(name, dev, path, setup, exe, extra, before=None):
    """One circuit through the three compilers (and the `before` qchess binary): its row."""
    from qiskit import qasm2

    circuit = qasm2.loads(path.read_text(), custom_instructions=qasm2.LEGACY_CUSTOM_INSTRUCTIONS)
    row = {"name": name, "device": dev, "qubits": circuit.num_qubits, **extra}
    routed, seconds, summary = qchess_route(exe, setup, dev, path, setup.out / "routed" / f"{name}.{dev}.qasm")
    row["qchess"] = dict(physical.stats(routed, setup.cal[dev]), seconds=seconds,
                         unfit=physical.check(routed, setup.dev[dev], setup.cal[dev]),
                         exchanges=summary.get("exchanges"), unrouted=summary.get("unrouted_two_qubit_gates"))
    if "swaps" not in extra:
        # What the best optimiser makes of the circuit before routing: Qiskit's level 3 with no
        # coupling map, against qchess's program before routing.
        from qiskit import transpile

        row["qiskit_unrouted"] = transpile(circuit, basis_gates=CZ_BASIS, optimization_level=3,
                                           seed_transpiler=SEED).count_ops().get("cz", 0)
    if before is not None:
        routed, seconds, summary = qchess_route(before, setup, dev, path, setup.out / "routed" / f"{name}.{dev}.before.qasm")
        row[BEFORE] = dict(physical.stats(routed, setup.cal[dev]), seconds=seconds,
                           unfit=physical.check(routed, setup.dev[dev], setup.cal[dev]),
                           exchanges=summary.get("exchanges"), unrouted=summary.get("unrouted_two_qubit_gates"))
    for how in ("O3", "sabre100"):
        isa, seconds = qiskit_route(circuit, setup.qiskit[dev], how)
        row[how] = dict(physical.stats(isa, setup.cal[dev]), seconds=seconds,
                        unfit=physical.check(isa, setup.dev[dev], setup.cal[dev]))
    return row


def overhead_ratio(row, who):
    """Routing overhead (CZ beyond the circuit's own) over the reference routing's (3 per SWAP of
    the optimum); for a circuit that needs no SWAP, the overhead itself (in CZ)."""
    extra = row[who]["two_qubit"] - row["cz_unrouted"]
    return extra / (3 * row["swaps"]) if row["swaps"] else extra


def compilers(rows):
    """The compilers the rows have: qchess, O3, Sabre100, and qchess before when it ran."""
    return COMPILERS + ([BEFORE] if rows and all(BEFORE in r for r in rows) else [])


def summarize(rows):
    groups = {}
    for r in rows:
        if "swaps" in r:
            key = f"{r['device']} {r['set']} {'swaps' if r['swaps'] else r['family']}"
        else:
            key = f"{r['device']} standard"
        groups.setdefault(key, []).append(r)
    summary = {}
    for key, members in groups.items():
        s = {"circuits": len(members)}
        for who in compilers(members):
            s[who] = {"cz": sum(m[who]["two_qubit"] for m in members),
                      "seconds": sum(m[who]["seconds"] for m in members),
                      "esp_geomean": math.exp(statistics.fmean(math.log(max(m[who]["esp"], 1e-300)) for m in members))}
            if "swaps" in members[0]:
                s[who]["overhead_median"] = statistics.median(overhead_ratio(m, who) for m in members)
                s[who]["zero_swap"] = sum(1 for m in members if m[who]["two_qubit"] == m["cz_unrouted"])
        if "swaps" in members[0]:
            s["cz_unrouted"] = sum(m["cz_unrouted"] for m in members)
            s["optimal_swaps"] = sum(m["swaps"] for m in members)
        summary[key] = s
    return summary


def markdown(summary, rows, meta):
    whos = compilers(rows)
    names = " / ".join({"qchess": "qchess", "O3": "O3", "sabre100": "Sabre100", BEFORE: "before"}[w] for w in whos)
    lines = [f"qchess seed and Qiskit seed_transpiler {SEED}; Qiskit {meta['qiskit']}; "
             f"known-optimal seeds tuned {TUNED}, held out {HELD_OUT}.", "",
             f"| circuits | n | CZ unrouted | optimal SWAPs | CZ {names} | qchess / O3 | qchess / Sabre100 "
             f"| overhead / optimal, median: {names} | placed with no exchange: {names} "
             f"| ESP {names} | time {names} |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, s in summary.items():
        fig = [s[w] for w in whos]
        q, o3, sb = fig[:3]
        known = "overhead_median" in q
        med = " / ".join(f"{x['overhead_median']:.2f}" for x in fig) if known else "-"
        zero = " / ".join(str(x["zero_swap"]) for x in fig) if known else "-"
        lines.append(
            f"| {key} | {s['circuits']} | {s.get('cz_unrouted', '-')} | {s.get('optimal_swaps', '-')} "
            f"| {' / '.join(str(x['cz']) for x in fig)} | {q['cz'] / o3['cz']:.2f} | {q['cz'] / sb['cz']:.2f} "
            f"| {med} | {zero} | {' / '.join(_esp(x) for x in fig)} "
            f"| {' / '.join(_seconds(x) for x in fig)} s |")
    lines += ["", f"| circuit | device | qubits | CZ unrouted (standard: qchess / Qiskit O3 unconstrained) "
              f"| optimal SWAPs | CZ {names} | qchess exchanges | s " + names + " |",
              "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        unrouted = r.get("cz_unrouted", f"{r['qchess']['unrouted']} / {r.get('qiskit_unrouted')}")
        lines.append(f"| {r['name']} | {r['device']} | {r['qubits']} | {unrouted} | {r.get('swaps', '-')} "
                     f"| {' / '.join(str(r[w]['two_qubit']) for w in whos)} | {r['qchess']['exchanges']} "
                     f"| {' / '.join(_seconds(r[w]) for w in whos)} |")
    return "\n".join(lines) + "\n"


def _seconds(figures):
    return f"{figures['seconds']:.2f}"


def _esp(figures):
    return f"{figures['esp_geomean']:.3g}"


def standard_circuits(out, quick):
    """[(name, path)]: generic_circuits.py's and MQT Bench's (OpenQASM 2, measured at the end)."""
    written = generic_circuits.write(out, quick)
    try:
        from mqt.bench import BenchmarkLevel, get_benchmark
        from qiskit import qasm2, transpile
    except ImportError:
        print("mqt.bench is not installed: no MQT Bench circuits", flush=True)
        return written
    for kind, n in MQT[:2] if quick else MQT:
        circuit = get_benchmark(kind, BenchmarkLevel.ALG, n)
        circuit = transpile(circuit, basis_gates=generic_circuits.BASIS, optimization_level=0)
        path = out / f"mqt_{kind}_{n}.qasm"
        path.write_text(qasm2.dumps(circuit) + "\n")
        written.append((f"mqt_{kind}_{n}", path))
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--quick", action="store_true", help="one seed of each set, the smallest standard circuits")
    parser.add_argument("--devices", default="line16,grid6x6,ibm_fez,sycamore")
    parser.add_argument("--seeds-per-set", type=int, default=None,
                        help="only the first N seeds of the tuned and the held-out sets")
    parser.add_argument("--parts", default="known,standard")
    parser.add_argument("--qchess", type=Path, default=ROOT / "target" / "release" / "qchess")
    parser.add_argument("--qchess-before", type=Path, help="another qchess binary to run on the same circuits (before a change)")
    args = parser.parse_args()
    import qiskit

    devices, parts = args.devices.split(","), args.parts.split(",")
    out = args.out
    (out / "routed").mkdir(parents=True, exist_ok=True)
    props = out / "props_fez.json"
    props.write_text(physical.fez_props_path().read_text())
    setup = Setup(out, props)
    start = time.time()
    rows = []
    per_set = args.seeds_per_set or (1 if args.quick else None)
    sets = [("tuned", TUNED[:per_set]), ("held-out", HELD_OUT[:per_set])]
    for set_name, seeds in sets if "known" in parts else []:
        folder = out / "known" / set_name
        for e in known_optimal.write_suite(folder, seeds, props):
            if e["device"] not in devices:
                continue
            extra = {k: e[k] for k in ("family", "swaps", "cz_unrouted")}
            extra["set"] = set_name
            rows.append(bench(e["name"], e["device"], folder / f"{e['name']}.qasm", setup, args.qchess, extra,
                              args.qchess_before))
            print(f"  {set_name} {e['name']}: " + _brief(rows[-1]), flush=True)
    if "standard" in parts:
        for name, path in standard_circuits(out / "standard", args.quick):
            for dev in ("ibm_fez", "sycamore"):
                if dev in devices:
                    rows.append(bench(name, dev, path, setup, args.qchess, {}, args.qchess_before))
                    print(f"  {name} on {dev}: " + _brief(rows[-1]), flush=True)
    summary = summarize(rows)
    meta = {"qiskit": qiskit.__version__, "seconds": round(time.time() - start)}
    (out / "layout_bench.json").write_text(json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=1) + "\n")
    table = markdown(summary, rows, meta)
    (out / "layout_bench.md").write_text(table)
    print(table.split("\n\n| circuit")[0])
    failures = [f"{r['name']} on {r['device']} {w}: {p}" for r in rows for w in compilers(rows) for p in r[w]["unfit"]]
    if failures:
        print(f"layout_bench: {len(failures)} failure(s):\n  " + "\n  ".join(failures))
        sys.exit(1)
    print(f"layout_bench: OK, {len(rows)} circuits, {meta['seconds']} s; {out / 'layout_bench.md'}")


def _brief(row):
    extra = f" (unrouted {row['cz_unrouted']}, optimum {row['swaps']} SWAPs)" if "swaps" in row else ""
    whos = compilers([row])
    return "CZ " + " / ".join(f"{w} {row[w]['two_qubit']}" for w in whos) + extra + \
        ", s " + " / ".join(f"{row[w]['seconds']:.1f}" for w in whos)


if __name__ == "__main__":
    main()
