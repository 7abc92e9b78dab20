"""The report of a reproduction (report.md): what the numbers rest on, the paper's Table 1 claim by
claim with its robustness over the open choices, the quoted numbers, the sensitivity grid, the
feedback/loss hypotheses, the figure index, the result tables and the figures."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from . import compare, hypotheses, sensitivity
from .claims import QEQS, forget, samples, show, unit
from .common import BASELINE, LABELS, Experiment, Topology, _write_atomic, fmt, view

MARK = {True: "✓", False: "✗", None: "–"}


def _settings(df: pd.DataFrame) -> list[str]:
    """The sensitivity settings that were run (table sampling included when present)."""
    return [s.name for s in sensitivity.SENSITIVITY if view(df, s.name) is not None]


def _views(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Views for robustness labels: every setting on the sensitivity seeds (so that a verdict does
    not change merely because fewer seeds were run)."""
    n = sensitivity.SEEDS
    return {BASELINE: view(df, BASELINE, max_seed=n)} | {s: view(df, s, max_seed=n) for s in _settings(df)}


def _claims(exp: Experiment, df: pd.DataFrame, seeds: int) -> tuple[list[str], list[str]]:
    """(Table-1 section, sensitivity grid of the claims)."""
    base, views = view(df, BASELINE), _views(df)
    names = list(views)
    lines = ["## The paper's Table 1, claim by claim", "",
             f"cnsim column: the baseline (every frame evaluated, {seeds} seeds) under the rule above. Robustness: the "
             f"claim re-checked under every open choice of the sensitivity section ({sensitivity.SEEDS} seeds each, the "
             "baseline included on the same seeds). Where the paper's own numbers contradict a claim (or show no "
             "difference of the minimum size), cnsim is not "
             "tested against it (the evidence says so) and the robustness column describes cnsim's own behaviour. "
             "Because the label compares like with like on the sensitivity seeds, its \"(holds / fails in the baseline)\" "
             "can differ from the cnsim column where the evidence is marginal (an interval that 10 seeds narrow enough "
             "and 5 do not).", "",
             "| claim (paper's words) | cnsim | robustness | evidence (mean ± 95 % CI) |", "|---|---|---|---|"]
    grid = ["### Table-1 claims under each choice", "",
            "✓ holds, ✗ does not hold, – not testable. Columns: " + "; ".join(f"({i}) `{n}`" for i, n in enumerate(names)), "",
            "| claim | " + " | ".join(f"({i})" for i in range(len(names))) + " | label |",
            "|---|" + "---|" * (len(names) + 1)]
    for c in exp.claims:
        ok, evidence, tested = c.check(base)
        outcomes = {n: c.check(v)[0] for n, v in views.items()}
        label = sensitivity.label(outcomes)
        verdict = ({True: "supported", False: "not supported", None: "not testable here"}[ok] if tested
                   else "not tested: the paper's own numbers do not show it")
        lines.append(f"| {c.text} | {verdict} | {label} | {evidence.replace('|', '/')} |")
        grid.append(f"| {c.text[:80]} | " + " | ".join(MARK[outcomes[n]] for n in names) + f" | {label} |")
    return lines + [""], grid + [""]


def _numbers(exp: Experiment, df: pd.DataFrame) -> list[str]:
    """Every quoted number of the paper: baseline verdict and its robustness over the choices."""
    base, views = view(df, BASELINE), _views(df)
    names = list(views)
    lines = ["## The paper's numbers", "",
             "Each cell of the paper's tables (REPRODUCTION.md) and each number quoted in its text, against cnsim's "
             "baseline; robustness: whether the verdict is \"agrees\" under every open choice. A = agrees, "
             "D = differs, ? = inconclusive, T = agrees pointwise but the trend over Qeq differs. Columns: "
             + "; ".join(f"({i}) `{n}`" for i, n in enumerate(names)), "",
             "| number | paper | rests on | cnsim (baseline) | verdict | " + " | ".join(f"({i})" for i in range(len(names)))
             + " | robustness |", "|---|---|---|---|---|" + "---|" * (len(names) + 1)]
    short = {"agrees": "A", "differs": "D", "inconclusive": "?", "agrees, trend differs": "T"}
    for topo in exp.topologies:
        for (metric, variant), paper in topo.paper.items():
            rows = {n: compare.row_verdicts(list(paper), [samples(v, topo.key, variant, metric, q) for q in QEQS], unit(metric))
                    for n, v in views.items()}
            full = compare.row_verdicts(list(paper), [samples(base, topo.key, variant, metric, q) for q in QEQS], unit(metric))
            for i, q in enumerate(QEQS):
                if paper[i] is None:
                    continue
                outcomes = {n: rows[n][i] == "agrees" for n in names}
                lines.append(f"| {topo.key} {variant} {metric} at Qeq {q} | {paper[i]} | "
                             f"{topo.notes.get((metric, variant), 'paper text')} | "
                             f"{show(samples(base, topo.key, variant, metric, q))} | {full[i]} | "
                             + " | ".join(short.get(rows[n][i], "–") for n in names)
                             + f" | {_agree_label(outcomes)} |")
    for num in exp.numbers:
        outcomes = {n: compare.verdict(num.paper, num.values(v), num.unit) == "agrees" for n, v in views.items()}
        vals = num.values(base)
        lines.append(f"| {num.text} | {num.paper} | paper text | {show(vals)} | {compare.verdict(num.paper, vals, num.unit)} | "
                     + " | ".join(short.get(compare.verdict(num.paper, num.values(views[n]), num.unit), "–") for n in names)
                     + f" | {_agree_label(outcomes)} |")
    return lines + [""]


