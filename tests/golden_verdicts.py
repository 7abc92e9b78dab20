"""Shared by tests/test_golden_verdicts.py and scripts/golden.py: where the golden verdict files
are, which experiments CI re-runs in full, and what a golden record holds."""

from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
# Experiments whose full reproduction takes under a minute on two cores: CI re-runs them in full;
# the others with --quick (their full golden file is the record; scripts/golden.py writes both).
FULL_IN_CI = ("nakauchi-sirens", "jiang2007-bcn", "mliki2016-dumbbell", "dcqcn-fixed-point")


def golden_record(verdicts: dict, wall_s: float) -> dict:
    """What a golden file keeps of a run's verdicts.json: the states, counts, seeds, mode and the
    wall time of the run that wrote it."""
    return {"experiment": verdicts["experiment"], "seeds": verdicts["seeds"], "quick": verdicts["quick"],
            "counts": verdicts["counts"], "states": verdicts["states"], "wall_s": round(wall_s, 1)}


def diff(golden: dict, now: dict) -> list[str]:
    """One line per check whose state changed, appeared or disappeared."""
    lines = []
    for key in sorted(set(golden) | set(now)):
        a, b = golden.get(key, "(absent)"), now.get(key, "(absent)")
        if a != b:
            lines.append(f"  {key}: {a} → {b}")
    return lines
