"""The Python package against independent truth: the paper's worked examples computed by hand,
the rules of captures with measurement, undo, both rulesets, the errors, and the state's
shape and norm. Run by tests/python/run.sh (which installs the package)."""

import math
import pathlib

import numpy as np
import pytest

import qchess

ROOT = pathlib.Path(__file__).resolve().parents[2]
S = 1 / math.sqrt(2)


def test_done_when_one_liner():
    g = qchess.Game()
    g.play("b1^a3c3")
    assert g.probabilities()["a3"] == pytest.approx(0.5, abs=1e-12)
    assert g.probabilities()["c3"] == pytest.approx(0.5, abs=1e-12)
    assert "b1" not in g.probabilities()


@pytest.mark.parametrize("backend", ["sparse", "dense", "reference"])
def test_interference_example_matches_the_hand_computed_amplitudes(backend):
    # Cantwell 2019, sec. 11.2 (circuits/interference.qcg): a lone king splits twice; the two
    # paths back to a1 interfere constructively, those to b2 destructively.
    g = qchess.Game(fen="7k/8/8/8/8/8/8/K7 w - - 0 1", backend=backend)
    for mv in ["a1^a2b1", "h8g8", "a2^a1b2", "g8h8", "b1^a1b2"]:
        g.play(mv)
    p = g.probabilities()
    assert p["a1"] == pytest.approx((0.5 + S / 2) ** 2, abs=1e-12)
    assert p["b1"] == pytest.approx(0.25, abs=1e-12)
    assert p["b2"] == pytest.approx((0.5 - S / 2) ** 2, abs=1e-12)
    assert "a2" not in p
    # The full-board distribution has one term per position of the white king.
    dist = g.board_distribution()
    assert dist["Ka1 kh8"] == pytest.approx(p["a1"], abs=1e-12)
    assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)


def test_a_capture_with_measurement_and_undo():
    # A knight split over a3/c3 captures on b5 from a3: the capture measures whether the knight
    # is on a3 (probability 1/2). Outcome 1: it was, and it takes the pawn; outcome 0: it was on
    # c3, and the pawn stays.
    g = qchess.Game(seed=7)
    g.play("b1^a3c3")
    g.play("b7b5")
    start = g.fen()
    taken = g.play("a3xb5", outcome=1)
    assert (taken.text, taken.measured, taken.outcome, taken.applied) == ("a3xb5.m1", True, 1, True)
    assert taken.variant == "capture"
    assert taken.outcome_probability == pytest.approx(0.5, abs=1e-12)
    p = g.probabilities()
    assert p["b5"] == 1.0 and g.pieces()["b5"] == "N"
    assert "a3" not in p and "c3" not in p
    assert g.side_to_move == "black"

    undone = g.undo()
    assert undone.text == "a3xb5.m1"
    assert g.fen() == start
    assert g.probabilities()["a3"] == pytest.approx(0.5)

    missed = g.play("a3xb5", outcome=0)
    assert (missed.outcome, missed.applied) == (0, False)
    assert missed.outcome_probability == pytest.approx(0.5, abs=1e-12)
    p = g.probabilities()
    assert p["c3"] == 1.0 and p["b5"] == 1.0 and g.pieces()["b5"] == "p"
    assert g.record().split() == ["1.", "b1^a3c3", "b7b5", "2.", "a3xb5.m0"]


def test_sampled_outcomes_follow_the_seed_and_replay():
    def play(seed):
        g = qchess.Game(seed=seed)
        for mv in ["b1^a3c3", "b7b5", "a3xb5"]:
            g.play(mv)
        return g

    outcomes = {play(seed).moves()[-1].outcome for seed in range(16)}
    assert outcomes == {0, 1}  # both happen (probability 2^-15 of failing by chance)
    g = play(5)
    again = qchess.Game()
    for m in g.moves():
        again.play(m.text)
    assert again.fen() == g.fen() and again.probabilities() == g.probabilities()


