"""Shared by tests/test_golden_verdicts.py and scripts/golden.py: where the golden verdict files
are, what a golden record holds, and how a re-run is compared with it.

Every experiment is re-run in full in CI (its default schedule of seeds, as `cnsim reproduce NAME`
runs it): the states must be equal, and each row's numbers must agree — every mean the golden run
decided on must lie inside today's interval of the same quantity, and today's mean inside the
golden interval."""

from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def golden_record(verdicts: dict, wall_s: float) -> dict:
    """What a golden file keeps of a run's verdicts.json: the states, counts, seeds, schedule,
    mode, each row's intervals and the wall time of the run that wrote it."""
    keep = ("experiment", "seeds", "quick", "counts", "states", "numbers", "schedule", "level")
    return {**{k: verdicts[k] for k in keep if k in verdicts}, "wall_s": round(wall_s, 1)}


def diff(golden: dict, now: dict) -> list[str]:
    """One line per check whose state changed, appeared or disappeared."""
    lines = []
    for key in sorted(set(golden) | set(now)):
        a, b = golden.get(key, "(absent)"), now.get(key, "(absent)")
        if a != b:
            lines.append(f"  {key}: {a} → {b}")
    return lines


def _inside(x, low, high) -> bool:
    return x is None or low is None or high is None or low - 1e-9 * max(1.0, abs(low)) <= x <= high + 1e-9 * max(1.0, abs(high))


def number_diff(golden: dict, now: dict) -> list[str]:
    """One line per row whose intervals differ in number, or where a golden mean lies outside
    today's interval or today's mean outside the golden one (each [mean, low, high, n])."""
    lines = []
    for key in sorted(set(golden) & set(now)):
        g, n = golden[key], now[key]
        if len(g) != len(n):
            lines.append(f"  {key}: {len(g)} interval(s) → {len(n)}")
            continue
        for i, (a, b) in enumerate(zip(g, n)):
            if not (_inside(a[0], b[1], b[2]) and _inside(b[0], a[1], a[2])):
                lines.append(f"  {key}[{i}]: golden {a[0]} [{a[1]}, {a[2]}] (n = {a[3]}) vs now {b[0]} [{b[1]}, {b[2]}] "
                             f"(n = {b[3]})")
    return lines
