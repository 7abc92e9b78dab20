"""The one worker and the one writer of every reproduction.

`reproduce(paper, out, …)` runs a `Paper`'s tasks on the sweep machinery (the store in OUT/runs/,
resume, `--jobs` processes or a Dask client; every distinct scenario validated before any run),
then writes, atomically and in this order, results.parquet (one row per run, part and metric),
verdicts.json (every check's state: what the golden verdict tests compare), report.md and
summary.json. `run_task` is the only function that runs a reproduction's simulation.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from .. import _args
from . import compare, verdicts
from .paper import Paper, Report, Runs, Task, scenario_file


def run_task(task: tuple) -> dict:
    """Run one task in a worker; never raises. `task` is (experiment name, TOML text, path label,
    overrides, seed, spec, keep). The row: `values` and `extra` from the paper's `extract`,
    `events`, `stopped_by`, `error` — and, for a run to keep, the `Result` itself (`_result`)."""
    from .. import _core
    from ..api import drive
    from ..results import Result
    from .registry import experiment

    name, text, label, overrides, seed, spec, keep = task
    try:
        sim = _core.Simulation(text, label, overrides, seed)
        drive(sim, lambda: None)
        result = Result.from_simulation(sim)
        got = experiment(name).extract(result, spec)
        values = [[str(p), str(m), float(v)] for p, m, v in got["values"]
                  if isinstance(v, (int, float)) and not isinstance(v, bool)]
    except Exception as exc:
        return {"values": [], "extra": None, "events": None, "stopped_by": None, "error": str(exc) or type(exc).__name__}
    row = {"values": values, "extra": got.get("extra"), "events": result.stats["events"],
           "stopped_by": result.stats.get("stopped_by"), "error": None}
    if keep is not None:
        row["_result"] = result
    return row


def _task_tuple(paper: Paper, t: Task) -> tuple:
    from ..api import value_text

    resource = scenario_file(t.scenario)
    overrides = [(k, value_text(v)) for k, v in t.overrides.items()]
    return (paper.name, resource.read_text(encoding="utf-8"), str(resource), overrides, t.seed, t.spec, t.keep)


def reproduce(paper: Paper, out: Path, *, seeds: int | None = None, jobs: int | None = None, quick: bool = False,
              client=None, progress: bool | None = None) -> Path:
    """Run `paper` into `out` and return the report's path (see the module). `seeds` (None: the
    paper's default; --quick: its quick_seeds) must be at least 2: no verdict rests on one run."""
    from ..outputs import check_output
    from ..sweep import write_parquet

    t0 = time.monotonic()
    out = _args.path(out, "out")
    if seeds is None:
        seeds = paper.quick_seeds if quick else paper.seeds
    seeds = _args.integer(seeds, "seeds", low=1)
    if seeds < compare.MIN_SEEDS:
        raise ValueError(f"seeds: {seeds} is too few: every verdict needs an interval over at least "
                         f"{compare.MIN_SEEDS} seeds")
    tasks = paper.tasks(seeds, quick)
    calls = [_task_tuple(paper, t) for t in tasks]
    labels = [{**t.label, "seed": t.seed} for t in tasks]
    salts = [f"reproduce {paper.name} " + json.dumps([t.spec, t.keep is not None], sort_keys=True, default=str)
             for t in tasks]

    def check_kept() -> None:
        for t in tasks:
            if t.keep is not None:
                check_output(out / "runs" / t.keep)

    def keep(i: int, row: dict) -> None:
        result = row.pop("_result", None)
        if result is not None:
            result.write(out / "runs" / tasks[i].keep)

    with stored_runs(paper.name, out, run_task, calls, labels, salts, jobs=jobs, client=client, progress=progress,
                     keep=keep, prepare=check_kept) as (rows, counts):
        runs = Runs(tasks, rows, seeds=seeds, quick=quick, out=out)
        write_parquet(runs.frame, out / "results.parquet")
        report = paper.report(runs)
        states = verdicts.states(report.checks)
        write_atomic(out / "verdicts.json", json.dumps({"experiment": paper.name, "seeds": seeds, "quick": quick,
                                                        "counts": verdicts.counts(report.checks),
                                                        "states": states}, indent=1, ensure_ascii=False))
        path = out / "report.md"
        write_atomic(path, "\n".join(render(paper, report, seeds=seeds, quick=quick, runs=len(tasks),
                                            wall=time.monotonic() - t0)) + "\n")
        write_atomic(out / "summary.json", json.dumps({"experiment": paper.name, "seeds": seeds, "quick": quick,
                                                       "runs": len(tasks), "ran": counts["ran"]}, indent=1))
    return path


