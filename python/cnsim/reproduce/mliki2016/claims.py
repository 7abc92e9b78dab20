"""Checks of the claims of Mliki et al. 2016a/b on one set of runs (a `spec.view`), each a function
of the view returning a three-state `Verdict` by compare.py's rule.

The minimum effect of a difference between schemes or Qeq values is the default tolerance of the
larger mean (`compare.tolerance`): a difference smaller than what counts as agreement with a paper
number is no effect. Where the paper's own numbers do not show a claimed difference at some Qeq,
cnsim is tested at the others (the evidence says so); where they show it at none, at every Qeq.
"""

from __future__ import annotations

from typing import Callable

import pandas as pd

from .. import compare
from ..compare import INCONCLUSIVE, NOT_SUPPORTED, SUPPORTED, Verdict
from .spec import QEQS, Topology, samples, unit

Check = Callable[[pd.DataFrame], Verdict]


def min_effect(a, b, metric: str) -> float:
    """The default tolerance of the larger of the two means."""
    big = max(abs(compare.interval(a).mean or 0.0), abs(compare.interval(b).mean or 0.0))
    return compare.tolerance(big, unit(metric))


def _paper_dir(pa: float, pb: float, metric: str) -> int:
    if abs(pa - pb) < compare.tolerance(max(abs(pa), abs(pb)), unit(metric)):
        return 0
    return 1 if pa > pb else -1


def _at(q: int, v: Verdict) -> Verdict:
    return Verdict(v.state, f"Qeq {q}: {v.evidence}")


def schemes(topo: Topology, metric: str, a: str, b: str, a_higher: bool, qeqs=QEQS, part: str = "all") -> Check:
    """`a`'s metric is higher (lower) than `b`'s at each Qeq of `qeqs` where the paper's own
    numbers (if it gives them) show that difference."""
    want = 1 if a_higher else -1

    def check(df):
        pa, pb = topo.paper.get((metric, a)), topo.paper.get((metric, b))
        shown = [q for q in qeqs if not (pa and pb) or _paper_dir(pa[QEQS.index(q)], pb[QEQS.index(q)], metric) == want]
        verdicts = []
        for q in shown or qeqs:
            x, y = samples(df, topo.key, a, metric, q, part), samples(df, topo.key, b, metric, q, part)
            verdicts.append(_at(q, compare.exceeds(x, y, min_effect(x, y, metric), want)))
        v = compare.all_of(verdicts)
        skipped = [q for q in qeqs if q not in shown]
        note = (f" — the paper's own numbers do not show it at Qeq {', '.join(map(str, skipped))}: not tested there"
                if shown and skipped else " — the paper's own numbers show it at no Qeq: tested at every Qeq"
                if not shown else "")
        return Verdict(v.state, f"{metric} ({part}), {a} − {b}: {v.evidence}{note}")
    return check


def qeq_trend(topo: Topology, variant: str, metric: str, increasing: bool, part: str = "all") -> Check:
    """The metric rises (falls) from Qeq 25 to 75 by at least the minimum effect, with no step
    significantly the other way."""
    want = 1 if increasing else -1

    def check(df):
        s = [samples(df, topo.key, variant, metric, q, part) for q in QEQS]
        main = compare.exceeds(s[2], s[0], min_effect(s[2], s[0], metric), want)
        back = [compare.exceeds(y, x, min_effect(x, y, metric), -want) for x, y in ((s[0], s[1]), (s[1], s[2]))]
        state = NOT_SUPPORTED if any(b.state == SUPPORTED for b in back) else main.state
        where = "" if part == "all" else f" ({part})"
        return Verdict(state, f"{metric} of {variant}{where}, Qeq 75 − Qeq 25: {main.evidence}; at Qeq 25/50/75: "
                              + " / ".join(compare.interval(x).show() for x in s))
    return check


def steady(topo: Topology, variant: str, metric: str, part: str = "all") -> Check:
    """Alike at every Qeq: the Welch interval of each pair's difference within ± the minimum effect."""
    def check(df):
        s = {q: samples(df, topo.key, variant, metric, q, part) for q in QEQS}
        pairs = [(p, q) for i, p in enumerate(QEQS) for q in QEQS[i + 1:]]
        v = compare.all_of([Verdict(x.state, f"Qeq {p} vs {q}: {x.evidence}") for p, q in pairs
                            for x in [compare.similar(s[p], s[q], min_effect(s[p], s[q], metric))]])
        return Verdict(v.state, f"{metric} of {variant}: {v.evidence}")
    return check