def _agree_label(outcomes: dict) -> str:
    lab = sensitivity.label(outcomes)
    return lab.replace("holds under all choices", "agrees under all choices").replace("does not hold", "agrees under no choice")


def _sensitivity_intro(df: pd.DataFrame) -> list[str]:
    lines = ["## Sensitivity to the choices the papers leave open", "",
             f"Every alternative below is one change from the baseline, run over Qeq 25/50/75 with "
             f"{sensitivity.SEEDS} seeds (table sampling: the baseline's comparison runs) "
             "on the sweep machinery (`runs/`). A choice that does not apply to a configuration (e.g. the F̂b reset to "
             "QCN, the copy rate to multicast) leaves it at its baseline runs. Labels: \"holds under all choices\", "
             "\"depends on X\" (the verdict changes when X changes; whether the baseline holds is said), "
             "\"does not hold\".", ""]
    lines += [f"- `{s.name}` (varies `{s.choice}`){'' if view(df, s.name) is not None else ' — not run'}"
              for s in sensitivity.SENSITIVITY]
    lines += [f"- not re-run: {x}" for x in sensitivity.NOT_MODELLED] + [""]
    return lines


def _table(df: pd.DataFrame, topo: Topology, sampling: str, metric: str, part: str = "all") -> list[str]:
    sel = df[(df.setting == BASELINE) & (df.sampling == sampling)]
    has_paper = part == "all" and any(k[0] == metric for k in topo.paper)
    head = "| variant | Qeq | " + ("paper | " if has_paper else "") + "cnsim mean ± 95 % CI (n) |" + (" agreement |" if has_paper else "")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for variant in topo.variants:
        s = [samples(sel, topo.key, variant, metric, q, part) for q in QEQS]
        paper = topo.paper.get((metric, variant))
        verdicts = compare.row_verdicts(list(paper), s, unit(metric)) if has_paper and paper else None
        for i, q in enumerate(QEQS):
            row = f"| {variant} | {q} | "
            if has_paper:
                p = paper[i] if paper else None
                row += f"{fmt(p)} | {show(s[i])} ({len(s[i])}) | {verdicts[i] if verdicts else 'no number in the paper'} |"
            else:
                row += f"{show(s[i])} ({len(s[i])}) |"
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


def write_report(exp: Experiment, df: pd.DataFrame, figs: list[Path], out: Path, seeds: int, quick: bool) -> Path:
    claims, grid = _claims(exp, df, seeds)
    lines = [f"# {exp.title}", "",
             f"Re-run with `cnsim reproduce {exp.name}{' --quick' if quick else ''}`: the baseline with {seeds} seed(s) per "
             f"configuration, each open choice re-run with {min(seeds, sensitivity.SEEDS)} seed(s); windowed metrics over "
             "each scenario's measurement window. Every choice the papers leave open is marked CHOICE in the scenario "
             "files and listed below." + (" **--quick: short runs, one seed — a smoke test; no verdict here means "
                                          "anything.**" if quick else ""), "",
             "## Choices where the papers are silent", ""] + [f"- {c}" for c in exp.choices] + [
             "", "## What the numbers rest on", ""] + [f"- {r}" for r in exp.rests_on] + [
             "", "## Comparison rule", "", compare.RULE, "",
             "Rates and their denominators: feedback = CNMs sent ÷ data copies sent by the sources; switch loss = copies "
             "dropped in switches ÷ copies in the network (sent + made at branching points); total loss = (copies dropped "
             "in full rate limiters at the sources + in switches) ÷ (copies generated by the applications + made at "
             "branching points); source-side loss = limiter drops ÷ copies generated. All in the window.", ""]
    lines += claims + _numbers(exp, df) + _sensitivity_intro(df) + grid
    lines += ["## What did the papers count? Feedback and loss hypotheses", "",
              "Each row is a metric variant of the baseline runs or a run with one choice changed; its feedback "
              "values are compared with the paper's by the rule above (trend gate included). \"reproduces\": yes only "
              "if all three Qeq values agree.", ""]
    hv = lambda s: view(df, s, fill=False) if s != BASELINE else view(df, BASELINE)  # noqa: E731
    lines += hypotheses.table(hv, exp.targets)
    found = hypotheses.reproduced(hv, exp.targets)
    lines += ["Reproduced: " + ("; ".join(found) if found else "none of the hypotheses reproduces the paper's feedback "
                                "rates at all three Qeq values.") + "", ""]
    lines += ["## Figure index", "", "| paper figure | what it shows | cnsim |", "|---|---|---|"]
    lines += [f"| {f} | {what} | {ours} |" for f, what, ours in exp.figure_index] + [""]
    lines += _results(exp, df)
    lines += ["", exp.findings, "## Figures", ""]
    lines += [f"![{p.stem}]({p.relative_to(out).as_posix()})" for p in figs]
    lines += ["", "Per-run outputs (summary.json, series.parquet, figures) of seed 1 of the baseline: `runs/`.", ""]
    report = out / "report.md"
    _write_atomic(report, "\n".join(lines))
    forget()
    return report
