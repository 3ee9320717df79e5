#!/usr/bin/env python3
"""qchess's device programs run as written (issue 25): every bundled game (circuits/*.qcg,
circuits/tour/*.qcg, circuits/niels/*.qng) compiled for every device target (`ibm_fez` with
FakeFez's calibration, in both forms, `sycamore` and Google's `weber` and `willow_pink`, and in the dynamic form
the ion trap `quantinuum_h2` and IBM's Eagle `ibm_brisbane` with FakeBrisbane's calibration,
its ECR couplers driven one way), then

1. `qiskit.qasm3.loads` reads the program (qubit index k is `$k`) and physical.check finds every
   gate native, every two-qubit gate on a coupler of the device and none on a broken coupler or
   qubit of the calibration, and the header's layout and board map name the physical qubits the
   program's measurements read;
2. Aer runs it without transpiling: the idle physical qubits are dropped (the others keep their
   order) and gates the program defines itself (Sycamore's sqrt-iSWAP) are replaced by their
   definitions; a state vector up to STATEVECTOR_MAX qubits (shot branching for mid-circuit
   measurements), a matrix product state beyond;
3. `qchess counts` reads Aer's counts back into a board: the fraction of shots post-selection
   keeps lies within 5 sigma of the game's keep probability, every square within 5 sigma (plus
   one count) of `qchess simulate`, and the total variation distance of the kept boards to the
   exact board (`--exact`, through the unrouted program: hardware.unrouted_twin) within its
   sampling spread (tvd_bound);
4. on the calibrated IBM devices, the ESP the compile summary prints equals the one physical.stats computes from
   the same calibration.

Writes OUT/results.json; exits 1 on any failure.
Usage: routed.py OUT_DIR [--quick | --ci] [--shots N] [--only GAME...]
"""
import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import physical  # noqa: E402
from hardware import board, compare_board, header, qchess, unrouted_twin, write_counts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEED = 1234
SHOTS = 4000
STATEVECTOR_MAX = 24
TVD_SIGMAS = 5.0
ESP_TOLERANCE = 1e-9  # relative: the ESP qchess prints against physical.stats' of the same calibration
# With --ci, a program wider than STATEVECTOR_MAX physical qubits is checked (step 1 and 4) but
# run on Aer only when listed here (the matrix product state takes 1-5 minutes for each of the
# others on 2 cores): the full game as the done-when names it.
CI_WIDE_RUNS = {("full_game", "ibm_fez", "dynamic")}
# The IBM devices compiled with their fake backend's calibration: the file in OUT.
CALIBRATED = {"ibm_fez": "props_fez.json", "ibm_brisbane": "props_brisbane.json"}
QUICK_GAMES = ["bell_psi_minus", "interference", "notation_example", "tour/11_split_jump", "niels/entangled_group"]


def games(quick):
    """[(name, qchess arguments)] of the bundled games."""
    found = [(p.stem, [p]) for p in sorted((ROOT / "circuits").glob("*.qcg"))]
    found += [(f"tour/{p.stem}", [p]) for p in sorted((ROOT / "circuits" / "tour").glob("*.qcg"))]
    found += [(f"niels/{p.stem}", [p, "--rules", "niels"]) for p in sorted((ROOT / "circuits" / "niels").glob("*.qng"))]
    return [g for g in found if g[0] in QUICK_GAMES] if quick else found


def aer_ready(circuit):
    """The program on its used physical qubits only (in increasing order), with gates Aer does
    not know replaced by their definitions. Returns (circuit, used physical qubits)."""
    from qiskit import QuantumCircuit, QuantumRegister
    from qiskit_aer import AerSimulator

    used = sorted({q for _, qubits, _, _ in physical.operations(circuit) for q in qubits})
    position = {p: k for k, p in enumerate(used)}
    compact = QuantumCircuit(QuantumRegister(len(used), "q"), *circuit.cregs)
    loose = [b for b in circuit.clbits if not circuit.find_bit(b).registers]
    if loose:
        compact.add_bits(loose)
    for instr in circuit.data:
        qubits = [compact.qubits[position[circuit.find_bit(q).index]] for q in instr.qubits]
        compact.append(instr.operation, qubits, instr.clbits)
    known = set(AerSimulator().target.operation_names)
    for _ in range(4):  # a definition may use other defined gates
        unknown = {i.operation.name for i in compact.data} - known
        if not unknown:
            break
        compact = compact.decompose(gates_to_decompose=sorted(unknown))
    return compact, used


def run_on_aer(circuit, shots):
    from qiskit_aer import AerSimulator

    if circuit.num_qubits <= STATEVECTOR_MAX:
        # Shot branching splits the state at a mid-circuit measurement instead of running every
        # shot on its own.
        sim = AerSimulator(method="statevector", shot_branching_enable=True, seed_simulator=SEED)
    else:
        sim = AerSimulator(method="matrix_product_state", seed_simulator=SEED)
    return sim.run(circuit, shots=shots).result().get_counts()


