#!/usr/bin/env bash
# Qiskit interop test (issues 5 and 7). Creates its own virtual environment, writes two corpora with
# the Rust examples (sample circuits, random circuits and the Niel's Chess example games of
# circuits/niels from qc-export; and Quantum Chess games: every move case plus seeded random legal
# games of 30+ plies, each with its final board measured) and checks every program on Qiskit Aer,
# the Braket local simulator and Cirq
# against qchess's exact probabilities. Exits non-zero on any mismatch.
# Usage: tests/interop/run.sh [OUT_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${QCHESS_INTEROP_VENV:-$ROOT/.venv-interop}"
OUT="${1:-$ROOT/target/interop}"
# tests/interop/requirements.txt: Qiskit + Aer + the OpenQASM 3 importer, qiskit-ibm-runtime (the
# fake devices and their calibration data), the Braket SDK (local simulator), cirq-core, matplotlib.
# A fresh install took 3 minutes on 2 shared cores (qiskit 25 s, runtime 16 s, braket 70 s, cirq 66 s).
source "$ROOT/tests/interop/venv.sh"
ensure_requirements "$VENV" "$ROOT/tests/interop/requirements.txt" \
  "qiskit, qiskit_aer, qiskit_qasm3_import, qiskit_ibm_runtime, braket.devices, cirq, cirq_google, matplotlib"

rm -rf "$OUT"
mkdir -p "$OUT/circuits" "$OUT/games"
(cd "$ROOT" && cargo run --quiet --release -p qc-export --example interop_corpus -- "$OUT/circuits")
(cd "$ROOT" && cargo run --quiet --release -p qchess-tests --example game_corpus -- "$OUT/games")
(cd "$ROOT" && cargo build --quiet --release -p qc-cli)  # hardware.py runs target/release/qchess
echo "== sample circuits"
"$VENV/bin/python" "$ROOT/tests/interop/check.py" "$OUT/circuits"
echo "== games"
"$VENV/bin/python" "$ROOT/tests/interop/check.py" "$OUT/games"
# Small user gates, applied by qchess as one matrix each, against Qiskit's statevector on the
# same program text (random definitions called plainly and under ctrl @ / negctrl @).
echo "== user gates"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/user_gates.py" "$ROOT/target/release/qchess" "$OUT/user_gates" 40
# OpenQASM 3 as the specification types it (integer division, parameters named like constants)
# and valid forms the parser does not read as written (braceless if/else, `barrier;`, `OPENQASM 3;`).
echo "== OpenQASM 3 forms"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/qasm3_forms.py" "$ROOT/target/release/qchess" "$OUT/qasm3_forms"
# Circuits as Qiskit users write them (teleportation with `if(c==3)`, `measure q -> c;`, register
# comparisons, for loops, slices; run --state, counts without a board, route to ibm/google/braket)
# against Aer, the Braket local simulator and Qiskit's Statevector.
echo "== Qiskit-style programs (qiskit_programs.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/qiskit_programs.py" "$ROOT/target/release/qchess" "$OUT/qiskit_programs"
# The device-program checker and ESP of the routing checks on hand-written programs (issue 25).
echo "== device program checks (physical.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/physical_selftest.py"
# qchess's device programs of every bundled game (ibm_fez with FakeFez's calibration in both
# forms, ibm_brisbane's directed ECR with FakeBrisbane's, sycamore, weber, willow_pink and the ion
# trap): read by qiskit.qasm3.loads, natives and couplers checked, run on Aer as
# written, read back by `qchess counts` into the game's board (issue 25). --ci runs only the full
# game's ibm_fez program of the wide ones (matrix product state); the others are checked, not run.
# Google's processors (weber, rainbow): the bundled targets equal what cirq-google's calibrations
# and device specifications say, and a game compiles on weber with its real calibration, read in
# Google's own format.
echo "== Google's processors (google_targets.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/google_targets.py" --check --calibrations "$OUT/google"
"$ROOT/target/release/qchess" compile "$ROOT/circuits/tour.qcg" --target weber \
    --properties "$OUT/google/weber_calibration.json" -o "$OUT/google/tour.weber.qasm"
# The ion trap's rzz count against Qiskit O3 (basis rz, rx, ry, rzz) on the same programs of 43
# games (about 20 s), kept below a bound with a margin over today's 0.70x and 0.74x
# (docs/hardware.md, "Ion traps").
echo "== ion trap against Qiskit O3 (ion_synth.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/ion_synth.py" "$OUT/ion_synth" --max-ratio 0.8 > "$OUT/ion_synth.log" \
    || { cat "$OUT/ion_synth.log"; exit 1; }
