"""The rules of the claims of Mliki et al. 2016a/b, each a function of named inputs (one `Values`
per configuration: topology, variant, metric, Qeq, part) with its calibration: the same inputs
made of the paper's own data and of a counter-datum (calibration.py).

The paper's data are its stated numbers where it gives them (`Topology.paper`), point by point.
Where it gives words only, they are the smallest effect the words imply: a level the paper states
or a nominal one (`NOMINAL`, said in the row), and the other side moved by the rule's minimum
effect with 2 % to spare (`least`). The counter-datum reverses the claimed order (the schemes, the
Qeq values or the groups swapped) or moves the value out of the band by a margin.

Minimum effects and tolerances: the default of compare.py (20 % of the larger mean, floors 0.5
points and 2 frames; ±0.05 for Jain indices; ±0.25 s) — or, where the paper states both numbers of
a comparison, half the paper's own difference at that Qeq when that is smaller (the paper calls
its own difference an effect; cnsim must show at least half of it). A comparison is tested at the
Qeq values where the paper's own numbers show the claimed direction; the others are named in the
evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from .. import compare
from ..calibration import stated
from ..compare import Values, Verdict
from .spec import QEQS, Topology, unit

Key = tuple   # (topology key, variant, metric, qeq, part)
SPARE = 1.02  # words-only data exceed the rule's minimum effect by 2 %
# Nominal levels for words-only claims (the papers give no number for these quantities): CR at the
# fair share CR_mean = 1 Gb/s ÷ 6 (2016a §3.1), Jain indices 0.9, queues and their deviation in
# frames at a fifth of the 100-frame buffer, rates and losses at the dumbbell's stated scale.
NOMINAL = {"cr_mean_mbps": 1000 / 6, "cr_active_mean_mbps": 1000 / 6, "throughput_mean_mbps": 1000 / 6,
           "cr_std_mbps": 50.0, "cr_active_std_mbps": 50.0, "jain_cr": 0.9, "jain_cr_active": 0.9,
           "jain_throughput": 0.9, "q_mean_frames": 20.0, "q_std_frames": 20.0, "q_dev_from_qeq_frames": 20.0,
           "feedback_rate_pct": 10.0, "loss_rate_pct": 5.0, "total_loss_pct": 20.0, "first_cnm_s": 3.0}


def name(k: Key) -> str:
    t, v, m, q, p = k
    return f"{t}.{v}.{m}.qeq{q}" + ("" if p == "all" else f".{p}")


def runs_of(k: Key) -> tuple:
    """The runs a quantity is measured in: two keys with the same runs are compared paired."""
    return (k[0], k[1], k[3])


_INDEX: dict[int, tuple] = {}   # id(view) → (view, {(topology, variant, qeq, part, metric): {seed: value}})


def values(df: pd.DataFrame, k: Key) -> Values:
    """cnsim's values of `k` in a view (one per seed; they know their runs)."""
    if id(df) not in _INDEX:
        index: dict[tuple, dict] = {}
        for t, v, q, p, m, s, x in zip(df.topology, df.variant, df.qeq, df.part, df.metric, df.seed, df["value"]):
            if x == x:
                index.setdefault((t, v, int(q), p, m), {})[int(s)] = float(x)
        _INDEX[id(df)] = (df, index)
    t, v, m, q, p = k
    d = _INDEX[id(df)][1].get((t, v, q, p, m), {})
    return Values([d[s] for s in sorted(d)], runs=runs_of(k), seeds=sorted(d))


def forget() -> None:
    _INDEX.clear()


def tol(x: float, metric: str) -> float:
    return compare.tolerance(x, unit(metric))


def min_effect(a, b, metric: str) -> float:
    """The default minimum effect: the tolerance of the larger of the two means."""
    big = max(abs(compare.interval(a).mean or 0.0), abs(compare.interval(b).mean or 0.0))
    return tol(big, metric)


