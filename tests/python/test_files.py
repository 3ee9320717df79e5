"""Game files, circuit pictures and programs from Python (issue 29): ``Game.load``/``save`` for
both rulesets, a game's circuit drawn as ``qchess draw`` draws it, and ``qchess.Program`` read
from every format ``qchess run`` reads. Checked against hand-computed truth and against the
command line (``QCHESS_BIN``, default target/release/qchess; tests/python/run.sh builds it)."""

import json
import math
import os
import pathlib
import random
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

import qchess

ROOT = pathlib.Path(__file__).resolve().parents[2]
S = 1 / math.sqrt(2)
INTERFERENCE = [(0.5 + S / 2) ** 2, 0.25, (0.5 - S / 2) ** 2]
NIELS_GAMES = sorted((ROOT / "circuits/niels").glob("*.qng"))


@pytest.fixture(scope="module")
def cli():
    binary = pathlib.Path(os.environ.get("QCHESS_BIN", ROOT / "target/release/qchess"))
    if not binary.exists():
        pytest.fail(f"{binary} is missing: cargo build --release -p qc-cli (or set QCHESS_BIN)")

    def run(*args):
        out = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        return out.stdout

    return run


def play_random(game, plies, seed):
    """Plays up to `plies` random legal moves (a move the engine refuses after all is skipped)."""
    pick = random.Random(seed)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        try:
            game.play(pick.choice(moves))
        except qchess.IllegalMove:
            pass
    return game


def test_load_a_quantum_chess_file_gives_the_hand_computed_board():
    g = qchess.Game.load(ROOT / "circuits/interference.qcg")
    assert g.rules == "cantwell" and len(g.moves()) == 5
    p = g.probabilities()
    assert [p["a1"], p["b1"], p["b2"]] == pytest.approx(INTERFERENCE, abs=1e-12)
    # The path may be a string too, and the simulator is chosen as in Game().
    dense = qchess.Game.load(str(ROOT / "circuits/interference.qcg"), backend="dense")
    assert dense.backend == "dense" and dense.probabilities() == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("path", NIELS_GAMES, ids=lambda p: p.name)
def test_load_reads_niels_files_by_extension_as_the_cli_does(path, cli, tmp_path):
    g = qchess.Game.load(path, seed=0)
    assert g.rules == "niels"
    simulated = json.loads(cli("simulate", "--rules", "niels", path, "--json", "--seed", "0"))
    assert g.fen() == simulated["final_fen"]
    assert g.state_size() == simulated["state_size"]
    assert g.status == simulated["status"]
    # The game file the command line writes, tags and all, is what save() writes.
    g.save(tmp_path / path.name)
    assert (tmp_path / path.name).read_text() == simulated["game"]


def test_without_the_extension_the_tags_tell_the_ruleset(tmp_path):
    niels = tmp_path / "group.txt"
    shutil.copy(ROOT / "circuits/niels/entangled_group.qng", niels)
    assert qchess.Game.load(niels).rules == "niels"  # its Variant tag
    chess = tmp_path / "interference.txt"
    shutil.copy(ROOT / "circuits/interference.qcg", chess)
    assert qchess.Game.load(chess).rules == "cantwell"
    # rules= overrides both: a Niel's file read as Quantum Chess does not parse.
    with pytest.raises(qchess.NotationError):
        qchess.Game.load(ROOT / "circuits/niels/entangled_group.qng", rules="cantwell")
    with pytest.raises(qchess.OptionError, match="fischer"):
        qchess.Game.load(chess, rules="fischer")


