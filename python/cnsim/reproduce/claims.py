"""Checks of the papers' claims, on one set of runs (a `view`: rows of one setting, with columns
topology, variant, qeq, seed, part, metric, value). Every check uses the rule of compare.py.

A check returns (holds, evidence, tested): `holds` whether cnsim shows what the claim says (None:
no data); `tested` False when the paper's own numbers contradict the claim (or show no difference
of the minimum size) at every Qeq it covers — cnsim is then not tested against it and `holds` is
for information only. Where the paper's numbers contradict it at some Qeq values only, cnsim is
tested at the others and the evidence says so.
"""

from __future__ import annotations

from typing import Callable

import pandas as pd

from .compare import ci, difference, similar, tolerance
from ..metrics import DEFINITIONS

QEQS = (25, 50, 75)
UNITS = {d["metric"]: d["unit"] for d in DEFINITIONS if d["scope"] == "global"} | {
    "q_mean_frames": "frames", "q_std_frames": "frames", "q_dev_from_qeq_frames": "frames"}
ARROW = {1: "higher", -1: "lower", 0: "no difference", None: "no data"}


def unit(metric: str) -> str:
    return UNITS.get(metric, "1")


_INDEX: dict[int, tuple] = {}  # id(view) → (view, {(topology, variant, qeq, part, metric): values}); kept alive


def samples(df: pd.DataFrame, topology: str, variant: str, metric: str, qeq: int, part: str = "all") -> list[float]:
    """The values (one per seed) of a metric in a configuration of a view."""
    if id(df) not in _INDEX:
        keys = zip(df.topology, df.variant, df.qeq, df.part, df.metric)
        index: dict[tuple, list] = {}
        for k, v in zip(keys, df["value"]):
            if v == v:
                index.setdefault(k, []).append(v)
        _INDEX[id(df)] = (df, index)
    return list(_INDEX[id(df)][1].get((topology, variant, qeq, part, metric), []))


def forget() -> None:
    """Drop the indexes of `samples` (call when the views are no longer used)."""
    _INDEX.clear()


def show(values) -> str:
    from .common import fmt

    mean, half, n = ci(values)
    return "–" if mean is None else f"{fmt(mean)} ± {fmt(half) if half != float('inf') else '∞'}"


def _paper_dir(pa, pb, m: str) -> int:
    if abs(pa - pb) < tolerance(max(abs(pa), abs(pb)), unit(m)):
        return 0
    return 1 if pa > pb else -1


def schemes(topo, metric: str, a: str, b: str, a_higher: bool, qeqs=QEQS, part: str = "all") -> Callable:
    """`a`'s metric is higher (lower) than `b`'s at each Qeq of `qeqs` — at those where the paper's
    own numbers (if it gives them) show that difference of at least the minimum size."""
    want = 1 if a_higher else -1

    def check(df):
        pa, pb = topo.paper.get((metric, a)), topo.paper.get((metric, b))
        tested = [q for q in qeqs if not (pa and pb) or _paper_dir(pa[QEQS.index(q)], pb[QEQS.index(q)], metric) == want]
        skipped = [q for q in qeqs if q not in tested]
        on = tested or list(qeqs)
        dirs = {q: difference(samples(df, topo.key, a, metric, q, part), samples(df, topo.key, b, metric, q, part), unit(metric))
                for q in qeqs}
        if any(dirs[q] is None for q in on):
            return None, "no data", bool(tested)
        ev = "; ".join(f"Qeq {q}: {a} {show(samples(df, topo.key, a, metric, q, part))} vs {b} "
                       f"{show(samples(df, topo.key, b, metric, q, part))} → {ARROW[dirs[q]]}" for q in qeqs)
        if skipped:
            ev += (f" — the paper's own numbers do not show it at Qeq {', '.join(map(str, skipped))} ("
                   + ", ".join(f"{pa[QEQS.index(q)]} vs {pb[QEQS.index(q)]}" for q in skipped) + "): not tested there")
        return all(dirs[q] == want for q in on), f"{metric} ({part}): {ev}", bool(tested)
    return check


