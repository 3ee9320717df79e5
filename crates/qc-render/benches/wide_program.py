#!/usr/bin/env python3
"""Writes an OpenQASM 3 program of WIRES qubits and GATES long two-qubit gates to standard output:
gate k is `cx q[a], q[b]` between two qubits far apart (a in the first tenth of the register, b
in the last), chosen by a fixed linear congruential generator, so that every gate spans most of
the wires and no two share a column. What `docs/performance.md` ("Drawing a wide program") times
`qchess draw --circuit` on.

    python3 crates/qc-render/benches/wide_program.py 20000 3000 > wide.qasm
"""

import sys


def main() -> None:
    wires, gates = (int(a) for a in sys.argv[1:3])
    tenth = max(wires // 10, 1)
    seed = 1
    lines = ["OPENQASM 3.0;", 'include "stdgates.inc";', f"qubit[{wires}] q;"]
    for _ in range(gates):
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        a = (seed >> 33) % tenth
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        b = wires - 1 - (seed >> 33) % tenth
        lines.append(f"cx q[{a}], q[{b}];")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