def kept_outcomes(counts, postselect):
    """Distinct bit strings among the shots post-selection keeps (`postselect` in Qiskit's order:
    a 0 or 1 is a recorded outcome, x any)."""
    return {key for key in counts
            if all(want in "x" or got == want for got, want in zip(key.replace(" ", ""), postselect))}


def tvd_bound(kept, outcomes):
    """A bound on the TVD of `kept` shots' empirical distribution over `outcomes` boards to the
    true one: its mean is at most sqrt(outcomes / kept) / 2 (Jensen: E|p' - p| <= sd), and one
    shot moves it by at most 1 / kept, so it exceeds the mean by TVD_SIGMAS / (2 sqrt(kept)) with
    probability at most exp(-TVD_SIGMAS^2 / 2) (McDiarmid), 4e-6 for 5."""
    kept = max(kept, 1)
    return 0.5 * math.sqrt(max(outcomes, 1) / kept) + TVD_SIGMAS / (2 * math.sqrt(kept))


def layout_problems(circuit, head):
    """Where the header's layout and board map disagree with the program's own measurements:
    every (bit, physical qubit) the layout lists is a `measure` of that qubit into that bit, and
    every square of the map names the physical qubit that measures its bit last."""
    measures, last = set(), {}
    for bit, qubit in _measures(circuit):
        measures.add((bit, qubit))
        last[bit] = qubit
    problems = []
    layout = head.get("layout")
    if layout is None:
        return ["the header has no layout"]
    for entry in layout:
        for m in entry.get("measured", []):
            if (m["bit"], m["physical"]) not in measures:
                problems.append(f"layout: {entry['name']} measured into c[{m['bit']}] on ${m['physical']}, "
                                "but the program has no such measurement")
    for kind, entries in head["map"].items():
        for m in entries if isinstance(entries, list) else []:
            if "bit" in m and "qubit" in m and last.get(m["bit"]) != m["qubit"]:
                problems.append(f"map ({kind}): c[{m['bit']}] read from ${m['qubit']}, "
                                f"the program measures ${last.get(m['bit'])}")
    return problems


def _measures(circuit):
    """(bit, physical qubit) of every measurement, in program order, `if` blocks included."""
    for instr in circuit.data:
        if instr.operation.name == "measure":
            yield circuit.find_bit(instr.clbits[0]).index, circuit.find_bit(instr.qubits[0]).index
        for block in getattr(instr.operation, "blocks", ()):
            outer = [circuit.find_bit(q).index for q in instr.qubits]
            outer_bits = [circuit.find_bit(c).index for c in instr.clbits]
            for inner in block.data:
                if inner.operation.name == "measure":
                    yield (outer_bits[block.find_bit(inner.clbits[0]).index],
                           outer[block.find_bit(inner.qubits[0]).index])


def keep_probability(summary):
    """The probability that post-selection keeps a shot, from `compile --json`'s summary (1
    without recorded outcomes)."""
    return float(json.loads(summary.strip().splitlines()[-1]).get("keep_probability", 1.0))


def check_program(name, args, target, form, out, cal, dev, exact, shots, ci):
    """Compiles, checks and runs one device program (with `ci`, a wide one only when in
    CI_WIDE_RUNS); returns (report row, failures)."""
    path = out / f"{name.replace('/', '_')}.{target}.{form or 'default'}.qasm"
    options = ["--target", target, "--json", "-o", path] + (["--form", form] if form else [])
    if target in CALIBRATED:
        options += ["--properties", out / CALIBRATED[target]]
    start = time.time()
    _, summary = qchess("compile", *args, *options)
    run = not ci or (name, target, form) in CI_WIDE_RUNS
    row, failures = check_written(name, args, target, form, path, summary, cal, dev, exact, shots, run)
    row["seconds"] = round(time.time() - start, 2)
    return row, failures


