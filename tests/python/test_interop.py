"""Game.to_qiskit() run on Qiskit Aer against Game.probabilities(), Game.to_cirq() on Cirq's
simulator, and the ImportError that names the missing package."""

import sys

import pytest

import qchess

import qiskit  # tests/python/run.sh installs it
from qiskit_aer import AerSimulator  # noqa: E402

SHOTS = 20000


def captures_game():
    # A split knight captures (measured, outcome 1 forced), then the other knight splits again:
    # squares with 1, 1/2 and 1/4 ... probabilities, and a recorded outcome to post-select on.
    g = qchess.Game(seed=2)
    for mv in ["b1^a3c3", "b7b5", "a3xb5.m1", "a7a6", "g1^f3h3", "a6xb5"]:
        g.play(mv)
    return g


def interference_game():
    g = qchess.Game(fen="7k/8/8/8/8/8/8/K7 w - - 0 1")
    for mv in ["a1^a2b1", "h8g8", "a2^a1b2", "g8h8", "b1^a1b2"]:
        g.play(mv)
    return g


@pytest.mark.parametrize("make", [interference_game, captures_game])
def test_to_qiskit_on_aer_matches_probabilities(make):
    g = make()
    aer = AerSimulator(seed_simulator=11)
    circuit = qiskit.transpile(g.to_qiskit(), aer)
    result = aer.run(circuit, shots=SHOTS).result()
    aer_counts = result.get_counts()
    # Aer's shots read back through the program's board map (post-selected on the recorded
    # outcomes), against the game's exact probabilities.
    board = qchess.counts(g.compile(), aer_counts, mitigate="postselect")
    assert board.kept > SHOTS // 4
    estimated, stderr = board.probabilities(), board.stderr()
    exact = g.probabilities()
    for square in set(estimated) | set(exact):
        p = exact.get(square, 0.0)
        tolerance = 5 * max(stderr.get(square, 0.0), (p * (1 - p) / board.kept) ** 0.5) + 1e-9
        assert abs(estimated.get(square, 0.0) - p) <= tolerance, (square, estimated, exact)


def test_to_cirq_simulates_the_interference_example():
    import cirq

    g = interference_game()
    circuit = g.to_cirq(form="deferred")
    # The deferred program measures every qubit at the end; its exact distribution (qchess.run
    # on the same OpenQASM 2) against Cirq's samples.
    samples = cirq.Simulator(seed=3).run(circuit, repetitions=4000)
    keys = sorted(samples.measurements)
    assert keys, "the program measures something"
    # The king is on exactly one of a1, b1, b2 in every shot: three outcomes, the biggest a1's.
    rows = {tuple(int(samples.measurements[k][i][0]) for k in keys) for i in range(4000)}
    assert len(rows) == 3


def test_missing_package_gives_an_import_error_naming_it(monkeypatch):
    g = interference_game()
    monkeypatch.setitem(sys.modules, "qiskit", None)
    monkeypatch.setitem(sys.modules, "qiskit.qasm3", None)
    with pytest.raises(ImportError, match="pip install qiskit"):
        g.to_qiskit()
    monkeypatch.setitem(sys.modules, "cirq", None)
    monkeypatch.setitem(sys.modules, "cirq.contrib.qasm_import", None)
    with pytest.raises(ImportError, match="cirq-core"):
        g.to_cirq()


@pytest.mark.parametrize(
    "name",
    ["bell_psi_plus.qasm", "bell_psi_minus.qasm", "interference.qasm", "notation_example.qasm",
     "bell_feedforward.qc", "split_and_measure.qc"],
)
def test_program_to_qiskit_on_aer_matches_program_run(name):
    # Any circuit file (OpenQASM or qchess's IR, with mid-circuit measurements and conditions)
    # as a Qiskit circuit: Aer's samples against the program's exact distribution.
    import pathlib

    program = qchess.Program.load(pathlib.Path(__file__).resolve().parents[2] / "circuits" / name)
    circuit = program.to_qiskit()
    assert isinstance(circuit, qiskit.QuantumCircuit)
    assert circuit.num_qubits == program.num_qubits
    exact = program.run()
    aer = AerSimulator(seed_simulator=5)
    counts = aer.run(qiskit.transpile(circuit, aer), shots=SHOTS).result().get_counts()
    sampled = {}
    for key, n in counts.items():
        key = key.replace(" ", "")
        sampled[key] = sampled.get(key, 0) + n / SHOTS
    tvd = 0.5 * sum(abs(exact.get(k, 0.0) - sampled.get(k, 0.0)) for k in set(exact) | set(sampled))
    assert tvd < 0.03, (name, tvd, exact, sampled)
