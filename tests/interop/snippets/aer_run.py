"""Run a qchess program on Qiskit Aer and write its counts (Qiskit's JSON) for `qchess counts`.
Usage: python aer_run.py game.qasm counts.json"""
import json
import sys

from qiskit import qasm3, transpile
from qiskit_aer import AerSimulator

circuit = qasm3.loads(open(sys.argv[1]).read())  # needs qiskit-qasm3-import
if circuit.num_qubits <= 24:
    # Shot branching splits the state at each mid-circuit measurement instead of simulating
    # every shot on its own (50 times faster on the dynamic programs of games).
    sim = AerSimulator(method="statevector", shot_branching_enable=True, seed_simulator=1)
else:
    # Wider programs: a matrix product state is cheap while few qubits are entangled at once.
    sim = AerSimulator(method="matrix_product_state", seed_simulator=1)
counts = sim.run(transpile(circuit, sim), shots=4000).result().get_counts()
json.dump(counts, open(sys.argv[2], "w"))  # keys: c[0] rightmost
