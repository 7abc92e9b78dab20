"""The shared machinery of the seed reproductions: an experiment is a list of topologies, each
run in two or more variants over Qeq 25/50/75 frames, CP sampling modes and seeds; the results go
into one long table (topology, variant, qeq, sampling, seed, part, metric, value) from which the
report's tables, claims and figures are drawn.

`part` is "all" (whole network: global metrics and the main CP queue), a multicast group ("G1"…,
metrics over the group's own flows) or a switch (its busiest CP queue).
"""

from __future__ import annotations

import json
import statistics as st
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from ..metrics import group_metrics, switch_metrics
from .runner import Job, run_all

ROOT = Path(__file__).resolve().parents[3]
QEQS = (25, 50, 75)
QUICK = {"simulation.duration": "5.6s", "simulation.measure_from": "5.1s"}
GLOBAL = ("feedback_rate_pct", "loss_rate_pct", "first_cnm_s", "cr_std_mbps", "cr_mean_mbps", "jain_cr", "source_loss_pct")
LABELS = {
    "feedback_rate_pct": "feedback rate (% of data frames sent)",
    "loss_rate_pct": "loss rate (% of data frames sent)",
    "source_loss_pct": "source-side loss in full rate limiters (% of frames generated)",
    "first_cnm_s": "RP start time of congestion detection (s)",
    "cr_std_mbps": "CR std-dev (Mb/s)",
    "cr_mean_mbps": "mean session CR (Mb/s)",
    "q_mean_frames": "mean queue (frames)",
    "q_std_frames": "queue std-dev (frames)",
    "q_dev_from_qeq_frames": "mean queue − Qeq (frames)",
    "jain_cr": "Jain fairness over session CRs",
}
AGREEMENT = ("agrees: |cnsim mean − paper| ≤ max(25 % of the paper's value, 0.25 in the metric's unit) "
             "+ 2 standard errors over seeds")


@dataclass
class Topology:
    key: str
    title: str
    # variant → (scenario path relative to the repo, extra overrides)
    variants: dict[str, tuple[str, dict]]
    # (metric, variant) → values at Qeq 25/50/75 (None where the paper gives none); part "all"
    paper: dict = field(default_factory=dict)
    figs: dict = field(default_factory=dict)  # metric → the paper's figure(s)


@dataclass
class Claim:
    text: str                                  # the paper's words
    check: Callable[[pd.DataFrame], tuple[bool | None, str]]


@dataclass
class Experiment:
    name: str
    title: str
    topologies: list[Topology]
    choices: list[str]
    findings: str
    claims: list[Claim]
    samplings: tuple[str, ...] = ("every-frame", "table")


def with_all_flows(path: str, key: str, value: str) -> dict:
    """Overrides setting `flow.<i>.<key>` for every [[flow]] table of a scenario."""
    n = len(tomllib.loads((ROOT / path).read_text()).get("flow", []))
    return {f"flow.{i}.{key}": value for i in range(n)}


def _jobs(exp: Experiment, out: Path, seeds: int, quick: bool) -> list[Job]:
    jobs = []
    for sampling in exp.samplings[:1] if quick else exp.samplings:
        for topo in exp.topologies:
            for variant, (path, extra) in topo.variants.items():
                for qeq in QEQS:
                    sets = {"cp.qeq": f"{qeq} frames", "cp.sampling": sampling, **extra, **(QUICK if quick else {})}
                    for seed in range(1, seeds + 1):
                        keep = seed == 1 and sampling == exp.samplings[0]
                        jobs.append(Job(f"{topo.key}/{variant}/{qeq}/{sampling}", str(ROOT / path), tuple(sets.items()), seed,
                                        out=str(out / "runs" / f"{topo.key}-{variant}-qeq{qeq}") if keep else None,
                                        extra={"topology": topo.key, "variant": variant, "qeq": qeq, "sampling": sampling}))
    return jobs


