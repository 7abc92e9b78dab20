"""The reproducible experiments: one line per experiment, naming the paper folder that defines it.

Adding a paper is one folder `reproduce/<paper>/` (its `Paper` objects, claims, report, figures)
and one line here per experiment it defines (docs/architecture.md).
"""

from __future__ import annotations

from importlib import import_module

from .paper import Paper

# experiment name → (paper folder, attribute of its package); imported only when asked for
REGISTRY = {
    "mliki2016-dumbbell": ("mliki2016", "DUMBBELL"),
    "mliki2016-legacy": ("mliki2016", "LEGACY"),
    "mliki2016-enhanced": ("mliki2016", "ENHANCED"),
    "jiang2007-bcn": ("jiang2007", "PAPER"),
    "roeck2007-qau": ("roeck2007", "PAPER"),
    "nakauchi-sirens": ("nakauchi2006", "PAPER"),
    "dcqcn-fixed-point": ("dcqcn2015", "PAPER"),
    "hpcc2019": ("hpcc2019", "PAPER"),
}


def experiment(name: str) -> Paper:
    """The `Paper` of experiment `name`; ValueError naming the choices if there is none."""
    if not isinstance(name, str) or name not in REGISTRY:
        raise ValueError(f"unknown experiment {name!r}; one of {', '.join(REGISTRY)}")
    folder, attr = REGISTRY[name]
    return getattr(import_module(f"{__package__}.{folder}"), attr)
