"""The interface every reproduced paper implements, and what it is handed.

A paper is a folder `reproduce/<paper>/` whose package defines one or more `Paper` objects (one per
experiment name) and is named once in `reproduce.REGISTRY`. A `Paper` says

- which runs to make (`tasks`: packaged scenario, overrides, seed, and a JSON-able `spec` of what
  to extract),
- what to keep of each finished run (`extract`, called in the worker next to the simulation:
  `[part, metric, value]` triples and, optionally, a small JSON-able `extra`),
- which claims it tests (`checks`: each claim's rule on the runs' values, with its calibration —
  calibration.py; it must also build on no runs at all, with every verdict then inconclusive),
- and what to conclude (`report`: the checks with their three-state verdicts, the report's body,
  figures).

Every paper folder has one shape: its package builds a `FolderPaper` from its own modules
(`experiment` with NAME, TITLE, `tasks`, `extract`; `claims.checks`; `report.report`).

`runs.reproduce` does everything else the same way for every paper: validation before any run,
the sweep store (resume, `--jobs`, `--dask`), results.parquet, verdicts.json, report.md with
its header (seed counts, the rule) and summary.json.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from importlib import import_module
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import pandas as pd

from .compare import Values
from .verdicts import Check

DEFAULT_SEEDS = 5     # seeds per configuration unless a paper asks for more
QUICK_SEEDS = 3       # --quick: short runs, still more than one seed per verdict


@dataclass(frozen=True)
class Task:
    """One run: `label` (JSON-able columns of results.parquet, without the seed), a packaged
    scenario ("scenarios/…"), overrides, the seed, what `extract` needs (`spec`) and, for a run
    whose full outputs are written to OUT/runs/<keep>/, `keep`."""
    label: dict
    scenario: str
    overrides: dict
    seed: int
    spec: object = None
    keep: str | None = None


@dataclass
class Report:
    """What a paper concludes: its checks (verdicts), the report's body after the verdict sections
    (markdown lines: tables, findings, figure links) and the choices where the paper is silent."""
    checks: list[Check]
    body: list[str] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)


class Runs:
    """The finished runs of a reproduction, as the paper's `report` sees them.

    `frame`: one row per (run, part, metric) with the tasks' label columns and `seed`; `extras[i]`
    the `extra` of task i (None if it had none); `out`: the output directory (figures go in
    `out / "figures"`)."""

    def __init__(self, tasks: list[Task], rows: list[dict], *, seeds: int, quick: bool, out: Path):
        self.tasks, self.seeds, self.quick, self.out = tasks, seeds, quick, out
        self.extras = [r.get("extra") for r in rows]
        records = [{**t.label, "seed": t.seed, "part": p, "metric": m, "value": v}
                   for t, r in zip(tasks, rows) for p, m, v in r["values"]]
        columns = list(dict.fromkeys([k for t in tasks for k in t.label] + ["seed", "part", "metric", "value"]))
        self.frame = pd.DataFrame(records, columns=columns)
        self._index: dict[tuple, dict[int, float]] = {}
        for t, r in zip(tasks, rows):
            key = tuple(sorted((k, str(v)) for k, v in t.label.items()))
            for p, m, v in r["values"]:
                if v is not None and not (isinstance(v, float) and math.isnan(v)):
                    self._index.setdefault((key, p, m), {})[t.seed] = float(v)

    def by_seed(self, metric: str, part: str = "all", **label) -> dict[int, float]:
        """{seed: value} of `metric` of `part` in the configuration `label` (every label column)."""
        key = tuple(sorted((k, str(v)) for k, v in label.items()))
        return dict(self._index.get((key, part, metric), {}))

    def values(self, metric: str, part: str = "all", **label) -> Values:
        """The values over seeds (seed order) of `metric` in the configuration `label`; they know their
        runs (the configuration), so two metrics of the same runs are compared paired."""
        d = self.by_seed(metric, part, **label)
        key = tuple(sorted((k, str(v)) for k, v in label.items()))
        return Values([d[s] for s in sorted(d)], runs=key, seeds=sorted(d))

    def extra(self, seed: int = 1, **label):
        """The `extra` of the run of `label` with `seed` (None if absent)."""
        for t, x in zip(self.tasks, self.extras):
            if t.seed == seed and all(str(t.label.get(k)) == str(v) for k, v in label.items()):
                return x
        return None


class Paper(ABC):
    """One reproducible experiment of a paper (see the module)."""
    name: str                     # the experiment's name: `cnsim reproduce NAME`
    title: str
    seeds: int = DEFAULT_SEEDS    # default seeds per configuration (at least DEFAULT_SEEDS)
    quick_seeds: int = QUICK_SEEDS
    # The sequential design: the seed counts looked at in turn while a claim stays inconclusive,
    # fixed before any run; its last entry is the paper's cap (runs.reproduce). Empty: one look at `seeds`.
    schedule: tuple[int, ...] = ()

    def looks(self) -> tuple[int, ...]:
        """The seed counts of the sequential design (one look at `seeds` without a schedule)."""
        return tuple(self.schedule) or (self.seeds,)

    @abstractmethod
    def tasks(self, seeds: int, quick: bool) -> list[Task]:
        """The runs, `seeds` per configuration (--quick: short runs)."""

    @abstractmethod
    def extract(self, result, spec) -> dict:
        """In the worker: {"values": [[part, metric, value], …], "extra": JSON-able or absent} of a
        finished run (`cnsim.Result`)."""

    @abstractmethod
    def checks(self, runs: Runs) -> list[Check]:
        """The checks of the paper's claims on `runs` (which may hold no runs at all)."""

    @abstractmethod
    def report(self, runs: Runs) -> Report:
        """The checks and the report's body (figures may be drawn into runs.out / "figures")."""


class FolderPaper(Paper):
    """A paper folder's `Paper`: `package` ("cnsim.reproduce.<folder>") has modules `experiment`
    (NAME, TITLE, `tasks(seeds, quick)`, `extract(result, spec)`, optional SEEDS, QUICK_SEEDS,
    SCHEDULE), `claims` (`checks(runs)`) and `report` (`report(runs)`, imported when asked: it
    draws figures)."""

    def __init__(self, package: str):
        self.package = package
        self.experiment = import_module(f"{package}.experiment")
        self.name, self.title = self.experiment.NAME, self.experiment.TITLE
        self.seeds = getattr(self.experiment, "SEEDS", DEFAULT_SEEDS)
        self.quick_seeds = getattr(self.experiment, "QUICK_SEEDS", QUICK_SEEDS)
        self.schedule = getattr(self.experiment, "SCHEDULE", ())

    def tasks(self, seeds: int, quick: bool) -> list[Task]:
        return self.experiment.tasks(seeds, quick)

    def extract(self, result, spec) -> dict:
        return self.experiment.extract(result, spec)

    def checks(self, runs: Runs) -> list[Check]:
        return import_module(f"{self.package}.claims").checks(runs)

    def report(self, runs: Runs) -> Report:
        return import_module(f"{self.package}.report").report(runs)


def scenario_file(path: str):
    """A shipped scenario ("scenarios/mliki2016/….toml") as a resource of the installed package,
    so reproductions work from any directory and from a wheel."""
    return files("cnsim").joinpath(*path.split("/"))


def inline(v) -> str:
    """A value as TOML inline text (strings, numbers, booleans, tables), for a Task's overrides."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {inline(x)}" for k, x in v.items()) + " }"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(v)
