"""The one statistical rule of every reproduction report: three-state verdicts over seeds.

Every claim of every paper is decided by one of the functions below, on one value per seed (no
verdict ever rests on one run: fewer than two values give *inconclusive*):

- **Against a paper number** (`against`): cnsim's mean with its 95 % Student-t interval over the
  seeds. *Supported* when the whole interval lies inside the paper's value ± the stated tolerance;
  *not supported* when it lies wholly outside; *inconclusive* when it straddles a boundary.
- **Between two schemes or settings** (`exceeds`): the Welch 95 % interval of the difference of
  means (Welch–Satterthwaite degrees of freedom), or the t-interval of per-seed differences when
  the runs are paired by seed (`paired=True`). *Supported* when the interval excludes 0 in the
  claimed direction and the mean difference is at least the stated minimum effect; *not supported*
  when it excludes 0 the other way, or when the whole interval lies within ± the minimum effect (no
  effect of the claimed size); otherwise *inconclusive* (the interval straddles 0, or the effect is
  below the minimum without that being shown).
- **Similar** (`similar`): supported when the Welch interval lies inside ± the tolerance; not
  supported when it lies wholly outside; otherwise inconclusive.
- **Beyond a reference value** (`beyond`): the interval lies wholly above (below) it → supported;
  wholly on the other side → not supported; otherwise inconclusive.
- Verdicts combine (`all_of`) as a conjunction: any *not supported* → not supported; all
  *supported* → supported; otherwise inconclusive.

Tolerances and minimum effects default by unit (`tolerance`) and are printed in every report
(`RULE`); a claim may state its own. Checks that hold by construction (a scenario parameter, a
consequence of the offered load) are labelled `BY_CONSTRUCTION` and kept out of the counts.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
from scipy import stats

SUPPORTED, NOT_SUPPORTED, INCONCLUSIVE = "supported", "not supported", "inconclusive"
BY_CONSTRUCTION = "holds by construction"
STATES = (SUPPORTED, NOT_SUPPORTED, INCONCLUSIVE)
LEVEL = 0.95    # the family's confidence over every look of a sequential design (runs.py)
MIN_SEEDS = 2   # an interval needs two values; fewer give "inconclusive"
# The level of every interval computed now: LEVEL, or LEVEL's share at one look of a sequential
# design (`at_level`, set by runs.reproduce).
_LEVEL: ContextVar[float] = ContextVar("level", default=LEVEL)


@contextmanager
def at_level(level: float):
    """Compute every interval inside the block at `level` (0 < level < 1)."""
    if not 0 < level < 1:
        raise ValueError(f"level {level!r} is not in (0, 1)")
    token = _LEVEL.set(level)
    try:
        yield
    finally:
        _LEVEL.reset(token)


def level() -> float:
    """The level of the intervals computed now."""
    return _LEVEL.get()


class Values(list):
    """Values of one quantity, one per run, that know their runs: `runs` names the configuration
    they were measured in and `seeds` the seed of each value. Two `Values` of the same runs are two
    quantities of the same simulations: they must be compared paired (per-seed differences), and
    `welch` refuses them."""

    def __init__(self, values=(), *, runs=None, seeds=None):
        super().__init__(values)
        self.runs = runs
        self.seeds = list(seeds) if seeds is not None else list(range(1, len(self) + 1))
        if len(self.seeds) != len(self):
            raise ValueError(f"{len(self)} values but {len(self.seeds)} seeds")

    def by_seed(self) -> dict:
        return dict(zip(self.seeds, self))


def same_runs(a, b) -> bool:
    """Whether `a` and `b` are values of the same runs (both `Values` of one configuration with a
    seed in common)."""
    return (isinstance(a, Values) and isinstance(b, Values) and a.runs is not None and a.runs == b.runs
            and bool(set(a.seeds) & set(b.seeds)))


def _seeds(values) -> dict:
    """{seed: value} of `values`: a dict as it is, `Values` by their seeds, a list by position."""
    if isinstance(values, dict):
        return values
    if isinstance(values, Values):
        return values.by_seed()
    return dict(enumerate(values, 1))

# Default tolerances by unit, taken from what the papers state (a paper with a tolerance of its own —
# Jiang & Jain's "very close", Nakauchi's channel ladder, DCQCN's open readings — uses that instead):
# ±20 % stays inside the largest relative difference Mliki et al. 2016a calls no change (§3.4: the
# multicast feedback rates 2.49 / 3.35 / 2.46 % are "almost steady", 26.6 % of the largest apart);
# times ±0.25 s are a quarter of the 1-s spacing of the source start times, which is what "after the
# first 4 s" resolves; Jain indices ±0.05, a stated reading (the papers give no index in numbers:
# their Figs. 16 and 12 are not in the texts).
REL_TOL = 0.20
TIME_TOL_S = 0.25
JAIN_TOL = 0.05
FLOORS = {"%": 0.5, "frames": 2.0}   # so that a paper value of 0 does not demand an exact 0

RULE = (f"Each verdict is supported / not supported / inconclusive, from {LEVEL:.0%} intervals over seeds "
        f"(never from one run: fewer than {MIN_SEEDS} values are inconclusive). Against a paper number: the "
        "Student-t interval of cnsim's mean must lie inside the paper's value ± the tolerance (supported), wholly "
        "outside it (not supported), or straddles a boundary (inconclusive). Between schemes or settings: the "
        "Welch interval of the difference of means (per-seed differences when paired) must exclude 0 in the "
        "claimed direction with a mean difference of at least the minimum effect (supported); two quantities of the "
        "same runs are always compared by their per-seed differences, never by Welch's interval; it excludes 0 the "
        "other way, or lies wholly within ± the minimum effect (not supported); otherwise inconclusive. Default "
        f"tolerance and minimum effect: ±{REL_TOL:.0%} of the value for rates and percentages (floors "
        f"{FLOORS['%']:g} points, {FLOORS['frames']:g} frames), ±{TIME_TOL_S:g} s for times, ±{JAIN_TOL:g} for "
        "Jain indices; a claim that states its own says so in its row. Every claim is calibrated: its rule gives "
        "supported on the paper's own data and not supported on a counter-datum, or the claim is listed as not "
        "testable as stated and not counted. A conjunction (every Qeq, every step) is "
        "not supported if any part is not, supported if all are, else inconclusive. Checks that hold by "
        "construction are labelled so and left out of the counts.")


@dataclass(frozen=True)
class Interval:
    """A mean (or difference of means) with its two-sided interval and the values behind it."""
    mean: float | None
    low: float
    high: float
    n: int

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    def show(self, digits: int = 3) -> str:
        """"mean ± half-width (n)"; "∞" when no interval exists."""
        if self.mean is None:
            return "no data"
        half = "∞" if math.isinf(self.half) else num(self.half, digits)
        return f"{num(self.mean, digits)} ± {half} (n = {self.n})"


@dataclass(frozen=True)
class Verdict:
    state: str                 # one of STATES, or BY_CONSTRUCTION
    evidence: str              # what was compared, with the intervals
    intervals: tuple = ()      # the intervals the state was decided on (golden files compare them)

    def __post_init__(self):
        if self.state not in (*STATES, BY_CONSTRUCTION):
            raise ValueError(f"unknown verdict state {self.state!r}")

    def saying(self, evidence: str) -> "Verdict":
        """The same verdict (state and intervals) with other evidence text."""
        return Verdict(self.state, evidence, self.intervals)


def num(x: float | None, digits: int = 3) -> str:
    """A number for a report: `digits` significant digits, no exponent below 10⁶."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x != 0 and abs(x) >= 10 ** digits:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def clean(values) -> np.ndarray:
    a = np.asarray([v for v in values if v is not None], dtype=float)
    return a[~np.isnan(a)]