def test_the_state_as_numpy_arrays():
    g = qchess.Game(fen="7k/8/8/8/8/8/8/K7 w - - 0 1")
    for mv in ["a1^a2b1", "h8g8", "a2^a1b2"]:
        g.play(mv)
    basis, amplitudes = g.state()
    assert basis.dtype == np.uint8 and amplitudes.dtype == np.complex128
    assert basis.shape == (g.state_size(), len(g.qubits())) == (3, len(g.qubits()))
    assert amplitudes.shape == (3,)
    assert np.sum(np.abs(amplitudes) ** 2) == pytest.approx(1.0, abs=1e-12)
    names = g.qubits()
    # The probability of a square is the weight of the basis states where its qubit is 1.
    for square, p in g.probabilities().items():
        column = basis[:, names.index(square)]
        assert np.sum(np.abs(amplitudes[column == 1]) ** 2) == pytest.approx(p, abs=1e-12)
    # Each basis state holds exactly the two kings.
    squares = [i for i, n in enumerate(names) if len(n) == 2]
    assert set(basis[:, squares].sum(axis=1)) == {2}


def test_bell_pair_correlation():
    # Cantwell 2019, sec. 11.1, eqs. 45-46 (circuits/bell_psi_plus.qcg): (b1, a1) hold Psi+;
    # the paper's Bell operators give O1 = 1, O2 = 0, O3 = O4 = 1/2, O5..O8 = 0, and the two
    # squares are always opposite.
    g = qchess.Game(fen="7k/8/8/8/8/8/8/K7 w - - 0 1")
    for mv in ["a1^a2b1", "h8g8", "b1a1", "g8h8", "a2b1"]:
        g.play(mv)
    expectations, same, opposite = g.bell("b1", "a1")
    assert expectations == pytest.approx([1, 0, 0.5, 0.5, 0, 0, 0, 0], abs=1e-12)
    assert (same, opposite) == pytest.approx((0, 1), abs=1e-12)
    assert g.probabilities() == pytest.approx({"a1": 0.5, "b1": 0.5, "h8": 1.0})


def test_niels_chess():
    g = qchess.Game(rules="niels", seed=1)
    assert g.rules == "niels" and g.status == "ongoing" and g.side_to_move == "white"
    moves = g.legal_moves()
    assert "b1c3" in moves
    assert ("b1c3", "move") in g.legal_moves(kinds=True)
    split = next(m for m in moves if "^" in m and not m.endswith(":op"))
    played = g.play(split)
    assert played.kind == "superposition"
    p = g.probabilities()
    a, b = split[3:5], split[5:7]
    assert p[a] + p[b] == pytest.approx(1.0)
    assert g.board_distribution() is None and g.bell(a, b) is None
    basis, amplitudes = g.state()
    assert np.sum(np.abs(amplitudes) ** 2) == pytest.approx(1.0, abs=1e-12)
    g.undo()
    assert g.fen() == qchess.Game(rules="niels").fen()
    assert "<svg" in g._repr_svg_()


def test_errors_are_exceptions_with_the_cli_messages():
    g = qchess.Game()
    with pytest.raises(qchess.NotationError, match="bad QCAN move `zz`"):
        g.play("zz")
    with pytest.raises(qchess.IllegalMove, match="no piece on e4"):
        g.play("e4e5")
    with pytest.raises(qchess.IllegalMove, match="no move to undo"):
        g.undo()
    with pytest.raises(qchess.NotationError):
        qchess.Game(fen="not a fen")
    with pytest.raises(qchess.OptionError, match="unknown rules `chess`"):
        qchess.Game(rules="chess")
    with pytest.raises(qchess.OptionError, match="unknown backend"):
        qchess.Game(backend="gpu")
    with pytest.raises(qchess.OptionError, match="no rule options"):
        qchess.Game(variant="full")
    with pytest.raises(qchess.OptionError, match="unknown format"):
        g.compile(format="qasm4")
    with pytest.raises(qchess.NotationError, match="bad square `z9`"):
        g.bell("z9", "a1")
    # Issue 30, item 13: Bell values need two different squares.
    with pytest.raises(qchess.NotationError, match="`a1 a1` names one square twice"):
        g.bell("a1", "a1")
    with pytest.raises(TypeError):
        g.play("b1^a3c3", outcome=2)
    # Every error is a QchessError, and a refused move changes nothing.
    with pytest.raises(qchess.QchessError):
        g.play("a1a8")
    assert g.fen() == qchess.Game().fen() and g.moves() == []


