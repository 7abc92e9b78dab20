"""The report of the Roeck 2007 reproduction: the checks (claims.py), then per scenario a figure and
one table per metric (mean over seeds, grid value × variant; PAUSE activity in every table's
scenario), and the choices where the slides are silent."""

from __future__ import annotations

import pandas as pd

from ..compare import num
from ..paper import Report, Runs
from . import claims, figures
from .experiment import CHOICES, SCENARIOS
from .measure import LABELS, SECTIONS, table, with_bandwidth_loss


def _md(t: pd.DataFrame) -> str:
    if t.empty:
        return "(not run)\n"
    cols = list(t.columns)
    lines = ["| " + (t.index.name or "") + " | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for idx, row in t.iterrows():
        lines.append(f"| {idx} | " + " | ".join(num(row[c]) for c in cols) + " |")
    return "\n".join(lines) + "\n"


def report(runs: Runs) -> Report:
    df = with_bandwidth_loss(runs.frame)
    figs = figures.draw(df, runs.out / "figures")
    body = ["Tables: mean over the seeds per grid value (rows) and variant (columns); the verdicts above use every "
            "seed's value.", ""]
    for sc in SCENARIOS:
        body.append(f"## {sc.title}\n")
        if sc.key in figs:
            body.append(f"![{sc.key}]({figs[sc.key]})\n")
        for metric in SECTIONS[sc.key]:
            body.append(f"### {LABELS.get(metric, metric)} (`{metric}`)\n")
            body.append(_md(table(df, sc.key, metric)))
    return Report(claims.checks(runs, df), body, CHOICES)