def _long_rows(r: dict) -> list[dict]:
    """One row per (part, metric) of a finished run."""
    base = {k: r[k] for k in ("topology", "variant", "qeq", "sampling", "seed")}
    g = r["summary"]["global"]
    parts = {"all": {k: g.get(k) for k in GLOBAL}}
    main = r["summary"]["queues"].get(g.get("main_cp") or "", {})
    parts["all"].update({k: main.get(k) for k in ("q_mean_frames", "q_std_frames", "q_dev_from_qeq_frames")})
    groups = group_metrics(r["stats"])
    if len(groups) > 1:
        parts.update(groups)
    switches = switch_metrics(r["stats"])
    if len(switches) > 1:
        parts.update({k: {m: v for m, v in d.items() if m != "queue"} for k, d in switches.items()})
    return [{**base, "part": p, "metric": m, "value": v} for p, ms in parts.items() for m, v in ms.items()
            if isinstance(v, (int, float)) and v is not None]


def stats_of(df: pd.DataFrame, **where) -> tuple[float | None, float, int]:
    """(mean, std, n) of the values selected by column=value filters."""
    sel = df
    for k, v in where.items():
        sel = sel[sel[k] == v]
    vals = [v for v in sel["value"] if v == v]
    if not vals:
        return None, 0.0, 0
    return st.fmean(vals), (st.stdev(vals) if len(vals) > 1 else 0.0), len(vals)


def _verdict(paper: float, mean: float, std: float, n: int) -> str:
    tol = max(0.25 * abs(paper), 0.25) + 2 * std / max(n, 1) ** 0.5
    if abs(mean - paper) <= tol:
        return "agrees"
    return "higher than the paper" if mean > paper else "lower than the paper"


def fmt(x) -> str:
    return "–" if x is None or x != x else (f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}")


def _table(df: pd.DataFrame, topo: Topology, sampling: str, metric: str, part: str = "all") -> list[str]:
    has_paper = part == "all" and any(k[0] == metric for k in topo.paper)
    head = "| variant | Qeq | " + ("paper | " if has_paper else "") + "cnsim mean ± std (n) |" + (" agreement |" if has_paper else "")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for variant in topo.variants:
        for i, qeq in enumerate(QEQS):
            mean, std, n = stats_of(df, topology=topo.key, variant=variant, qeq=qeq, sampling=sampling, part=part, metric=metric)
            row = f"| {variant} | {qeq} | "
            if has_paper:
                p = topo.paper.get((metric, variant), (None,) * 3)[i]
                verdict = _verdict(p, mean, std, n) if p is not None and mean is not None else "no number in the paper"
                row += f"{fmt(p)} | {fmt(mean)} ± {fmt(std)} ({n}) | {verdict} |"
            else:
                row += f"{fmt(mean)} ± {fmt(std)} ({n}) |"
            lines.append(row)
    return lines


