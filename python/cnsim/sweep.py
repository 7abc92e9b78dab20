"""Local parameter sweeps: one run per (grid point, seed), one flat row per run.

    import cnsim
    df = cnsim.sweep("scenarios/mliki2016/dumbbell-multicast.toml",
                     {"cp.qeq": ["25 frames", "50 frames", "75 frames"]}, seeds=5, jobs=4)
    df.groupby("cp.qeq", sort=False)["feedback_rate_pct"].agg(["mean", "std"])

Each run is shipped to its worker as plain data — the scenario's TOML *text*, its path label, the
list of (key, value) overrides and the seed — and comes back as a flat row of scalars; the
execution itself is `cnsim.reproduce.runner.execute` (the one place to change the backend: a
local process pool, or a Dask cluster). With an output directory, finished runs are kept in a
result store (`out/runs/<key>.json`) as they complete, so an interrupted sweep resumes where it
stopped.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from .api import Overrides, Scenario, _overrides, _source, _value_text
from .metrics import DEFINITIONS, summarize

PARQUET = "sweep.parquet"
STORE = "runs"  # out/runs/<key>.json: one file per finished run
JOBS = "sweep.json"  # out/sweep.json: the sweep's runs (to count the missing ones)
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
    client=None,
    retry_failed: bool = False,
) -> pd.DataFrame:
    """Run `scenario` at every point of `grid` × `seeds`; return one row per run.

    `grid` maps scenario keys to the values to try ({"cp.qeq": ["25 frames", "50 frames"]}); the
    runs are the Cartesian product of its values (keys in the given order) × `seeds` (an int N
    means seeds 1..N). `set` holds overrides common to every run (a key given there and in `grid`
    takes the grid's value). `jobs`: worker processes (None: all cores; 1: in this process).
    `client`: a `dask.distributed.Client`; the runs are then sent to its cluster (`jobs` is
    ignored). `progress`: a bar on stderr (None: when stderr is a terminal).

    With `out`, the sweep is resumable: each finished run is kept as `out/runs/<key>.json` (the key
    is the sha256 of the run's resolved scenario, seed included, and the cnsim version), written
    atomically as soon as the run finishes; runs whose file exists are not run again (failed ones
    are, with `retry_failed`); `out/sweep.json` lists the sweep's runs (see `status`), and the table
    is rebuilt from the store and written to `out/sweep.parquet` (atomically).

    Columns: one per grid key (values as given), `seed`, the scalars of `summary["global"]`, the
    main CP's `q_mean_frames`, `q_std_frames`, `q_dev_from_qeq_frames`, `events`, `stopped_by`
    (None, or the guard that stopped the run early: its metrics are partial) and `error` (None,
    or the message of the run's failure; its metrics are then missing). Rows are in (grid order,
    seed) order, so the same arguments give the same table whatever `jobs` or `client` is. A
    scenario that is invalid before any grid value is applied raises `ScenarioError` without
    running anything.
    """
    return _sweep(scenario, grid, seeds, jobs, progress, out, set, client, retry_failed)[0]


def _sweep(scenario, grid, seeds, jobs, progress, out, set, client, retry_failed) -> tuple[pd.DataFrame, dict]:
    """`sweep`, also returning counts: {"runs", "skipped", "ran"}."""
    from . import _core
    from .reproduce.runner import RunProgress, dask_slots, execute  # lazily: cnsim.reproduce is heavier

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
    runs = [(point, seed) for point in points for seed in seeds]
    tasks = [(text, label, base + [(k, _value_text(v)) for k, v in zip(keys, point)], seed) for point, seed in runs]

    store = None if out is None else Store(out)
    results: list = [None] * len(tasks)  # rows of this session (and of the store)
    todo = list(range(len(tasks)))
    run_keys: list[str] = []
    if store is not None:
        version = _core.version()
        run_keys = [run_key(*task, version=version) for task in tasks]
        store.write_jobs(label, keys, runs, run_keys, version)
        todo, seen = [], {}
        for i, k in enumerate(run_keys):
            if k in seen:  # two grid points resolving to the same scenario: one run
                continue
            seen[k] = i
            record = store.read(k)
            if record is None or (retry_failed and record["status"] == "failed"):
                todo.append(i)
    skipped = len(tasks) - len(todo)

    def finished(j: int, result) -> None:
        i = todo[j]
        results[i] = result
        ok = isinstance(result, dict) and result["error"] is None
        if store is not None and isinstance(result, dict):  # a lost worker is not a result: re-run it next time
            store.write(run_keys[i], result, dict(zip(keys, map(_value_text, runs[i][0]))), runs[i][1])
        bar.advance(ok=ok)

    show = sys.stderr.isatty() if progress is None else progress
    title = f"sweep {Path(label).stem}" + (f" ({skipped} already done)" if skipped else "")
    slots = dask_slots(client) if client is not None else max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    with RunProgress(title, len(todo), show=show, slots=slots) as bar:
        execute(
            run_one,
            [tasks[i] for i in todo],
            jobs,
            on_start=bar.start,
            on_done=finished,
            return_exceptions=True,
            client=client,
        )

    rows = []
    for i, (point, seed) in enumerate(runs):
        result = results[i]
        if store is not None and (result is None or isinstance(result, dict)):  # the table comes from the store
            record = store.read(run_keys[i])
            result = record["row"] if record is not None else result
        if result is None:  # a duplicate of a run whose worker died
            result = _error_row("not run")
        elif not isinstance(result, dict):  # the worker itself died (e.g. a crashed process)
            result = _error_row(f"{type(result).__name__}: {result}")
        rows.append({**dict(zip(keys, point)), "seed": seed, **result})
    df = pd.DataFrame(rows, columns=_columns(keys, rows))
    df["events"] = df["events"].astype("Int64")
    for col in ("stopped_by", "error"):  # None, not NaN
        df[col] = pd.Series([r.get(col) for r in rows], index=df.index, dtype=object)
    if out is not None:
        write_parquet(df, Path(out) / PARQUET, keys)
    return df, {"runs": len(tasks), "skipped": skipped, "ran": len(todo)}


def run_key(text: str, label: str, overrides: list[tuple[str, str]], seed: int, *, version: str) -> str:
    """The store key of a run: sha256 of its resolved scenario (seed included) and the cnsim version.

    A run whose scenario does not resolve (an invalid grid value) is keyed by its raw inputs.
    """
    from . import _core

    try:
        material = _core.check(text, label, [*overrides, ("simulation.seed", str(seed))])
    except _core.ScenarioError:
        material = json.dumps({"invalid": text, "overrides": overrides, "seed": seed})
    return hashlib.sha256(f"{material}\0cnsim {version}".encode()).hexdigest()


class Store:
    """The result store of a sweep directory: `runs/<key>.json` per finished run, `sweep.json`."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.runs = self.out / STORE

    def path(self, key: str) -> Path:
        return self.runs / f"{key}.json"

    def read(self, key: str) -> dict | None:
        try:
            record = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) and record.get("status") in ("ok", "failed") else None

    def write(self, key: str, row: dict, point: dict, seed: int) -> None:
        record = {
            "key": key,
            "status": "ok" if row["error"] is None else "failed",
            "error": row["error"],
            "stopped_by": row.get("stopped_by"),
            "point": point,
            "seed": seed,
            "row": row,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "pid": os.getpid(),
        }
        _write_atomic(self.path(key), json.dumps(record, indent=1))

    def write_jobs(self, label: str, keys: list[str], runs: list, run_keys: list[str], version: str) -> None:
        jobs = {
            "scenario": label,
            "cnsim_version": version,
            "grid_keys": keys,
            "runs": [
                {"key": k, "point": dict(zip(keys, map(_value_text, point))), "seed": seed}
                for (point, seed), k in zip(runs, run_keys)
            ],
        }
        _write_atomic(self.out / JOBS, json.dumps(jobs, indent=1))


def status(out: str | Path) -> dict:
    """Counts of a sweep directory's runs: total, done (of which `stopped` by a guard), failed, missing.

    Runs are those listed in `out/sweep.json` (distinct store keys); done/failed are read from
    `out/runs/`. Raises FileNotFoundError when `out` holds no sweep.
    """
    out = Path(out)
    jobs = json.loads((out / JOBS).read_text(encoding="utf-8"))
    store = Store(out)
    counts = dict.fromkeys(("total", "done", "stopped", "failed", "missing"), 0)
    for key in dict.fromkeys(r["key"] for r in jobs["runs"]):
        counts["total"] += 1
        record = store.read(key)
        if record is None:
            counts["missing"] += 1
        elif record["status"] == "failed":
            counts["failed"] += 1
        else:
            counts["done"] += 1
            counts["stopped"] += record.get("stopped_by") is not None
    return counts


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


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
    row["stopped_by"] = stats.get("stopped_by")
    row["error"] = None
    return row


def _error_row(message: str) -> dict:
    return {**dict.fromkeys(GLOBAL_METRICS + MAIN_CP_METRICS), "events": None, "stopped_by": None, "error": message}


def _columns(keys: list[str], rows: list[dict]) -> list[str]:
    """Grid keys, seed, the global metrics (table order, then any others), main CP, events,
    stopped_by, error."""
    tail = MAIN_CP_METRICS + ["events", "stopped_by", "error"]
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
