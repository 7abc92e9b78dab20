#!/usr/bin/env bash
# Tests: set up, then the engine's Rust unit tests and the Python test suite (slow reproductions
# and benchmarks are excluded; run them with `.venv/bin/pytest -m slow`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --release -p cnsim-engine
.venv/bin/python -m pytest -q --durations=12 "$@"