def interval(values, level: float | None = None) -> Interval:
    """The Student-t interval of the mean of `values` (infinite with one value) at `level` (None:
    the level in force, `at_level`)."""
    level = _LEVEL.get() if level is None else level
    v = clean(values.values() if isinstance(values, dict) else values)
    if v.size == 0:
        return Interval(None, -math.inf, math.inf, 0)
    m = float(v.mean())
    if v.size < 2:
        return Interval(m, -math.inf, math.inf, int(v.size))
    sem = float(v.std(ddof=1)) / math.sqrt(v.size)
    half = float(stats.t.ppf(0.5 + level / 2, v.size - 1)) * sem
    return Interval(m, m - half, m + half, int(v.size))


def welch(a, b, level: float | None = None) -> Interval:
    """The Welch interval of mean(a) − mean(b); n is the smaller sample. Values of the same runs
    (`same_runs`) are refused: they are paired, and a Welch interval ignores their correlation."""
    if same_runs(a, b):
        raise ValueError(f"values of the same runs ({a.runs}) must be compared paired, not with Welch's interval")
    level = _LEVEL.get() if level is None else level
    a = clean(a.values() if isinstance(a, dict) else a)
    b = clean(b.values() if isinstance(b, dict) else b)
    if a.size == 0 or b.size == 0:
        return Interval(None, -math.inf, math.inf, 0)
    d = float(a.mean() - b.mean())
    n = int(min(a.size, b.size))
    if n < 2:
        return Interval(d, -math.inf, math.inf, n)
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se2 = float(va + vb)
    if se2 == 0:
        return Interval(d, d, d, n)
    df = se2 ** 2 / (va ** 2 / (a.size - 1) + vb ** 2 / (b.size - 1))
    half = float(stats.t.ppf(0.5 + level / 2, df)) * math.sqrt(se2)
    return Interval(d, d - half, d + half, n)