def least(base: float, metric: str, direction: int) -> float:
    """The value beyond `base` (above: direction +1) by the rule's minimum effect, with 2 % to spare:
    the smallest difference the rule counts as an effect."""
    d = SPARE * tol(abs(base), metric)
    for _ in range(50):
        d = SPARE * tol(max(abs(base), abs(base + direction * d)), metric)
    return base + direction * d


@dataclass
class Rule:
    """A claim's rule over named inputs (`keys`), its text, and its calibration tables (key → the
    value the paper's data / the counter-datum give it)."""
    keys: list[Key]
    decide: Callable[..., Verdict]
    text: str
    paper: dict = field(default_factory=dict)
    counter: dict = field(default_factory=dict)
    basis: str = ""

    def inputs(self, df: pd.DataFrame) -> dict:
        return {name(k): values(df, k) for k in self.keys}

    def data(self, table: dict) -> dict:
        return {name(k): stated(table[k], runs=runs_of(k)) for k in self.keys}


def _at(q, v: Verdict, what: str = "") -> Verdict:
    return v.saying(f"Qeq {q}{' ' + what if what else ''}: {v.evidence}")


def _label(v: Verdict, head: str, note: str = "") -> Verdict:
    return v.saying(f"{head}: {v.evidence}{note}")


def _stated(topo: Topology, metric: str, variant: str, part: str = "all"):
    return topo.paper.get((metric, variant)) if part == "all" else None


def _swap(table: dict, pairs: list[tuple[Key, Key]]) -> dict:
    out = dict(table)
    for a, b in pairs:
        out[a], out[b] = table[b], table[a]
    return out


def _reflect(table: dict, keys: list[Key]) -> dict:
    """Each value reflected within the range of `keys`' values (lo + hi − x): every step reversed."""
    lo, hi = min(table[k] for k in keys), max(table[k] for k in keys)
    return {**table, **{k: lo + hi - table[k] for k in keys}}


# --- comparisons between schemes (or groups, or topologies) at each Qeq ---------------------------

def compared(a_keys: dict, b_keys: dict, metric: str, want: int, pa=None, pb=None, words: str = "",
             who: str = "", cap: dict | None = None) -> Rule:
    """a − b in direction `want` at each Qeq of `a_keys` ({qeq: key}); `pa`, `pb`: the paper's values
    at those Qeq ({qeq: value}) when it states both, else the words-only data. `cap`: {qeq: the
    largest minimum effect} (None: half the paper's own difference where it states both)."""
    qeqs = list(a_keys)
    if pa is not None and pb is not None:
        shown = [q for q in qeqs if want * (pa[q] - pb[q]) > 0.005]
        cap = {q: abs(pa[q] - pb[q]) / 2 for q in shown} if cap is None else cap
        paper = {**{a_keys[q]: pa[q] for q in qeqs}, **{b_keys[q]: pb[q] for q in qeqs}}
        basis = (f"the paper's values ({who}) at Qeq " + ", ".join(f"{q}: {compare.num(pa[q])} vs {compare.num(pb[q])}"
                                                                   for q in qeqs))
    else:
        shown, cap = qeqs, {}
        base = NOMINAL[metric]
        paper = {**{b_keys[q]: base for q in qeqs}, **{a_keys[q]: least(base, metric, want) for q in qeqs}}
        basis = (f"words only{' (' + words + ')' if words else ''}: the smallest effect the rule counts — "
                 f"{compare.num(base)} against {compare.num(least(base, metric, want))} at every Qeq (the default "
                 "minimum effect with 2 % to spare)")
    tested = shown or qeqs
    skipped = [q for q in qeqs if q not in tested]
    note = (f" — the paper's own numbers do not show it at Qeq {', '.join(map(str, skipped))}: not tested there"
            if skipped else "")

    def decide(**inp) -> Verdict:
        out = []
        for q in tested:
            x, y = inp[name(a_keys[q])], inp[name(b_keys[q])]
            me = min(min_effect(x, y, metric), cap[q]) if q in cap else min_effect(x, y, metric)
            out.append(_at(q, compare.exceeds(x, y, me, want)))
        return compare.all_of(out).saying(compare.all_of(out).evidence + note)

    counter = _swap(paper, [(a_keys[q], b_keys[q]) for q in qeqs])
    return Rule([*a_keys.values(), *b_keys.values()], decide, "", paper, counter,
                basis + "; counter-datum: the two sides swapped")