def check_written(name, args, target, form, path, summary, cal, dev, exact, shots, run_wide=True):
    """Steps 1-4 on the device program at `path` that `qchess compile ARGS` wrote with
    `summary` (its --json summary); a program wider than STATEVECTOR_MAX qubits runs on Aer only
    with `run_wide`. Returns (report row, failures)."""
    from qiskit import qasm3

    label = f"{name} on {target}" + (f" ({form})" if form else "")
    circuit = qasm3.loads(path.read_text())
    failures = [f"{label}: {p}" for p in physical.check(circuit, dev, cal)]
    failures += [f"{label}: {p}" for p in layout_problems(circuit, header(path.read_text()))]
    row = physical.stats(circuit, cal)
    printed = json.loads(summary.strip().splitlines()[-1]).get("device", {}).get("esp")
    if target in CALIBRATED and (printed is None or abs(printed - row["esp"]) > ESP_TOLERANCE * row["esp"]):
        failures.append(f"{label}: qchess prints ESP {printed}, the calibration gives {row['esp']:.9g}")
    if failures or row["two_qubit"] == 0 and row["measurements"] == 0:
        return row, failures
    runnable, used = aer_ready(circuit)
    if len(used) > STATEVECTOR_MAX and not run_wide:
        row.update(simulated_qubits=None)
        print(f"  {label}: {len(used)} qubits, {row['two_qubit']} two-qubit gates: checked, not run (--ci)", flush=True)
        return row, failures
    keep = keep_probability(summary)
    counts = run_on_aer(runnable, shots)
    counts_path = write_counts(path.with_suffix(".counts.json"), counts)
    est = board(path, counts_path, "qiskit")
    # The exact board through the unrouted program of the same game and form, in the game's own
    # gates (hardware.py's unrouted_twin: simulating native gates exactly can cost far more); the
    # counts are read through both headers, which must agree.
    logical = path.with_suffix(".logical.qasm")
    qchess("compile", *args, "--form", form or "deferred", "-o", logical)
    problem = unrouted_twin(path, logical)
    if problem:
        failures.append(f"{label}: {problem}")
        return row, failures
    exact_est = board(logical, counts_path, "qiskit", "--exact")
    if exact_est["squares"] != est["squares"] or exact_est["kept"] != est["kept"]:
        failures.append(f"{label}: the counts read through the device header and the unrouted one differ")
    est["tvd"] = exact_est["tvd"]
    # The squares the program measures or fixes (a Niel's game's board is classical: none).
    shown = set(exact_est["exact"]) | set(est["squares"])
    failures += compare_board(label, {sq: v for sq, v in exact.items() if sq in shown}, est)
    # The keep probability is post-selection's alone (the recorded outcomes); a noiseless run
    # has no ancilla error to discard.
    ancilla = est["discarded"].get("ancilla", 0)
    if ancilla:
        failures.append(f"{label}: {ancilla} shots discarded for an ancilla not back in |0> (noiseless)")
    passed = est["kept"] + ancilla
    expected, sigma = shots * keep, math.sqrt(shots * keep * (1 - keep))
    if abs(passed - expected) > 5 * sigma + 1:
        failures.append(f"{label}: post-selection kept {passed} of {shots} shots, expected {expected:.0f} (keep probability {keep})")
    bound = tvd_bound(est["kept"], len(kept_outcomes(counts, header(path.read_text())["postselect"])))
    if est["tvd"] > bound:
        failures.append(f"{label}: TVD {est['tvd']:.4f} to the exact board, above {bound:.4f}")
    row.update(simulated_qubits=len(used), kept=est["kept"], ancilla_discarded=ancilla, shots=shots, tvd=est["tvd"],
               tvd_bound=bound)
    print(f"  {label}: {len(used)} qubits, {row['two_qubit']} two-qubit gates, kept {est['kept']}/{shots}, "
          f"TVD {est['tvd']:.4f} (bound {bound:.4f})", flush=True)
    return row, failures


def main():
    import shutil

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK_GAMES)}")
    parser.add_argument("--ci", action="store_true",
                        help="run programs wider than STATEVECTOR_MAX qubits on Aer only where CI_WIDE_RUNS lists them")
    parser.add_argument("--shots", type=int, default=SHOTS)
    parser.add_argument("--only", nargs="+", metavar="GAME", help="only these games (names as printed)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(physical.fez_props_path(), args.out / "props_fez.json")
    shutil.copyfile(physical.fez_props_path().parent.parent / "brisbane" / "props_brisbane.json",
                    args.out / "props_brisbane.json")
    start = time.time()
    failures = []
    fez, syc = physical.Device.load("ibm_fez"), physical.Device.load("sycamore")
    ions, weber = physical.Device.load("quantinuum_h2"), physical.Device.load("weber")
    cal = physical.Calibration.load(args.out / "props_fez.json")
    brisbane, willow = physical.Device.load("ibm_brisbane"), physical.Device.load("willow_pink")
    targets = [("ibm_fez", "dynamic", fez, cal), ("ibm_fez", "deferred", fez, cal),
               ("sycamore", None, syc, physical.Calibration.uniform(syc.qubits)),
               ("quantinuum_h2", "dynamic", ions, physical.Calibration.uniform(ions.qubits)),
               ("weber", None, weber, physical.Calibration.uniform(weber.qubits)),
               ("ibm_brisbane", "dynamic", brisbane, physical.Calibration.load(args.out / "props_brisbane.json")),
               ("willow_pink", None, willow, physical.Calibration.uniform(willow.qubits))]
    report = {}
    for name, game_args in games(args.quick):
        if args.only and name not in args.only:
            continue
        exact = json.loads(qchess("simulate", *game_args, "--json")[0])["squares"]
        for target, form, dev, calibration in targets:
            try:
                row, found = check_program(name, game_args, target, form, args.out, calibration, dev, exact, args.shots,
                                           args.ci)
            except Exception as exc:  # a program a tool cannot read or run is a failure of the compiler
                row, found = {"error": str(exc)}, [f"{name} on {target} ({form}): {type(exc).__name__}: {exc}"]
            report[f"{name} {target} {form or ''}".strip()] = row
            failures += found
    (args.out / "results.json").write_text(json.dumps(report, indent=1) + "\n")
    if failures:
        print(f"routed: {len(failures)} failure(s):")
        print("\n".join("  " + f for f in failures))
        sys.exit(1)
    print(f"routed: OK, {len(report)} device programs, {round(time.time() - start)} s")


if __name__ == "__main__":
    main()
