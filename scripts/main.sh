#!/usr/bin/env bash
# Main job: set up, then re-run seed 000's dumbbell experiment (multicast and multiple unicast,
# Qeq 25/50/75 frames) and write its report next to the paper's numbers; it ends by printing the verdict
# counts, the three most important rows and the report's path (docs/reproduction.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/cnsim reproduce mliki2016-dumbbell "$@"
