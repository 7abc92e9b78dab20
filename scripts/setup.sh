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
echo "setup: installing cnsim into .venv, building the engine in release mode (a first build takes 1-3 min on 2 cores)..." >&2
start=$(date +%s)
.venv/bin/python -m pip install --quiet -e ".[test,dask,docs]"
echo "setup: cnsim installed ($(( $(date +%s) - start )) s)" >&2

# tshark decodes cnsim's captures in the tests (tests/test_capture.py; skipped without it). Installed
# from the system's packages when missing and possible (root with apt-get), never interactively.
if ! command -v tshark >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "setup: installing tshark (apt-get) for the capture tests"
        if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
               && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                  -o DPkg::Lock::Timeout=600 tshark >/dev/null; }; then
            echo "setup: could not install tshark; the tshark decoding tests will be skipped" >&2
        fi
    else
        echo "setup: tshark not found and not installable here (needs root and apt-get); the tshark decoding tests will be skipped" >&2
    fi
fi
