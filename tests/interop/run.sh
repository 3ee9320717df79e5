#!/usr/bin/env bash
# Qiskit interop test (issues 5 and 7). Creates its own virtual environment, writes two corpora with
# the Rust examples (sample circuits, random circuits and the Niel's Chess example games of
# circuits/niels from qc-export; and Quantum Chess games: every move case plus seeded random legal
# games of 30+ plies, each with its final board measured) and checks every program on Qiskit Aer
# against qchess's exact probabilities. Exits non-zero on any mismatch.
# Usage: tests/interop/run.sh [OUT_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${QCHESS_INTEROP_VENV:-$ROOT/.venv-interop}"
OUT="${1:-$ROOT/target/interop}"
PY="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import qiskit, qiskit_aer, qiskit_qasm3_import" 2>/dev/null; then
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet "qiskit>=1.2" qiskit-aer qiskit-qasm3-import
fi

rm -rf "$OUT"
mkdir -p "$OUT/circuits" "$OUT/games"
(cd "$ROOT" && cargo run --quiet --release -p qc-export --example interop_corpus -- "$OUT/circuits")
(cd "$ROOT" && cargo run --quiet --release -p qchess-tests --example game_corpus -- "$OUT/games")
echo "== sample circuits"
"$VENV/bin/python" "$ROOT/tests/interop/check.py" "$OUT/circuits"
echo "== games"
"$VENV/bin/python" "$ROOT/tests/interop/check.py" "$OUT/games"
