"""Local parameter sweeps: one run per (grid point, seed), one flat row per run.

    import cnsim
    df = cnsim.sweep("scenarios/mliki2016/dumbbell-multicast.toml",
                     {"cp.qcn.qeq": ["25 frames", "50 frames", "75 frames"]}, seeds=5, jobs=4)
    df.groupby("cp.qcn.qeq", sort=False)["feedback_rate_pct"].agg(["mean", "std"])

Each run is shipped to its worker as plain data — the scenario's TOML *text*, its path label, the
list of (key, value) overrides and the seed — and comes back as a flat row of scalars; the
execution itself is `cnsim.execution.execute` (the one place to change the backend: a
local process pool, or a Dask cluster). With an output directory, finished runs are kept in a
result store (`out/runs/<key>.json`) as they complete, so an interrupted sweep resumes where it
stopped.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import os
import shutil
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pandas as pd

from . import _args
from .api import Scenario
from .scenario import Overrides, overrides, source, value_text
from .metrics import global_metrics, seed_metrics, summarize

PARQUET = "sweep.parquet"
KEEP_CHOICES = ("tables", "series")
KEEP_DEFAULT = ("tables",)
STORE = "runs"  # out/runs/<key>.json: one file per finished run
JOBS = "sweep.json"  # out/sweep.json: the sweep's runs (to count the missing ones)
LOCK = ".cnsim-sweep.lock"  # flock'ed while a sweep writes into the directory
MAX_REPORTED = 20  # invalid grid values listed in one error
SEED_KEY = "simulation.seed"  # the key each run's seed is written to


LOG = logging.getLogger("cnsim")


class DirectoryLocked(OSError):
    """Another process is writing into the sweep directory."""


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
    zip: Mapping[str, Sequence] | None = None,
    keep: Iterable[str] = KEEP_DEFAULT,
) -> pd.DataFrame:
    """Run `scenario` at every point of `grid` × `seeds`; return one row per run.

    `grid` maps scenario keys to the values to try ({"cp.qcn.qeq": ["25 frames", "50 frames"]}); the
    runs are the Cartesian product of its values (keys in the given order) × `seeds` (an int N
    means seeds 1..N). `set` holds overrides common to every run (a key given there and in `grid`
    takes the grid's value). `jobs`: worker processes (None: all cores; 1: in this process).
    `client`: a `dask.distributed.Client`; the runs are then sent to its cluster (`jobs` is
    ignored). `progress`: a bar on stderr (None: when stderr is a terminal).

    Every grid point is checked before anything runs: the invalid ones are reported on stderr at
    once (each bad key=value with its reason); their runs fail without running (an `error` row)
    and the others go on. A scenario invalid before any grid value is applied raises
    `ScenarioError` without running anything. With `out`, the sweep is resumable: each finished run is kept as
    `out/runs/<key>.json` (the key is the sha256 of the run's resolved scenario, seed included,
    and of the code's identity `cnsim.identity.build_id()`), written atomically as soon as the run
    finishes; runs whose file exists are not run again (failed ones are, with `retry_failed`);
    results of other code are never reused. `out/sweep.json` lists the sweep's runs (see
    `status`); the table is rebuilt from the store and written to `out/sweep.parquet`
    (atomically). The directory is locked while the sweep runs (`DirectoryLocked` for a second
    one), and must be new, empty or a sweep's.

    `keep` (with `out`): what each run keeps beside its row, in `out/runs/<key>/` — "tables"
    (default: `flows.parquet`, `queues.parquet`, `rps.parquet`, the per-entity summaries, and
    `fct.parquet`, the FCT slowdown per flow-size bucket, for a run with transfers) and
    "series" (`series.parquet`, the run's time series); `keep=()` keeps the rows only.
    `cnsim.sweep.run_files(out)` lists them per run.

    `zip` maps keys whose values vary together (lists of one length): the zipped tuples are one
    more axis of the product, after the `grid` keys (`cnsim.grid` has the CLI's range syntax).

    Columns: one per grid key (the values as text, as the CLI gives them), then `KEY [UNIT]`
    (float64) for each key whose values are all numbers with one unit (`[1]`: no unit), `seed`, the scalars of `summary["global"]`, the
    main CP's `q_mean_frames`, `q_std_frames`, `q_dev_from_qeq_frames`, `events`, `stopped_by`
    (None, or the guard that stopped the run early: its metrics are partial) and `error` (None,
    or the message of the run's failure; its metrics are then missing). Rows are in (grid order,
    seed) order, so the same arguments give the same table whatever `jobs` or `client` is.
    """
    return sweep_with_counts(scenario, grid, seeds, jobs, progress, out, set, client, retry_failed, zip, keep)[0]


def sweep_with_counts(scenario, grid, seeds, jobs, progress, out, set, client, retry_failed, zipped=None,
                      keep=KEEP_DEFAULT) -> tuple[pd.DataFrame, dict]:
    """`sweep` (positional arguments), also returning counts {"runs", "skipped", "ran"}: the CLI
    says how many runs the store already held."""
    from . import _core

    text, label = source(scenario)
    base = overrides(set, label)
    keys, values = _grid_values(grid)
    seeds = _args.seeds(seeds)
    jobs = _args.jobs(jobs)
    out = None if out is None else _args.path(out, "out")
    _core.check(text, label, base)  # the scenario itself first: one clear error

    axis = None
    if zipped:
        zkeys, zvalues = _grid_values(zipped)
        if len({len(v) for v in zvalues}) != 1:
            lengths = ", ".join(f"{k} has {len(v)}" for k, v in zip(zkeys, zvalues))
            raise ValueError(f"--zip: zipped keys need the same number of values ({lengths})")
        both = [k for k in zkeys if k in keys]
        if both:
            raise ValueError(f"--zip: {both[0]!r} is also a --grid key")
        axis = list(zip(*zvalues))
    _refuse_seed_key(keys + (zkeys if zipped else []), base)
    count_runs(values, len(axis) if axis else 1, len(seeds))  # before anything is expanded
    check_grid_keys(text, label, base, keys, values, "--grid")
    points = list(itertools.product(*values))
    if axis:
        check_grid_keys(text, label, base, zkeys, zvalues, "--zip")
        points = [(*p, *z) for p in points for z in axis]
        keys = [*keys, *zkeys]
    point_sets = [base + [(k, value_text(v)) for k, v in zip(keys, point)] for point in points]
    errors, report = validate_points(text, label, [ps[len(base):] for ps in point_sets], base)
    if report:  # said before anything runs; those runs fail at once, the others go on
        print(f"cnsim sweep: {report}", file=sys.stderr)
    runs = [(point, seed) for point in points for seed in seeds]
    keep = _keep(keep) if out is not None else ()
    tasks = [(text, label, ps, seed, keep) for ps in point_sets for seed in seeds]
    invalid = {i: _error_row(errors[i // len(seeds)]) for i in range(len(tasks)) if errors[i // len(seeds)]}
    labels = [(dict(zip(keys, map(value_text, point))), seed) for point, seed in runs]
    if out is not None:
        check_sweep_dir(out, "sweep")

    with Store(out).lock() if out is not None else nullcontext() as store:
        salt = "sweep" + "".join(f" keep {k}" for k in keep)  # a run kept with more files is another run
        run_keys = [run_key(*t[:4], salt=salt) for t in tasks] if store is not None else None
        if store is not None:
            store.write_jobs("sweep", label, keys, labels, run_keys)
        title = f"sweep {Path(label).stem}"
        def kept(i: int, row: dict) -> None:
            files = row.pop("_files", None)
            if files and store is not None:
                store.keep_files(run_keys[i], files)

        results, counts = execute_stored(run_one, tasks, store, run_keys, labels=labels, jobs=jobs, client=client,
                                         progress=progress, title=title, retry_failed=retry_failed, invalid=invalid,
                                         keep=kept)
        rows = [{**dict(zip(keys, map(value_text, point))), "seed": seed, **_as_row(r)}
                for (point, seed), r in zip(runs, results)]
        df = pd.DataFrame(rows, columns=_columns(keys, rows))
        df = add_unit_columns(df, keys)
        df["events"] = df["events"].astype("Int64")
        for col in ("stopped_by", "error"):  # None, not NaN
            df[col] = pd.Series([r.get(col) for r in rows], index=df.index, dtype=object)
        if out is not None:
            write_parquet(df, out / PARQUET, keys)
    return df, counts


def _refuse_seed_key(keys: list[str], base: list[tuple[str, str]]) -> None:
    """Each run's seed is one of `seeds`, written over `simulation.seed`: a grid, zip or --set value
    of that key would be replaced, and a grid over it would run the same runs again under new
    labels. ValueError naming the flag."""
    for flag, names in (("--grid/--zip", keys), ("--set", [k for k, _ in base])):
        if SEED_KEY in (k.strip() for k in names):
            raise ValueError(f"{flag} {SEED_KEY}: a sweep gives each run its seed from --seeds N "
                             f"(seeds=[...] from Python), which replaces this key: use --seeds")


def _grid_values(grid) -> tuple[list[str], list[list]]:
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid: expected a mapping of scenario key → list of values, got {grid!r}")
    keys, values = [], []
    for key in grid:
        if not isinstance(key, str) or not key.strip():
            raise TypeError(f"grid: keys must be scenario keys (non-empty str), got {key!r}")
        if isinstance(grid[key], str | bytes | Mapping) or not isinstance(grid[key], Iterable):
            raise ValueError(f"grid[{key!r}]: expected a list of values, got {grid[key]!r}")
        keys.append(key)
        values.append(list(grid[key]))
        if not values[-1]:
            raise ValueError(f"grid[{key!r}]: no values")
    return keys, values


def count_runs(values: list[list], zipped: int, seeds: int) -> int:
    """The number of runs of a grid (its value lists) × `zipped` points × `seeds`; ValueError past
    `_args.MAX_RUNS`, said before anything is expanded."""
    n = zipped * seeds
    for v in values:
        n *= len(v)
    if n > _args.MAX_RUNS:
        shape = " × ".join([*(str(len(v)) for v in values), *([str(zipped)] if zipped > 1 else []), f"{seeds} seeds"])
        raise ValueError(f"sweep: {n} runs ({shape}) is more than the {_args.MAX_RUNS} one sweep may hold: "
                         "split it into several sweeps")
    return n


def check_grid_keys(text: str, label: str, base, keys: list[str], values: list[list], flag: str) -> None:
    """A grid key whose every value is refused alone is a wrong key (e.g. misspelled): ValueError
    naming `flag`, before any run. (Single bad values are reported by `validate_points` and only
    their runs fail.)"""
    from . import _core

    for key, vals in zip(keys, values):
        message = None
        for v in vals[:3]:  # a wrong key is refused for every value; three tell it from bad values
            try:
                _core.check(text, label, [*base, (key, value_text(v))])
                break
            except _core.ScenarioError as exc:
                message = str(exc)
        else:
            raise ValueError(f"{flag} {key}: {relabel(message, flag)}")


def relabel(message: str, flag: str) -> str:
    """An engine error about an override, naming the option it came from (the engine says --set)."""
    return message.replace("with --set:", f"with {flag}:")


def validate_points(text: str, label: str, points: list[list[tuple[str, str]]], base=(), flag: str = "--grid") -> tuple[list, str]:
    """Check every grid point (its (key, value) overrides, on top of `base`) with the engine;
    messages name `flag` as the option the values came from.

    Returns (the error message of each point or None, a report naming every bad key=value — or
    combination, when each value is fine alone — with its reason; "" when all are valid)."""
    from . import _core

    def error(overrides) -> str | None:
        try:
            _core.check(text, label, [*base, *overrides])
        except _core.ScenarioError as exc:
            return relabel(str(exc), flag)
        return None

    single: dict[tuple[str, str], str | None] = {}
    bad: dict[str, str] = {}
    errors = []
    for pairs in points:
        message = error(pairs)
        errors.append(message)
        if message is None:
            continue
        culprits = [p for p in pairs if (single[p] if p in single else single.setdefault(p, error([p])))]
        for p in culprits:
            bad.setdefault(f"{p[0]}={p[1]}", single[p])
        if not culprits:  # only this combination is invalid
            bad.setdefault(", ".join(f"{k}={v}" for k, v in pairs), message)
    if not bad:
        return errors, ""
    lines = [f"  {where}: {message}" for where, message in list(bad.items())[:MAX_REPORTED]]
    more = [f"  … and {len(bad) - MAX_REPORTED} more"] if len(bad) > MAX_REPORTED else []
    runs = sum(e is not None for e in errors)
    return errors, "\n".join([f"{len(bad)} invalid grid value(s); their {runs} grid point(s) fail without running:",
                              *lines, *more])


def check_sweep_dir(out: Path, kind: str) -> None:
    """Raise a one-line OSError unless `out` can hold a `kind` ("sweep", "reproduce …") store:
    writable, and new, empty (but for a lock file) or already such a store."""
    from .outputs import check_location

    check_location(out)
    if not out.exists() or all(p.name == LOCK for p in out.iterdir()):
        return
    if not (out / JOBS).is_file():
        raise FileExistsError(f"{out} holds files that are not a cnsim {kind.split()[0]}'s (no {JOBS}); "
                              "choose a fresh output directory")
    try:
        found = json.loads((out / JOBS).read_text(encoding="utf-8")).get("kind", "sweep")
    except (OSError, ValueError, AttributeError):
        return  # a damaged sweep.json of ours: rewritten
    if found != kind:
        raise FileExistsError(f"{out} holds a cnsim {found}, not a {kind}: choose another output directory")


def execute_stored(fn, tasks: list, store: Store | None, run_keys: list[str] | None, *, labels: list, jobs=None,
                   client=None, progress=None, title: str = "runs", retry_failed: bool = False, keep=None,
                   invalid: Mapping[int, dict] = {}) -> tuple[list, dict]:
    """Run `fn(task)` for each task not already in `store`; return (results in task order, counts).

    `run_keys[i]` is task i's store key (`run_key`; None without a store). A result is `fn`'s dict, from this session
    or from the store (with a store, the store's copy wins), or the exception of a run whose worker
    died (not stored: it runs again next time), or None (a duplicate of such a run). `labels[i]`
    is (grid point, seed), kept in the run's record. Each worker also reports its code's identity;
    a result from other code is refused. `keep(i, result)` sees each fresh result before it is
    stored (e.g. to write the outputs it carries and pop them). `invalid[i]` is the (failed) result
    of a task known to fail (an invalid grid value): it is stored as such and not run.
    """
    from .identity import build_id
    from .execution import RunProgress, dask_slots, execute  # lazily: cnsim.reproduce is heavier

    build = build_id()
    run_keys = run_keys or []
    results: list = [None] * len(tasks)
    todo = list(range(len(tasks)))
    if store is not None:
        todo, seen = [], set()
        for i, k in enumerate(run_keys):
            if k in seen:  # two grid points resolving to the same scenario: one run
                continue
            seen.add(k)
            record = store.read(k)
            if record is None or (retry_failed and record["status"] == "failed"):
                todo.append(i)
    skipped = len(tasks) - len(todo)

    def finished(j: int, result) -> None:
        i = todo[j]
        if isinstance(result, tuple):
            worker_build, result = result
            if worker_build != build:
                result = RuntimeError(f"computed by other code (cnsim {worker_build}; here {build}): not used")
            elif keep is not None:
                try:
                    keep(i, result)
                except Exception as exc:
                    result = exc
        results[i] = result
        ok = isinstance(result, dict) and result["error"] is None
        LOG.info("%s seed %s: %s", labels[i][0], labels[i][1], "done" if ok else
                 f"failed: {result['error'] if isinstance(result, dict) else result}")
        if run_keys:
            LOG.debug("stored as %s", run_keys[i])
        if store is not None and isinstance(result, dict):  # a lost worker is not a result: re-run it next time
            store.write(run_keys[i], result, *labels[i])
        bar.advance(ok=ok)

    show = sys.stderr.isatty() if progress is None else progress
    title += f" ({skipped} already done)" if skipped else ""
    slots = dask_slots(client) if client is not None else max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    with RunProgress(title, len(todo), show=show, slots=slots) as bar:
        for j, i in enumerate(todo):
            if i in invalid:
                finished(j, (build, invalid[i]))
        todo_valid = [j for j, i in enumerate(todo) if i not in invalid]
        execute(_identified, [(fn, tasks[todo[j]]) for j in todo_valid], jobs, on_start=bar.start,
                on_done=lambda k, result: finished(todo_valid[k], result), return_exceptions=True, client=client)
    if store is not None:  # the table comes from the store
        for i, k in enumerate(run_keys):
            if results[i] is None or isinstance(results[i], dict):
                record = store.read(k)
                results[i] = record["row"] if record is not None else results[i]
    return results, {"runs": len(tasks), "skipped": skipped, "ran": len(todo)}


def _identified(call: tuple) -> tuple[str, dict]:
    """Run in a worker: (this code's identity, fn(task))."""
    from .identity import build_id

    fn, task = call
    return build_id(), fn(task)


def _as_row(result) -> dict:
    if result is None:  # a duplicate of a run whose worker died
        return _error_row("not run")
    if not isinstance(result, dict):  # the worker itself died (e.g. a crashed process), or other code
        return _error_row(f"{type(result).__name__}: {result}")
    return result


def run_key(text: str, label: str, overrides: list[tuple[str, str]], seed: int, *, salt: str = "sweep") -> str:
    """The store key of a run: sha256 of its resolved scenario (seed included), of what computes
    its row (`salt`: "sweep" or a reproduction) and of the code (`cnsim.identity.build_id()`).

    A run whose scenario does not resolve (an invalid grid value) is keyed by its raw inputs.
    """
    from . import _core
    from .identity import build_id

    try:
        material = _core.check(text, label, [*overrides, (SEED_KEY, str(seed))])
    except _core.ScenarioError:
        material = json.dumps({"invalid": text, "overrides": overrides, "seed": seed})
    return hashlib.sha256(f"{material}\0{salt}\0cnsim {build_id()}".encode()).hexdigest()


class Store:
    """The result store of a sweep directory: `runs/<key>.json` per finished run, `sweep.json`."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.runs = self.out / STORE

    def path(self, key: str) -> Path:
        return self.runs / f"{key}.json"

    @contextmanager
    def lock(self):
        """Hold an exclusive lock on `out/.cnsim-sweep.lock` (released when the process ends,
        however it ends); raise DirectoryLocked if another process holds it."""
        from .locks import exclusive

        self.out.mkdir(parents=True, exist_ok=True)
        refused = lambda holder: DirectoryLocked(  # noqa: E731
            f"{self.out} is in use by another cnsim sweep ({holder}); wait for it to end, or use another output directory")
        with exclusive(self.out / LOCK, refused):
            yield self

    def read(self, key: str) -> dict | None:
        """The record of a finished run, if any and computed by this code."""
        from .identity import build_id

        try:
            record = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        ok = isinstance(record, dict) and record.get("status") in ("ok", "failed") and record.get("build") == build_id()
        return record if ok else None

    def write(self, key: str, row: dict, point: dict, seed: int) -> None:
        from .identity import build_id

        record = {
            "key": key,
            "status": "ok" if row["error"] is None else "failed",
            "error": row["error"],
            "stopped_by": row.get("stopped_by"),
            "point": point,
            "seed": seed,
            "row": row,
            "build": build_id(),
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "pid": os.getpid(),
        }
        write_atomic(self.path(key), json.dumps(record, indent=1))

    def keep_files(self, key: str, files: dict[str, pd.DataFrame]) -> Path:
        """Write a run's kept tables into `runs/<key>/` as a whole: into a temporary folder that is
        renamed into place, so that a failed write (a full disk) leaves no empty or partial folder."""
        directory = self.runs / key
        tmp = self.runs / f".{key}.{os.getpid()}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        try:
            for name, table in files.items():
                write_parquet(table, tmp / f"{name}.parquet")
            if directory.exists():
                shutil.rmtree(directory)  # a re-run of the same key: the store's own folder
            os.rename(tmp, directory)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return directory

    def write_jobs(self, kind: str, label: str, keys: list[str], labels: list, run_keys: list[str]) -> None:
        from .identity import build_id

        jobs = {
            "kind": kind,
            "scenario": label,
            "build": build_id(),
            "grid_keys": keys,
            "runs": [{"key": k, "point": point, "seed": seed} for (point, seed), k in zip(labels, run_keys)],
        }
        write_atomic(self.out / JOBS, json.dumps(jobs, indent=1))


def _read_jobs(out: Path) -> dict:
    """`out/sweep.json`, checked; FileNotFoundError without one, ValueError when it is damaged."""
    path = out / JOBS
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"{out}: no sweep here (no {JOBS})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: unreadable ({exc})") from None
    try:
        jobs = json.loads(text)
        if not all(isinstance(r["key"], str) for r in jobs["runs"]):
            raise TypeError("a run's key is not a string")
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is damaged or truncated ({type(exc).__name__}: {exc}); "
                         "run the sweep command again to rewrite it (finished runs are kept in runs/)") from None
    return jobs


def status(out: str | Path) -> dict:
    """Counts of a sweep directory's runs: total, done (of which `stopped` by a guard), failed, missing.

    Runs are those listed in `out/sweep.json` (distinct store keys); done/failed are read from
    `out/runs/`, counting only results of this code (see `code_mismatch`). Raises
    FileNotFoundError when `out` holds no sweep, ValueError when its sweep.json is damaged.
    """
    out = _args.path(out, "out")
    jobs = _read_jobs(out)
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


def finished_runs(out: str | Path) -> tuple[dict, list[tuple[dict, int, dict]]]:
    """What an interrupted (or running) sweep or reproduction in `out` has finished: its sweep.json
    (kind, scenario, grid keys, every listed run) and (point, seed, row) of each run finished by
    this code, in listed order. Raises as `status` does."""
    out = _args.path(out, "out")
    jobs, store = _read_jobs(out), Store(out)
    done = []
    for run in {r["key"]: r for r in jobs["runs"]}.values():
        record = store.read(run["key"])
        if record is not None and record["status"] == "ok":
            done.append((run["point"], run["seed"], record["row"]))
    return jobs, done


def code_mismatch(out: str | Path) -> tuple[str, str] | None:
    """(the code the sweep in `out` was run with, this code) when they differ, else None: its
    stored results are then not reused, and running the sweep again recomputes them."""
    from .identity import build_id

    jobs = _read_jobs(_args.path(out, "out"))
    theirs = jobs.get("build") or f"{jobs.get('cnsim_version', '?')} (no build id)"
    return None if theirs == build_id() else (theirs, build_id())


def write_atomic(path: Path, text: str) -> None:
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


def _keep(keep) -> tuple[str, ...]:
    items = (keep,) if isinstance(keep, str) else tuple(keep)
    bad = [k for k in items if k not in KEEP_CHOICES]
    if bad:
        raise ValueError(f"keep: {bad[0]!r} is not one of {', '.join(KEEP_CHOICES)}")
    return tuple(k for k in KEEP_CHOICES if k in items)


def run_files(out: str | Path) -> pd.DataFrame:
    """The files the runs of the sweep in `out` kept (`keep`): one row per (run, file) with the
    run's grid point and seed and the file's path."""
    out = Path(out)
    jobs = _read_jobs(out)
    rows = []
    for run in jobs.get("runs", []):
        directory = out / STORE / run["key"]
        for path in sorted(directory.glob("*.parquet")) if directory.is_dir() else []:
            rows.append({**run["point"], "seed": run["seed"], "file": path.stem, "path": str(path)})
    return pd.DataFrame(rows)


def run_one(task: tuple) -> dict:
    """Run one (TOML text, path label, overrides, seed[, keep]) task; return its flat row (never
    raises); with `keep`, the tables to keep ride along in `row["_files"]`."""
    text, label, overrides, seed = task[:4]
    keep = task[4] if len(task) > 4 else ()
    try:
        from . import _core
        from .api import drive

        sim = _core.Simulation(text, label, overrides, seed)
        drive(sim, lambda: None)
        stats = json.loads(sim.stats_json())
        summary = summarize(stats)
    except Exception as exc:
        return _error_row(str(exc) or type(exc).__name__)
    row = seed_metrics(summary)
    row["events"] = stats["events"]
    row["stopped_by"] = stats.get("stopped_by")
    row["error"] = None
    if keep:
        from .results import Result

        result = Result(stats, sim.take_series() if "series" in keep else {"names": [], "index": b"", "t": b"", "value": b""},
                        "")
        result.__dict__["summary"] = summary
        files = {}
        if "tables" in keep:
            for scope in ("flows", "queues", "rps"):
                files[scope] = result.table(scope).reset_index()
            if summary.get("fct"):  # a run with transfers: its FCT slowdown per size bucket
                files["fct"] = result.table("fct").reset_index()
        if "series" in keep:
            files["series"] = result.series_frame
        row["_files"] = files
    return row


def add_unit_columns(df: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Insert `KEY [UNIT]` (float64) after the grid keys for each key whose values are all
    numbers with one unit (see `cnsim.grid.unit_column`)."""
    from .grid import unit_column

    at = len(keys)
    for key in keys:
        found = unit_column(df[key].tolist())
        if found is not None:
            df.insert(at, f"{key} [{found[0]}]", pd.Series(found[1], index=df.index, dtype="float64"))
            at += 1
    return df


def _error_row(message: str) -> dict:
    return {**dict.fromkeys(global_metrics()), "events": None, "stopped_by": None, "error": message}


def _columns(keys: list[str], rows: list[dict]) -> list[str]:
    """Grid keys, seed, the global metrics (table order, the main CP's queue among them, then any
    others), events, stopped_by, error."""
    tail = ["events", "stopped_by", "error"]
    known = set(keys) | {"seed"} | set(global_metrics()) | set(tail)
    extra = list(dict.fromkeys(k for r in rows for k in r if k not in known))
    return [*keys, "seed", *global_metrics(), *extra, *tail]


def write_parquet(df: pd.DataFrame, path: Path, keys: Sequence[str] = ()) -> Path:
    """Write `df` to `path` atomically (a temporary file in the same directory, then os.replace).

    A grid column whose values mix types (e.g. 25 and "50 frames") is written as text.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    table = df.copy()
    for key in keys:
        if table[key].dtype == object and len({type(v) for v in table[key]}) > 1:
            table[key] = table[key].map(value_text)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        table.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
