"""The report of a Mliki et al. 2016a/b reproduction: the checks (the paper's Table 1 claims, every
number of its tables and text, the trends over Qeq), their robustness under every open choice (same
seeds as the baseline), the feedback/loss hypotheses, the figure index, the result tables, the
findings and the figures."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import compare
from ..paper import Report, Runs
from ..verdicts import Calibration, Check, PaperValue, claim
from . import claims, figures, findings, hypotheses, sensitivity
from .spec import BASELINE, LABELS, QEQS, Experiment, Topology, forget, rmin_mbps, samples, show, unit, view


def _settings(df: pd.DataFrame) -> list[str]:
    """The sensitivity settings that were run (table sampling included when present)."""
    return [s.name for s in sensitivity.SENSITIVITY if view(df, s.name) is not None]


def _views(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The baseline and every setting that was run, each on the same seeds."""
    return {BASELINE: view(df, BASELINE)} | {s: view(df, s) for s in _settings(df)}


def _paper_value(topo: Topology, metric: str, variant: str, value: float) -> PaperValue:
    where = f"{topo.cite} {topo.figs.get(metric, '')}".strip()
    note = topo.notes.get((metric, variant))
    return PaperValue(value, unit(metric), where + (f"; {note}" if note else ""),
                      derived=topo.derived.get((metric, variant), ""))


def _claim(c, base: pd.DataFrame) -> Check:
    """A claim of the paper as a calibrated row (or, with `constructed`, a row that holds by
    construction: shown, not counted)."""
    r = c.rule
    if c.constructed:
        return Check(c.key, c.text, c.source, compare.by_construction(c.constructed, r.decide(**r.inputs(base)).evidence),
                     "–", c.paper)
    return claim(c.key, c.text, c.source, r.text, r.decide, r.inputs(base), Calibration(r.data(r.paper), r.data(r.counter),
                 r.basis), paper=c.paper, reason=c.reason)


def _rmin(exp: Experiment, df: pd.DataFrame) -> Check:
    """cnsim's own check that no session's CR falls below the RP's minimum rate: a scenario choice
    (neither paper states Rmin), compared with the lowest CR of every run."""
    floors = sorted({rmin_mbps(path) for topo in exp.topologies for path, _ in topo.variants.values()})
    low = df[(df.part == "all") & (df.metric == "cr_min_mbps")]["value"]
    if low.empty:
        v = compare.Verdict(compare.INCONCLUSIVE, "no data")
    else:
        ok = float(low.min()) >= min(floors) * (1 - 1e-9)
        v = compare.Verdict(compare.SUPPORTED if ok else compare.NOT_SUPPORTED,
                            f"lowest session CR over all {len(low)} runs: {compare.num(float(low.min()))} Mb/s; the "
                            f"scenarios' Rmin: {' / '.join(compare.num(f) for f in floors)} Mb/s")
    return Check("rmin.floor", "No session's CR falls below the RP's minimum rate (cnsim's Rmin, a choice of the "
                 "scenarios: neither paper states one)", "cnsim scenarios (rp.qcn.min_rate)", v,
                 "the lowest CR of every run at or above Rmin", kind="project", seeds=None)


