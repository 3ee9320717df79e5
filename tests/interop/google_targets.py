#!/usr/bin/env python3
"""Writes the device targets of Google's calibrated processors (backends/weber.toml,
backends/rainbow.toml: √iSWAP; backends/willow_pink.toml: CZ) from the calibrations cirq-google
ships, and checks them.

For each processor: its qubits are the grid qubits its calibration names, physical qubit k the
k-th in (row, column) order (the numbering qchess's reader of Google calibrations uses:
crates/qc-route/src/google.rs); its couplers are the pairs with an error of its two-qubit gate. The couplers are
checked equal to those of the processor's device specification in cirq-google
(`create_device_from_processor_id`). With --check, the files are compared with what would be
written instead (CI: the bundled targets stay what cirq-google says).

The calibration itself is not copied into the repository: pass it to qchess from cirq-google
(`--properties .../cirq_google/devices/calibrations/weber_2021_11_03_calibration.json`), or
write it out with --calibrations DIR.
Usage: google_targets.py [--check] [--calibrations DIR]
"""
import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SQRT_ISWAP = {"metric": "two_qubit_sqrt_iswap_gate_xeb_average_error_per_cycle", "gates": "the sqrt-iSWAP family (siswap, siswapdg)",
              "native": ["siswap", "siswapdg", "rx", "ry", "rz"], "two_qubit": "siswap", "short": "siswap, siswapdg, rx, ry, rz"}
CZ = {"metric": "two_qubit_parallel_cz_gate_xeb_pauli_error_per_cycle", "gates": "CZ",
      "native": ["cz", "rx", "ry", "rz"], "two_qubit": "cz", "short": "cz, rx, ry, rz"}
# name: (calibration file in cirq-google, what it is, its two-qubit gate family)
PROCESSORS = {
    "weber": ("weber_2021_11_03_calibration.json", "Google Weber, a Sycamore-class processor", SQRT_ISWAP),
    "rainbow": ("rainbow_2021_11_16_calibration.json", "Google Rainbow, a Sycamore-class processor", SQRT_ISWAP),
    "willow_pink": ("willow_pink_d7v1-2024_08_16_calibration.json", "Google's Willow processor willow_pink, a CZ device", CZ),
}


def calibration_path(file):
    import cirq_google.devices.calibrations as calibrations

    return Path(calibrations.__file__).parent / file


def grid_and_pairs(path, metric):
    """(sorted [(row, col)], sorted [(a, b)] of physical indices with an error of `metric`)."""
    metrics = json.loads(path.read_text())["metrics"]["metrics"]
    cell = lambda t: tuple(int(x) for x in t.split("_"))  # noqa: E731
    grid = sorted({cell(t) for m in metrics for t in m["targets"]})
    index = {rc: k for k, rc in enumerate(grid)}
    pairs = sorted({tuple(sorted(index[cell(t)] for t in m["targets"]))
                    for m in metrics if m["name"] == metric})
    return grid, pairs


def check_against_device(name, grid, pairs):
    """The couplers equal those of cirq-google's device specification of the processor."""
    import cirq
    from cirq_google.engine.virtual_engine_factory import create_device_from_processor_id

    device = create_device_from_processor_id(name)
    qubit = {k: cirq.GridQubit(*rc) for k, rc in enumerate(grid)}
    ours = {frozenset((qubit[a], qubit[b])) for a, b in pairs}
    theirs = {frozenset(p) for p in device.metadata.qubit_pairs}
    assert ours == theirs, f"{name}: the calibration's couplers differ from the device's ({len(ours)} vs {len(theirs)})"
    assert set(qubit.values()) == set(device.metadata.qubit_set), f"{name}: qubits differ"


def toml(name, file, what, family, grid, pairs):
    lines = [
        f"# {what}: {len(grid)} transmon qubits on a grid, {family['gates']}",
        "# and single-qubit rotations; mid-circuit measurement and reset, no feed-forward (as sycamore).",
        f"# Written by tests/interop/google_targets.py from cirq-google's calibration {file}:",
        f"# the qubits it names and the couplers it gives a two-qubit error (equal to the couplers of",
        f"# cirq-google's device specification of `{name}`). Pass that calibration with --properties",
        "# (qchess reads Google's format: docs/hardware.md). Physical qubit k is the k-th",
        "# GridQubit(row, col) in sorted order:",
    ]
    cells = [f"{k} = ({r}, {c})" for k, (r, c) in enumerate(grid)]
    for i in range(0, len(cells), 6):
        lines.append("#   " + ", ".join(cells[i:i + 6]))
    lines += [
        f'name = "{name}"',
        f'description = "{what.split(",")[0]} ({len(grid)} qubits, grid; {family["short"]}; '
        'mid-circuit measurement, no feed-forward; calibration from cirq-google)"',
        f"qubits = {len(grid)}",
        "feed_forward = false",
        "measure_reset = true",
        f"native = {json.dumps(family['native'])}",
        'single_qubit = "zyz"',
        f'two_qubit = "{family["two_qubit"]}"',
        "include_stdgates = true",
    ]
    if family["two_qubit"] == "siswap":
        lines += ["# siswap is not in stdgates.inc: inline its exact definition so simulators can run the text.",
                  "definitions = true"]
    lines += [
        "edges = [",
    ]
    for i in range(0, len(pairs), 10):
        lines.append("    " + " ".join(f"[{a}, {b}]," for a, b in pairs[i:i + 10]))
    lines.append("]")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare backends/NAME.toml instead of writing it")
    parser.add_argument("--calibrations", type=Path, help="also copy the calibrations into this folder")
    args = parser.parse_args()
    stale = []
    for name, (file, what, family) in PROCESSORS.items():
        path = calibration_path(file)
        grid, pairs = grid_and_pairs(path, family["metric"])
        check_against_device(name, grid, pairs)
        text = toml(name, file, what, family, grid, pairs)
        target = ROOT / "backends" / f"{name}.toml"
        if args.check:
            if not target.exists() or target.read_text() != text:
                stale.append(str(target))
        else:
            target.write_text(text)
        if args.calibrations:
            args.calibrations.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, args.calibrations / f"{name}_calibration.json")
        print(f"{name}: {len(grid)} qubits, {len(pairs)} couplers", flush=True)
    if stale:
        print("stale (run tests/interop/google_targets.py):", ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()
