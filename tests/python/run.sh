#!/usr/bin/env bash
# The Python package's checks (issue 17): installs crates/qc-py into a virtual environment the
# way the README says (`pip install ./crates/qc-py`), runs the pytest suite (tests/python) and
# executes docs/notebooks/quickstart.ipynb with nbclient. Reuses the interop venv (Qiskit, Aer,
# Cirq; tests/interop/run.sh makes it) when present, so CI installs those once.
# Usage: tests/python/run.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${QCHESS_INTEROP_VENV:-$ROOT/.venv-interop}"
source "$ROOT/tests/interop/venv.sh"
ensure_requirements "$VENV" "$ROOT/tests/interop/requirements.txt" \
  "qiskit, qiskit_aer, qiskit_qasm3_import, qiskit_ibm_runtime, braket.devices, cirq, cirq_google, matplotlib"
ensure_requirements "$VENV" "$ROOT/tests/python/requirements.txt" "pytest, nbclient, nbformat, ipykernel"
# Ray and pyarrow (qchess.study's optional extras): test_study.py checks serial == Ray and the
# Parquet output with them.
start=$SECONDS
ensure_requirements "$VENV" "$ROOT/tests/python/requirements-study.txt" "ray, pyarrow"
echo "ray and pyarrow ready in $((SECONDS - start)) s"
echo "== pip install ./crates/qc-py"
(cd "$ROOT" && "$VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps ./crates/qc-py)
echo "== the README's one-liner"
out="$(cd /tmp && "$VENV/bin/python" -c "import qchess; g = qchess.Game(); g.play('b1^a3c3'); print(g.probabilities()['a3'])")"
if [ "$out" != "0.5" ]; then
  echo "expected 0.5, got: $out" >&2
  exit 1
fi
echo "0.5"
echo "== pytest tests/python"
# test_files.py compares with the command line's output: the qchess binary of this tree.
(cd "$ROOT" && cargo build --release --quiet -p qc-cli)
export QCHESS_BIN="${QCHESS_BIN:-$ROOT/target/release/qchess}"
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/tests/python"
echo "== python -m qchess.study: the same summary serially and on a local Ray cluster (2 CPUs)"
study=(--games 40 --plies 30 --seed 4 --json)
serial="$(cd /tmp && "$VENV/bin/python" -m qchess.study "${study[@]}")"
on_ray="$(cd /tmp && "$VENV/bin/python" -m qchess.study "${study[@]}" --local-ray 2)"
if [ "$serial" != "$on_ray" ]; then
  echo "serial and Ray summaries differ:" >&2
  diff <(echo "$serial") <(echo "$on_ray") >&2 || true
  exit 1
fi
echo "equal ($(echo "$serial" | grep fingerprint))"
echo "== docs/notebooks/quickstart.ipynb (nbclient)"
"$VENV/bin/python" "$ROOT/tests/python/run_notebook.py" "$ROOT/docs/notebooks/quickstart.ipynb"