def checks(exp: Experiment, views: dict[str, pd.DataFrame]) -> tuple[list[Check], dict[str, dict[str, str]]]:
    """Every check on the baseline, and per check id its state under each setting."""
    base = views[BASELINE]
    out: list[Check] = []
    robust: dict[str, dict[str, str]] = {}

    def add(check: Check, rule) -> None:
        out.append(check)
        if check.state == compare.BY_CONSTRUCTION:
            robust[check.id] = {name: compare.BY_CONSTRUCTION for name in views}
        else:
            robust[check.id] = {name: rule.decide(**rule.inputs(v)).state for name, v in views.items()}

    for c in exp.claims:
        add(_claim(c, base), c.rule)
    for topo in exp.topologies:
        for (metric, variant), paper in topo.paper.items():
            ours = claims.ACTIVE.get(metric, metric)
            for q, p in zip(QEQS, paper):
                if p is None:
                    continue
                r = claims.cell(topo, variant, metric, q, p, ours)
                label = f"{LABELS.get(metric, metric)}, {variant}, Qeq {q}" + (
                    f" (cnsim: {LABELS[ours]})" if ours != metric else "")
                add(claim(f"{topo.key}.{variant}.{metric}.qeq{q}", label, topo.cite, r.text, r.decide, r.inputs(base),
                          Calibration(r.data(r.paper), r.data(r.counter), r.basis),
                          paper=_paper_value(topo, metric, variant, p)), r)
            r = claims.steps(topo, variant, metric)
            if r is not None:
                add(claim(f"{topo.key}.{variant}.{metric}.trend", f"{LABELS.get(metric, metric)}, {variant}: the paper's "
                          "steps over Qeq", topo.cite, r.text, r.decide, r.inputs(base),
                          Calibration(r.data(r.paper), r.data(r.counter), r.basis),
                          paper=" / ".join(compare.num(x) for x in paper)), r)
    for n in exp.numbers:
        add(_claim(n, base), n.rule)
    rmin = _rmin(exp, base)
    out.append(rmin)
    robust[rmin.id] = {name: _rmin(exp, v).state for name, v in views.items()}
    return out, robust


def claim_checks(exp: Experiment, runs: Runs) -> list[Check]:
    """The checks on the baseline runs (every one built even on no runs: then inconclusive)."""
    df = runs.frame
    if df.empty or not {"topology", "setting"} <= set(df.columns):
        df = pd.DataFrame(columns=["topology", "variant", "qeq", "sampling", "setting", "seed", "part", "metric", "value"])
    try:
        return checks(exp, {BASELINE: view(df, BASELINE)})[0]
    finally:
        forget()
        claims.forget()


def _robustness(checks_: list[Check], robust: dict, names: list[str]) -> list[str]:
    lines = ["## Robustness: every check under each open choice", "",
             f"Each column re-runs the whole experiment with one choice changed, on the same seeds as the baseline. "
             "S = supported, N = not supported, ? = inconclusive, C = holds by construction. Columns: "
             + "; ".join(f"({i}) `{n}`" for i, n in enumerate(names)), "",
             "| check | " + " | ".join(f"({i})" for i in range(len(names))) + " | label |",
             "|---|" + "---|" * (len(names) + 1)]
    short = {compare.SUPPORTED: "S", compare.NOT_SUPPORTED: "N", compare.INCONCLUSIVE: "?", compare.BY_CONSTRUCTION: "C"}
    for c in checks_:
        states = robust[c.id]
        lines.append(f"| `{c.id}` | " + " | ".join(short[states[n]] for n in names) + f" | {sensitivity.label(states)} |")
    return lines + [""]


def _sensitivity_intro(df: pd.DataFrame, seeds: int) -> list[str]:
    lines = ["## Sensitivity to the choices the papers leave open", "",
             f"Every alternative below is one change from the baseline, run over Qeq 25/50/75 with {seeds} seeds, as "
             "the baseline (table sampling: the baseline's comparison runs), on the sweep machinery (`runs/`). A choice "
             "that does not apply to a configuration (e.g. the F̂b reset to QCN, the copy rate to multicast) leaves it "
             "at its baseline runs.", ""]
    lines += [f"- `{s.name}` (varies `{s.choice}`){'' if view(df, s.name) is not None else ' — not run'}"
              for s in sensitivity.SENSITIVITY]
    lines += [f"- not re-run: {x}" for x in sensitivity.NOT_MODELLED] + [""]
    return lines


