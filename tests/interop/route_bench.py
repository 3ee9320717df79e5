#!/usr/bin/env python3
"""Device compilation side by side (issue 25): qchess's router against Qiskit's transpiler, in
one run, on the same device and calibration.

The device is ibm_fez as qiskit-ibm-runtime's FakeFez models it; its calibration snapshot
(`props_fez.json` from the installed package, IBM's BackendProperties JSON) is written to
OUT/props_fez.json and given to qchess with `--properties`; Qiskit gets the same calibration
through FakeFez's target, without the broken couplers (device.usable_target). The programs:

* games: the bundled games (circuits/*.qcg, circuits/tour/*.qcg, circuits/niels/*.qng; those
  without a two-qubit gate are left out) and RANDOM_GAMES seeded random games
  (`--random-plies RANDOM_PLIES --seed k`, k = 1, 2, ...);
* generic circuits (generic_circuits.py): QFT, ripple-carry adders, random CX layers, as
  OpenQASM 2 files.

Each game is compiled by qchess for the device (`--target ibm_fez --properties`, in both
forms), and its unrouted program (`--target ibm --form deferred`: native gates on logical qubits)
is given to Qiskit's `transpile` at optimization levels 3 and 1. A generic circuit goes to both
compilers as the same OpenQASM 2 file. For every program: CZ count, CZ depth, physical qubits,
ESP (the product of 1 - error over every gate and measurement, computed here from the same
calibration: physical.py, an independent check of the ESP qchess prints) and compile time (qchess:
the whole `qchess compile` process, playing the game included; Qiskit: the `transpile` call
alone). Every program of either compiler is checked for the device (natives, couplers, no broken
coupler). Then Sycamore: qchess's programs of the bundled games for `--target sycamore` (54
qubits, no calibration): qubits used and two-qubit gates.

Writes OUT/route_bench.json (every figure) and OUT/route_bench.md (the summary table of
docs/hardware.md and one row per program), prints the summary. Exits 1 when a program is unfit
for the device or the two ESPs disagree.
Usage: route_bench.py OUT_DIR [--quick] [--random-games N] [--plies-step K] [--figure PNG]
                      [--parts games,generic,plies,sycamore] [--qchess PATH]
"""
import argparse
import json
import math
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import device  # noqa: E402
import generic_circuits  # noqa: E402
import physical  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 7                # qchess --seed and Qiskit's seed_transpiler
RANDOM_GAMES = 40
RANDOM_PLIES = 30
QUICK_RANDOM_GAMES = 3
ESP_TOLERANCE = 1e-6    # relative: qchess's printed ESP against the one computed here
FORMS = ["deferred", "dynamic"]
LEVELS = [3, 1]
FULL_GAMES = ["full_game", "tour"]
PLY_GAMES = FULL_GAMES  # the figure: CZ and ESP of their first k plies
PARTS = ["games", "generic", "plies", "sycamore"]