def render(paper: Paper, report: Report, *, seeds: int, quick: bool, runs: int, wall: float) -> list[str]:
    """report.md: the header (command, seed counts, the rule), the verdict sections, the choices
    where the paper is silent, then the paper's own body."""
    lines = [f"# {paper.title}", "",
             f"Re-run with `cnsim reproduce {paper.name}{' --quick' if quick else ''} --seeds {seeds}`: "
             f"**{seeds} seeds per configuration**, {runs} runs, {wall:.0f} s of wall time for this invocation "
             "(stored runs are reused).", ""]
    if quick:
        lines += ["**--quick: short runs — a smoke test of the pipeline. The verdicts below are the quick runs' "
                  "and are not the reproduction's.**", ""]
    lines += ["## Rule", "", compare.RULE, ""]
    lines += verdicts.sections(report.checks)
    if report.choices:
        lines += ["## Choices where the paper is silent", ""] + [f"- {c}" for c in report.choices] + [""]
    return lines + report.body


@contextmanager
def stored_runs(name: str, out: Path, fn: Callable[[tuple], dict], tasks: list[tuple], labels: list[dict],
                salts: list[str], *, jobs: int | None = None, client=None, progress: bool | None = None, keep=None,
                prepare=None):
    """Run tasks as a sweep does and yield (rows in task order, counts) while `out` is locked.

    A task is (…, TOML text, path label, overrides, seed, …) with the scenario at positions 1–4;
    `fn(task)` runs one in a worker and returns its row ({"error": None | str, …}: JSON-able, never
    raising). Every distinct scenario is validated before any run. The rows are kept in `out/runs/`
    (`cnsim.sweep.Store`), keyed by the resolved scenario, `salts[i]` (what computes the row) and the
    code: a re-run skips the finished runs and retries the failed ones. `labels[i]` (a dict with
    "seed") is recorded with each run; `keep(i, row)` sees each fresh row before it is stored.
    Raises RuntimeError when some run failed (the finished ones stay stored).
    """
    from ..sweep import Store, check_sweep_dir, execute_stored, run_key, validate_points

    jobs = _args.jobs(jobs)
    for text, label, overrides, *_ in {(t[2], tuple(t[3])): t[1:] for t in tasks}.values():  # before any run
        problems = validate_points(text, label, [overrides], flag="the reproduction's overrides")[1]
        if problems:
            raise ValueError(f"{name}: {problems}")
    kind = f"reproduce {name}"
    check_sweep_dir(out, kind)
    if prepare is not None:
        prepare()
    with Store(out).lock() as store:
        run_keys = [run_key(*t[1:5], salt=salt) for t, salt in zip(tasks, salts)]
        store.write_jobs(kind, name, [k for k in labels[0] if k != "seed"],
                         [({k: str(v) for k, v in lab.items() if k != "seed"}, lab["seed"]) for lab in labels], run_keys)
        rows, counts = execute_stored(fn, tasks, store, run_keys, labels=[(lab, lab["seed"]) for lab in labels],
                                      jobs=jobs, client=client, progress=progress, title=name, retry_failed=True,
                                      keep=keep)
        failed = [(lab, r) for lab, r in zip(labels, rows) if not isinstance(r, dict) or r["error"] is not None]
        if failed:
            lab, r = failed[0]
            why = r["error"] if isinstance(r, dict) else f"{type(r).__name__}: {r}"
            raise RuntimeError(f"{len(failed)} of {len(tasks)} run(s) failed, e.g. {lab}: {why}; the finished ones "
                               f"are kept in {out / 'runs'}: run the command again to retry the others")
        yield rows, counts


def write_atomic(path: Path, text: str) -> None:
    from ..sweep import write_atomic as write

    write(path, text)
