"""Local parameter sweeps: one run per (grid point, seed), one flat row per run.

    import cnsim
    df = cnsim.sweep("scenarios/mliki2016/dumbbell-multicast.toml",
                     {"cp.qeq": ["25 frames", "50 frames", "75 frames"]}, seeds=5, jobs=4)
    df.groupby("cp.qeq", sort=False)["feedback_rate_pct"].agg(["mean", "std"])

Each run is shipped to its worker as plain data — the scenario's TOML *text*, its path label, the
list of (key, value) overrides and the seed — and comes back as a flat row of scalars; the
execution itself is `cnsim.reproduce.runner.execute` (the one place to change the backend).
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from .api import Overrides, Scenario, _overrides, _source, _value_text
from .metrics import DEFINITIONS, summarize

PARQUET = "sweep.parquet"
GLOBAL_METRICS = [d["metric"] for d in DEFINITIONS if d["scope"] == "global"]
MAIN_CP_METRICS = ["q_mean_frames", "q_std_frames", "q_dev_from_qeq_frames"]


def sweep(
    scenario: Scenario,
    grid: Mapping[str, Sequence],
    seeds: Iterable[int] | int = range(1, 4),
    jobs: int | None = None,
    progress: bool | None = None,
    out: str | Path | None = None,
    *,
    set: Overrides = None,
) -> pd.DataFrame:
    """Run `scenario` at every point of `grid` × `seeds`; return one row per run.

    `grid` maps scenario keys to the values to try ({"cp.qeq": ["25 frames", "50 frames"]}); the
    runs are the Cartesian product of its values (keys in the given order) × `seeds` (an int N
    means seeds 1..N). `set` holds overrides common to every run (a key given there and in `grid`
    takes the grid's value). `jobs`: worker processes (None: all cores; 1: in this process).
    `progress`: a bar on stderr (None: when stderr is a terminal). With `out`, the table is also
    written to `out/sweep.parquet` (atomically).

    Columns: one per grid key (values as given), `seed`, the scalars of `summary["global"]`, the
    main CP's `q_mean_frames`, `q_std_frames`, `q_dev_from_qeq_frames`, `events` and `error` (None,
    or the message of the run's failure; its metrics are then missing). Rows are in (grid order,
    seed) order, so the same arguments give the same table whatever `jobs` is. A scenario that is
    invalid before any grid value is applied raises `ScenarioError` without running anything.
    """
    from . import _core
    from .reproduce.runner import RunProgress, execute  # lazily: cnsim.reproduce is heavier

    text, label = _source(scenario)
    base = _overrides(set, label)
    _core.check(text, label, base)  # fail fast on the scenario itself; grid values fail per run

    keys = list(grid)
    values = []
    for key in keys:
        if isinstance(grid[key], str | bytes) or not isinstance(grid[key], Iterable):
            raise ValueError(f"grid[{key!r}]: expected a list of values, got {grid[key]!r}")
        values.append(list(grid[key]))
        if not values[-1]:
            raise ValueError(f"grid[{key!r}]: no values")
    seeds = [int(s) for s in (range(1, seeds + 1) if isinstance(seeds, int) else seeds)]
    if not seeds:
        raise ValueError("seeds: expected at least one seed")

    points = list(itertools.product(*values))
    tasks = [
        (text, label, base + [(k, _value_text(v)) for k, v in zip(keys, point)], seed)
        for point in points
        for seed in seeds
    ]
    show = sys.stderr.isatty() if progress is None else progress
    with RunProgress(f"sweep {Path(label).stem}", len(tasks), show=show) as bar:
        results = execute(
            run_one,
            tasks,
            jobs,
            on_start=bar.start,
            on_done=lambda i, r: bar.advance(ok=isinstance(r, dict) and r["error"] is None),
            return_exceptions=True,
        )

    rows = []
    for (point, seed), result in zip(itertools.product(points, seeds), results):
        if not isinstance(result, dict):  # the worker itself died (e.g. a crashed process)
            result = _error_row(f"{type(result).__name__}: {result}")
        rows.append({**dict(zip(keys, point)), "seed": seed, **result})
    df = pd.DataFrame(rows, columns=_columns(keys, rows))
    df["events"] = df["events"].astype("Int64")
    df["error"] = pd.Series([r["error"] for r in rows], index=df.index, dtype=object)  # None, not NaN
    if out is not None:
        write_parquet(df, Path(out) / PARQUET, keys)
    return df


def run_one(task: tuple[str, str, list[tuple[str, str]], int]) -> dict:
    """Run one (TOML text, path label, overrides, seed) task; return its flat row (never raises)."""
    text, label, overrides, seed = task
    try:
        from . import _core
        from .api import _drive

        sim = _core.Simulation(text, label, overrides, seed)
        _drive(sim, lambda: None)
        stats = json.loads(sim.stats_json())
        summary = summarize(stats)
    except Exception as exc:
        return _error_row(str(exc) or type(exc).__name__)
    g = summary["global"]
    main = summary["queues"].get(g.get("main_cp") or "", {})
    row = {k: v for k, v in g.items() if v is None or isinstance(v, bool | int | float | str)}
    row.update({k: main.get(k) for k in MAIN_CP_METRICS})
    row["events"] = stats["events"]
    row["error"] = None
    return row


def _error_row(message: str) -> dict:
    return {**dict.fromkeys(GLOBAL_METRICS + MAIN_CP_METRICS), "events": None, "error": message}


def _columns(keys: list[str], rows: list[dict]) -> list[str]:
    """Grid keys, seed, the global metrics (table order, then any others), main CP, events, error."""
    tail = MAIN_CP_METRICS + ["events", "error"]
    known = set(keys) | {"seed"} | set(GLOBAL_METRICS) | set(tail)
    extra = list(dict.fromkeys(k for r in rows for k in r if k not in known))
    return [*keys, "seed", *GLOBAL_METRICS, *extra, *tail]


def write_parquet(df: pd.DataFrame, path: Path, keys: Sequence[str] = ()) -> Path:
    """Write `df` to `path` atomically (a temporary file in the same directory, then os.replace).

    A grid column whose values mix types (e.g. 25 and "50 frames") is written as text.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    table = df.copy()
    for key in keys:
        if table[key].dtype == object and len({type(v) for v in table[key]}) > 1:
            table[key] = table[key].map(_value_text)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        table.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
