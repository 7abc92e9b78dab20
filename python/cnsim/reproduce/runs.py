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
from dataclasses import replace
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


def schedule(paper: Paper, seeds: int | None, quick: bool) -> tuple[tuple[int, ...], float]:
    """The seed counts looked at in turn and the level of every interval at each look. Fixed before
    any run: the paper's `schedule` (its last entry the cap) unless `seeds` is given or --quick, then
    one look. The family-wise error over the looks is held at 1 − compare.LEVEL by spending it
    evenly (Bonferroni): each look's intervals are at level 1 − (1 − LEVEL) / looks, so stopping at
    the first look that decides cannot make a wrong verdict likelier than one look at LEVEL."""
    if seeds is not None:
        looks = (_args.integer(seeds, "seeds", low=1),)
    elif quick:
        looks = (paper.quick_seeds,)
    else:
        looks = paper.looks()
    if any(n < compare.MIN_SEEDS for n in looks):
        raise ValueError(f"seeds: {min(looks)} is too few: every verdict needs an interval over at least "
                         f"{compare.MIN_SEEDS} seeds")
    if list(looks) != sorted(set(looks)):
        raise ValueError(f"{paper.name}: the seed schedule {looks} must increase")
    return looks, 1 - (1 - compare.LEVEL) / len(looks)


def count_runs(paper: Paper, seeds: int, quick: bool) -> int:
    """The runs of `seeds` per configuration; ValueError past `_args.MAX_RUNS`, said before the
    runs are listed (a seed count of 10^11 would otherwise be expanded until memory runs out)."""
    per_seed = len(paper.tasks(1, quick))
    n = per_seed * seeds
    if n > _args.MAX_RUNS:
        raise ValueError(f"seeds: {seeds} seeds × {per_seed} configurations is {n} runs, more than the "
                         f"{_args.MAX_RUNS} one reproduction may hold")
    return n


def sequential(looks: list[tuple[int, list[verdicts.Check]]]) -> list[verdicts.Check]:
    """The verdicts of a sequential design: each claim keeps the verdict of the first look that
    decided it (supported or not supported); one still inconclusive at the last look says so. The
    rows are in the last look's order."""
    first: dict[str, verdicts.Check] = {}
    for _, checks in looks:
        for c in checks:
            if c.state != compare.INCONCLUSIVE:
                first.setdefault(c.id, c)
    cap, last = looks[-1]
    out = []
    for c in last:
        if c.id in first:
            out.append(first[c.id])
        elif len(looks) > 1 and c.kind == "paper":
            note = f" — undecided at the cap of {cap} seeds"
            out.append(replace(c, verdict=c.verdict.saying(c.verdict.evidence + note)))
        else:
            out.append(c)
    return out


def reproduce(paper: Paper, out: Path, *, seeds: int | None = None, jobs: int | None = None, quick: bool = False,
              client=None, progress: bool | None = None) -> Path:
    """Run `paper` into `out` and return the report's path (see the module). `seeds` (None: the
    paper's sequential schedule; --quick: its quick_seeds) must be at least 2: no verdict rests on
    one run. While a claim of the paper stays inconclusive, the next look of the schedule adds seeds
    (the runs of the earlier looks are reused)."""
    from ..sweep import write_parquet

    t0 = time.monotonic()
    out = _args.path(out, "out")
    looks, level = schedule(paper, seeds, quick)
    count_runs(paper, looks[-1], quick)
    seen: list[tuple[int, list[verdicts.Check]]] = []
    for i, n in enumerate(looks):
        last = i == len(looks) - 1
        tasks = paper.tasks(n, quick)
        with _runs(paper, out, tasks, jobs=jobs, client=client, progress=progress) as (rows, counts):
            runs = Runs(tasks, rows, seeds=n, quick=quick, out=out)
            with compare.at_level(level):
                if not last:
                    seen.append((n, paper.checks(runs)))
                    if not any(c.kind == "paper" and c.state == compare.INCONCLUSIVE for c in seen[-1][1]):
                        last = True
                if last:
                    report = paper.report(runs)
            if not last:
                continue
            seen.append((n, report.checks))
            report.checks = sequential(seen)
            write_parquet(runs.frame, out / "results.parquet")
            write_atomic(out / "verdicts.json", json.dumps(
                {"experiment": paper.name, "seeds": n, "quick": quick, "schedule": list(looks[:len(seen)]),
                 "level": level, "counts": verdicts.counts(report.checks), "states": verdicts.states(report.checks),
                 "numbers": verdicts.numbers(report.checks)}, indent=1, ensure_ascii=False))
            path = out / "report.md"
            write_atomic(path, "\n".join(render(paper, report, seeds=n, quick=quick, runs=len(tasks),
                                                wall=time.monotonic() - t0, looks=looks, level=level)) + "\n")
            write_atomic(out / "summary.json", json.dumps({"experiment": paper.name, "seeds": n, "quick": quick,
                                                           "runs": len(tasks), "ran": counts["ran"]}, indent=1))
            return path
    raise AssertionError("unreachable: the last look writes the report")


@contextmanager
def _runs(paper: Paper, out: Path, tasks: list[Task], **kw):
    """The rows of `tasks` (run or read from the store) while `out` is locked."""
    from ..outputs import check_output

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

    with stored_runs(paper.name, out, run_task, calls, labels, salts, keep=keep, prepare=check_kept, **kw) as got:
        yield got


def render(paper: Paper, report: Report, *, seeds: int, quick: bool, runs: int, wall: float,
           looks: tuple[int, ...] = (), level: float = compare.LEVEL) -> list[str]:
    """report.md: the header (command, seed counts, the rule), the verdict sections, the choices
    where the paper is silent, then the paper's own body."""
    lines = [f"# {paper.title}", "",
             f"Re-run with `cnsim reproduce {paper.name}{' --quick' if quick else ''}"
             f"{'' if len(looks) > 1 else f' --seeds {seeds}'}`: "
             f"**{'up to ' if len(looks) > 1 else ''}{seeds} seeds per configuration**, {runs} runs, {wall:.0f} s of wall time for this invocation "
             "(stored runs are reused). Each verdict's row shows the seeds behind it.", ""]
    if quick:
        lines += ["**--quick: short runs — a smoke test of the pipeline. The verdicts below are the quick runs' "
                  "and are not the reproduction's.**", ""]
    lines += ["## Rule", "", compare.RULE, ""]
    if len(looks) > 1:
        lines += [f"**Sequential design.** The seed counts {' → '.join(map(str, looks))} are looked at in turn, a "
                  f"schedule fixed before any run (the cap: {looks[-1]} seeds); a claim still inconclusive at one look "
                  "is decided again at the next, with the runs of the earlier looks reused, and keeps the verdict "
                  "of the first look that decides it. The error rate is spent evenly over the looks (Bonferroni): "
                  f"every interval is at {level:.2%} instead of {compare.LEVEL:.0%}, so that the chance of any wrong "
                  f"decision over all {len(looks)} looks stays below {1 - compare.LEVEL:.0%}.", ""]
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