def paired_differences(a, b) -> list[float]:
    """a[seed] − b[seed] over the seeds both have (`a`, `b`: {seed: value} or `Values`)."""
    a, b = _seeds(a), _seeds(b)
    return [a[s] - b[s] for s in sorted(a) if s in b and a[s] is not None and b[s] is not None]


def tolerance(reference: float, unit: str) -> float:
    """The default tolerance (and minimum effect) for a value of `unit` near `reference`."""
    if unit == "s":
        return TIME_TOL_S
    if unit in ("1", "jain"):
        return JAIN_TOL
    return max(REL_TOL * abs(reference), FLOORS.get(unit, 0.0))


def _enough(iv: Interval) -> str | None:
    if iv.mean is None:
        return "no data"
    if iv.n < MIN_SEEDS:
        return f"{iv.n} run(s): no interval"
    return None


def against(values, paper: float, tol: float) -> Verdict:
    """cnsim's interval against `paper` ± `tol`."""
    iv = interval(values)
    ev = f"cnsim {iv.show()} vs paper {num(paper)} ± {num(tol)}"
    if _enough(iv):
        return Verdict(INCONCLUSIVE, f"{ev}: {_enough(iv)}", (iv,))
    if paper - tol <= iv.low and iv.high <= paper + tol:
        return Verdict(SUPPORTED, ev, (iv,))
    if iv.high < paper - tol or iv.low > paper + tol:
        return Verdict(NOT_SUPPORTED, ev, (iv,))
    return Verdict(INCONCLUSIVE, ev, (iv,))


def judge_difference(iv: Interval, min_effect: float, direction: int = 1, what: str = "difference") -> Verdict:
    """The three-state verdict on a difference interval for the claim "direction · difference ≥
    min_effect" (direction +1: larger, −1: smaller)."""
    ev = f"{what} {iv.show()}, minimum effect {num(min_effect)}"
    if _enough(iv):
        return Verdict(INCONCLUSIVE, f"{ev}: {_enough(iv)}", (iv,))
    lo, hi = sorted((direction * iv.low, direction * iv.high))
    d = direction * iv.mean
    if lo > 0 and d >= min_effect:
        return Verdict(SUPPORTED, ev, (iv,))
    if hi < 0 or (-min_effect < lo and hi < min_effect):
        return Verdict(NOT_SUPPORTED, ev, (iv,))
    return Verdict(INCONCLUSIVE, ev, (iv,))


