"""The shared machinery of the seed reproductions: an experiment is a list of topologies, each
run in two or more variants over Qeq 25/50/75 frames, CP sampling modes and seeds; the results go
into one long table (topology, variant, qeq, sampling, seed, part, metric, value) from which the
report's tables, claims and figures are drawn.

`part` is "all" (whole network: global metrics and the main CP queue), a multicast group ("G1"…,
metrics over the group's own flows) or a switch (its busiest CP queue).
"""

from __future__ import annotations

import json
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Callable

import pandas as pd

from .. import _args
from ..metrics import DEFINITIONS, group_metrics, seed_metrics, switch_metrics
from ..outputs import file_name
from . import sensitivity
from .claims import QEQS
QUICK = {"simulation.duration": "5.6s", "simulation.measure_from": "5.1s"}
BASELINE = "baseline"
HYPOTHESIS_ONLY = {s.name for s in sensitivity.SETTINGS if s.kind == "hypothesis"}
# Report headings: a title per metric; the unit is the one metrics.py's table defines.
METRIC_TITLES = {
    "feedback_rate_pct": "feedback rate (CNMs ÷ copies sent by the sources)",
    "loss_rate_pct": "switch loss rate (copies dropped in switches ÷ copies in the network)",
    "total_loss_pct": "total loss rate (limiter + switch drops ÷ copies generated + replicated)",
    "source_loss_pct": "source-side loss in full rate limiters (÷ copies generated)",
    "first_cnm_s": "RP start time of congestion detection",
    "cr_std_mbps": "CR std-dev",
    "cr_mean_mbps": "mean session CR",
    "throughput_mean_mbps": "mean throughput per flow and receiver",
    "cr_min_mbps": "lowest session CR",
    "q_mean_frames": "mean queue",
    "q_std_frames": "queue std-dev",
    "q_dev_from_qeq_frames": "mean queue − Qeq",
    "jain_cr": "Jain fairness over session CRs",
    "jain_throughput": "Jain fairness over throughputs",
}
_UNITS = {d["metric"]: d["unit"] for d in DEFINITIONS if d["scope"] in ("global", "queue")}
LABELS = {m: t if _UNITS[m] == "1" else f"{t} ({_UNITS[m]})" for m, t in METRIC_TITLES.items()}


@dataclass
class Topology:
    key: str
    title: str
    # variant → (scenario path inside the cnsim package, "scenarios/…", extra overrides)
    variants: dict[str, tuple[str, dict]]
    # (metric, variant) → values at Qeq 25/50/75 (None where the paper gives none); part "all"
    paper: dict = field(default_factory=dict)
    figs: dict = field(default_factory=dict)  # metric → the paper's figure(s)
    # (metric, variant) → what the paper value (or its comparison) rests on: derived, read from prose, …
    notes: dict = field(default_factory=dict)


@dataclass
class Claim:
    text: str                                  # the paper's words
    check: Callable[[pd.DataFrame], tuple]     # claims.py: (holds, evidence, tested)


@dataclass
class Number:
    """A quoted number of the paper that is not a cell of a metric table (e.g. a gain)."""
    text: str
    paper: float
    unit: str
    values: Callable[[pd.DataFrame], list]     # cnsim's value per seed, from a view


@dataclass
class Experiment:
    name: str
    title: str
    topologies: list[Topology]
    choices: list[str]
    findings: str
    claims: list[Claim]
    samplings: tuple[str, ...] = ("every-frame", "table")
    numbers: list[Number] = field(default_factory=list)
    figure_index: list[tuple[str, str, str]] = field(default_factory=list)   # (paper figure, content, cnsim)
    targets: list[tuple] = field(default_factory=list)   # hypotheses: (topology, variant, paper feedback, paper loss)
    rests_on: list[str] = field(default_factory=list)


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


def protocol_of(extra: dict) -> str:
    """The reaction point of a variant: "eqcn" when its overrides give the flows E-QCN."""
    return "eqcn" if any("eqcn" in str(v) for v in extra.values()) else "qcn"