def schemes(topo: Topology, metric: str, a: str, b: str, a_higher: bool, qeqs=QEQS, part: str = "all",
            words: str = "", stated_as: str | None = None, pa: dict | None = None, pb: dict | None = None,
            cap: dict | None = None) -> Rule:
    """`a`'s metric is higher (lower) than `b`'s at each Qeq of `qeqs`; the paper's values are those
    of `stated_as` (default `metric`), or `pa`, `pb` ({qeq: value}) when given."""
    want = 1 if a_higher else -1
    sa, sb = _stated(topo, stated_as or metric, a, part), _stated(topo, stated_as or metric, b, part)
    if pa is None and pb is None:
        pa = {q: sa[QEQS.index(q)] for q in qeqs} if sa else None
        pb = {q: sb[QEQS.index(q)] for q in qeqs} if sb else None
    r = compared({q: (topo.key, a, metric, q, part) for q in qeqs}, {q: (topo.key, b, metric, q, part) for q in qeqs},
                 metric, want, pa, pb, words, f"{topo.cite} {topo.figs.get(stated_as or metric, '')}".strip(), cap)
    inner = r.decide
    r.decide = lambda **inp: _label(inner(**inp), f"{metric} ({part}), {a} − {b}")
    r.text = _effect_text(metric, stated_both=bool(sa and sb) or bool(cap))
    return r


def across(a: Topology, b: Topology, variant: str, metric: str, a_higher: bool) -> Rule:
    """`variant`'s metric is higher (lower) on topology `a` than on `b` at each Qeq."""
    want = 1 if a_higher else -1
    sa, sb = _stated(a, metric, variant), _stated(b, metric, variant)
    pa = dict(zip(QEQS, sa)) if sa else None
    pb = dict(zip(QEQS, sb)) if sb else None
    cap = None
    if pa is None and pb is not None:   # one side stated: the other at the smallest effect beyond it
        pa, cap = {q: least(pb[q], metric, want) for q in QEQS}, {}
    r = compared({q: (a.key, variant, metric, q, "all") for q in QEQS}, {q: (b.key, variant, metric, q, "all") for q in QEQS},
                 metric, want, pa, pb, "", f"{a.key}: " + ("stated" if sa else "the smallest effect the rule counts beyond "
                 f"{b.key}'s") + f"; {b.key}: {b.cite} {b.figs.get(metric, '')}".rstrip(), cap)
    inner = r.decide
    r.decide = lambda **inp: _label(inner(**inp), f"{metric} of {variant}, {a.key} − {b.key}")
    r.text = _effect_text(metric, stated_both=bool(sa and sb))
    return r


def groups(topo: Topology, variant: str, metric: str, near: tuple[str, ...], far: str, lower: bool = True) -> Rule:
    """Group `far` has a lower (higher) metric than each group of `near` at each Qeq (same runs:
    paired by seed)."""
    want = -1 if lower else 1
    rules = [compared({q: (topo.key, variant, metric, q, far) for q in QEQS},
                      {q: (topo.key, variant, metric, q, g) for q in QEQS}, metric, want) for g in near]
    paper = {k: v for r in rules for k, v in r.paper.items()}
    base = NOMINAL[metric]
    paper = {k: (least(base, metric, want) if k[4] == far else base) for k in paper}
    counter = {k: (base if k[4] == far else least(base, metric, want)) for k in paper}

    def decide(**inp) -> Verdict:
        v = compare.all_of([_label(r.decide(**inp), f"{far} − {g}") for r, g in zip(rules, near)])
        return _label(v, f"{metric} of {variant} by group")
    keys = list(dict.fromkeys(k for r in rules for k in r.keys))
    return Rule(keys, decide, _effect_text(metric, False) + ", paired by seed (the groups share their runs)", paper,
                counter, f"words only: {far} at the smallest effect the rule counts beyond the others "
                f"({compare.num(least(base, metric, want))} against {compare.num(base)}); counter-datum: swapped")