def test_compile_and_run_agree_with_the_game():
    g = qchess.Game(fen="7k/8/8/8/8/8/8/K7 w - - 0 1")
    for mv in ["a1^a2b1", "h8g8", "a2^a1b2", "g8h8", "b1^a1b2"]:
        g.play(mv)
    program = g.compile(measure="squares")
    assert program.startswith("OPENQASM 3.0;")
    dist = qchess.run(program)
    assert sum(dist.values()) == pytest.approx(1.0)
    assert sorted(dist.values()) == pytest.approx(sorted([0.7285533905932737, 0.25, 0.0214466094067262]))
    assert "qreg" in g.compile(format="qasm2")
    # A bundled hardware target: the same distribution from its native gates.
    native = g.compile(measure="squares", target="ibm", form="deferred")
    assert '"target":"ibm"' in native
    assert sorted(qchess.run(native).values()) == pytest.approx(sorted(dist.values()))
    with pytest.raises(qchess.OptionError, match="nowhere"):
        g.compile(target="nowhere")
    with pytest.raises(qchess.ProgramError):
        qchess.run("OPENQASM 3.0; qubit q; frobnicate q;")


def test_compile_without_arguments_takes_the_command_lines_defaults():
    # The defaults come from one declaration (qc_front::COMPILE_DEFAULTS) that qchess compile
    # and the web API read too; the stub and docs/python.md name them.
    g = qchess.Game(fen="7k/8/8/8/8/8/8/K7 w - - 0 1", seed=3)
    for mv in ["a1^a2b1", "h8g8", "a2^a1b2"]:
        g.play(mv)
    explicit = g.compile(format="qasm3", form="dynamic", measure="board", dialect="portable",
                         width="compact", optimize=True)
    assert g.compile() == explicit
    assert g.compile(format=None, form=None, measure=None, dialect=None, width=None,
                     optimize=None) == explicit


def test_counts_reads_the_bundled_device_counts_like_the_cli():
    program = (ROOT / "circuits/interference.qasm").read_text()
    counts = (ROOT / "circuits/interference.counts.json").read_text()
    board = qchess.counts(program, counts, counts_format="qiskit", exact=True)
    assert board.shots == 1000
    exact = board.exact()
    assert exact["a1"] == pytest.approx((0.5 + S / 2) ** 2)
    for square, p in board.probabilities().items():
        assert abs(p - exact[square]) <= 4 * board.stderr()[square] + 1e-9
    # A dict (Qiskit's get_counts()) reads the same.
    import json

    as_dict = qchess.counts(program, json.loads(counts))
    assert as_dict.probabilities() == qchess.counts(program, counts, counts_format="qiskit").probabilities()
    with pytest.raises(qchess.CountsError):
        qchess.counts(program, {"0": 5})
    with pytest.raises(qchess.OptionError):
        qchess.counts(program, counts, mitigate="magic")


