#!/usr/bin/env bash
# Set up a fresh machine for cnsim: a virtual environment in .venv with the package installed in
# editable mode (maturin builds the Rust engine in release mode) and its test dependencies.
# Idempotent: re-running rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
command -v cargo >/dev/null || { echo "setup: cargo (Rust) is required: https://rustup.rs" >&2; exit 1; }
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test,dask]"