def alike(topo: Topology, metric: str, a: str, b: str, part: str = "all", most: bool = False) -> Check:
    """`a` and `b` alike at each Qeq (difference within ± the minimum effect); `most`: at the
    majority of the Qeq values (`compare.most_of`)."""
    def check(df):
        verdicts = []
        for q in QEQS:
            x, y = samples(df, topo.key, a, metric, q, part), samples(df, topo.key, b, metric, q, part)
            verdicts.append(_at(q, compare.similar(x, y, min_effect(x, y, metric))))
        v = compare.most_of(verdicts) if most else compare.all_of(verdicts)
        return Verdict(v.state, f"{metric} ({part}), {a} − {b}: {v.evidence}")
    return check


def across(a: Topology, b: Topology, variant: str, metric: str, a_higher: bool) -> Check:
    """`variant`'s metric is higher (lower) on topology `a` than on topology `b` at each Qeq (the
    same variant name in both)."""
    want = 1 if a_higher else -1

    def check(df):
        verdicts = []
        for q in QEQS:
            x, y = samples(df, a.key, variant, metric, q), samples(df, b.key, variant, metric, q)
            verdicts.append(_at(q, compare.exceeds(x, y, min_effect(x, y, metric), want)))
        v = compare.all_of(verdicts)
        return Verdict(v.state, f"{metric} of {variant}, {a.key} − {b.key}: {v.evidence}")
    return check


def versus(topo: Topology, variant: str, metric: str, value: float, above: bool, qeqs=QEQS) -> Check:
    """The interval of the metric lies above (below) `value` at each Qeq of `qeqs`."""
    def check(df):
        v = compare.all_of([_at(q, compare.beyond(samples(df, topo.key, variant, metric, q), value, 1 if above else -1))
                            for q in qeqs])
        return Verdict(v.state, f"{metric} of {variant}: {v.evidence}")
    return check


def all_checks(checks: list[Check]) -> Check:
    """Every one of `checks` (compare.all_of)."""
    def check(df):
        return compare.all_of([c(df) for c in checks])
    return check


def floor(metric: str, value: float, why: str) -> Check:
    """Holds by construction (e.g. a rate floor that is a scenario parameter); the lowest value is
    shown as evidence."""
    def check(df):
        v = df[(df.part == "all") & (df.metric == metric)]["value"]
        low = compare.num(v.min()) if not v.empty else "no data"
        return compare.by_construction(why, f"lowest {metric} over all {len(v)} runs: {low}; floor "
                                            f"{compare.num(value)}")
    return check


def constructed(why: str, inner: Check) -> Check:
    """A comparison that cannot come out otherwise because of how the scenario is built: labelled
    so (the comparison is shown as evidence)."""
    def check(df):
        return compare.by_construction(why, inner(df).evidence)
    return check


def groups_fewer(topo: Topology, variant: str, metric: str, near: tuple[str, ...], far: str,
                 lower: bool = True) -> Check:
    """Group `far` has a lower (`lower=False`: higher) metric than each group of `near` at each Qeq."""
    want = -1 if lower else 1

    def check(df):
        verdicts = []
        for q in QEQS:
            f = samples(df, topo.key, variant, metric, q, far)
            for g in near:
                n = samples(df, topo.key, variant, metric, q, g)
                verdicts.append(_at(q, Verdict((x := compare.exceeds(f, n, min_effect(f, n, metric), want)).state,
                                               f"{far} − {g}: {x.evidence}")))
        v = compare.all_of(verdicts)
        return Verdict(v.state if v.state != INCONCLUSIVE or verdicts else INCONCLUSIVE,
                       f"{metric} of {variant} by group: {v.evidence}")
    return check


def cell(paper: float, values, metric: str) -> Verdict:
    """A number of the paper's tables against cnsim's interval (default tolerance of its unit)."""
    return compare.against(values, paper, compare.tolerance(paper, unit(metric)))


def trend(topo: Topology, variant: str, metric: str, paper: tuple, df: pd.DataFrame) -> Verdict | None:
    """cnsim's steps over Qeq have the paper's directions: every step the paper makes beyond the
    tolerance must be a difference in the same direction (None: the paper makes no such step)."""
    verdicts = []
    for (q1, p1), (q2, p2) in zip(zip(QEQS, paper), list(zip(QEQS, paper))[1:]):
        if p1 is None or p2 is None:
            continue
        d = _paper_dir(p2, p1, metric)
        if d == 0:
            continue
        x, y = samples(df, topo.key, variant, metric, q1), samples(df, topo.key, variant, metric, q2)
        verdicts.append(Verdict((v := compare.exceeds(y, x, min_effect(x, y, metric), d)).state,
                                f"Qeq {q1}→{q2} ({'up' if d > 0 else 'down'} in the paper): {v.evidence}"))
    return compare.all_of(verdicts) if verdicts else None