def test_moves_say_whether_they_are_quantum_and_how_their_outcome_is_written():
    g = qchess.Game(seed=7)
    split = g.play("b1^a3c3")
    assert (split.quantum, split.outcome_notation) == (True, None)
    pawn = g.play("b7b5")
    assert (pawn.quantum, pawn.outcome_notation) == (False, None)
    taken = g.play("a3xb5", outcome=0)
    assert (taken.quantum, taken.outcome_notation, taken.text) == (False, ".m0", "a3xb5.m0")
    with pytest.raises(TypeError, match="Quantum Chess writes 0 or 1"):
        g.play("e7e6", outcome="e6")
    # Niel's Chess: the rook's pair d4/e6 rolls once; the roll is written in brackets.
    n = qchess.Game(rules="niels", fen="7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6")
    with pytest.raises(TypeError, match="Niel's Chess writes a square or a list of squares"):
        n.play("f5e6", outcome=1)
    with pytest.raises(qchess.NotationError, match="`z9` is not a square"):
        n.play("f5e6", outcome="z9")
    rolled = n.play("f5e6", outcome=["e6"])
    assert (rolled.quantum, rolled.outcome_notation, rolled.text) == (False, "[e6]", "f5e6[e6]")


def test_counts_of_a_niels_program_say_there_is_no_board():
    # Niel's equal capture (circuits/niels/equal_capture.qng): the rook's pair d4/e6 rolls once.
    g = qchess.Game(rules="niels", fen="7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6")
    g.play("f5e6[e6]")
    program = g.compile()
    board = qchess.counts(program, {"00": 48, "01": 52}, exact=True)
    # Once an empty board (no kings) and TVD 0: the program measures only its dice roll.
    assert board.no_board is not None and "Niel's Chess" in board.no_board
    assert board.probabilities() == {} and "no board" in repr(board)
    assert (board.shots, board.kept, board.discarded) == (100, 52, {"postselect": 48})
    quantum = qchess.counts((ROOT / "circuits/interference.qasm").read_text(),
                            (ROOT / "circuits/interference.counts.json").read_text(), counts_format="qiskit")
    assert quantum.no_board is None


def test_optimize_false_skips_the_passes_of_run_and_compile():
    # h on 41 qubits, then h again on each: the passes cancel every pair (nothing else acts on
    # those qubits in between), so the program is the identity; as written, 41 qubits are in
    # superposition at once, which no state vector can hold.
    width = 41
    program = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[41] q;\nbit[1] c;\n"
    program += "".join(f"h q[{i}];\n" for i in range(width)) * 2
    program += "c[0] = measure q[0];\n"
    assert qchess.run(program, backend="dense") == {"0": 1.0}
    assert qchess.run(program, backend="dense", optimize=True) == {"0": 1.0}
    with pytest.raises(qchess.SimulationError):
        qchess.run(program, backend="dense", optimize=False)
    # compile: the Bell Psi- game (circuits/bell_psi_minus.qcg: a king hops a1 -> a2 -> a1,
    # two iSWAPs between X gates that the passes merge) exported as lowered writes more
    # two-qubit gate calls than after the passes, and both programs give the same distribution.
    g = qchess.Game(fen="7k/8/8/8/8/8/8/K7 w - - 0 1")
    for mv in ["a1^a2b1", "h8g8", "b1a1", "g8h8", "a2b1", "h8g8", "a1a2", "g8h8", "a2a1"]:
        g.play(mv)
    lowered = g.compile(measure="squares", target="ibm", optimize=False)
    optimized = g.compile(measure="squares", target="ibm")
    assert lowered != optimized

    def two_qubit_calls(program):
        return sum(1 for line in program.splitlines() if line.startswith(("cx ", "ecr ", "cz ")))

    assert two_qubit_calls(optimized) < two_qubit_calls(lowered)
    a, b = qchess.run(lowered, optimize=False), qchess.run(optimized, optimize=False)
    assert set(a) == set(b) and all(a[k] == pytest.approx(b[k]) for k in a)


