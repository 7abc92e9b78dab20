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
from importlib.resources import files
from pathlib import Path
from typing import Callable

import pandas as pd

from .. import _args
from ..metrics import DEFINITIONS, group_metrics, seed_metrics, switch_metrics
from ..outputs import file_name
QEQS = (25, 50, 75)
QUICK = {"simulation.duration": "5.6s", "simulation.measure_from": "5.1s"}
# Report headings: a title per metric; the unit is the one metrics.py's table defines.
METRIC_TITLES = {
    "feedback_rate_pct": "feedback rate",
    "loss_rate_pct": "loss rate",
    "source_loss_pct": "source-side loss in full rate limiters",
    "first_cnm_s": "RP start time of congestion detection",
    "cr_std_mbps": "CR std-dev",
    "cr_mean_mbps": "mean session CR",
    "q_mean_frames": "mean queue",
    "q_std_frames": "queue std-dev",
    "q_dev_from_qeq_frames": "mean queue − Qeq",
    "jain_cr": "Jain fairness over session CRs",
}
_UNITS = {d["metric"]: d["unit"] for d in DEFINITIONS if d["scope"] in ("global", "queue")}
LABELS = {m: t if _UNITS[m] == "1" else f"{t} ({_UNITS[m]})" for m, t in METRIC_TITLES.items()}
AGREEMENT = ("agrees: |cnsim mean − paper| ≤ max(25 % of the paper's value, 0.25 in the metric's unit) "
             "+ 2 standard errors over seeds")


@dataclass
class Topology:
    key: str
    title: str
    # variant → (scenario path inside the cnsim package, "scenarios/…", extra overrides)
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


def scenario_file(path: str):
    """A shipped scenario ("scenarios/mliki2016/….toml") as a resource of the installed package,
    so reproductions work from any directory and from a wheel."""
    return files("cnsim").joinpath(*path.split("/"))


