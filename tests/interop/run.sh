#!/usr/bin/env bash
# Qiskit interop test for qc-export (issue 5). Creates its own virtual environment, writes the
# corpus with the Rust example (sample circuits, random circuits and the Niel's Chess example
# games of circuits/niels, issue 7), and checks every program on Qiskit Aer against qchess's exact
# probabilities. Exits non-zero on any mismatch. Usage: tests/interop/run.sh [OUT_DIR]
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
mkdir -p "$OUT"
(cd "$ROOT" && cargo run --quiet -p qc-export --example interop_corpus -- "$OUT")
"$VENV/bin/python" "$ROOT/tests/interop/check.py" "$OUT"