def _report(exp: Experiment, df: pd.DataFrame, figs: list[Path], out: Path, seeds: int, quick: bool) -> Path:
    lines = [f"# {exp.title}", "",
             f"Re-run with `cnsim reproduce {exp.name}{' --quick' if quick else ''}` ({seeds} seed(s) per "
             "configuration; windowed metrics over each scenario's measurement window). Every choice the "
             "papers leave open is marked CHOICE in the scenario files and listed below.", "",
             "## Choices where the papers are silent", ""] + [f"- {c}" for c in exp.choices] + [
             "", f"Agreement rule: {AGREEMENT}.", ""]
    for sampling in [s for s in exp.samplings if s in set(df.sampling)]:
        head = "every frame evaluated (the papers' reading)" if sampling == "every-frame" else "802.1Qau sampling table (comparison)"
        lines += [f"## Results — {head}", ""]
        for topo in exp.topologies:
            lines += [f"### {topo.title}", ""]
            sub = df[(df.topology == topo.key) & (df.sampling == sampling)]
            for metric in LABELS:
                if metric in set(sub[sub.part == "all"].metric):
                    fig = f" — paper {topo.figs[metric]}" if metric in topo.figs else ""
                    lines += [f"#### {LABELS[metric]}{fig}", ""] + _table(df, topo, sampling, metric) + [""]
            for part in sorted(set(sub.part) - {"all"}):
                lines += [f"#### {part}", ""]
                for metric in sorted(set(sub[sub.part == part].metric), key=list(LABELS).index):
                    lines += [f"{LABELS[metric]}:", ""] + _table(df, topo, sampling, metric, part) + [""]
    lines += ["## The paper's Table 1, claim by claim", "",
              "Evaluated on the every-frame runs; each line says what was compared.", "",
              "| claim (paper's words) | cnsim | evidence |", "|---|---|---|"]
    for c in exp.claims:
        ok, evidence = c.check(df)
        verdict = {True: "supported", False: "not supported", None: "not testable here"}[ok]
        lines.append(f"| {c.text} | {verdict} | {evidence} |")
    lines += ["", exp.findings, "## Figures", ""]
    lines += [f"![{p.stem}]({p.relative_to(out).as_posix()})" for p in figs]
    lines += ["", "Per-run outputs (summary.json, series.parquet, figures) of seed 1: `runs/`.", ""]
    report = out / "report.md"
    report.write_text("\n".join(lines))
    return report


def reproduce(exp: Experiment, out: Path, *, seeds: int = 3, jobs: int | None = None, quick: bool = False) -> Path:
    from . import figures

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    seeds = 1 if quick else seeds
    results = run_all(_jobs(exp, out, seeds, quick), jobs, label=exp.name)
    df = pd.DataFrame([row for r in results for row in _long_rows(r)])
    df.to_parquet(out / "results.parquet")
    figs = figures.draw(exp, df, out / "figures", runs=out / "runs")
    report = _report(exp, df, figs, out, seeds, quick)
    (out / "summary.json").write_text(json.dumps({"experiment": exp.name, "seeds": seeds, "quick": quick,
                                                  "runs": len(results)}, indent=1))
    return report


# Helpers for claims -------------------------------------------------------------------------------

def mean_over_qeq(df: pd.DataFrame, topology: str, variant: str, metric: str, part: str = "all") -> float | None:
    vals = [stats_of(df, topology=topology, variant=variant, qeq=q, sampling="every-frame", part=part, metric=metric)[0] for q in QEQS]
    vals = [v for v in vals if v is not None]
    return st.fmean(vals) if vals else None


def by_qeq(df: pd.DataFrame, topology: str, variant: str, metric: str, part: str = "all") -> list:
    return [stats_of(df, topology=topology, variant=variant, qeq=q, sampling="every-frame", part=part, metric=metric)[0] for q in QEQS]


def compare(topology: str, metric: str, a: str, b: str, a_lower: bool, part: str = "all") -> Callable:
    """Claim check: variant `a`'s mean over Qeq is lower (or higher) than `b`'s."""
    def check(df):
        x, y = mean_over_qeq(df, topology, a, metric, part), mean_over_qeq(df, topology, b, metric, part)
        if x is None or y is None:
            return None, "no data"
        return ((x < y) if a_lower else (x > y)), f"{metric} ({part}, mean over Qeq): {a} {fmt(x)} vs {b} {fmt(y)}"
    return check


def trend(topology: str, variant: str, metric: str, increasing: bool, part: str = "all") -> Callable:
    """Claim check: the metric rises (or falls) from Qeq 25 to 50 to 75."""
    def check(df):
        v = by_qeq(df, topology, variant, metric, part)
        if None in v:
            return None, "no data"
        ok = all((b > a) if increasing else (b < a) for a, b in zip(v, v[1:]))
        return ok, f"{metric} of {variant} at Qeq 25/50/75: " + " / ".join(fmt(x) for x in v)
    return check
