#!/usr/bin/env bash
# Set up a fresh machine for cnsim: a virtual environment in .venv with the package installed in
# editable mode (maturin builds the Rust engine in release mode) and its test dependencies.
# Idempotent: re-running rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
command -v cargo >/dev/null || { echo "setup: cargo (Rust) is required: https://rustup.rs" >&2; exit 1; }
[ -x .venv/bin/python ] || "$PY" -m venv .venv
step() { echo "setup: $1 ($(( $(date +%s) - start )) s)" >&2; }
start=$(date +%s)
.venv/bin/python -m pip install --quiet --upgrade pip
step "pip ready in .venv"
echo "setup: installing cnsim into .venv and building the engine in release mode (a first build takes 1-3 min on 2 cores, longer on a loaded machine)..." >&2
# The build prints nothing while cargo compiles: a line every 30 s says it is still going.
( while sleep 30 </dev/null >/dev/null 2>&1; do step "still building the engine"; done ) &
beat=$!
trap 'kill $beat 2>/dev/null || true' EXIT
.venv/bin/python -m pip install --quiet -e ".[test,dask,docs]"
kill $beat 2>/dev/null || true
step "cnsim installed"

# tshark (optional) decodes cnsim's captures in tests/test_capture.py, which skip without it. Nothing is
# installed outside the project here: CI installs it in .ci/run; elsewhere `apt-get install tshark`
# (Debian/Ubuntu) or your system's Wireshark package.
command -v tshark >/dev/null || echo "setup: tshark not found: the tshark decoding tests will be skipped (optional; see docs/observing.md)" >&2
