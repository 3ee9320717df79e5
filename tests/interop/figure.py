#!/usr/bin/env python3
"""The figure and tables of docs/hardware.md from hardware.py's results.json.

Left: per bundled game and square, the exact probability of the square being occupied, the raw
estimate of the noisy device model and the mitigated one (postselect, symmetry, readout). Right:
the total variation distance to the exact board against the number of CZ gates after routing,
raw and mitigated, for the two depth series. Prints the Markdown tables the page quotes.
Usage: figure.py RESULTS_JSON PNG
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RAW, FULL = "none", "postselect,symmetry,readout"
SHOWN = ["none", "postselect", "postselect,symmetry", FULL]


def board_panel(ax, noisy):
    labels, exact, raw, mitigated = [], [], [], []
    for game, row in noisy.items():
        for sq, p in row["exact"].items():
            if 0 < p < 1 or row["by"][RAW]["squares"].get(sq, 0) not in (0, 1):
                labels.append(f"{game}\n{sq}")
                exact.append(p)
                raw.append(row["by"][RAW]["squares"].get(sq, 0.0))
                mitigated.append(row["by"][FULL]["squares"].get(sq, 0.0))
    y = range(len(labels))
    for k, (values, name) in enumerate([(exact, "exact"), (raw, "raw"), (mitigated, "mitigated")]):
        ax.barh([i + (k - 1) * 0.27 for i in y], values, height=0.27, label=name)
    ax.set_yticks(list(y), labels, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("P(square occupied)")
    ax.set_title("Bundled games on the noisy FakeFez model")
    ax.legend(fontsize=7)


def depth_panel(ax, series):
    for name, rows in series.items():
        cz = [r["cz"] for r in rows.values()]
        ax.plot(cz, [r["by"][RAW]["tvd"] for r in rows.values()], "o-", label=f"{name}: raw")
        ax.plot(cz, [r["by"][FULL]["tvd"] for r in rows.values()], "s--", label=f"{name}: mitigated")
    ax.set_xlabel("CZ gates after routing onto FakeFez")
    ax.set_ylabel("total variation distance to the exact board")
    ax.set_title("How deep before noise wins")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)


def table(rows, first):
    head = f"| {first} | qubits | CZ | " + " | ".join(f"TVD {m}" for m in SHOWN) + " | kept (all) | max square error raw / all |"
    lines = [head, "|" + "---|" * (len(SHOWN) + 5)]
    for name, r in rows.items():
        by = r["by"]
        lines.append(f"| {name} | {r['qubits']} | {r['cz']} | " + " | ".join(f"{by[m]['tvd']:.3f}" for m in SHOWN)
                     + f" | {by[FULL]['kept'] / r['shots']:.2f} | {by[RAW]['max_square_error']:.3f} / {by[FULL]['max_square_error']:.3f} |")
    return "\n".join(lines)


def main():
    results = json.load(open(sys.argv[1]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 6.5))
    board_panel(left, results["noisy"])
    depth_panel(right, {"wandering king": results["wandering_king"], "full_game prefixes": results["full_game"]})
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print(f"{results['device']}, Aer {results['qiskit_aer']}, Qiskit {results['qiskit']}, seed {results['seed']}, "
          f"transpiler seed {results['transpile_seed']}, {results['seconds']} s")
    for key, first in [("noisy", "game"), ("full_game", "full_game plies"), ("wandering_king", "wandering king plies")]:
        print("\n" + table(results[key], first))


if __name__ == "__main__":
    main()