def plan(exp: Experiment, seeds: int, quick: bool) -> list[tuple[str, str, int]]:
    """(sampling, setting, seeds) of each run set: the baseline (every sampling mode of the
    experiment: `seeds` seeds for the first, min(seeds, sensitivity.SEEDS) for the comparison
    sampling), then each alternative setting of sensitivity.py on every-frame
    sampling with min(seeds, sensitivity.SEEDS) seeds (--quick: the few of sensitivity.QUICK)."""
    n = min(seeds, sensitivity.SEEDS)
    sets = [(s, BASELINE, seeds if i == 0 else n) for i, s in enumerate(exp.samplings[:1] if quick else exp.samplings)]
    names = sensitivity.QUICK if quick else [x.name for x in sensitivity.SETTINGS if x.name != sensitivity.TABLE]
    return sets + [(exp.samplings[0], name, n) for name in names]


def _runs(exp: Experiment, out: Path, seeds: int, quick: bool) -> tuple[list[dict], list[tuple]]:
    """(labels, tasks): one per run; a task is (TOML text, label, overrides, seed, output dir of
    the run's full outputs — seed 1 of the baseline's first sampling mode — or None)."""
    from ..api import _value_text

    labels, tasks = [], []
    targets = {(t[0].key, t[1]) for t in exp.targets}  # the hypothesis-only settings run on these only
    for sampling, setting, n in plan(exp, seeds, quick):
        for topo in exp.topologies:
            for variant, (path, extra) in topo.variants.items():
                more = {} if setting == BASELINE else sensitivity.BY_NAME[setting].overrides(path, protocol_of(extra), quick)
                if more is None or (setting in HYPOTHESIS_ONLY and (topo.key, variant) not in targets):
                    continue
                resource = scenario_file(path)
                text = resource.read_text(encoding="utf-8")
                for qeq in QEQS:
                    sets = {"cp.qcn.qeq": f"{qeq} frames", "cp.qcn.sampling": sampling, **extra,
                            **(QUICK if quick else {}), **more}
                    overrides = [(k, _value_text(v)) for k, v in sets.items()]
                    for seed in range(1, n + 1):
                        keep = seed == 1 and sampling == exp.samplings[0] and setting == BASELINE
                        kept = out / "runs" / file_name(f"{topo.key}-{variant}-qeq{qeq}") if keep else None
                        tasks.append((text, str(resource), overrides, seed, kept))
                        labels.append({"topology": topo.key, "variant": variant, "qeq": qeq, "sampling": sampling,
                                       "setting": setting, "seed": seed})
    return labels, tasks


def view(df: pd.DataFrame, setting: str, *, max_seed: int | None = None, fill: bool = True) -> pd.DataFrame | None:
    """The rows of one setting on every-frame sampling ("cp.qcn.sampling=table": the baseline's
    table-sampling runs), with column `sampling` set to "every-frame"; configurations the setting
    does not apply to take the baseline's rows (`fill`). None if the setting was not run."""
    if max_seed is not None:
        df = df[df.seed <= max_seed]
    base = df[(df.setting == BASELINE) & (df.sampling == "every-frame")]
    if setting == BASELINE:
        return base
    if setting == sensitivity.TABLE:
        sel = df[(df.setting == BASELINE) & (df.sampling == "table")]
    else:
        sel = df[df.setting == setting]
    if sel.empty:
        return None
    sel = sel.assign(sampling="every-frame")
    if not fill:
        return sel
    have = set(zip(sel.topology, sel.variant))
    return pd.concat([sel, base[[k not in have for k in zip(base.topology, base.variant)]]])


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


def fmt(x) -> str:
    return "–" if x is None or x != x else (f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}")