def test_a_bad_file_raises_with_its_file_line_and_column(tmp_path):
    # A move that does not parse: line 3, column 12 (`q9q9`).
    bad = tmp_path / "bad.qcg"
    bad.write_text('[Event "x"]\n1. e2e4 e7e5\n2. b1^a3c3 q9q9\n')
    with pytest.raises(qchess.NotationError) as caught:
        qchess.Game.load(bad)
    e = caught.value
    assert (e.file, e.line, e.column) == (str(bad), 3, 12)
    assert str(bad) in str(e) and "line 3, column 12" in str(e)
    # A move the rules refuse while the file is replayed: line 2, column 9 (`e7e4`).
    illegal = tmp_path / "illegal.qcg"
    illegal.write_text("\n1. e2e4 e7e4\n")
    with pytest.raises(qchess.IllegalMove) as caught:
        qchess.Game.load(illegal)
    e = caught.value
    assert (e.file, e.line, e.column) == (str(illegal), 2, 9)
    assert "move 2 `e7e4`, line 2, column 9" in str(e)
    # Niel's Chess: its reader's place too.
    niels = tmp_path / "bad.qng"
    niels.write_text('[Variant "simplified"]\n\n1. e2e4 e7e5 2. {never closed\n')
    with pytest.raises(qchess.NotationError) as caught:
        qchess.Game.load(niels)
    e = caught.value
    assert e.file == str(niels) and e.line == 3 and isinstance(e.column, int)
    assert f"line 3, column {e.column}" in str(e)
    # A bad FEN tag has no move to point at but still names the file.
    fen = tmp_path / "fen.qcg"
    fen.write_text('[FEN "8/8 w - - 0 1"]\n')
    with pytest.raises(qchess.NotationError) as caught:
        qchess.Game.load(fen)
    assert caught.value.file == str(fen) and caught.value.line == 1
    with pytest.raises(FileNotFoundError, match="nowhere.qcg"):
        qchess.Game.load(tmp_path / "nowhere.qcg")


@pytest.mark.parametrize(
    "make, name",
    [
        (lambda: qchess.Game(seed=11), "game.qcg"),
        (lambda: qchess.Game(rules="niels", variant="full", seed=3), "game.qng"),
        (lambda: qchess.Game(rules="niels", seed=5), "niels-game.txt"),
    ],
)
def test_save_then_load_replays_the_same_game(make, name, tmp_path):
    g = play_random(make(), 24, seed=2)
    assert len(g.moves()) > 10
    path = tmp_path / name
    g.save(path)
    # Another seed: every outcome is written in the file, none is drawn again.
    h = qchess.Game.load(path, seed=12345)
    assert h.rules == g.rules
    assert h.fen() == g.fen() and h.record() == g.record()
    assert h.probabilities() == pytest.approx(g.probabilities(), abs=1e-12)
    assert h.extras() == g.extras()
    assert h.state_size() == g.state_size()


def test_save_keeps_the_files_tags_and_refuses_the_other_rulesets_extension(tmp_path):
    g = qchess.Game.load(ROOT / "circuits/interference.qcg")
    g.save(tmp_path / "copy.qcg")
    assert '[Event "Interference: Cantwell 2019, sec. 11.2"]' in (tmp_path / "copy.qcg").read_text()
    with pytest.raises(qchess.OptionError, match=r"niels game goes in a \.qng file"):
        qchess.Game(rules="niels").save(tmp_path / "wrong.qcg")
    with pytest.raises(qchess.OptionError, match=r"cantwell game goes in a \.qcg file"):
        g.save(tmp_path / "wrong.qng")
    assert not (tmp_path / "wrong.qcg").exists() and not (tmp_path / "wrong.qng").exists()
    with pytest.raises(FileNotFoundError):
        g.save(tmp_path / "no" / "such" / "dir.qcg")


@pytest.mark.parametrize(
    "game, rules",
    [
        ("circuits/interference.qcg", "cantwell"),
        ("circuits/full_game.qcg", "cantwell"),  # wider than 1200 px: folded into rows
        ("circuits/niels/entangled_group.qng", "niels"),
    ],
)
def test_circuit_pictures_are_what_qchess_draw_draws(game, rules, cli, tmp_path):
    path = ROOT / game
    g = qchess.Game.load(path, seed=0)
    draw = ["draw", "--rules", rules, path, "--seed", "0"]
    assert g.circuit_text() == cli(*draw)
    # The command line numbers moves as the record does (`1.`, or `1...` when Black starts).
    moves = [line for line in g.record().splitlines() if line and not line.startswith("[")]
    first = moves[0].split()[0]
    assert g.circuit_text(move=1) == cli(*draw, "--move", first)
    assert g.circuit_text(width=40) == cli(*draw, "--width", "40")
    assert g.circuit_text(all_wires=True) == cli(*draw, "--all-wires")
    svg = tmp_path / "game.svg"
    cli(*draw, "--svg", svg)
    assert g.circuit_svg() == svg.read_text()
    cli(*draw, "--svg", svg, "--move", "0", "--width", "0")
    assert g.circuit_svg(move=0, width=0) == svg.read_text()
    assert ET.fromstring(g.circuit_svg()).tag.endswith("svg")
    with pytest.raises(IndexError, match="99"):
        g.circuit_text(move=99)
    # The notebook picture of a game stays its board.
    assert g._repr_svg_() == g.svg()


