"""The comparison rule of the reproduction reports, written once.

A number of the paper is compared with cnsim's values over seeds (one value per seed):

- **Confidence interval.** cnsim's mean with its 95 % Student-t interval over the seeds
  (half-width t₀.₉₇₅,ₙ₋₁ · s/√n; one seed gives no interval).
- **Tolerance**, by unit (`tolerance`): times ±0.25 s absolute (a quarter of the 1-s spacing of the
  source start times, which is what the papers' "after the first 4 s" resolves); rates (Mb/s) and
  percentages ±20 % of the paper's value (percentages with a floor of 0.5 points, frames of 2 frames,
  so that a paper value of 0 does not demand an exact 0); Jain indices ±0.05. The papers report one
  run per point, read from a figure or rounded in the text, with no spread: 20 % is the smallest
  relative band that the seed-to-seed spread of cnsim's own CR and feedback metrics (10–30 % of the
  mean at 10 seeds) does not already fill.
- **Point verdict** (`verdict`): "agrees" when the whole interval lies inside paper ± tolerance;
  "differs" when the whole interval lies outside it; otherwise "inconclusive".
- **Trend gate** (`row_verdicts`): a row of points over Qeq 25/50/75 is called in agreement only if
  cnsim's trend matches the paper's: every step the paper makes beyond the tolerance must be a
  `difference` in the same direction in cnsim, and every step it does not make must not be one.
  Points that agree where the trend does not are reported as "agrees, trend differs".
- **Difference between schemes or Qeq values** (`difference`): counted only when significant — the
  Welch 95 % interval of the difference of means excludes 0 — *and* at least the tolerance of the
  larger mean (a difference smaller than what we call agreement with the paper is no effect).
- **Similar** (`similar`): the Welch interval of the difference lies inside ± the tolerance.
"""

from __future__ import annotations

import math
import statistics as st

# t quantiles (0.975) by degrees of freedom 1..30; 1.96 beyond 120
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)
TIME_TOL_S = 0.25
REL_TOL = 0.20
FLOORS = {"%": 0.5, "frames": 2.0, "Mb/s": 0.0}
JAIN_TOL = 0.05

RULE = ("cnsim's 95 % Student-t confidence interval over seeds must lie inside the paper's value ± a "
        f"tolerance: ±{TIME_TOL_S} s for times, ±{REL_TOL:.0%} for rates and percentages (floors: "
        f"{FLOORS['%']} points, {FLOORS['frames']:g} frames), ±{JAIN_TOL} for Jain indices — \"agrees\"; "
        "the whole interval outside is \"differs\"; otherwise \"inconclusive\". A row over Qeq agrees only if "
        "cnsim's trend matches the paper's step by step. A difference between schemes (or between Qeq values) "
        "counts only when its Welch 95 % interval excludes 0 and it is at least the tolerance of the larger mean.")


def t975(df: float) -> float:
    if df < 1:
        return math.inf
    df = int(df)
    if df <= 30:
        return _T975[df - 1]
    return 2.042 - (df - 30) * (2.042 - 1.980) / 90 if df < 120 else 1.96


def clean(values) -> list[float]:
    return [float(v) for v in values if v is not None and v == v]


def ci(values) -> tuple[float | None, float, int]:
    """(mean, 95 % half-width, n); half-width inf for one value, mean None for none."""
    v = clean(values)
    if not v:
        return None, math.inf, 0
    if len(v) == 1:
        return v[0], math.inf, 1
    return st.fmean(v), t975(len(v) - 1) * st.stdev(v) / math.sqrt(len(v)), len(v)


def tolerance(paper: float, unit: str) -> float:
    if unit == "s":
        return TIME_TOL_S
    if unit == "1":
        return JAIN_TOL
    return max(REL_TOL * abs(paper), FLOORS.get(unit, 0.0))


def verdict(paper: float, values, unit: str) -> str:
    mean, half, _ = ci(values)
    if mean is None:
        return "no data"
    tol, off = tolerance(paper, unit), abs(mean - paper)
    if off + half <= tol:
        return "agrees"
    if off - half > tol:
        return "differs"
    return "inconclusive"


def _welch(a, b) -> tuple[float | None, float]:
    """(mean(a) − mean(b), Welch 95 % half-width)."""
    a, b = clean(a), clean(b)
    if not a or not b:
        return None, math.inf
    d = st.fmean(a) - st.fmean(b)
    if len(a) < 2 or len(b) < 2:
        return d, math.inf
    va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
    se2 = va + vb
    if se2 == 0:
        return d, 0.0
    df = se2 ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return d, t975(df) * math.sqrt(se2)


def difference(a, b, unit: str) -> int | None:
    """+1 if a is larger than b (significant and at least the tolerance), −1 if smaller, 0 if no
    such difference, None without data."""
    d, half = _welch(a, b)
    if d is None:
        return None
    big = max(abs(st.fmean(clean(a))), abs(st.fmean(clean(b))))
    if abs(d) - half > 0 and abs(d) >= tolerance(big, unit):
        return 1 if d > 0 else -1
    return 0


def similar(a, b, unit: str) -> bool | None:
    d, half = _welch(a, b)
    if d is None:
        return None
    big = max(abs(st.fmean(clean(a))), abs(st.fmean(clean(b))))
    return abs(d) + half <= tolerance(big, unit)


def paper_step(p1: float, p2: float, unit: str) -> int:
    """Direction of the paper's own step between two values (0 within the tolerance)."""
    if abs(p2 - p1) < tolerance(max(abs(p1), abs(p2)), unit):
        return 0
    return 1 if p2 > p1 else -1


def trend_matches(paper: list, samples: list, unit: str) -> bool | None:
    """Whether cnsim's steps over Qeq have the paper's directions (None without enough data)."""
    for (p1, p2), (a, b) in zip(zip(paper, paper[1:]), zip(samples, samples[1:])):
        if p1 is None or p2 is None:
            continue
        d = difference(b, a, unit)
        if d is None:
            return None
        if d != paper_step(p1, p2, unit):
            return False
    return True


def row_verdicts(paper: list, samples: list, unit: str) -> list[str]:
    """Point verdicts over Qeq, with the trend gate applied to the points that agree."""
    points = [verdict(p, s, unit) if p is not None else "no number in the paper" for p, s in zip(paper, samples)]
    if "agrees" in points and trend_matches(paper, samples, unit) is not True:
        points = ["agrees, trend differs" if v == "agrees" else v for v in points]
    return points