def reproduce(exp: Experiment, out: Path, *, seeds: int = 10, jobs: int | None = None, quick: bool = False,
              client=None, progress: bool | None = None) -> Path:
    """Run `exp` on the sweep machinery (`stored_runs`), then write results.parquet, figures/,
    report.md and summary.json into `out`."""
    from ..outputs import check_output
    from ..sweep import write_parquet
    from . import figures
    from .report import write_report

    out = _args.path(out, "out")
    seeds = 1 if quick else _args.integer(seeds, "seeds", low=1)
    labels, tasks = _runs(exp, out, seeds, quick)

    def check_kept() -> None:
        for task in tasks:
            if task[4] is not None:
                check_output(task[4])

    def keep(i: int, row: dict) -> None:  # the full outputs of the kept runs, written here
        result = row.pop("_result", None)
        if result is not None:
            result.write(tasks[i][4])

    salts = ["reproduce" + (" kept" if t[4] else "") for t in tasks]
    with stored_runs(exp.name, out, run_config, tasks, labels, salts, jobs=jobs, client=client,
                     progress=progress, keep=keep, prepare=check_kept) as (results, counts):
        df = pd.DataFrame([{**lab, "part": p, "metric": m, "value": v} for lab, r in zip(labels, results)
                           for p, m, v in r["parts"]])
        write_parquet(df, out / "results.parquet")
        figs = figures.draw(exp, df, out / "figures", runs=out / "runs")
        report = write_report(exp, df, figs, out, seeds, quick)
        _write_atomic(out / "summary.json", json.dumps({"experiment": exp.name, "seeds": seeds, "quick": quick,
                                                        "runs": len(results), "ran": counts["ran"]}, indent=1))
    return report


@contextmanager
def stored_runs(name: str, out: Path, fn: Callable[[tuple], dict], tasks: list[tuple], labels: list[dict],
                salts: list[str], *, jobs: int | None = None, client=None, progress: bool | None = None, keep=None,
                prepare=None):
    """Run a reproduction's tasks as a sweep does, and yield (rows in task order, counts) while the
    output directory is still locked (write the report there).

    A task is (TOML text, path label, overrides, seed, …); `fn(task)` runs one in a worker and
    returns its row ({"error": None | str, …}: JSON-able, never raising). Every distinct scenario is
    validated before any run. The rows are kept in `out/runs/` (`cnsim.sweep.Store`), keyed by the
    resolved scenario, `salts[i]` (what computes the row) and the code: a re-run skips the finished
    runs and retries the failed ones. `jobs` local processes or a Dask `client` run them; `labels[i]`
    (a dict with "seed") is recorded with each run; `keep(i, row)` sees each fresh row before it
    is stored (see `execute_stored`). Raises RuntimeError when some run failed.
    """
    from ..sweep import Store, check_sweep_dir, execute_stored, run_key, validate_points

    jobs = _args.jobs(jobs)
    for text, label, overrides, *_ in {(t[1], tuple(t[2])): t for t in tasks}.values():  # before any run
        report = validate_points(text, label, [overrides])[1]
        if report:
            raise ValueError(f"{name}: {report}")
    kind = f"reproduce {name}"
    check_sweep_dir(out, kind)
    if prepare is not None:  # e.g. check the directories the runs will write
        prepare()
    with Store(out).lock() as store:
        run_keys = [run_key(*t[:4], salt=salt) for t, salt in zip(tasks, salts)]
        store.write_jobs(kind, name, [k for k in labels[0] if k != "seed"],
                         [({k: str(v) for k, v in lab.items() if k != "seed"}, lab["seed"]) for lab in labels], run_keys)
        results, counts = execute_stored(fn, tasks, store, run_keys, labels=[(lab, lab["seed"]) for lab in labels],
                                         jobs=jobs, client=client, progress=progress, title=name, retry_failed=True,
                                         keep=keep)
        failed = [(lab, r) for lab, r in zip(labels, results) if not isinstance(r, dict) or r["error"] is not None]
        if failed:
            lab, r = failed[0]
            why = r["error"] if isinstance(r, dict) else f"{type(r).__name__}: {r}"
            raise RuntimeError(f"{len(failed)} of {len(tasks)} run(s) failed, e.g. {lab}: {why}; the finished ones "
                               f"are kept in {out / 'runs'}: run the command again to retry the others")
        yield results, counts


def _write_atomic(path: Path, text: str) -> None:
    from ..sweep import _write_atomic as write

    write(path, text)