def _table(df: pd.DataFrame, topo: Topology, sampling: str, metric: str, part: str = "all") -> list[str]:
    sel = df[(df.setting == BASELINE) & (df.sampling == sampling)]
    has_paper = part == "all" and any(k[0] == metric for k in topo.paper)
    head = "| variant | Qeq | " + ("paper | " if has_paper else "") + "cnsim mean ± 95 % CI (n) |" + (" verdict |" if has_paper else "")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    ours = claims.ACTIVE.get(metric, metric)   # the paper's CR metrics are compared with CR while limited
    for variant in topo.variants:
        s = [samples(sel, topo.key, variant, metric, q, part) for q in QEQS]
        judged = [samples(sel, topo.key, variant, ours, q, part) for q in QEQS]
        paper = topo.paper.get((metric, variant))
        for i, q in enumerate(QEQS):
            row = f"| {variant} | {q} | "
            if has_paper:
                p = paper[i] if paper else None
                verdict = claims.paper_cell(p, judged[i], metric).state if p is not None else "no number in the paper"
                row += f"{compare.num(p)} | {show(s[i])} | {verdict} |"
            else:
                row += f"{show(s[i])} |"
            lines.append(row)
    return lines


def _results(exp: Experiment, df: pd.DataFrame) -> list[str]:
    lines = []
    for sampling in [s for s in exp.samplings if s in set(df.sampling)]:
        head = "every frame evaluated (the papers' reading)" if sampling == "every-frame" else "802.1Qau sampling table (comparison)"
        lines += [f"## Results — {head}", ""]
        for topo in exp.topologies:
            lines += [f"### {topo.title}", ""]
            sub = df[(df.topology == topo.key) & (df.sampling == sampling) & (df.setting == BASELINE)]
            for metric in LABELS:
                if metric in set(sub[sub.part == "all"].metric):
                    fig = f" — paper {topo.figs[metric]}" if metric in topo.figs else ""
                    lines += [f"#### {LABELS[metric]}{fig}", ""] + _table(df, topo, sampling, metric) + [""]
            for part in sorted(set(sub.part) - {"all"}):
                lines += [f"#### {part}", ""]
                for metric in [m for m in LABELS if m in set(sub[sub.part == part].metric)]:
                    lines += [f"{LABELS[metric]}:", ""] + _table(df, topo, sampling, metric, part) + [""]
    return lines


def report(exp: Experiment, runs: Runs) -> Report:
    df = runs.frame
    views = _views(df)
    all_checks, robust = checks(exp, views)
    figs = figures.draw(exp, df, runs.out / "figures", kept=runs.out / "runs")
    body = ["## What the numbers rest on", ""] + [f"- {r}" for r in exp.rests_on] + [""]
    body += _robustness(all_checks, robust, list(views)) + _sensitivity_intro(df, runs.seeds)
    body += ["## What did the papers count? Feedback and loss hypotheses", "",
             "Each row is a metric variant of the baseline runs or a run with one choice changed; its feedback values are "
             "compared with the paper's by the rule above at each Qeq. \"reproduces\": yes only if all three are "
             "supported.", ""]
    hv = lambda s: view(df, s, fill=False) if s != BASELINE else view(df, BASELINE)  # noqa: E731
    body += hypotheses.table(hv, exp.targets)
    found = hypotheses.reproduced(hv, exp.targets)
    body += ["Reproduced: " + ("; ".join(found) if found else "none of the hypotheses reproduces the paper's feedback "
                               "rates at all three Qeq values."), ""]
    body += ["## Figure index", "", "| paper figure | what it shows | cnsim |", "|---|---|---|"]
    body += [f"| {f} | {what} | {ours} |" for f, what, ours in exp.figure_index] + [""]
    body += _results(exp, df)
    body += [""] + getattr(findings, exp.findings)(df) + ["## Figures", ""]
    body += [f"![{p.stem}]({p.relative_to(runs.out).as_posix()})" for p in figs]
    body += ["", "Per-run outputs (summary.json, series.parquet, figures) of seed 1 of the baseline: `runs/`.", ""]
    forget()
    claims.forget()
    return Report(all_checks, body, exp.choices)
