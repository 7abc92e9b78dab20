"""Calibration of the claims: every claim's rule fed the paper's own data must say *supported*, and
fed data that contradicts the claim must say *not supported* — with no simulation.

The paper's data are made as cnsim's would be: `SEEDS` values per quantity, spread by ±`JITTER` of
the value (relative) around the stated number, so that an interval exists and is as narrow as a
reproduction that matched the paper exactly would give. Quantities measured in the same runs share
their runs (`runs=`), so the rule compares them paired, as it does cnsim's.

    calibrate(check) → (state on the paper's data, state on the counter-datum)
    problems(checks) → one line per claim that is not calibrated or fails its calibration
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .compare import NOT_SUPPORTED, SUPPORTED, Values
from .verdicts import Check

SEEDS = 10       # values per quantity fed to a rule
JITTER = 0.001   # their relative spread: ±0.1 % of the value


def stated(value: float, *, runs=None, n: int = SEEDS, jitter: float = JITTER) -> Values:
    """`n` values spread evenly over `value` × (1 ± `jitter`), mean exactly `value` (seeds 1..n)."""
    value = float(value)
    spread = np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return Values([value * (1 + jitter * u) for u in spread], runs=runs, seeds=range(1, n + 1))


def calibrate(check: Check) -> tuple[str, str]:
    """The rule's states on the paper's data and on the counter-datum."""
    cal = check.calibration
    if cal is None or check.decide is None:
        raise ValueError(f"{check.id}: no calibration")
    return check.decide(**cal.paper).state, check.decide(**cal.counter).state


def problems(checks: list[Check]) -> list[str]:
    """One line per counted claim (kind "paper", not by construction) that has no calibration or
    whose rule does not give supported on the paper's data and not supported on the counter-datum,
    and per untestable row without its reason."""
    out = []
    for c in checks:
        if c.kind == "untestable":
            if not c.reason:
                out.append(f"{c.id}: untestable without a reason")
            continue
        if c.kind != "paper" or c.verdict.state == "holds by construction":
            continue
        if c.calibration is None or c.decide is None:
            out.append(f"{c.id}: no calibration (paper's data and counter-datum)")
            continue
        try:
            on_paper, on_counter = calibrate(c)
        except Exception as exc:   # a rule that cannot take its own calibration data is a defect of the row
            out.append(f"{c.id}: calibration raised {type(exc).__name__}: {exc}")
            continue
        if on_paper != SUPPORTED:
            out.append(f"{c.id}: the paper's own data give {on_paper!r}, not 'supported'")
        if on_counter != NOT_SUPPORTED:
            out.append(f"{c.id}: the counter-datum gives {on_counter!r}, not 'not supported'")
    return out


def empty_checks(paper, out: Path) -> list[Check]:
    """The checks of `paper` built on no runs at all (their rules and calibrations; every verdict on
    cnsim's data is then inconclusive for lack of data)."""
    from .paper import Runs

    tasks = paper.tasks(2, True)
    runs = Runs(tasks, [{"values": [], "extra": None} for _ in tasks], seeds=2, quick=True, out=out)
    return paper.checks(runs)
