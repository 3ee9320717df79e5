# Sourced by tests/interop/run.sh and tests/python/run.sh: one place that makes the shared virtual
# environment (QCHESS_INTEROP_VENV, default .venv-interop) and installs a requirements file into it
# unless its modules already import, so CI installs Qiskit, Aer, Braket and Cirq once.
# Usage: ensure_requirements VENV REQUIREMENTS_FILE "module1, module2, ..."
ensure_requirements() {
  local venv="$1" requirements="$2" modules="$3"
  if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
  fi
  if ! "$venv/bin/python" -c "import $modules" 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -r "$requirements"
  fi
}