def test_program_reads_every_format_run_reads(cli, tmp_path):
    # OpenQASM 3 (a compiled game, header and all): the interference board by hand.
    qasm3 = qchess.Program.load(ROOT / "circuits/interference.qasm")
    assert sorted(qasm3.run().values()) == pytest.approx(sorted(INTERFERENCE), abs=1e-12)
    # IR text: a Bell pair measured mid-circuit with feed-forward: c2 c1 c0 = 000 or 111.
    ir = qchess.Program.load(ROOT / "circuits/bell_feedforward.qc")
    assert ir.run() == pytest.approx({"000": 0.5, "111": 0.5}, abs=1e-12)
    assert (ir.num_qubits, ir.num_clbits) == (3, 3)
    # Every format Game.compile writes: OpenQASM 2 and 3 measure the board (the hand values);
    # IR text and JSON are the game's circuit as it is (no final measurement).
    g = qchess.Game.load(ROOT / "circuits/interference.qcg")
    for fmt in ["json", "qasm2", "ir", "qasm3"]:
        path = tmp_path / f"interference.{fmt}"
        path.write_text(g.compile(format=fmt))
        p = qchess.Program.load(path)
        if fmt.startswith("qasm"):
            assert sorted(p.run().values()) == pytest.approx(sorted(INTERFERENCE), abs=1e-12), fmt
        cli_run = json.loads(cli("run", path, "--json"))["probabilities"]
        assert p.run() == pytest.approx(cli_run, abs=1e-12), fmt
        assert p.run() == pytest.approx(qchess.run(path.read_text()), abs=1e-12), fmt
    # Shots: the same counts as `qchess run --shots --seed`.
    path = ROOT / "circuits/interference.qasm"
    counts = json.loads(cli("run", path, "--shots", "1000", "--seed", "7", "--json"))["counts"]
    assert qasm3.run(shots=1000, seed=7) == counts and sum(counts.values()) == 1000
    assert qasm3.run(shots=1000, seed=8) != counts
    assert qasm3.run(backend="dense") == pytest.approx(qasm3.run(), abs=1e-12)
    with pytest.raises(qchess.OptionError):
        qasm3.run(shots=10**9)
    with pytest.raises(qchess.OptionError):
        qasm3.run(backend="quantum")


def test_program_drawings_are_what_qchess_draw_circuit_draws(cli, tmp_path):
    for name in ["circuits/interference.qasm", "circuits/bell_feedforward.qc"]:
        path = ROOT / name
        p = qchess.Program.load(path)
        assert p.draw() == cli("draw", "--circuit", path)
        assert p.draw(as_written=True) == cli("draw", "--circuit", path, "--as-written")
        svg = tmp_path / "p.svg"
        cli("draw", "--circuit", path, "--svg", svg)
        assert p.svg() == svg.read_text() == p._repr_svg_()
    # Wires named by square from the program's header.
    assert "a1" in qchess.Program.load(ROOT / "circuits/interference.qasm").draw()


def test_a_file_of_the_wrong_kind_names_what_reads_it():
    """Issue 30 item 9: a circuit loaded as a game, a game loaded as a circuit and a game of
    the other ruleset say what they look like and what reads them, the reader's error kept."""
    qasm = ROOT / "circuits/interference.qasm"
    with pytest.raises(
        qchess.NotationError,
        match=r"looks like an OpenQASM 3 program, not a Quantum Chess game: use `qchess run`.*"
        r"`qchess\.Program\.load`.*bad QCAN move `OPENQASM`",
    ):
        qchess.Game.load(qasm)
    with pytest.raises(
        qchess.ProgramError,
        match=r"looks like a Quantum Chess game, not a circuit: use `qchess simulate`.*"
        r"`qchess\.Game\.load`",
    ):
        qchess.Program.load(ROOT / "circuits/interference.qcg")
    with pytest.raises(
        qchess.NotationError, match=r'use `--rules niels` \(Python: `rules="niels"`\)'
    ):
        qchess.Game.load(ROOT / "circuits/niels/equal_capture.qng", rules="cantwell")