grep "^| all" "$OUT/ion_synth.log"
# IBM's Eagle: backends/ibm_brisbane.toml equals FakeBrisbane's directed coupling map, and
# qchess's ECR count against Qiskit O3 on FakeBrisbane's target (same calibration, same
# logical programs, about 15 s) stays below a bound with a margin over today's 0.48x and 0.37x
# (docs/hardware.md, "ECR on IBM Eagle"); every ECR of both is checked in its coupler's direction.
echo "== IBM Eagle (ibm_targets.py, ecr_bench.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/ibm_targets.py" --check
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/ecr_bench.py" "$OUT/ecr_bench" --max-ratio 0.6 > "$OUT/ecr_bench.log" \
    || { cat "$OUT/ecr_bench.log"; exit 1; }
grep "^| all" "$OUT/ecr_bench.log"
echo "== device programs (routed.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/routed.py" "$OUT/routed" --ci
# The routing benchmark's quick set (about 35 s): its checks (no broken coupler, the printed ESP),
# and qchess's CZ totals against Qiskit O3's kept below bounds with a margin over today's 0.43,
# 0.27 and 0.85 (generic: CZ traded for ESP since the subgraph layout), so that a routing regression turns CI red (docs/hardware.md).
echo "== routing benchmark, quick (route_bench.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/route_bench.py" "$OUT/route_bench" --quick \
    --max-cz-ratio "all games=0.55" --max-cz-ratio "full games (full_game, tour)=0.35" \
    --max-cz-ratio "generic=0.9"
# The doc_examples test checks that the docs' quotes equal these files; here they run.
echo "== the scripts docs/hardware.md quotes"
SNIP="$OUT/snippets"
GAME="$OUT/games/case_jump_capture"
mkdir -p "$SNIP"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/snippets/aer_run.py" "$GAME.dynamic.qasm" "$SNIP/aer.json"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/snippets/braket_run.py" "$GAME.braket.qasm" "$SNIP/braket.json"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/snippets/cirq_run.py" "$GAME.qasm2" "$SNIP/cirq.csv"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/snippets/ibm_run.py" "$GAME.dynamic.qasm" "$SNIP/ibm.json" "$SNIP/calibration.json"
# The bundled full game is 58 qubits wide: aer_run.py takes its matrix-product-state branch. Its
# counts, read back by `qchess counts`, must match the exact board (total variation distance; the
# ~250 shots post-selection keeps leave a statistical distance of about 0.03-0.05).
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/snippets/aer_run.py" "$ROOT/circuits/full_game.qasm" "$SNIP/full_game.json"
"$ROOT/target/release/qchess" counts "$ROOT/circuits/full_game.qasm" "$SNIP/full_game.json" --counts-format qiskit --exact --json >"$SNIP/full_game.board.json"
"$VENV/bin/python" - "$SNIP/full_game.board.json" <<'PY'
import json, sys
board = json.load(open(sys.argv[1]))
kept, shots, tvd = board["kept"], board["shots"], board["tvd"]
# post-selection keeps a shot with probability 1/16 (the four recorded outcomes); 5 sigma
expected, sigma = shots / 16, (shots * (1 / 16) * (15 / 16)) ** 0.5
if abs(kept - expected) > 5 * sigma or tvd > 0.15:
    sys.exit(f"full_game on Aer (matrix product state): kept {kept} of {shots} (expected {expected:.0f}), tvd {tvd:.3f}")
print(f"full_game on Aer (matrix product state): kept {kept}/{shots}, tvd {tvd:.3f}")
PY
echo "snippets: OK"
# The hardware round trip (issue 11): bundled games through Aer, Braket and Cirq into `qchess
# counts`, and on the noisy FakeFez model raw vs mitigated, routed by Qiskit and by qchess (mitigation must lower the distance).
# The full run (docs/hardware.md's tables; tests/interop/figure.py draws docs/hardware-noise.png from its
# results.json) takes about 14 minutes on 2 busy cores, mostly the qchess-routed depth series on
# trajectories; CI checks the same properties on 2000 shots and the first 16 plies (about 1.5 minutes).
echo "== hardware round trip"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/hardware.py" "$OUT/hardware" --noisy-shots 2000 --depth-max-plies 16
# qchess's noisy simulator (`qchess run --noise`) against Aer with FakeFez's calibration: GHZ
# programs on 4, 8 and 12 physical qubits, every outcome within 5 standard errors (docs/hardware.md);
# CI runs the 4-qubit one (Aer takes minutes a program on the whole model).
echo "== noisy simulation against Aer (noisy.py)"
"$VENV/bin/python" -W ignore "$ROOT/tests/interop/noisy.py" "$ROOT/target/release/qchess" "$OUT/noisy" --max-qubits 4