def test_a_distribution_too_large_for_the_memory_limit_is_an_exception_not_an_abort():
    # Issue 30, item 5: 24 measured Hadamards (2^24 outcomes) under a 4 GiB address-space cap
    # once aborted the interpreter ("memory allocation failed"); the distribution now counts
    # against the memory limit beside the state and is refused up front. In a child process,
    # so that the cap does not bind this one; 20 qubits still give all 2^20 outcomes there.
    import subprocess
    import sys

    child = """
import resource, sys, qchess
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
def program(n):
    gates = "".join(f"h q[{k}];" for k in range(n))
    return f"OPENQASM 3.0; include \\"stdgates.inc\\"; qubit[{n}] q; bit[{n}] c; {gates} c = measure q;"
assert len(qchess.run(program(20))) == 1 << 20
try:
    qchess.run(program(24))
except qchess.SimulationError as e:
    print("refused:", e)
    sys.exit(0)
sys.exit("24 measured qubits were not refused")
"""
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "memory limit leaves room" in out.stdout


def test_type_stubs_are_installed_where_docs_python_md_says():
    # docs/python.md names the installed stub file: maturin installs crates/qc-py/python/qchess/
    # (qchess/__init__.pyi beside the py.typed marker).
    package = pathlib.Path(qchess.__file__).parent
    assert (package / "__init__.pyi").is_file()
    assert (package / "py.typed").is_file()
    docs = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
    assert "`qchess/__init__.pyi`" in docs.read_text()


def timed_fez_properties(path):
    """A calibration of ibm_fez with durations (BackendProperties JSON): every sx, x and cz
    with an error and a length, T1 = T2 = 100 us, readouts of 1.56 us."""
    import json
    import tomllib

    edges = tomllib.loads((ROOT / "backends/ibm_fez.toml").read_text())["edges"]
    timed = lambda gate, qubits, error, length: {  # noqa: E731
        "gate": gate, "qubits": qubits,
        "parameters": [{"name": "gate_error", "value": error, "unit": ""},
                       {"name": "gate_length", "value": length, "unit": "ns"}]}
    qubit = [{"name": "T1", "value": 100.0, "unit": "us"}, {"name": "T2", "value": 100.0, "unit": "us"},
             {"name": "readout_error", "value": 0.01, "unit": ""},
             {"name": "readout_length", "value": 1560.0, "unit": "ns"}]
    gates = [timed(g, [q], 2e-4, 36.0) for q in range(156) for g in ("sx", "x")]
    gates += [timed("cz", e, 3e-3, 68.0) for e in edges]
    path.write_text(json.dumps({"backend_name": "ibm_fez", "qubits": [qubit] * 156, "gates": gates}))
    return path


def test_compile_for_a_device_takes_the_calibration_seed_and_dynamical_decoupling(tmp_path):
    # As `qchess compile --target ibm_fez --properties P --seed S --dd D`: the calibration's
    # durations space XY4 pulses by delays in the idle windows of the dynamic program.
    props = timed_fez_properties(tmp_path / "props.json")
    g = qchess.Game.load(str(ROOT / "circuits/tour/29_en_passant_capture_measured.qcg"))
    plain = g.compile(target="ibm_fez", properties=str(props))
    with_dd = g.compile(target="ibm_fez", properties=str(props), dd="xy4")
    assert "delay[" not in plain
    assert "delay[" in with_dd and len(with_dd) > len(plain)
    assert g.compile(target="ibm_fez", properties=str(props), dd="none") == plain
    assert g.compile(target="ibm_fez", properties=str(props), seed=0) == plain
    assert g.compile(target="ibm_fez", seed=5) == g.compile(target="ibm_fez", seed=5)
    with pytest.raises(qchess.OptionError, match="unknown dynamical decoupling `xy8`"):
        g.compile(target="ibm_fez", properties=str(props), dd="xy8")
    with pytest.raises(qchess.ExportError, match="durations"):
        g.compile(target="ibm_fez", dd="xy4")
    with pytest.raises(OSError, match="cannot read"):
        g.compile(target="ibm_fez", properties=str(tmp_path / "missing.json"))
