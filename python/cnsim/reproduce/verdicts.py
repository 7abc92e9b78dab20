"""Checks and their rendering, the same for every paper: a `Check` is one claim (the paper's words,
its section), the value the paper states (`PaperValue`), the rule applied and the three-state
verdict of compare.py. Reports render them with `table`, count them with `counts`, and the golden
verdict files are `states`.

Paper values are only values a paper states, with the section, table or figure they come from; a
value computed from stated ones is marked *derived* with its formula. A project finding (cnsim's
own observation, not a claim of the paper) is a `Check` of kind "project": it is rendered in its
own section and never counted with the paper's claims.

A claim of the paper is made with `claim`: its rule is a function (`decide`) of named inputs (the
runs' values), and its `Calibration` holds two other sets of inputs for the same rule — the
paper's own data, which must give *supported*, and a counter-datum, which must give *not
supported* (calibration.py; tests/test_calibration.py runs every claim's rule on both, with no
simulation). A claim whose rule cannot meet both is of kind "untestable": it is shown in the
section "Not testable as stated" with its reason, and not counted.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from .compare import BY_CONSTRUCTION, INCONCLUSIVE, NOT_SUPPORTED, STATES, SUPPORTED, Verdict, num

KINDS = ("paper", "project", "untestable")
NOT_TESTABLE = "not testable as stated"   # the golden state of an untestable row


@dataclass(frozen=True)
class Calibration:
    """Inputs for a claim's rule that are not cnsim's: `paper`, the paper's own data (the values it
    states, point by point; read from a figure, with the reading's resolution; or, for words only,
    the smallest effect the words imply), and `counter`, data that contradicts the claim (the order
    reversed, the value outside the band by a margin). `basis` says where the paper's data come
    from and why the counter-datum contradicts the claim."""
    paper: dict
    counter: dict
    basis: str


@dataclass(frozen=True)
class PaperValue:
    """A number the paper states (`source`: seed, section / table / figure), or one derived from
    stated numbers (`derived`: the formula over them)."""
    value: float
    unit: str
    source: str
    derived: str = ""

    def show(self) -> str:
        unit = "" if self.unit in ("1", "") else f" {self.unit}"
        text = f"{self.value:g}{unit} ({self.source}"   # as the paper states it
        return text + (f"; derived: {self.derived})" if self.derived else ")")


@dataclass(frozen=True)
class Check:
    id: str                    # stable key (golden files): lower-case words joined by '.' and '-'
    claim: str                 # the paper's words, or the project's finding
    source: str                # where the paper says it (seed, section, table, figure)
    verdict: Verdict
    rule: str                  # the rule applied, with its tolerance or minimum effect
    paper: PaperValue | str = ""   # the stated value (or the stated values, as text); "" for a qualitative claim
    kind: str = "paper"
    decide: Callable[..., Verdict] | None = None   # the rule, as a function of `inputs`
    inputs: dict = field(default_factory=dict)     # cnsim's values the verdict was decided on
    calibration: Calibration | None = None
    reason: str = ""           # kind "untestable": why the claim cannot be tested as stated
    seeds: int | None = None   # seeds behind the verdict (None: counted from `inputs`)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"check {self.id}: kind {self.kind!r} is not one of {KINDS}")
        if not self.id or self.id != self.id.strip() or " " in self.id:
            raise ValueError(f"check id {self.id!r}: no spaces")
        if self.kind == "untestable" and not self.reason:
            raise ValueError(f"check {self.id}: an untestable claim needs its reason")

    @property
    def state(self) -> str:
        return self.verdict.state

    def n_seeds(self) -> int | None:
        """The seeds behind the verdict: `seeds`, or the largest number of values of one input."""
        if self.seeds is not None:
            return self.seeds
        sizes = [_count(v) for v in _leaves(self.inputs)]
        return max(sizes) if sizes else None


def _leaves(x):
    """The sequences of values inside nested inputs (dicts of seed → value count as one)."""
    if isinstance(x, dict) and x and all(isinstance(k, int) for k in x):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _leaves(v)
    elif isinstance(x, (list, tuple)) and x and all(isinstance(v, (list, tuple, dict)) for v in x):
        for v in x:
            yield from _leaves(v)
    elif isinstance(x, (list, tuple)):
        yield x


def _count(values) -> int:
    vals = values.values() if isinstance(values, dict) else values
    return sum(1 for v in vals if isinstance(v, (int, float)) and v == v)


def claim(id: str, claim: str, source: str, rule: str, decide: Callable[..., Verdict], inputs: dict,
          calibration: Calibration | None, *, paper: PaperValue | str = "", reason: str = "",
          seeds: int | None = None) -> Check:
    """A claim of the paper decided by `decide(**inputs)`, with its calibration. With `reason` it is
    "not testable as stated" (still decided and shown, never counted)."""
    return Check(id, claim, source, decide(**inputs), rule, paper, "untestable" if reason else "paper", decide,
                 dict(inputs), calibration, reason, seeds)


def _cell(text: str) -> str:
    return str(text).replace("|", "/").replace("\n", " ")


def table(checks: list[Check], heading: str = "| claim (paper's words) | where | paper | cnsim (evidence) | seeds | rule | verdict |") -> list[str]:
    """Markdown rows of `checks` (one table); an untestable row's verdict cell is its reason."""
    lines = [heading, "|" + "---|" * (heading.count("|") - 1)]
    for c in checks:
        paper = c.paper.show() if isinstance(c.paper, PaperValue) else (c.paper or "–")
        n = c.n_seeds()
        last = f"{_cell(c.reason)} (the rule gives: {c.state})" if c.kind == "untestable" else f"**{c.state}**"
        lines.append(f"| {_cell(c.claim)} | {_cell(c.source)} | {_cell(paper)} | {_cell(c.verdict.evidence)} | "
                     f"{'–' if n is None else n} | {_cell(c.rule)} | {last} |")
    return lines + [""]