def _effect_text(metric: str, stated_both: bool) -> str:
    u = unit(metric)
    default = {"s": "±0.25 s", "1": "0.05"}.get(u, "20 % of the larger mean" + (" (floor 0.5 points)" if u == "%" else
                                                                               " (floor 2 frames)" if u == "frames" else ""))
    return (f"Welch per Qeq, minimum effect {default}" +
            (", or half the paper's own difference at that Qeq where smaller" if stated_both else ""))


# --- trends over Qeq -----------------------------------------------------------------------------

def qeq_trend(topo: Topology, variant: str, metric: str, increasing: bool, part: str = "all", words: str = "") -> Rule:
    """The metric rises (falls) from Qeq 25 to 75 by at least the minimum effect (or half the paper's
    own step where it states one and that is smaller), with no step significantly the other way."""
    want = 1 if increasing else -1
    keys = [(topo.key, variant, metric, q, part) for q in QEQS]
    p = _stated(topo, metric, variant, part)
    if p:
        paper = dict(zip(keys, p))
        cap = abs(p[2] - p[0]) / 2
        basis = f"the paper's values {' / '.join(compare.num(x) for x in p)} ({topo.cite} {topo.figs.get(metric, '')})"
    else:
        base = NOMINAL[metric]
        paper = dict(zip(keys, (base, (base + least(base, metric, want)) / 2, least(base, metric, want))))
        cap = None
        basis = (f"words only{' (' + words + ')' if words else ''}: a step from Qeq 25 to 75 of the smallest effect the "
                 f"rule counts ({compare.num(base)} → {compare.num(least(base, metric, want))}), Qeq 50 between")

    def decide(**inp) -> Verdict:
        s = [inp[name(k)] for k in keys]
        me = min_effect(s[2], s[0], metric)
        main = compare.exceeds(s[2], s[0], me if cap is None else min(me, cap), want)
        back = [compare.exceeds(y, x, min_effect(x, y, metric), -want) for x, y in ((s[0], s[1]), (s[1], s[2]))]
        state = compare.NOT_SUPPORTED if any(b.state == compare.SUPPORTED for b in back) else main.state
        where = "" if part == "all" else f" ({part})"
        return Verdict(state, f"{metric} of {variant}{where}, Qeq 75 − Qeq 25: {main.evidence}; at Qeq 25/50/75: "
                       + " / ".join(compare.interval(x).show() for x in s), main.intervals)
    text = ("Qeq 75 vs 25, Welch, minimum effect " + _effect_text(metric, bool(p)).split("minimum effect ")[1]
            + "; no step significantly the other way")
    return Rule(keys, decide, text, paper, _reflect(paper, keys),
                basis + "; counter-datum: the values reflected within their range (every step reversed)")


def steps(topo: Topology, variant: str, metric: str) -> Rule | None:
    """cnsim's steps over Qeq have the paper's directions: each step the paper makes beyond the
    default tolerance must be a difference in the same direction (None: the paper makes none)."""
    p = topo.paper[(metric, variant)]
    keys = [(topo.key, variant, ACTIVE.get(metric, metric), q, "all") for q in QEQS]
    made = []
    for i in range(len(QEQS) - 1):
        a, b = p[i], p[i + 1]
        if a is None or b is None or abs(b - a) < tol(max(abs(a), abs(b)), metric):
            continue
        made.append((i, 1 if b > a else -1))
    if not made:
        return None

    def decide(**inp) -> Verdict:
        out = []
        for i, d in made:
            x, y = inp[name(keys[i])], inp[name(keys[i + 1])]
            v = compare.exceeds(y, x, min_effect(x, y, metric), d)
            out.append(v.saying(f"Qeq {QEQS[i]}→{QEQS[i + 1]} ({'up' if d > 0 else 'down'} in the paper): {v.evidence}"))
        return compare.all_of(out)
    paper = {k: x for k, x in zip(keys, p) if x is not None}
    used = sorted({keys[i] for i, _ in made} | {keys[i + 1] for i, _ in made}, key=keys.index)
    return Rule(used, decide, "each step the paper makes beyond the default tolerance, Welch, minimum effect "
                + _effect_text(metric, False).split("minimum effect ")[1], {k: paper[k] for k in used},
                _reflect({k: paper[k] for k in used}, used),
                f"the paper's values {' / '.join(compare.num(x) for x in p)}; counter-datum: reflected within their "
                "range (every step reversed)")


