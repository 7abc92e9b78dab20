"""`cnsim reproduce`: re-run a seed paper's experiments and write a report next to its numbers.

`TITLES` maps each name to its title; `experiment(name)` gives its specification — a
common.Experiment (the QCN seeds, run by common.reproduce) or an object with its own
`reproduce(out, …)` (jiang2007; roeck2007 through its module's `reproduce`) — and `reproduce(name, out, …)` runs one and returns the report's
path. Every experiment runs on the sweep machinery (common.stored_runs).
"""

import inspect
from importlib import import_module
from pathlib import Path

from . import common

# Specifications are built lazily (module, attribute): some read scenario files to count their flows.
_NAMES = {"mliki2016-dumbbell": ("mliki2016", "DUMBBELL_EXP"), "mliki2016-legacy": ("mliki2016", "LEGACY"),
          "mliki2016-enhanced": ("mliki2016", "ENHANCED"), "jiang2007-bcn": ("jiang2007", "EXPERIMENT"),
          "roeck2007-qau": ("roeck2007", None), "nakauchi-sirens": ("nakauchi", None)}
TITLES = {
    "mliki2016-dumbbell": "Seed 000 — legacy QCN on the dumbbell, multicast vs multiple unicast (fast)",
    "mliki2016-legacy": "Seed 000 — legacy QCN, multicast vs multiple unicast (dumbbell and multi-link)",
    "mliki2016-enhanced": "Seed 001 — QCN vs enhanced QCN for multicast (star and multi-link)",
    "jiang2007-bcn": "Seed 002 — BCN: six-source, 2² factorial, parking lot, asymmetric, TCP/UDP, bursty",
    "roeck2007-qau": "Seed 004 — ECM vs QCN, QCN-FbHat and probing QCN in complex scenarios",
    "nakauchi-sirens": "Seed 003 — SIRENS / EMcast vs TCP, RLM vs EMcast under a CBR burst",
}
EXPERIMENTS = TITLES


class _Module:
    """An experiment that is a module with `reproduce(out, *, seeds, …)`; its default seeds are
    its `MAX_SEEDS`, else the default of `reproduce`'s `seeds`."""

    def __init__(self, module):
        self.module = module
        self.seeds = getattr(module, "MAX_SEEDS", None) or inspect.signature(module.reproduce).parameters["seeds"].default

    def reproduce(self, out: Path, **kw) -> Path:
        return self.module.reproduce(out, **kw)


def experiment(name: str):
    module, attr = _NAMES[name]
    mod = import_module(f".{module}", __name__)
    return _Module(mod) if attr is None else getattr(mod, attr)


def default_seeds(name: str) -> int:
    """Seeds per configuration when none are given (10 for the QCN seeds)."""
    spec = experiment(name)
    return 10 if isinstance(spec, common.Experiment) else spec.seeds


def reproduce(name: str, out: Path, seeds: int | None = None, **kw) -> Path:
    """Run experiment `name` (see `TITLES`) into `out`; return the report's path. Keywords:
    seeds (None: `default_seeds`), jobs, quick, client (a dask.distributed.Client), progress (see
    common.reproduce)."""
    if not isinstance(name, str) or name not in _NAMES:
        raise ValueError(f"unknown experiment {name!r}; one of {', '.join(_NAMES)}")
    spec = experiment(name)
    seeds = default_seeds(name) if seeds is None else seeds
    if isinstance(spec, common.Experiment):
        return common.reproduce(spec, out, seeds=seeds, **kw)
    return spec.reproduce(out, seeds=seeds, **kw)