class Qchess:
    """The `qchess` binary."""

    def __init__(self, exe):
        self.exe = str(exe)

    def run(self, *args):
        """Runs qchess; returns (stdout, stderr, seconds of the whole process)."""
        start = time.perf_counter()
        done = subprocess.run([self.exe, *map(str, args)], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(f"qchess {' '.join(map(str, args))}: exit {done.returncode}: {done.stderr.strip()}")
        return done.stdout, done.stderr, seconds


def device_summary(stderr):
    """The `device` object of qchess's `--json` summary (standard error): `esp`,
    `two_qubit_gates`, `physical_qubits`, `peak_live_qubits`, ...; {} when there is none."""
    for line in reversed(stderr.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line).get("device", {})
    return {}


def game_list(quick, random_games, qchess, folder):
    """[(name, group, qchess arguments)] of the games. A random game is played once with
    `qchess simulate --random-plies RANDOM_PLIES --seed k` and written out as a game file with
    every outcome in (compile's --seed is then the router's)."""
    games = []
    for path in sorted((ROOT / "circuits").glob("*.qcg")):
        games.append((path.stem, "bundled", [path]))
    if not quick:
        games += [(f"tour/{p.stem}", "tour", [p]) for p in sorted((ROOT / "circuits" / "tour").glob("*.qcg"))]
        games += [(f"niels/{p.stem}", "niels", [p, "--rules", "niels"])
                  for p in sorted((ROOT / "circuits" / "niels").glob("*.qng"))]
    for k in range(1, random_games + 1):
        played = json.loads(qchess.run("simulate", "--random-plies", RANDOM_PLIES, "--seed", k, "--json")[0])
        path = folder / f"random{k:02d}.qcg"
        path.write_text(played["game"] + "\n")
        games.append((f"random{k:02d}", "random", [path]))
    return games


def measure(circuit, dev, cal):
    """Figures of a device program and what makes it unfit (physical.check)."""
    row = physical.stats(circuit, cal)
    row["unfit"] = physical.check(circuit, dev, cal)
    return row


def qchess_device(qchess, command, args, out_path, props, target, form, dev, cal):
    """Compiles for the device with `qchess compile` (a game) or `qchess route` (a circuit); its
    figures, time and what its summary prints (ESP, program qubits live at once)."""
    from qiskit import qasm3

    options = ["--target", target, "--seed", SEED, "--json", "-o", out_path]
    if props is not None:
        options += ["--properties", props]
    if form is not None:
        options += ["--form", form]
    _, stderr, seconds = qchess.run(command, *args, *options)
    row = measure(qasm3.loads(out_path.read_text()), dev, cal)
    printed = device_summary(stderr)
    row.update(seconds=seconds, printed_esp=printed.get("esp"), peak_live_qubits=printed.get("peak_live_qubits"))
    return row


def qiskit_device(circuit, target, level, dev, cal):
    from qiskit import transpile

    start = time.perf_counter()
    isa = transpile(circuit, target=target, optimization_level=level, seed_transpiler=SEED)
    seconds = time.perf_counter() - start
    row = measure(isa, dev, cal)
    row["seconds"] = seconds
    return row


def unrouted(qchess, args, path):
    """Writes the unrouted program of a game (`--target ibm --form deferred`: IBM's native
    gates on the program's own qubits) to `path`; its two-qubit gate count."""
    _, stderr, _ = qchess.run("compile", *args, "--target", "ibm", "--form", "deferred", "--seed", SEED, "--json", "-o", path)
    return json.loads(stderr.strip().splitlines()[-1])["two_qubit_gates"]


def bench_program(name, group, qchess_args, unrouted_path, unrouted_cz, load, ctx, forms=FORMS, levels=LEVELS):
    """One program through both compilers (qchess in `forms`, Qiskit at `levels`); its row.
    A game goes to `qchess compile`, a generic circuit (group `generic`) to `qchess route`."""
    row = {"name": name, "group": group, "qchess": {}, "qiskit": {}}
    circuit = load(unrouted_path)
    row["logical_qubits"] = circuit.num_qubits
    row["unrouted_cz"] = unrouted_cz
    generic = group == "generic"
    for form in [None] if generic else forms:
        path = ctx["out"] / "fez" / f"{name.replace('/', '_')}.{form or 'program'}.qasm"
        row["qchess"][form or "deferred"] = qchess_device(
            ctx["qchess"], "route" if generic else "compile", qchess_args, path, ctx["props"], "ibm_fez", form,
            ctx["fez"], ctx["cal"])
    for level in levels:
        row["qiskit"][f"O{level}"] = qiskit_device(circuit, ctx["target"], level, ctx["fez"], ctx["cal"])
    return row


def ply_series(ctx, game, step):
    """The first k plies of `game` for k = step, 2 step, ..., all: qchess (deferred) against
    Qiskit O3, one row per distinct program with a two-qubit gate."""
    from qiskit import qasm3

    moves = [m["move"] for m in json.loads(ctx["qchess"].run("simulate", game, "--json")[0])["moves"]]
    rows, seen = [], set()
    for k in sorted(set(range(step, len(moves), step)) | {len(moves)}):
        args = ["--moves", " ".join(moves[:k])]
        name = f"{game.stem}@{k}"
        path = ctx["out"] / "plies" / f"{name}.ibm.qasm"
        cz = unrouted(ctx["qchess"], args, path)
        body = [line for line in path.read_text().splitlines() if not line.startswith("//")]
        if cz == 0 or str(body) in seen:
            continue
        seen.add(str(body))
        row = bench_program(name, f"plies of {game.stem}", args, path, cz, lambda p: qasm3.loads(p.read_text()),
                            ctx, forms=["deferred"], levels=[3])
        row["plies"] = k
        rows.append(row)
        print(f"  {name}: {_brief(row)}", flush=True)
    return rows


def figure(series, png):
    """CZ count and ESP against plies: qchess and Qiskit O3 on the same prefixes of a game."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (cz_ax, esp_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
    for game, rows in series.items():
        plies = [r["plies"] for r in rows]
        colour = None
        for who, pick, style in [("qchess", lambda r: r["qchess"]["deferred"], "o-"),
                                 ("Qiskit O3", lambda r: r["qiskit"]["O3"], "s--")]:
            line, = cz_ax.plot(plies, [pick(r)["two_qubit"] for r in rows], style, label=f"{game}: {who}")
            colour = colour or line.get_color()
            esp_ax.semilogy(plies, [pick(r)["esp"] for r in rows], style, color=line.get_color(), label=f"{game}: {who}")
        cz_ax.plot(plies, [r["unrouted_cz"] for r in rows], ":", color=colour, label=f"{game}: unrouted")
    cz_ax.set_xlabel("plies")
    cz_ax.set_ylabel("CZ gates on ibm_fez")
    cz_ax.set_title("CZ count")
    esp_ax.set_xlabel("plies")
    esp_ax.set_ylabel("estimated success probability")
    esp_ax.set_title("ESP (FakeFez calibration)")
    for ax in (cz_ax, esp_ax):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def sycamore_rows(qchess, games, out):
    """qchess's programs of the bundled games on Sycamore (uniform errors): the physical qubits
    they touch and the program qubits live at once (what reuse brings the width down to)."""
    from qiskit import qasm3

    dev = physical.Device.load("sycamore")
    cal = physical.Calibration.uniform(dev.qubits)
    rows = []
    for name, group, args in games:
        if group != "bundled":
            continue
        path = out / "sycamore" / f"{name}.qasm"
        try:
            _, stderr, seconds = qchess.run("compile", *args, "--target", "sycamore", "--seed", SEED, "--json", "-o", path)
        except RuntimeError as exc:
            rows.append({"name": name, "error": str(exc)})
            continue
        circuit = qasm3.loads(path.read_text())
        row = measure(circuit, dev, cal)
        row.update(name=name, seconds=seconds, program_qubits=_program_qubits(path),
                   peak_live_qubits=device_summary(stderr).get("peak_live_qubits"))
        rows.append(row)
    return rows


def _program_qubits(path):
    """The program's own qubits (squares and ancillas): entries of the header's layout."""
    for line in path.read_text().splitlines():
        if line.startswith("// qchess-export "):
            return len(json.loads(line[len("// qchess-export "):]).get("layout", []))
    return None


def ratio(a, b):
    return a / b if b else math.nan


def summarize(rows):
    """Per group: totals and ratios qchess (deferred, dynamic) / Qiskit O3, O1."""
    groups = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    for row in rows:
        if row["name"] in FULL_GAMES:
            groups.setdefault(f"full games ({', '.join(FULL_GAMES)})", []).append(row)
    groups["all games"] = [r for r in rows if r["group"] != "generic"]
    summary = {}
    for group, members in groups.items():
        if not members:
            continue
        s = {"programs": len(members)}
        for key, pick in [("qchess deferred", lambda r: r["qchess"]["deferred"]),
                          ("qchess dynamic", lambda r: r["qchess"].get("dynamic")),
                          ("qiskit O3", lambda r: r["qiskit"]["O3"]),
                          ("qiskit O1", lambda r: r["qiskit"]["O1"])]:
            picked = [pick(r) for r in members]
            if any(p is None for p in picked):
                continue
            s[key] = {"cz": sum(p["two_qubit"] for p in picked),
                      "cz_depth": sum(p["two_qubit_depth"] for p in picked),
                      "seconds": sum(p["seconds"] for p in picked),
                      "esp_geomean": math.exp(statistics.fmean(math.log(max(p["esp"], 1e-300)) for p in picked)),
                      "physical_qubits_max": max(p["physical_qubits"] for p in picked)}
        if all(r["unrouted_cz"] is not None for r in members):
            s["unrouted_cz"] = sum(r["unrouted_cz"] for r in members)
        per = [ratio(r["qchess"]["deferred"]["two_qubit"], r["qiskit"]["O3"]["two_qubit"]) for r in members]
        per = [p for p in per if not math.isnan(p)]
        if per:
            s["cz_ratio_median"], s["cz_ratio_min"], s["cz_ratio_max"] = statistics.median(per), min(per), max(per)
        times = [ratio(r["qchess"]["deferred"]["seconds"], r["qiskit"]["O3"]["seconds"]) for r in members]
        s["time_ratio_median"] = statistics.median(times)
        summary[group] = s
    return summary


def markdown(summary, rows, sycamore, meta):
    lines = [f"Device {meta['device']} with its calibration snapshot of {meta['calibration_date']}; "
             f"qchess seed and Qiskit seed_transpiler {SEED}; Qiskit {meta['qiskit']}.", "",
             "| programs | n | CZ unrouted | CZ qchess (deferred / dynamic) | CZ Qiskit O3 / O1 | CZ qchess / O3 "
             "| CZ depth qchess / O3 | ESP qchess / O3 (geometric mean) | time qchess / O3 |",
             "|---|---|---|---|---|---|---|---|---|"]
    for group, s in summary.items():
        q, d, o3, o1 = (s.get(k) for k in ("qchess deferred", "qchess dynamic", "qiskit O3", "qiskit O1"))
        dyn = f" / {d['cz']}" if d else ""
        lines.append(
            f"| {group} | {s['programs']} | {s.get('unrouted_cz', '-')} | {q['cz']}{dyn} | {o3['cz']} / {o1['cz']} "
            f"| {ratio(q['cz'], o3['cz']):.2f} (median {s.get('cz_ratio_median', math.nan):.2f}) "
            f"| {ratio(q['cz_depth'], o3['cz_depth']):.2f} "
            f"| {q['esp_geomean']:.3g} / {o3['esp_geomean']:.3g} = {ratio(q['esp_geomean'], o3['esp_geomean']):.2f}x "
            f"| {q['seconds']:.1f} s / {o3['seconds']:.1f} s = {ratio(q['seconds'], o3['seconds']):.2f} "
            f"(median {s['time_ratio_median']:.2f}) |")
    lines += ["", "| program | qubits | CZ unrouted | qchess deferred: CZ / depth / phys. qubits / ESP / s "
              "| qchess dynamic: CZ / depth / ESP | Qiskit O3: CZ / depth / phys. qubits / ESP / s | Qiskit O1: CZ / ESP |",
              "|---|---|---|---|---|---|---|"]
    for r in rows:
        q, d, o3, o1 = r["qchess"]["deferred"], r["qchess"].get("dynamic"), r["qiskit"]["O3"], r["qiskit"]["O1"]
        dyn = f"{d['two_qubit']} / {d['two_qubit_depth']} / {d['esp']:.3g}" if d else "-"
        lines.append(
            f"| {r['name']} | {r['logical_qubits']} | {r['unrouted_cz'] if r['unrouted_cz'] is not None else '-'} "
            f"| {q['two_qubit']} / {q['two_qubit_depth']} / {q['physical_qubits']} / {q['esp']:.3g} / {q['seconds']:.2f} "
            f"| {dyn} | {o3['two_qubit']} / {o3['two_qubit_depth']} / {o3['physical_qubits']} / {o3['esp']:.3g} / {o3['seconds']:.2f} "
            f"| {o1['two_qubit']} / {o1['esp']:.3g} |")
    if sycamore:
        lines += ["", "Sycamore (54 qubits, no calibration):", "",
                  "| game | program qubits | live at once | physical qubits | two-qubit gates | two-qubit depth | resets |",
                  "|---|---|---|---|---|---|---|"]
        for r in sycamore:
            if "error" in r:
                lines.append(f"| {r['name']} | {r['error']} | | | | | |")
            else:
                lines.append(f"| {r['name']} | {r['program_qubits']} | {r['peak_live_qubits']} | {r['physical_qubits']} "
                             f"| {r['two_qubit']} | {r['two_qubit_depth']} | {r['resets']} |")
    return "\n".join(lines) + "\n"


def ratio_failures(summary, bounds):
    """The groups whose qchess / Qiskit O3 CZ ratio exceeds its bound (`GROUP=R` each)."""
    failures = []
    for bound in bounds:
        group, _, limit = bound.rpartition("=")
        if group not in summary:
            failures.append(f"--max-cz-ratio {bound}: no group {group!r} (groups: {', '.join(summary)})")
            continue
        s = summary[group]
        got = ratio(s["qchess deferred"]["cz"], s["qiskit O3"]["cz"])
        if not got <= float(limit):
            failures.append(f"{group}: qchess needs {s['qchess deferred']['cz']} CZ, {got:.3f}x Qiskit O3's "
                            f"{s['qiskit O3']['cz']}, above the bound {limit}")
    return failures


def failures_of(rows, sycamore):
    failures = []
    for r in rows:
        for who, by in [("qchess", r["qchess"]), ("qiskit", r["qiskit"])]:
            for how, m in by.items():
                failures += [f"{r['name']} {who} {how}: {p}" for p in m["unfit"]]
        for form, m in r["qchess"].items():
            if m["printed_esp"] is None:
                failures.append(f"{r['name']} qchess {form}: the summary prints no ESP")
            elif abs(m["printed_esp"] - m["esp"]) > ESP_TOLERANCE * max(m["esp"], 1e-300) + 1e-12:
                failures.append(f"{r['name']} qchess {form}: printed ESP {m['printed_esp']:.6g}, computed {m['esp']:.6g}")
    for r in sycamore:
        if "error" in r:
            failures.append(f"{r['name']} on sycamore: {r['error']}")
        else:
            failures += [f"{r['name']} on sycamore: {p}" for p in r["unfit"]]
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--quick", action="store_true", help="the small bundled games, a few random games, the smallest generic circuits")
    parser.add_argument("--random-games", type=int, default=None)
    parser.add_argument("--plies-step", type=int, default=4)
    parser.add_argument("--figure", type=Path, help="draw CZ and ESP against plies into this PNG")
    parser.add_argument("--qchess", type=Path, default=ROOT / "target" / "release" / "qchess")
    parser.add_argument("--max-cz-ratio", action="append", default=[], metavar="GROUP=R",
                        help="fail when qchess's CZ total over GROUP (e.g. 'all games', generic) exceeds "
                             "R times Qiskit O3's: a guard against routing regressions (repeatable)")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"which parts to run, comma-separated (default all: {','.join(PARTS)})")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    if not parts <= set(PARTS):
        parser.error(f"--parts: unknown {', '.join(sorted(parts - set(PARTS)))}; the parts are {', '.join(PARTS)}")
    import qiskit
    from qiskit import qasm2, qasm3

    out = args.out
    for sub in ("games", "fez", "sycamore", "generic", "plies"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    props = out / "props_fez.json"
    shutil.copyfile(physical.fez_props_path(), props)
    backend = device.fake_device()
    ctx = {"out": out, "qchess": Qchess(args.qchess), "props": props, "fez": physical.Device.load("ibm_fez"),
           "cal": physical.Calibration.load(props), "target": device.usable_target(backend)}
    meta = {"device": "ibm_fez (FakeFez)", "calibration_date": json.loads(props.read_text())["last_update_date"],
            "qiskit": qiskit.__version__, "seed": SEED, "random_plies": RANDOM_PLIES, "quick": args.quick}
    random_games = args.random_games if args.random_games is not None else (QUICK_RANDOM_GAMES if args.quick else RANDOM_GAMES)
    start = time.time()
    rows = []
    games = game_list(args.quick, random_games, ctx["qchess"], out / "games") if parts & {"games", "sycamore"} else []
    for name, group, game_args in games if "games" in parts else []:
        path = out / "games" / f"{name.replace('/', '_')}.ibm.qasm"
        cz = unrouted(ctx["qchess"], game_args, path)
        if cz == 0:
            continue  # classical moves only: nothing to route
        rows.append(bench_program(name, group, game_args, path, cz, lambda p: qasm3.loads(p.read_text()), ctx))
        print(f"  {name}: {_brief(rows[-1])}", flush=True)
    for name, path in generic_circuits.write(out / "generic", args.quick) if "generic" in parts else []:
        rows.append(bench_program(name, "generic", [path], path, None, lambda p: qasm2.loads(p.read_text()), ctx))
        print(f"  {name}: {_brief(rows[-1])}", flush=True)
    series = {}
    for game in ([] if args.quick or "plies" not in parts else PLY_GAMES):
        series[game] = ply_series(ctx, ROOT / "circuits" / f"{game}.qcg", args.plies_step)
    sycamore = sycamore_rows(ctx["qchess"], games, out) if "sycamore" in parts else []
    summary = summarize(rows)
    meta["seconds"] = round(time.time() - start)
    (out / "route_bench.json").write_text(json.dumps({"meta": meta, "summary": summary, "programs": rows,
                                                      "plies": series, "sycamore": sycamore}, indent=1) + "\n")
    table = markdown(summary, rows, sycamore, meta)
    (out / "route_bench.md").write_text(table)
    print(table.split("\n\n| program")[0])
    if args.figure:
        figure(series, args.figure)
    failures = failures_of(rows + [r for rs in series.values() for r in rs], sycamore)
    failures += ratio_failures(summary, args.max_cz_ratio)
    if failures:
        print(f"route_bench: {len(failures)} failure(s):")
        print("\n".join("  " + f for f in failures))
        sys.exit(1)
    print(f"route_bench: OK, {len(rows)} programs, {meta['seconds']} s; {out / 'route_bench.md'}")


def _brief(row):
    q, o3 = row["qchess"]["deferred"], row["qiskit"]["O3"]
    return (f"CZ qchess {q['two_qubit']} / O3 {o3['two_qubit']} (unrouted {row['unrouted_cz']}), "
            f"ESP {q['esp']:.3g} / {o3['esp']:.3g}, {q['seconds']:.2f} s / {o3['seconds']:.2f} s")


if __name__ == "__main__":
    main()