def qeq_trend(topo, variant: str, metric: str, increasing: bool, part: str = "all") -> Callable:
    """The metric rises (falls) from Qeq 25 to 75 — a sized, significant difference — with no
    step significantly the other way."""
    want = 1 if increasing else -1

    def check(df):
        s = [samples(df, topo.key, variant, metric, q, part) for q in QEQS]
        steps = [difference(y, x, unit(metric)) for x, y in ((s[0], s[1]), (s[1], s[2]), (s[0], s[2]))]
        if None in steps:
            return None, "no data", True
        ok = steps[2] == want and -want not in steps[:2]
        p = topo.paper.get((metric, variant))
        tested = not p or (p[2] - p[0]) * want > 0
        ev = f"{metric} of {variant} at Qeq 25/50/75: " + " / ".join(show(x) for x in s)
        if not tested:
            ev += f" — the paper's own numbers {' / '.join(map(str, p))} contradict the claim: not tested"
        return ok, ev, tested
    return check


def steady(topo, variant: str, metric: str, part: str = "all") -> Callable:
    """No sized, significant difference between any two Qeq values."""
    def check(df):
        s = [samples(df, topo.key, variant, metric, q, part) for q in QEQS]
        d = [difference(s[i], s[j], unit(metric)) for i in range(3) for j in range(i + 1, 3)]
        if None in d:
            return None, "no data", True
        return all(x == 0 for x in d), f"{metric} of {variant} at Qeq 25/50/75: " + " / ".join(show(x) for x in s), True
    return check


def alike(topo, metric: str, a: str, b: str, part: str = "all") -> Callable:
    """`a` and `b` are similar (difference interval inside ± tolerance) at each Qeq."""
    def check(df):
        r = {q: similar(samples(df, topo.key, a, metric, q, part), samples(df, topo.key, b, metric, q, part), unit(metric)) for q in QEQS}
        if None in r.values():
            return None, "no data", True
        ev = "; ".join(f"Qeq {q}: {a} {show(samples(df, topo.key, a, metric, q, part))} vs {b} "
                       f"{show(samples(df, topo.key, b, metric, q, part))}" for q in QEQS)
        return all(r.values()), f"{metric} ({part}): {ev}", True
    return check


def versus(topo, variant: str, metric: str, value: float, above: bool, qeqs=QEQS) -> Callable:
    """The confidence interval of the metric lies above (below) `value` at each Qeq of `qeqs`."""
    def check(df):
        r = {}
        for q in qeqs:
            mean, half, _ = ci(samples(df, topo.key, variant, metric, q))
            if mean is None:
                return None, "no data", True
            r[q] = (mean - half > value) if above else (mean + half < value)
        ev = f"{metric} of {variant} (reference {value:.1f}): " + "; ".join(
            f"Qeq {q}: {show(samples(df, topo.key, variant, metric, q))}" for q in qeqs)
        return all(r.values()), ev, True
    return check


def floor(metric: str, value: float) -> Callable:
    """Every run's metric is at least `value`."""
    def check(df):
        v = df[(df.part == "all") & (df.metric == metric)]["value"]
        if v.empty:
            return None, "no data", True
        return bool(v.min() >= value - 1e-9), f"lowest {metric} over all {len(v)} runs: {v.min():.3g}", True
    return check


def groups_fewer(topo, variant: str, metric: str, near: tuple[str, ...], far: str) -> Callable:
    """Group `far` has a lower metric than each group of `near` at each Qeq."""
    def check(df):
        r = {}
        for q in QEQS:
            f = samples(df, topo.key, variant, metric, q, far)
            r[q] = [difference(f, samples(df, topo.key, variant, metric, q, g), unit(metric)) for g in near]
            if None in r[q]:
                return None, "no group data", True
        ev = "; ".join(f"Qeq {q}: " + ", ".join(f"{g} {show(samples(df, topo.key, variant, metric, q, g))}"
                                                 for g in (far, *near)) for q in QEQS)
        return all(all(d == -1 for d in r[q]) for q in QEQS), f"{metric} of {variant} by group: {ev}", True
    return check
