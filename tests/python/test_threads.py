"""One ``Game`` shared by Python threads (issue 29): calls are serialised by the game's lock (no
crash, no torn state), and the long Rust calls release the GIL so that other Python threads run
meanwhile."""

import pathlib
import random
import sys
import threading
import time

import pytest

import qchess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_many_threads_playing_and_taking_back_on_one_game_leave_it_as_it_was():
    g = qchess.Game(seed=1)
    g.play("b1^a3c3")
    fen, probabilities, state = g.fen(), g.probabilities(), g.state_size()
    errors = []

    def hammer(worker):
        try:
            for i in range(40):
                moves = g.legal_moves()
                # Every snapshot is whole: the probabilities of one state.
                p = g.probabilities()
                assert all(0.0 <= x <= 1.0 + 1e-12 for x in p.values())
                if not moves:
                    continue
                try:
                    g.play(moves[(worker * 7 + i) % len(moves)])
                except qchess.IllegalMove:
                    continue  # another thread moved first: that move is no longer legal
                # Takes back the last move, whoever played it: as many undos as moves.
                g.undo()
                g.svg()
                g.circuit_text()
        except Exception as e:  # noqa: BLE001 - reported below, with the worker
            errors.append((worker, repr(e)))

    threads = [threading.Thread(target=hammer, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [m.text for m in g.moves()] == ["b1^a3c3"]
    assert g.fen() == fen and g.state_size() == state
    assert g.probabilities() == pytest.approx(probabilities, abs=1e-12)


def long_program(qubits=14, layers=20):
    """An OpenQASM 2 program on `qubits` qubits in full superposition with `layers` layers of
    rotations and CNOTs that no pass removes: long to simulate, one outcome bit."""
    lines = ["OPENQASM 2.0;", 'include "qelib1.inc";', f"qreg q[{qubits}];", "creg c[1];"]
    lines += [f"h q[{k}];" for k in range(qubits)]
    for layer in range(layers):
        lines += [f"rx({0.1 + 0.01 * (layer * qubits + k)}) q[{k}];" for k in range(qubits)]
        lines += [f"cx q[{k}],q[{k + 1}];" for k in range(layer % 2, qubits - 1, 2)]
    lines.append("measure q[0] -> c[0];")
    return "\n".join(lines) + "\n"


def python_runs_during(call):
    """The times another Python thread ran in the middle half of `call` (none when `call`
    holds the GIL throughout: the switch interval is 1 ms, the middle half much longer)."""
    stamps, done = [], threading.Event()

    def tick():
        while not done.is_set():
            stamps.append(time.perf_counter())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        time.sleep(0.02)
        start = time.perf_counter()
        call()
        end = time.perf_counter()
    finally:
        done.set()
        ticker.join()
        sys.setswitchinterval(interval)
    span = end - start
    assert span > 0.04, f"the call took {span:.3f} s: too short to tell"
    return sum(1 for s in stamps if start + span / 4 < s < end - span / 4)


def test_a_long_program_run_lets_other_python_threads_run():
    program = qchess.Program(long_program())
    assert python_runs_during(program.run) > 0
    assert python_runs_during(lambda: qchess.run(program.text)) > 0


def test_long_game_calls_let_other_python_threads_run(tmp_path):
    # An 80-ply random game (416 basis states) replayed on the dense simulator: about a second.
    g, pick = qchess.Game(seed=3), random.Random(1)
    for _ in range(80):
        try:
            g.play(pick.choice(g.legal_moves()))
        except qchess.IllegalMove:
            pass
    path = tmp_path / "long.qcg"
    g.save(path)
    loaded = []
    assert python_runs_during(lambda: loaded.append(qchess.Game.load(path, backend="dense"))) > 0
    dense = loaded[0]
    assert python_runs_during(dense.probabilities) > 0
    assert dense.probabilities() == pytest.approx(g.probabilities(), abs=1e-9)


def _threads_in_a_fresh_process(env_changes, prefix=()):
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items()
           if k not in ("QCHESS_NUM_THREADS", "RAYON_NUM_THREADS", "OMP_NUM_THREADS")}
    env.update(env_changes)
    return subprocess.run(
        [*prefix, sys.executable, "-c", "import qchess; print(qchess.num_threads())"],
        env=env, capture_output=True, text=True, timeout=120,
    )


def test_the_simulators_threads_are_the_cpus_the_process_is_given():
    import os
    import shutil

    def threads(env, prefix=()):
        out = _threads_in_a_fresh_process(env, prefix)
        assert out.returncode == 0, out.stderr
        return int(out.stdout)

    # By default as many as the CPUs this process may run on (its affinity), not the machine's.
    assert threads({}) == len(os.sched_getaffinity(0))
    if shutil.which("taskset"):
        assert threads({}, ("taskset", "-c", "0")) == 1
    # qchess's own variable first, then rayon's, then OpenMP's (Ray sets it for its workers).
    assert threads({"QCHESS_NUM_THREADS": "3", "OMP_NUM_THREADS": "1"}) == 3
    assert threads({"RAYON_NUM_THREADS": "2", "OMP_NUM_THREADS": "1"}) == 2
    assert threads({"OMP_NUM_THREADS": "1"}) == 1
    assert threads({"OMP_NUM_THREADS": "3,2"}) == 3  # OpenMP's nested form: the first level
    assert threads({"OMP_NUM_THREADS": "many"}) == len(os.sched_getaffinity(0))  # not ours: skipped


def test_a_bad_thread_count_fails_the_import_with_a_clear_message():
    for value in ["0", "lots", "100000"]:
        out = _threads_in_a_fresh_process({"QCHESS_NUM_THREADS": value})
        assert out.returncode != 0
        assert f"QCHESS_NUM_THREADS='{value}'" in out.stderr or f'QCHESS_NUM_THREADS="{value}"' in out.stderr, out.stderr
        assert "whole number of threads from 1 to 4096" in out.stderr, out.stderr
