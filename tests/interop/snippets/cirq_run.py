"""Run a qchess OpenQASM 2 program (`--target google --format qasm2`) on Cirq's simulator and
write its counts as CSV (`bits,count`, c[0] rightmost) for `qchess counts --counts-format csv`.
Usage: python cirq_run.py game.qasm2 counts.csv"""
import collections
import sys

import cirq
from cirq.contrib.qasm_import import circuit_from_qasm  # needs ply

circuit = circuit_from_qasm(open(sys.argv[1]).read())
result = cirq.Simulator(seed=1).run(circuit, repetitions=4000)
# OpenQASM 2 gives every bit its own register cK; Cirq calls its measurement key "cK_0".
keys = sorted(result.measurements, key=lambda k: int(k[1:].split("_")[0]))
counts = collections.Counter(
    "".join(str(int(result.measurements[k][shot, 0])) for k in reversed(keys))
    for shot in range(4000)
)
with open(sys.argv[2], "w") as out:
    out.write("bits,count\n")
    out.writelines(f"{bits},{n}\n" for bits, n in sorted(counts.items()))