def exceeds(a, b, min_effect: float, direction: int = 1, *, paired: bool | None = None) -> Verdict:
    """The claim "a is larger (direction +1) or smaller (−1) than b by at least min_effect". Paired
    (the per-seed differences; `a`, `b`: {seed: value} or `Values`) when asked, or when `a` and `b`
    are values of the same runs; `paired=False` on such values is an error."""
    if paired is None:
        paired = same_runs(a, b)
    iv = interval(paired_differences(a, b)) if paired else welch(a, b)
    return judge_difference(iv, min_effect, direction, "paired difference" if paired else "difference")


def similar(a, b, tol: float, *, paired: bool | None = None) -> Verdict:
    """The claim "a and b are alike": the interval of their difference inside ± tol (Welch's, or
    of the per-seed differences when paired — by default when `a` and `b` are of the same runs)."""
    if paired is None:
        paired = same_runs(a, b)
    iv = interval(paired_differences(a, b)) if paired else welch(a, b)
    ev = f"{'paired ' if paired else ''}difference {iv.show()}, tolerance ± {num(tol)}"
    if _enough(iv):
        return Verdict(INCONCLUSIVE, f"{ev}: {_enough(iv)}", (iv,))
    if -tol <= iv.low and iv.high <= tol:
        return Verdict(SUPPORTED, ev, (iv,))
    if iv.high < -tol or iv.low > tol:
        return Verdict(NOT_SUPPORTED, ev, (iv,))
    return Verdict(INCONCLUSIVE, ev, (iv,))


def beyond(values, reference: float, direction: int = 1) -> Verdict:
    """The claim "the value lies above (direction +1) or below (−1) `reference`"."""
    iv = interval(values)
    ev = f"cnsim {iv.show()} vs reference {num(reference)}"
    if _enough(iv):
        return Verdict(INCONCLUSIVE, f"{ev}: {_enough(iv)}", (iv,))
    lo, hi = sorted((direction * (iv.low - reference), direction * (iv.high - reference)))
    if lo > 0:
        return Verdict(SUPPORTED, ev, (iv,))
    if hi < 0:
        return Verdict(NOT_SUPPORTED, ev, (iv,))
    return Verdict(INCONCLUSIVE, ev, (iv,))


def all_of(verdicts: list[Verdict], joiner: str = "; ") -> Verdict:
    """The conjunction of verdicts (see the module's rule)."""
    if not verdicts:
        return Verdict(INCONCLUSIVE, "no data")
    states = [v.state for v in verdicts]
    state = (NOT_SUPPORTED if NOT_SUPPORTED in states else
             SUPPORTED if all(s == SUPPORTED for s in states) else INCONCLUSIVE)
    return Verdict(state, joiner.join(v.evidence for v in verdicts), tuple(i for v in verdicts for i in v.intervals))


def most_of(verdicts: list[Verdict]) -> Verdict:
    """A majority of `verdicts`: supported when more than half are supported, not supported when
    more than half are not (the rest inconclusive)."""
    if not verdicts:
        return Verdict(INCONCLUSIVE, "no data")
    states = [v.state for v in verdicts]
    state = (SUPPORTED if 2 * states.count(SUPPORTED) > len(states) else
             NOT_SUPPORTED if 2 * states.count(NOT_SUPPORTED) > len(states) else INCONCLUSIVE)
    return Verdict(state, "; ".join(v.evidence for v in verdicts), tuple(i for v in verdicts for i in v.intervals))


def by_construction(why: str, evidence: str = "") -> Verdict:
    """A check that holds because of how the scenario is built: labelled, never counted."""
    return Verdict(BY_CONSTRUCTION, why + (f" ({evidence})" if evidence else ""))
