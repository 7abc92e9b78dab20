"""`cnsim reproduce`: re-run a seed paper's experiments and write a report next to its numbers.

Every experiment is a `Paper` (paper.py) defined in its paper's folder and named in registry.py;
runs.py runs it on the sweep machinery and writes its report. `reproduce(name, out, …)` runs one
and returns the report's path; `experiment(name)` gives its `Paper`; `TITLES` its title.
"""

from __future__ import annotations

from pathlib import Path

from .registry import REGISTRY, experiment


def titles() -> dict[str, str]:
    """{experiment name: title}."""
    return {name: experiment(name).title for name in REGISTRY}


def default_seeds(name: str) -> int:
    """Seeds per configuration when none are given: the cap of the experiment's sequential design."""
    return experiment(name).looks()[-1]


def reproduce(name: str, out: Path, seeds: int | None = None, **kw) -> Path:
    """Run experiment `name` into `out`; return the report's path. Keywords: seeds (None: the
    paper's default), jobs, quick, client (a dask.distributed.Client), progress (see
    runs.reproduce)."""
    from .runs import reproduce as run

    return run(experiment(name), out, seeds=seeds, **kw)