def with_all_flows(path: str, key: str, value: str) -> dict:
    """Overrides setting `flow.<i>.<key>` for every [[flow]] table of a scenario."""
    n = len(tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", []))
    return {f"flow.{i}.{key}": value for i in range(n)}


def _inline(v) -> str:
    """A TOML inline value (strings, numbers, booleans, tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_inline(x)}" for k, x in v.items()) + " }"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(v)


def with_rp(path: str, protocol: str) -> dict:
    """Overrides giving every flow's reaction point to `protocol` (e.g. "eqcn"), keeping the keys
    its current RP table sets (E-QCN's table takes every QCN key)."""
    flows = tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", [])
    sets = {}
    for i, f in enumerate(flows):
        rp = f.get("rp", "none")
        keys = next(iter(rp.values())) if isinstance(rp, dict) and rp else {}
        sets[f"flow.{i}.rp"] = _inline({protocol: keys})
    return sets


def _runs(exp: Experiment, out: Path, seeds: int, quick: bool) -> tuple[list[dict], list[tuple]]:
    """(labels, tasks): one per run; a task is (TOML text, label, overrides, seed, output dir of
    the run's full outputs — seed 1 of the first sampling mode — or None)."""
    from ..api import _value_text

    labels, tasks = [], []
    for sampling in exp.samplings[:1] if quick else exp.samplings:
        for topo in exp.topologies:
            for variant, (path, extra) in topo.variants.items():
                resource = scenario_file(path)
                text = resource.read_text(encoding="utf-8")
                for qeq in QEQS:
                    sets = {"cp.qcn.qeq": f"{qeq} frames", "cp.qcn.sampling": sampling, **extra, **(QUICK if quick else {})}
                    overrides = [(k, _value_text(v)) for k, v in sets.items()]
                    for seed in range(1, seeds + 1):
                        keep = seed == 1 and sampling == exp.samplings[0]
                        kept = out / "runs" / file_name(f"{topo.key}-{variant}-qeq{qeq}") if keep else None
                        tasks.append((text, str(resource), overrides, seed, kept))
                        labels.append({"topology": topo.key, "variant": variant, "qeq": qeq, "sampling": sampling,
                                       "seed": seed})
    return labels, tasks


def run_config(task: tuple) -> dict:
    """Run one reproduction task (in a worker); never raises. Its row: the (part, metric, value)
    triples, events, stopped_by, error — and, for a kept run, the `Result` itself (`_result`)."""
    from .. import _core
    from ..api import _drive
    from ..results import Result

    text, label, overrides, seed, kept = task
    try:
        sim = _core.Simulation(text, label, overrides, seed)
        _drive(sim, lambda: None)
        result = Result.from_simulation(sim)
        parts = _parts(result.summary, result.stats)
    except Exception as exc:
        return {"parts": [], "events": None, "stopped_by": None, "error": str(exc) or type(exc).__name__}
    row = {"parts": parts, "events": result.stats["events"], "stopped_by": result.stats.get("stopped_by"), "error": None}
    if kept is not None:
        row["_result"] = result
    return row


def _parts(summary: dict, stats: dict) -> list[list]:
    """[part, metric, value] of a finished run."""
    parts = {"all": seed_metrics(summary)}
    groups = group_metrics(stats)
    if len(groups) > 1:
        parts.update(groups)
    switches = switch_metrics(stats)
    if len(switches) > 1:
        parts.update({k: {m: v for m, v in d.items() if m != "queue"} for k, d in switches.items()})
    return [[p, m, v] for p, ms in parts.items() for m, v in ms.items() if isinstance(v, (int, float)) and v is not None]


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
    _write_atomic(report, "\n".join(lines))
    return report


def reproduce(exp: Experiment, out: Path, *, seeds: int = 3, jobs: int | None = None, quick: bool = False,
              client=None, progress: bool | None = None) -> Path:
    """Run `exp` on the sweep machinery — the result store in `out/runs/`, resumed on a re-run
    (finished runs are skipped, failed ones retried), `jobs` local processes or a Dask `client` —
    then write results.parquet, figures/, report.md and summary.json into `out`."""
    from ..outputs import check_output
    from ..sweep import Store, check_sweep_dir, execute_stored, run_key, validate_points, write_parquet
    from . import figures

    out = _args.path(out, "out")
    seeds = 1 if quick else _args.integer(seeds, "seeds", low=1)
    jobs = _args.jobs(jobs)
    labels, tasks = _runs(exp, out, seeds, quick)
    for text, label, overrides, _, _ in {(t[1], tuple(t[2])): t for t in tasks}.values():  # before any run
        report = validate_points(text, label, [overrides])[1]
        if report:
            raise ValueError(f"{exp.name}: {report}")
    kind = f"reproduce {exp.name}"
    check_sweep_dir(out, kind)
    for task in tasks:
        if task[4] is not None:
            check_output(task[4])

    def keep(i: int, row: dict) -> None:  # the full outputs of the kept runs, written here
        result = row.pop("_result", None)
        if result is not None:
            result.write(tasks[i][4])

    with Store(out).lock() as store:
        run_keys = [run_key(*t[:4], salt="reproduce" + (" kept" if t[4] else "")) for t in tasks]
        store.write_jobs(kind, exp.name, list(labels[0])[:-1],
                         [({k: str(v) for k, v in lab.items() if k != "seed"}, lab["seed"]) for lab in labels], run_keys)
        results, counts = execute_stored(run_config, tasks, store, run_keys, labels=[(lab, lab["seed"]) for lab in labels],
                                         jobs=jobs, client=client, progress=progress, title=exp.name, retry_failed=True,
                                         keep=keep)
        failed = [(lab, r) for lab, r in zip(labels, results) if not isinstance(r, dict) or r["error"] is not None]
        if failed:
            lab, r = failed[0]
            why = r["error"] if isinstance(r, dict) else f"{type(r).__name__}: {r}"
            raise RuntimeError(f"{len(failed)} of {len(tasks)} run(s) failed, e.g. {lab}: {why}; the finished ones "
                               f"are kept in {out / 'runs'}: run the command again to retry the others")
        df = pd.DataFrame([{**lab, "part": p, "metric": m, "value": v} for lab, r in zip(labels, results)
                           for p, m, v in r["parts"]])
        write_parquet(df, out / "results.parquet")
        figs = figures.draw(exp, df, out / "figures", runs=out / "runs")
        report = _report(exp, df, figs, out, seeds, quick)
        _write_atomic(out / "summary.json", json.dumps({"experiment": exp.name, "seeds": seeds, "quick": quick,
                                                        "runs": len(results), "ran": counts["ran"]}, indent=1))
    return report


def _write_atomic(path: Path, text: str) -> None:
    from ..sweep import _write_atomic as write

    write(path, text)


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