# --- alike ---------------------------------------------------------------------------------------

def alike(topo: Topology, metric: str, a: str, b: str, part: str = "all", most: bool = False,
          words: str = "", qeqs=QEQS, stated_as: str | None = None) -> Rule:
    """`a` and `b` alike at each Qeq of `qeqs` (difference within ± the default tolerance); `most`:
    at the majority of them. The paper's data: its values of `stated_as` where it states both, else
    equal values (words only); the counter-datum: `a` two minimum effects above `b`."""
    ka = {q: (topo.key, a, metric, q, part) for q in qeqs}
    kb = {q: (topo.key, b, metric, q, part) for q in qeqs}
    sa, sb = _stated(topo, stated_as or metric, a, part), _stated(topo, stated_as or metric, b, part)
    if sa and sb:
        pa, pb = {q: sa[QEQS.index(q)] for q in qeqs}, {q: sb[QEQS.index(q)] for q in qeqs}
        where = (f"the paper's values ({topo.cite} {topo.figs.get(stated_as or metric, '')}) at Qeq "
                 + ", ".join(f"{q}: {compare.num(pa[q])} vs {compare.num(pb[q])}" for q in qeqs))
    else:
        base = NOMINAL[metric]
        pa, pb = {q: base for q in qeqs}, {q: base for q in qeqs}
        where = f"words only{' (' + words + ')' if words else ''}: equal values ({compare.num(base)}) in both"
    paper = {**{ka[q]: pa[q] for q in qeqs}, **{kb[q]: pb[q] for q in qeqs}}
    counter = {**paper, **{ka[q]: least(least(pb[q], metric, 1), metric, 1) for q in qeqs}}

    def decide(**inp) -> Verdict:
        out = [_at(q, compare.similar(inp[name(ka[q])], inp[name(kb[q])],
                                      min_effect(inp[name(ka[q])], inp[name(kb[q])], metric))) for q in qeqs]
        v = compare.most_of(out) if most else compare.all_of(out)
        return _label(v, f"{metric} ({part}), {a} − {b}")
    u = unit(metric)
    band = {"1": "±0.05", "s": "±0.25 s"}.get(u, "± 20 % of the larger mean" + (" (floor 0.5 points)" if u == "%" else
                                                                               " (floor 2 frames)" if u == "frames" else ""))
    at = ("two of the three Qeq values or more" if most else "every Qeq" if len(qeqs) == len(QEQS)
          else "Qeq " + ", ".join(map(str, qeqs)))
    return Rule([*ka.values(), *kb.values()], decide, f"Welch interval within {band} at {at}", paper, counter,
                f"{where}; counter-datum: {a} two minimum effects above {b}")


def steady(topo: Topology, variant: str, metric: str, tolerance: float, why: str) -> Rule:
    """Alike at every Qeq: each pair's Welch interval within ± `tolerance` (stated by the paper's own
    values: `why`)."""
    keys = {q: (topo.key, variant, metric, q, "all") for q in QEQS}
    pairs = [(p, q) for i, p in enumerate(QEQS) for q in QEQS[i + 1:]]
    p = topo.paper[(metric, variant)]
    paper = dict(zip(keys.values(), p))
    counter = {**paper, keys[75]: p[0] + 2 * tolerance}

    def decide(**inp) -> Verdict:
        v = compare.all_of([_at(f"{a} vs {b}", compare.similar(inp[name(keys[a])], inp[name(keys[b])], tolerance))
                            for a, b in pairs])
        return _label(v, f"{metric} of {variant}")
    return Rule(list(keys.values()), decide, f"every pair of Qeq alike: Welch interval within ±{compare.num(tolerance)} "
                f"({why})", paper, counter, f"the paper's values {' / '.join(map(compare.num, p))}; counter-datum: "
                f"Qeq 75 at {compare.num(p[0] + 2 * tolerance)} (twice the tolerance above Qeq 25)")


