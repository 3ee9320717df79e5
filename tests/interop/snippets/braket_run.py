"""Run a qchess program (`--target braket`) on Amazon Braket's local simulator and write its
counts (Braket's measurement_counts, c[0] leftmost) for `qchess counts --counts-format braket`.
Usage: python braket_run.py game.braket.qasm counts.json"""
import json
import sys

from braket.devices import LocalSimulator
from braket.ir.openqasm import Program

program = Program(source=open(sys.argv[1]).read())
result = LocalSimulator("braket_sv").run(program, shots=4000).result()
json.dump(dict(result.measurement_counts), open(sys.argv[2], "w"))