def counts(checks: list[Check]) -> dict[str, int]:
    """Verdict counts of the paper's claims (project findings excluded), by construction apart."""
    n = Counter(c.state for c in checks if c.kind == "paper")
    return {**{s: n.get(s, 0) for s in (*STATES, BY_CONSTRUCTION)},
            NOT_TESTABLE: sum(1 for c in checks if c.kind == "untestable")}


def sections(checks: list[Check]) -> list[str]:
    """The report's verdict sections: the paper's claims (counted), the checks that hold by
    construction, and the project's own findings."""
    paper = [c for c in checks if c.kind == "paper" and c.state != BY_CONSTRUCTION]
    built = [c for c in checks if c.kind == "paper" and c.state == BY_CONSTRUCTION]
    project = [c for c in checks if c.kind == "project"]
    untestable = [c for c in checks if c.kind == "untestable"]
    n = counts(checks)
    lines = ["## The paper's claims", "",
             f"{n[SUPPORTED]} supported, {n[NOT_SUPPORTED]} not supported, {n[INCONCLUSIVE]} inconclusive "
             f"({n[BY_CONSTRUCTION]} more hold by construction and {n[NOT_TESTABLE]} are not testable as stated; "
             "neither is counted).", ""]
    lines += table(paper)
    if untestable:
        lines += ["## Not testable as stated (not counted)", "",
                  "The rule of each of these claims cannot both accept the paper's own data and reject data that "
                  "contradicts it, or cnsim's model cannot produce the claim's condition: the reason is in each row.",
                  ""]
        lines += table(untestable, "| claim (paper's words) | where | paper | cnsim (evidence) | seeds | rule | "
                                   "why not testable |")
    if built:
        lines += ["## Checks that hold by construction (not counted)", "",
                  "These follow from how the scenario is built, not from the protocol's behaviour.", ""]
        lines += table(built)
    if project:
        lines += ["## Project findings (cnsim's own observations, not claims of the paper)", ""]
        lines += table(project, "| finding | context | reference | cnsim (evidence) | seeds | rule | verdict |")
    return lines


def states(checks: list[Check]) -> dict[str, str]:
    """{check id: state}: what the golden verdict files hold. Ids must be unique."""
    out: dict[str, str] = {}
    for c in checks:
        if c.id in out:
            raise ValueError(f"two checks have the id {c.id!r}")
        out[c.id] = NOT_TESTABLE if c.kind == "untestable" else c.state
    return out


def numbers(checks: list[Check]) -> dict[str, list[list]]:
    """{check id: [[mean, low, high, n], …]}: the intervals each verdict was decided on (golden files
    compare each row's means with these)."""
    def cell(x: float | None):
        return None if x is None or math.isnan(x) or math.isinf(x) else round(float(x), 9)
    return {c.id: [[cell(i.mean), cell(i.low), cell(i.high), i.n] for i in c.verdict.intervals] for c in checks}


RANK = {NOT_SUPPORTED: 0, INCONCLUSIVE: 1, SUPPORTED: 2}   # rows held by construction or not testable: not findings


def effect(intervals: list[list]) -> float:
    """A row's effect: the largest over its points of |mean| / half-width of its interval (how many
    half-widths the mean lies from zero; a point without an interval, or of zero width, counts as
    its |mean| over a width of 1e-12: exact, deterministic values first)."""
    best = 0.0
    for mean, low, high, _n in intervals:
        if mean is None:
            continue
        half = (high - low) / 2 if low is not None and high is not None else 0.0
        best = max(best, abs(mean) / max(half, 1e-12))
    return best


def most_important(document: dict, k: int = 3) -> list[str]:
    """The `k` most important rows of a verdicts.json document, one line each: rows not supported
    first, then inconclusive, then supported (rows held by construction or not testable are not
    findings); within a state the largest `effect` first; then by id. Deterministic: the same
    document gives the same lines."""
    numbers = document.get("numbers", {})
    # The intervals are at the sequential design's level (runs.py), not always 95 %.
    level = document.get("level")
    label = f"{level * 100:.4g} % interval" if isinstance(level, (int, float)) else "interval"
    rows = [(RANK[s], -effect(numbers.get(i, [])), i, s) for i, s in document.get("states", {}).items() if s in RANK]
    out = []
    for _, _, row, state in sorted(rows)[:k]:
        points = [f"{m:.4g} [{lo:.4g}, {hi:.4g}]" for m, lo, hi, _n in numbers.get(row, []) if None not in (m, lo, hi)]
        out.append(f"{row}: {state}" + (f" (mean [{label}]: {'; '.join(points)})" if points else ""))
    return out