def test_a_bad_program_names_the_file_and_where(tmp_path):
    bad = tmp_path / "bad.qasm"
    bad.write_text("OPENQASM 3.0;\nqubit q;\nfrobnicate q;\n")
    with pytest.raises(qchess.ProgramError, match=f"cannot parse {bad}.*line 3"):
        qchess.Program.load(bad)
    with pytest.raises(qchess.ProgramError, match="cannot parse program"):
        qchess.Program("qcir 1\nqubits q0\nfrobnicate q0\n")
    with pytest.raises(FileNotFoundError, match="nowhere.qasm"):
        qchess.Program.load(tmp_path / "nowhere.qasm")
    p = qchess.Program("qcir 1\nqubits q0\nclbits 1\nh q0\nmeasure q0 -> c0\n", name="coin")
    assert p.name == "coin" and p.run() == pytest.approx({"0": 0.5, "1": 0.5})
    assert "coin" in repr(p)


def tiny_calibration(path):
    """A made-up two-qubit device calibration (IBM BackendProperties JSON): T1/T2, readout
    errors both ways, `sx` and `cz` with their errors and lengths."""
    qubit = [
        {"name": "T1", "value": 50.0, "unit": "us"},
        {"name": "T2", "value": 40.0, "unit": "us"},
        {"name": "prob_meas1_prep0", "value": 0.02, "unit": ""},
        {"name": "prob_meas0_prep1", "value": 0.05, "unit": ""},
        {"name": "readout_length", "value": 1560.0, "unit": "ns"},
    ]

    def gate(name, qubits, error, length):
        return {"gate": name, "qubits": qubits, "parameters": [
            {"name": "gate_error", "value": error, "unit": ""},
            {"name": "gate_length", "value": length, "unit": "ns"}]}

    props = {"backend_name": "tiny", "backend_version": "1", "last_update_date": "2026-12-01T00:00:00Z",
             "general": [], "qubits": [qubit, qubit],
             "gates": [gate("sx", [0], 1e-3, 36.0), gate("sx", [1], 1e-3, 36.0),
                       gate("cz", [0, 1], 2e-2, 68.0), gate("cz", [1, 0], 2e-2, 68.0)]}
    path.write_text(json.dumps(props))
    return path


def test_a_noisy_run_gives_the_command_lines_counts(cli, tmp_path):
    # H (as rz sx rz) on q[0], then CZ: without noise only 00 and 01; the calibration's gate,
    # relaxation and readout errors put some shots on 10 and 11.
    program = tmp_path / "bell.qasm"
    program.write_text('OPENQASM 3.0;\ninclude "stdgates.inc";\nqubit[2] q;\nbit[2] c;\n'
                       "rz(pi/2) q[0];\nsx q[0];\nrz(pi/2) q[0];\ncz q[0], q[1];\n"
                       "c[0] = measure q[0];\nc[1] = measure q[1];\n")
    props = tiny_calibration(tmp_path / "props.json")
    p = qchess.Program.load(program)
    noisy = p.run(shots=2000, seed=3, noise=props)
    want = json.loads(cli("run", program, "--noise", props, "--shots", 2000, "--seed", 3, "--json"))
    assert noisy == want["counts"]
    assert sum(noisy.values()) == 2000 and noisy.get("10", 0) + noisy.get("11", 0) > 0
    assert p.run(shots=2000, seed=3, noise=str(props)) == noisy, "the same seed, the same counts"
    assert p.run(shots=2000, seed=4, noise=props) != noisy, "another seed, other counts"
    with pytest.raises(qchess.OptionError, match="give shots=N"):
        p.run(noise=props)
    with pytest.raises(FileNotFoundError):
        p.run(shots=10, noise=tmp_path / "missing.json")