# --- against a reference value -------------------------------------------------------------------

def versus(topo: Topology, variant: str, metric: str, value: float, above: bool, qeqs=QEQS, words: str = "",
           part: str = "all") -> Rule:
    """The interval of the metric lies above (below) `value` at each Qeq of `qeqs`."""
    d = 1 if above else -1
    keys = {q: (topo.key, variant, metric, q, part) for q in qeqs}
    step = max(abs(value) * 0.01, 1.0 if unit(metric) == "frames" else 0.0)
    paper = {k: value + d * step for k in keys.values()}
    counter = {k: value - d * step for k in keys.values()}

    def decide(**inp) -> Verdict:
        v = compare.all_of([_at(q, compare.beyond(inp[name(keys[q])], value, d)) for q in qeqs])
        return _label(v, f"{metric} of {variant}" + ("" if part == "all" else f" ({part})"))
    return Rule(list(keys.values()), decide, f"interval {'above' if above else 'below'} {compare.num(value)} at Qeq "
                + ", ".join(map(str, qeqs)), paper, counter,
                f"words only{' (' + words + ')' if words else ''}: the value {'above' if above else 'below'} "
                f"{compare.num(value)} by {compare.num(step)} (the rule has no minimum effect: any value on the claimed "
                f"side); counter-datum: as far on the other side")


# --- a paper number ------------------------------------------------------------------------------

# cnsim's metric compared with a paper's CR metric: CR while a rate limiter is in place (a released
# limiter's CR is the line rate, which no source sends at).
ACTIVE = {"cr_mean_mbps": "cr_active_mean_mbps", "cr_std_mbps": "cr_active_std_mbps", "jain_cr": "jain_cr_active"}


def paper_cell(p: float, values, metric: str) -> Verdict:
    """A number of the paper against cnsim's interval (default tolerance of its unit)."""
    return compare.against(values, p, tol(p, metric))


def cell(topo: Topology, variant: str, metric: str, q: int, p: float, cnsim_metric: str | None = None) -> Rule:
    """A number of the paper's tables against cnsim's interval (default tolerance of its unit)."""
    k = (topo.key, variant, cnsim_metric or metric, q, "all")
    t = tol(p, metric)
    return Rule([k], lambda **inp: compare.against(inp[name(k)], p, t), f"interval inside paper ± {compare.num(t)}",
                {k: p}, {k: p + 2 * t}, f"the paper's {compare.num(p)}; counter-datum: {compare.num(p + 2 * t)} (twice "
                "the tolerance above)")


def stated_within(topo: Topology, variant: str, metric: str, q: int, p: float, t: float, why: str) -> Rule:
    """A number the paper states, against cnsim's interval, ± a tolerance the paper's own precision
    gives (`why`)."""
    k = (topo.key, variant, metric, q, "all")
    return Rule([k], lambda **inp: compare.against(inp[name(k)], p, t),
                f"interval inside paper ± {compare.num(t)} ({why})", {k: p}, {k: p + 2 * t},
                f"the paper's {compare.num(p)}; counter-datum: {compare.num(p + 2 * t)} (twice the tolerance above)")


