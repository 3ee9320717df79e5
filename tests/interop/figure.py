#!/usr/bin/env python3
"""The figure and tables of docs/hardware.md from hardware.py's results.json.

Left: per bundled game and square, the exact probability of the square being occupied, and the
raw and mitigated (postselect, symmetry, readout) estimates of the noisy device model, with the
program routed by Qiskit and by qchess. Right: the total variation distance to the exact board
against the number of CZ gates after routing, raw and mitigated, for the two depth series and
both routers. Prints the Markdown tables the page quotes.
Usage: figure.py RESULTS_JSON PNG
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RAW, FULL = "none", "postselect,symmetry,readout"
SHOWN = ["none", "postselect", "postselect,symmetry", FULL]


ROUTERS = {"qiskit": "Qiskit", "qchess": "qchess"}


def board_panel(ax, noisy):
    labels, bars = [], {"exact": []}
    for game, row in noisy.items():
        for sq, p in row["exact"].items():
            if 0 < p < 1 or any(row[r]["by"][RAW]["squares"].get(sq, 0) not in (0, 1) for r in ROUTERS):
                labels.append(f"{game}\n{sq}")
                bars["exact"].append(p)
                for r, name in ROUTERS.items():
                    for m, how in [(RAW, "raw"), (FULL, "mitigated")]:
                        bars.setdefault(f"{name} routing, {how}", []).append(row[r]["by"][m]["squares"].get(sq, 0.0))
    y = range(len(labels))
    height = 0.8 / len(bars)
    for k, (name, values) in enumerate(bars.items()):
        ax.barh([i + (k - (len(bars) - 1) / 2) * height for i in y], values, height=height, label=name)
    ax.set_yticks(list(y), labels, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("P(square occupied)")
    ax.set_title("Bundled games on the noisy FakeFez model")
    ax.legend(fontsize=7)


def depth_panel(ax, series):
    for name, rows in series.items():
        for r, router in ROUTERS.items():
            cz = [row[r]["cz"] for row in rows.values()]
            ax.plot(cz, [row[r]["by"][RAW]["tvd"] for row in rows.values()], "o-", label=f"{name}, {router} routing: raw")
            ax.plot(cz, [row[r]["by"][FULL]["tvd"] for row in rows.values()], "s--", label=f"{name}, {router} routing: mitigated")
    ax.set_xlabel("CZ gates after routing onto FakeFez")
    ax.set_ylabel("total variation distance to the exact board")
    ax.set_title("How deep before noise wins")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)


def table(rows, first):
    """One line per game: width, then per router (Qiskit / qchess) CZ, TVD per mitigation, kept
    fraction and the largest square error."""
    def pair(cell):
        return " / ".join(cell(r) for r in ROUTERS)

    head = (f"| {first} | qubits | CZ | " + " | ".join(f"TVD {m}" for m in SHOWN)
            + " | kept (all) | max square error |")
    lines = [f"Each cell: routed by {' / '.join(ROUTERS.values())}.", "", head, "|" + "---|" * (len(SHOWN) + 5)]
    for name, row in rows.items():
        def by(router, m):
            return row[router]["by"][m]

        cells = [name, str(row["qubits"]), pair(lambda r: str(row[r]["cz"]))]
        cells += [pair(lambda r, m=m: f"{by(r, m)['tvd']:.3f}") for m in SHOWN]
        cells.append(pair(lambda r: f"{by(r, FULL)['kept'] / row['shots']:.2f}"))
        cells.append(pair(lambda r: f"{by(r, RAW)['max_square_error']:.3f}") + " raw, "
                     + pair(lambda r: f"{by(r, FULL)['max_square_error']:.3f}") + " all")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    results = json.load(open(sys.argv[1]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 8))
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
