"""``qchess.study`` (issue 29): seeded batch studies. The same seed gives the same records and
summary serially, on threads and on Ray (local, 2 CPUs; skipped when Ray is not installed);
game i is the command line's ``simulate --random-plies P --seed game_seed(S, i)``; the seeds are
SplitMix64's outputs (checked against an implementation of the published algorithm here); the
statistics are recounted by replaying each game with ``qchess.Game``; bad arguments exit 2."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

import qchess
from qchess import study

ROOT = pathlib.Path(__file__).resolve().parents[2]
QUANTUM_KINDS = {
    "split_jump", "split_slide", "merge_jump", "merge_slide",
    "superposition", "entanglement", "mark_inversion", "z_move", "hadamard", "tunnelling",
}


def splitmix64(seed, index):
    """Output ``index`` of SplitMix64 (Steele, Lea and Flood 2014) started at ``seed``."""
    mask = (1 << 64) - 1
    z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def cli_study(*args, env=None, prelude=""):
    """Runs ``python -m qchess.study ARGS`` (``prelude``: Python run first, in the same process)."""
    code = f"{prelude}\nimport sys\nfrom qchess.study import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        capture_output=True, text=True, timeout=600, cwd="/tmp", env=env,
    )


def test_game_seeds_are_splitmix64_of_the_study_seed_and_the_index():
    for seed in (0, 4, 2**64 - 1):
        for index in (0, 1, 39, 10**9):
            assert study.game_seed(seed, index) == splitmix64(seed, index)
    # The published first output of SplitMix64 seeded 0.
    assert study.game_seed(0, 0) == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("rules", ["cantwell", "niels"])
def test_threads_give_the_same_records_and_summary_as_serial(rules):
    serial = list(study.records(13, plies=25, seed=4, rules=rules))
    threads = list(study.records(13, plies=25, seed=4, rules=rules, workers=3))
    assert [r["index"] for r in serial] == list(range(13))
    assert threads == serial
    a = study.run(13, 25, 4, rules=rules).as_dict()
    b = study.run(13, 25, 4, rules=rules, workers=3).as_dict()
    assert a == b
    assert a["games"] == 13 and sum(a["results"].values()) == 13
    # Another seed, other games.
    assert study.run(13, 25, 5, rules=rules).as_dict()["fingerprint"] != a["fingerprint"]


def test_each_game_is_the_command_lines_random_game_of_its_seed():
    qchess_bin = pathlib.Path(os.environ.get("QCHESS_BIN", ROOT / "target/release/qchess"))
    for record in study.records(5, plies=20, seed=4):
        assert record["seed"] == splitmix64(4, record["index"])
        out = subprocess.run(
            [str(qchess_bin), "simulate", "--random-plies", "20", "--seed", str(record["seed"]), "--json"],
            capture_output=True, text=True, timeout=600, check=True,
        )
        cli = json.loads(out.stdout)
        moves = [t for t in cli["game"].split() if not t.endswith(".")]
        assert record["moves"] == moves
        assert record["plies"] == len(moves)
        assert record["final_state"] == cli["state_size"]
        assert record["result"] == cli["status"]
        assert record["probabilities"] == {sq: s["probability"] for sq, s in cli["squares"].items()}


@pytest.mark.parametrize("rules", ["cantwell", "niels"])
def test_the_statistics_are_those_of_the_game_replayed_move_by_move(rules):
    for record in study.records(6, plies=30, seed=11, rules=rules):
        g = qchess.Game(rules=rules, seed=record["seed"])
        largest, quantum, measured = g.state_size(), 0, 0
        for text in record["moves"]:
            m = g.play(text)
            largest = max(largest, g.state_size())
            quantum += m.kind in QUANTUM_KINDS
            measured += m.outcome is not None
        assert (record["largest_state"], record["quantum_moves"], record["measurements"]) == (
            largest, quantum, measured,
        )
        assert record["probabilities"] == g.probabilities()
        assert record["result"] == g.status
        assert record["final_state"] == g.state_size()


@pytest.mark.parametrize("rules", ["cantwell", "niels"])
def test_engine_self_play_is_the_same_on_threads_and_replays_move_by_move(rules):
    # No clock in the engine's search (a depth and a bound on positions): the same games on any
    # machine and in any worker; each game replays with qchess.Game to the recorded board.
    serial = list(study.records(4, plies=6, seed=3, rules=rules, engine_depth=1))
    assert serial == list(study.records(4, plies=6, seed=3, rules=rules, engine_depth=1, workers=2))
    random_games = list(study.records(4, plies=6, seed=3, rules=rules))
    assert [r["moves"] for r in serial] != [r["moves"] for r in random_games]
    for record in serial:
        assert record["source"] == "engine"
        g = qchess.Game(rules=rules, seed=record["seed"])
        for text in record["moves"]:
            g.play(text)
        assert record["probabilities"] == g.probabilities()
    summary = study.run(4, 6, 3, rules=rules, engine_depth=1)
    assert summary.as_dict()["study"]["engine_depth"] == 1
    assert "engine (depth 1) games" in summary.text()


def test_engine_self_play_takes_the_king_a_random_mover_would_rarely_take(tmp_path):
    # White's rook can take the black king: the engine (depth 1) does, in every game; random
    # moves find it in about one game in fifteen.
    game = tmp_path / "rook.qcg"
    game.write_text('[FEN "4k3/8/8/8/8/8/8/4RK2 w - - 0 1"]\n')
    for record in study.records(files=[game] * 5, plies=1, seed=8, engine_depth=1):
        assert record["moves"][0].startswith("e1") and "e8" in record["moves"][0], record
        assert record["result"] == "white_wins", record
    random_moves = [r["moves"][0] for r in study.records(files=[game] * 5, plies=1, seed=8)]
    assert not all("e8" in m for m in random_moves), random_moves


def test_a_study_of_game_files_replays_each_file():
    files = [str(p) for p in sorted((ROOT / "circuits").glob("*.qcg"))] + [
        str(p) for p in sorted((ROOT / "circuits/niels").glob("*.qng"))
    ]
    got = list(study.records(files=files, seed=2))
    assert [r["source"] for r in got] == files
    for path, record in zip(files, got):
        g = qchess.Game.load(path, seed=study.game_seed(2, record["index"]))
        assert record["moves"] == [m.text for m in g.moves()]
        assert record["probabilities"] == g.probabilities()
        assert record["rules"] == g.rules
    assert list(study.records(files=files, seed=2, workers=2)) == got
    # Random plies after the file's moves.
    longer = next(study.records(files=files[:1], seed=2, plies=4))
    assert longer["moves"][: got[0]["plies"]] == got[0]["moves"]


def test_a_bad_game_file_raises_with_its_place(tmp_path):
    bad = tmp_path / "bad.qcg"
    bad.write_text("1. e2e4 e7e4\n")
    with pytest.raises(qchess.IllegalMove) as e:
        list(study.records(files=[str(bad)], seed=0))
    assert (e.value.file, e.value.line) == (str(bad), 1)
    with pytest.raises(FileNotFoundError):
        list(study.records(files=[str(tmp_path / "none.qcg")], seed=0))


def test_the_command_line_prints_the_same_summary_serially_and_on_threads(tmp_path):
    serial = cli_study("--games", 12, "--plies", 20, "--seed", 4, "--json", "--out", tmp_path / "a.jsonl")
    threads = cli_study(
        "--games", 12, "--plies", 20, "--seed", 4, "--json", "--workers", 3, "--out", tmp_path / "b.jsonl"
    )
    assert serial.returncode == 0 and threads.returncode == 0, serial.stderr + threads.stderr
    assert serial.stdout == threads.stdout
    summary = json.loads(serial.stdout)
    assert summary["study"] == {
        "games": 12, "files": None, "plies": 20, "seed": 4, "rules": "cantwell",
        "backend": "sparse", "variant": None,
    }
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert lines == (tmp_path / "b.jsonl").read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == list(range(12))
    # The summary added up again from the streamed records.
    again = study.Summary(summary["study"])
    for line in lines:
        again.add(json.loads(line))
    assert again.as_dict() == summary
    text = cli_study("--games", 12, "--plies", 20, "--seed", 4)
    assert text.returncode == 0
    assert text.stdout.startswith("study: 12 random games of up to 20 plies, seed 4 (cantwell, sparse)\n")
    assert summary["fingerprint"] in text.stdout
    assert "games/s" in text.stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (["--games", 0], "--games: expected 1 to"),
        (["--games", "x"], "--games: expected a whole number"),
        (["--games", 3, "--plies", -1], "--plies: expected 0 to"),
        (["--games", 3, "--workers", 0], "--workers: expected 1 to"),
        (["--games", 3, "--seed", 2**64], "--seed: expected 0 to"),
        (["--plies", 3], "one of the arguments --games --files is required"),
        (["--games", 3, "--files", "a.qcg"], "not allowed with argument"),
        (["--games", 3, "--workers", 2, "--local-ray", 2], "not allowed with argument"),
        (["--games", 3, "--out", "x.csv"], "--out x.csv: the file must end in .jsonl or .parquet"),
        (["--games", 3, "--backend", "gpu"], "invalid choice: 'gpu'"),
        (["--games", 3, "--rules", "niels", "--variant", "nope"], "nope"),
        (["--files", "/nonexistent/a.qcg"], "cannot read /nonexistent/a.qcg"),
        (["--games", 3, "--engine-depth", 0], "--engine-depth: expected 1 to 4"),
        (["--games", 3, "--engine-depth", 5], "--engine-depth: expected 1 to 4"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args, words):
    out = cli_study(*args)
    assert out.returncode == 2, out.stderr
    assert words in out.stderr
    assert out.stdout == ""


def test_ray_and_parquet_missing_are_said_with_how_to_install_them():
    out = cli_study("--games", 3, "--local-ray", 2, prelude="import sys; sys.modules['ray'] = None")
    assert out.returncode == 2
    assert "--local-ray needs Ray" in out.stderr and "pip install" in out.stderr and "[ray]" in out.stderr
    out = cli_study("--games", 3, "--out", "/tmp/x.parquet", prelude="import sys; sys.modules['pyarrow'] = None")
    assert out.returncode == 2
    assert "Parquet needs pyarrow: pip install pyarrow" in out.stderr


def test_parquet_holds_the_records_when_pyarrow_is_installed(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    summary = study.run(7, 15, 4, out=str(tmp_path / "s.parquet"))
    rows = pq.read_table(tmp_path / "s.parquet").to_pylist()
    expected = list(study.records(7, 15, 4))
    assert [dict(r, probabilities=dict(r["probabilities"])) for r in rows] == expected
    assert summary.games == 7


def test_ray_gives_the_same_summary_as_serial():
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        on_ray = study.run(10, 20, 4, ray=True).as_dict()
        files = [str(p) for p in sorted((ROOT / "circuits").glob("*.qcg"))]
        files_on_ray = list(study.records(files=files, seed=3, ray=True))
    finally:
        ray.shutdown()
    assert on_ray == study.run(10, 20, 4).as_dict()
    assert files_on_ray == list(study.records(files=files, seed=3))


@pytest.mark.parametrize(
    "address, words",
    [("127.0.0.1:1", "--ray 127.0.0.1:1: nothing answers there"), ("nohost", "expected HOST:PORT")],
)
def test_a_ray_address_where_nothing_answers_exits_2_at_once(address, words):
    pytest.importorskip("ray")
    out = subprocess.run(
        [sys.executable, "-m", "qchess.study", "--games", "3", "--ray", address],
        capture_output=True, text=True, timeout=60, cwd="/tmp",
    )
    assert out.returncode == 2
    assert words in out.stderr