def all_rules(rules: list[Rule], text: str) -> Rule:
    """Every one of `rules` (compare.all_of), their tables merged; the counter-datum of the first
    (one false part makes the conjunction false)."""
    keys = list(dict.fromkeys(k for r in rules for k in r.keys))
    paper = {k: v for r in rules for k, v in r.paper.items()}
    counter = {**paper, **rules[0].counter}

    def decide(**inp) -> Verdict:
        return compare.all_of([r.decide(**{name(k): inp[name(k)] for k in r.keys}) for r in rules])
    return Rule(keys, decide, text, paper, counter, " | ".join(r.basis.split("; counter-datum")[0] for r in rules)
                + "; counter-datum: the first part's")


def change(topo: Topology, metric: str, a: str, b: str, stated_pct: dict) -> Rule:
    """`a`'s change over `b` in % at each Qeq of `stated_pct` ({qeq: the paper's stated change}),
    per seed (the two schemes paired by seed), against the paper's ± the default tolerance of a
    percentage. A seed with both at 0 is no change; one with only `b` at 0 is an unbounded change:
    censored, counted in the evidence and left out of the interval."""
    ka = {q: (topo.key, a, metric, q, "all") for q in stated_pct}
    kb = {q: (topo.key, b, metric, q, "all") for q in stated_pct}
    pa, pb = topo.paper[(metric, a)], topo.paper[(metric, b)]
    paper = {**{ka[q]: pa[QEQS.index(q)] for q in stated_pct}, **{kb[q]: pb[QEQS.index(q)] for q in stated_pct}}
    counter = {**paper, **{ka[q]: pb[QEQS.index(q)] for q in stated_pct}}

    def decide(**inp) -> Verdict:
        out = []
        for q, pct in stated_pct.items():
            x, y = inp[name(ka[q])].by_seed(), inp[name(kb[q])].by_seed()
            both = [s for s in sorted(x) if s in y]
            # both at 0: no change; only `b` at 0: an unbounded change, censored (counted, left out)
            ratio = [(x[s] / y[s] - 1) * 100 if y[s] else 0.0 for s in both if y[s] or not x[s]]
            v = compare.against(ratio, pct, tol(pct, "loss_rate_pct"))
            gone = len(both) - len(ratio)
            out.append(_at(q, v.saying(v.evidence + (f" ({gone} of {len(both)} seed(s) censored: {b} at 0 and {a} above "
                                                     "it, an unbounded change)" if gone else ""))))
        return _label(compare.all_of(out), f"{metric}: {a}'s change over {b}, %, per seed")
    return Rule([*ka.values(), *kb.values()], decide, "per-seed change's interval inside the paper's ± 20 % of it "
                "(floor 0.5 points)", paper, counter,
                "the paper's stated values (" + ", ".join(f"Qeq {q}: {compare.num(pa[QEQS.index(q)])} vs "
                                                         f"{compare.num(pb[QEQS.index(q)])}" for q in stated_pct)
                + "); counter-datum: no change (equal values)")


def near_zero_then_steep(topo: Topology, variant: str, metric: str) -> Rule:
    """"Close to zero until Qeq 50, then rises steeply": Qeq 25 and 50 within the metric's floor of
    0 (its reported precision), and Qeq 75 above Qeq 50 by the minimum effect."""
    keys = [(topo.key, variant, metric, q, "all") for q in QEQS]
    p = topo.paper[(metric, variant)]
    zero = compare.FLOORS["%"]

    def decide(**inp) -> Verdict:
        s = [inp[name(k)] for k in keys]
        return compare.all_of([_at(25, compare.against(s[0], 0.0, zero)), _at(50, compare.against(s[1], 0.0, zero)),
                               _at("50 → 75", compare.exceeds(s[2], s[1], min_effect(s[1], s[2], metric), 1))])
    return Rule(keys, decide, f"Qeq 25 and 50 within ±{compare.num(zero)} point of 0 (the floor of a percentage); Qeq 75 "
                "above Qeq 50, Welch, minimum effect 20 % of the larger mean", dict(zip(keys, p)),
                {**dict(zip(keys, p)), keys[1]: 4 * zero},
                f"the paper's values {' / '.join(map(compare.num, p))}; counter-datum: Qeq 50 at {compare.num(4 * zero)} "
                "(not close to zero)")
