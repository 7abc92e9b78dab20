"""Run a list of (scenario, overrides, seed) jobs in worker processes, with a progress bar."""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Job:
    key: str                     # label of the configuration, e.g. "multicast/qeq25"
    scenario: str                # path
    sets: tuple[tuple[str, str], ...] = ()
    seed: int = 1
    out: str | None = None       # write the full outputs (figures included) here
    extra: dict = field(default_factory=dict, hash=False, compare=False)


def run_job(job: Job) -> dict:
    """Run one job; return its key, seed, summary and raw stats (picklable)."""
    import cnsim

    res = cnsim.run(job.scenario, set=dict(job.sets), seed=job.seed, progress=False, figures=job.out is not None)
    if job.out:
        res.write(job.out)
    return {"key": job.key, "seed": job.seed, "summary": res.summary, "stats": res.stats, **job.extra}


def run_all(jobs: list[Job], jobs_n: int | None = None, label: str = "runs") -> list[dict]:
    """Run every job (in `jobs_n` processes, default: all cores); results in job order."""
    jobs_n = jobs_n or os.cpu_count() or 1
    results: dict[int, dict] = {}
    show = sys.stderr.isatty()
    if show:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True)
        bar.start()
        task = bar.add_task(label, total=len(jobs))
    try:
        if jobs_n == 1:
            for i, job in enumerate(jobs):
                results[i] = run_job(job)
                if show:
                    bar.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs_n) as pool:
                futures = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
                for fut in as_completed(futures):
                    results[futures[fut]] = fut.result()
                    if show:
                        bar.advance(task)
    finally:
        if show:
            bar.stop()
    return [results[i] for i in range(len(jobs))]
