"""`cnsim reproduce`: re-run a seed paper's experiments and write a report next to its numbers.

`EXPERIMENTS` maps each name to its specification (common.Experiment); `reproduce(name, out, …)`
runs one and returns the report's path.
"""

from pathlib import Path

from . import common

# Specifications are built lazily: some read scenario files to count their flows.
_NAMES = {"mliki2016-dumbbell": "DUMBBELL_EXP", "mliki2016-legacy": "LEGACY", "mliki2016-enhanced": "ENHANCED"}
TITLES = {
    "mliki2016-dumbbell": "Seed 000 — legacy QCN on the dumbbell, multicast vs multiple unicast (fast)",
    "mliki2016-legacy": "Seed 000 — legacy QCN, multicast vs multiple unicast (dumbbell and multi-link)",
    "mliki2016-enhanced": "Seed 001 — QCN vs enhanced QCN for multicast (star and multi-link)",
    "nakauchi-sirens": "Seed 003 — SIRENS / EMcast vs TCP, RLM vs EMcast under a CBR burst (own module: nakauchi.py)",
}
EXPERIMENTS = TITLES


def experiment(name: str) -> common.Experiment:
    from . import mliki2016

    return getattr(mliki2016, _NAMES[name])


def reproduce(name: str, out: Path, **kw) -> Path:
    """Run experiment `name` (see `TITLES`) into `out`; return the report's path. Keywords:
    seeds, jobs, quick, client (a dask.distributed.Client), progress (see common.reproduce)."""
    if name == "nakauchi-sirens":
        from . import nakauchi

        return nakauchi.reproduce(out, **kw)
    if not isinstance(name, str) or name not in _NAMES:
        raise ValueError(f"unknown experiment {name!r}; one of {', '.join(TITLES)}")
    return common.reproduce(experiment(name), out, **kw)
