"""Checks and their rendering, the same for every paper: a `Check` is one claim (the paper's words,
its section), the value the paper states (`PaperValue`), the rule applied and the three-state
verdict of compare.py. Reports render them with `table`, count them with `counts`, and the golden
verdict files are `states`.

Paper values are only values a paper states, with the section, table or figure they come from; a
value computed from stated ones is marked *derived* with its formula. A project finding (cnsim's
own observation, not a claim of the paper) is a `Check` of kind "project": it is rendered in its
own section and never counted with the paper's claims.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .compare import BY_CONSTRUCTION, INCONCLUSIVE, NOT_SUPPORTED, STATES, SUPPORTED, Verdict, num

KINDS = ("paper", "project")


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

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"check {self.id}: kind {self.kind!r} is not one of {KINDS}")
        if not self.id or self.id != self.id.strip() or " " in self.id:
            raise ValueError(f"check id {self.id!r}: no spaces")

    @property
    def state(self) -> str:
        return self.verdict.state


def _cell(text: str) -> str:
    return str(text).replace("|", "/").replace("\n", " ")


def table(checks: list[Check], heading: str = "| claim (paper's words) | where | paper | cnsim (evidence) | rule | verdict |") -> list[str]:
    """Markdown rows of `checks` (one table)."""
    lines = [heading, "|" + "---|" * (heading.count("|") - 1)]
    for c in checks:
        paper = c.paper.show() if isinstance(c.paper, PaperValue) else (c.paper or "–")
        lines.append(f"| {_cell(c.claim)} | {_cell(c.source)} | {_cell(paper)} | {_cell(c.verdict.evidence)} | "
                     f"{_cell(c.rule)} | **{c.state}** |")
    return lines + [""]


def counts(checks: list[Check]) -> dict[str, int]:
    """Verdict counts of the paper's claims (project findings excluded), by construction apart."""
    n = Counter(c.state for c in checks if c.kind == "paper")
    return {s: n.get(s, 0) for s in (*STATES, BY_CONSTRUCTION)}


def sections(checks: list[Check]) -> list[str]:
    """The report's verdict sections: the paper's claims (counted), the checks that hold by
    construction, and the project's own findings."""
    paper = [c for c in checks if c.kind == "paper" and c.state != BY_CONSTRUCTION]
    built = [c for c in checks if c.kind == "paper" and c.state == BY_CONSTRUCTION]
    project = [c for c in checks if c.kind == "project"]
    n = counts(checks)
    lines = ["## The paper's claims", "",
             f"{n[SUPPORTED]} supported, {n[NOT_SUPPORTED]} not supported, {n[INCONCLUSIVE]} inconclusive "
             f"({n[BY_CONSTRUCTION]} more hold by construction and are not counted).", ""]
    lines += table(paper)
    if built:
        lines += ["## Checks that hold by construction (not counted)", "",
                  "These follow from how the scenario is built, not from the protocol's behaviour.", ""]
        lines += table(built)
    if project:
        lines += ["## Project findings (cnsim's own observations, not claims of the paper)", ""]
        lines += table(project, "| finding | context | reference | cnsim (evidence) | rule | verdict |")
    return lines


def states(checks: list[Check]) -> dict[str, str]:
    """{check id: state}: what the golden verdict files hold. Ids must be unique."""
    out: dict[str, str] = {}
    for c in checks:
        if c.id in out:
            raise ValueError(f"two checks have the id {c.id!r}")
        out[c.id] = c.state
    return out
