"""The report of the Roeck 2007 reproduction: the checks (claims.py), then per scenario a figure and
one table per metric (mean over seeds, grid value × variant; PAUSE activity in every table's
scenario), and the choices where the slides are silent."""

from __future__ import annotations

import pandas as pd

from .. import compare, prose
from ..compare import num
from ..paper import Report, Runs
from . import claims, figures
from .experiment import CHOICES, SCENARIOS
from .measure import LABELS, SECTIONS, table, with_bandwidth_loss

QNTZ_FB_MAX = 63  # QntzFb is carried in 6 bits (802.1Qau)


def _md(t: pd.DataFrame) -> str:
    if t.empty:
        return "(not run)\n"
    cols = list(t.columns)
    lines = ["| " + (t.index.name or "") + " | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for idx, row in t.iterrows():
        lines.append(f"| {idx} | " + " | ".join(num(row[c]) for c in cols) + " |")
    return "\n".join(lines) + "\n"


# What the slides state that no check tests, and why.
NOT_CHECKED = [
    ("\"Results for QCN-P and ECM-P not as good as ECM, but acceptable\" (oscillating hotspot); ECM-P and ECM-SP in "
     "general", "ECM with probes is not modelled: the slides name ECM-P and ECM-SP but say neither what a CP answers to "
     "an ECM probe nor how the RP combines the answer with the tag feedback it already gets; QCN-P is checked"),
    ("\"Margin for Gi, Gd reduced as RTT gets larger\" (ECM)", "the margins are the outcome of a parameter search at "
     "each RTT that the reproduction does not repeat; it tests the slide's stated ranges instead (ecm.stability-margins)"),
    ("\"Must send Qoff and Qdelta instead of Fb to limit creation of spurious Rate Limiters\"", "a design proposal, "
     "not a result"),
    ("\"Tagging reduces net throughput\" (ECM, 20-stage)", "cnsim carries ECM's rate-regulator tag in the frame's "
     "tag area (docs/architecture.md), so a tagged frame is no longer on the wire than an untagged one and the tag's "
     "cost in throughput is not modelled"),
]


def report(runs: Runs) -> Report:
    df = with_bandwidth_loss(runs.frame)
    figs = figures.draw(df, runs.out / "figures")
    series = figures.timeseries(runs, runs.out / "figures")
    body = ["Tables: mean over the seeds per grid value (rows) and variant (columns); the verdicts above use every "
            "seed's value.", ""]
    for sc in SCENARIOS:
        body.append(f"## {sc.title}\n")
        if sc.key in figs:
            body.append(f"![{sc.key}]({figs[sc.key]})\n")
        for key, path in series.items():
            if key.split(" ")[0] == sc.key:
                body.append(f"![{key} against time]({path})\n")
        for metric in SECTIONS[sc.key]:
            body.append(f"### {LABELS.get(metric, metric)} (`{metric}`)\n")
            body.append(_md(table(df, sc.key, metric)))
        if sc.key == "twenty-stage":
            body += fbhat_collapse(df)
        if sc.key == "oscillating-w":
            body += reaction_times(runs)
    body += ["## Statements of the slides not checked", "", "| statement | why not |", "|---|---|"]
    body += [f"| {what} | {why} |" for what, why in NOT_CHECKED] + [""]
    return Report(claims.checks(runs), body, CHOICES)


def fbhat_collapse(df: pd.DataFrame) -> list[str]:
    """Why QCN-FbHat's inter-switch throughput collapses on the 20-stage chain, from the runs."""
    def iv(variant: str, metric: str) -> str:
        v = df[(df.scenario == "twenty-stage") & (df.variant == variant) & (df.metric == metric)].value
        return compare.interval(list(v)).show() if len(v) else "(not run)"

    if not (df.variant == "QCN-FbHat").any():
        return []
    return [prose.text(
        "**Why {fbhat} collapses on the chain** (cnsim's finding; the slides report it improving). Its mean "
        "inter-switch throughput is {thr} Gb/s against {thr_q} for {qcn}. Its RPs' saved {fbh} ends at {fb} on the "
        "QntzFb scale (at most {max}): {fbhat} keeps the largest feedback it has seen, and a CP notifies only frames "
        "whose F̂b it matches or exceeds, so once a severe CNM has raised it the RPs hear from fewer CPs ({cm} congestion "
        "messages per second against {cm_q}). The sources stay fast, the hotspot queue fills, and PAUSE spreads it "
        "back through every hop: the longest pause of a port covers {p} of the window ({p_q} with {qcn}), and the "
        "inter-switch FIFOs, full of hotspot-bound frames, move at the hotspot's pace.",
        fbhat=prose.ref("QCN-FbHat"), qcn=prose.ref("QCN"), fbh=prose.ref("F̂b"), max=compare.num(QNTZ_FB_MAX),
        thr=iv("QCN-FbHat", "switch_throughput_mean_gbps"), thr_q=iv("QCN", "switch_throughput_mean_gbps"),
        fb=iv("QCN-FbHat", "fb_hat_mean"), cm=iv("QCN-FbHat", "cm_messages_per_s"), cm_q=iv("QCN", "cm_messages_per_s"),
        p=iv("QCN-FbHat", "paused_share_max"), p_q=iv("QCN", "paused_share_max")), ""]


def reaction_times(runs: Runs) -> list[str]:
    """QCN-FbHat's reaction time per W, censoring-aware: a phase in which the rate never halves only
    bounds the time from below (claims.censored_median)."""
    d = claims.RunData(runs)
    lines = ["### reaction time over every on-phase of every seed (censoring-aware)", ""]
    for w in (2, 4):
        ms, cens = d.phases("oscillating-w", "QCN-FbHat", w)
        if ms:
            lines.append(prose.text("- W = {w}: {text}.", w=compare.num(w), text=claims.censored_median(ms, cens)[1]))
    return lines + [""] if len(lines) > 2 else []
