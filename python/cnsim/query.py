"""Query results like scavetool: `cnsim results DIR…` and these functions.

    from cnsim import query
    df = query.load(["out/qeq-sweep"])                      # one row per run
    agg = query.aggregate(df, by=["cp.qcn.qeq [frames]"])   # mean and 95 % CI over seeds
    query.plot(df, "feedback_rate_pct", x="cp.qcn.qeq [frames]", path="fb.png")

A directory is a sweep (its `sweep.parquet`), a reproduction (`cnsim reproduce`: its
`results.parquet`, one row per run with a column per metric, `METRIC.PART` for parts other than
"all"), a run (`summary.json`: one row of the run's summary metrics), an unfinished sweep or
reproduction (interrupted, or still running: its finished runs from `runs/`, with a warning that
counts the missing ones) or a folder holding such directories at any depth; rows from several get a
`source` column, and every row names its `scenario`. A directory that holds none of these is skipped
with a warning. `aggregate` counts only runs without error; the CI is Student's t
95 % half-width (t₀.₉₇₅,ₙ₋₁ · s / √n; NaN for one seed).
"""

import json
import math
import warnings
from pathlib import Path

import pandas as pd

from . import jsonio
from .metrics import MARKERS, row_mechanisms, seed_metrics, shown

NOT_METRICS = {"seed", "events", "error", "stopped_by", "source", "scenario"}


def load(paths) -> pd.DataFrame:
    """One row per run of the sweep, reproduction and run directories under `paths` (see module
    doc). `df.attrs["grid"]` lists the grid keys of the sweeps found (and the configuration
    columns of the reproductions)."""
    if isinstance(paths, str | Path):
        paths = [paths]
    frames, grid = [], []
    for path in map(Path, paths):
        found = _directories(path)
        if not found:
            warnings.warn(f"{path}: skipped, no cnsim run, sweep or reproduction directory (summary.json, "
                          "sweep.parquet or results.parquet) there", stacklevel=2)
        for kind, d in found:
            try:
                df, keys = _READERS[kind](d)
            except ValueError as exc:
                if kind != "run":   # a sweep's or reproduction's damaged table stops the command
                    raise
                warnings.warn(f"skipped: {exc}", stacklevel=2)
                continue
            grid += [k for k in keys if k not in grid]
            df.insert(0, "source", str(d))
            frames.append(df)
    if not frames:
        raise FileNotFoundError(f"{', '.join(map(str, paths))}: no cnsim results there")
    out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    if out["source"].nunique() == 1:
        out = out.drop(columns="source")
    out.attrs["grid"] = grid
    return out


def _read_json(path: Path) -> dict:
    try:
        doc = jsonio.loads(path.read_bytes())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path}: not a readable cnsim file ({exc})") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: not a cnsim file (expected a JSON object)")
    return doc


def _read_parquet(path: Path) -> pd.DataFrame:
    try:
        return pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several kinds for a damaged file
        raise ValueError(f"{path}: not a readable Parquet file ({exc})") from None


def _read_sweep(d: Path) -> tuple[pd.DataFrame, list[str]]:
    df = _read_parquet(d / "sweep.parquet")
    if "scenario" not in df.columns:   # named as a run's rows are, so that mixed tables have no gaps
        df.insert(0, "scenario", _jobs_scenario(d))
    return df, _grid_keys(d)


def _jobs_scenario(d: Path) -> str | None:
    """The scenario a sweep or reproduction in `d` ran, as its sweep.json names it (its runs are
    not read)."""
    try:
        return _read_json(d / "sweep.json").get("scenario") if (d / "sweep.json").is_file() else None
    except ValueError:
        return None


def _read_unfinished(d: Path) -> tuple[pd.DataFrame, list[str]]:
    """A sweep or reproduction that has not written its table (interrupted, or still running): one
    row per finished run from its store, with a warning that counts the missing ones."""
    from .sweep import finished_runs

    try:
        jobs, done = finished_runs(d)
    except (FileNotFoundError, ValueError) as exc:
        raise ValueError(str(exc)) from None
    keys = list(jobs.get("grid_keys", []))
    total = len({r["key"] for r in jobs["runs"]})
    rows = []
    for point, seed, row in done:
        if "values" in row:   # a reproduction's run: [part, metric, value] triples
            metrics = {(m if p == "all" else f"{m}.{p}"): v for p, m, v in row["values"]}
        else:
            metrics = {k: v for k, v in row.items() if not isinstance(v, (dict, list)) and k not in point}
        rows.append({"scenario": jobs.get("scenario"), **point, "seed": seed, **metrics})
    warnings.warn(f"{d}: unfinished ({len(done)} of {total} runs finished, {total - len(done)} missing): showing the "
                  "finished runs; run the same command again to finish it", stacklevel=3)
    df = pd.DataFrame(rows, columns=list(dict.fromkeys(["scenario", *keys, "seed"] + [k for r in rows for k in r])))
    if "error" not in df.columns:
        df["error"] = None
    return df, keys


def _read_run(d: Path) -> tuple[pd.DataFrame, list[str]]:
    """A run's row; a ValueError naming its summary.json when that is no run's (`load` skips it)."""
    path = d / "summary.json"
    doc = _read_json(path)
    stats, summary = doc.get("stats"), doc.get("summary")
    if not isinstance(stats, dict) or not isinstance(summary, dict):
        raise ValueError(f"{path}: not a cnsim run summary (no 'stats' and 'summary')")
    try:
        metrics = seed_metrics(summary)
    except (KeyError, TypeError, AttributeError) as exc:   # a damaged or hand-edited summary
        raise ValueError(f"{path}: not a cnsim run summary (its 'summary' is not a run's: {type(exc).__name__} {exc})") from None
    return pd.DataFrame([{"scenario": stats.get("scenario"), "seed": stats.get("seed"), **metrics,
                          "events": stats.get("events"), "stopped_by": stats.get("stopped_by"), "error": None}]), []


def _read_reproduction(d: Path) -> tuple[pd.DataFrame, list[str]]:
    """A reproduction's long results.parquet as one row per run: the configuration columns, seed,
    and a column per metric (`METRIC.PART` for parts other than "all")."""
    long = _read_parquet(d / "results.parquet")
    keys = [c for c in long.columns if c not in ("seed", "part", "metric", "value")]
    if long.empty or not {"seed", "part", "metric", "value"} <= set(long.columns):
        return pd.DataFrame(columns=keys + ["seed", "error"]), keys
    name = long["metric"].where(long["part"] == "all", long["metric"] + "." + long["part"].astype(str))
    wide = (long.assign(column=name).pivot_table(index=keys + ["seed"], columns="column", values="value",
                                                 aggfunc="first", dropna=False, observed=True)
            .reset_index())
    wide.columns.name = None
    wide["error"] = None
    return wide, keys


_READERS = {"sweep": _read_sweep, "reproduction": _read_reproduction, "run": _read_run, "unfinished": _read_unfinished}


def _kind(path: Path) -> str | None:
    """What cnsim directory `path` is (None: not one)."""
    if (path / "sweep.parquet").is_file():
        return "sweep"
    if (path / "results.parquet").is_file() and ((path / "verdicts.json").is_file() or (path / "summary.json").is_file()):
        return "reproduction"
    if (path / "summary.json").is_file():
        return "run"
    if (path / "sweep.json").is_file():
        return "unfinished"
    return None


# Folders a search for results looks into, at most: a tree of sweeps and reproductions holds a
# few hundred; `cnsim results /` would otherwise walk the whole file system, silently, for minutes.
MAX_FOLDERS = 10_000


def _directories(path: Path, seen: set | None = None, root: Path | None = None) -> list[tuple[str, Path]]:
    """The result directories at or below `path` (a sweep's or reproduction's own folders are not
    searched; a folder with a summary.json is a run's, which `load` skips, naming the file, when that
    file is no run's). A folder reached twice (through a link) is searched once; past MAX_FOLDERS
    folders a ValueError says where to point."""
    seen, root = (set(), path) if seen is None else (seen, root)
    real = path.resolve()
    if real in seen:
        return []
    seen.add(real)
    if len(seen) > MAX_FOLDERS:
        raise ValueError(f"{root}: looked into {MAX_FOLDERS} folders without reaching the end of the search: "
                         "point `results` at a run, sweep or reproduction directory, or at a folder of them")
    kind = _kind(path)
    if kind is not None:
        return [(kind, path)]
    found = []
    if path.is_dir():
        for child in sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")):
            found += _directories(child, seen, root)
    return found


def _grid_keys(d: Path) -> list[str]:
    try:
        return list(json.loads((d / "sweep.json").read_text(encoding="utf-8")).get("grid_keys", []))
    except (OSError, ValueError, AttributeError):
        return []


def metric_columns(df: pd.DataFrame, exclude=()) -> list[str]:
    """The numeric columns that are metrics (not grid keys, seed, events)."""
    grid = set(df.attrs.get("grid", [])) | set(exclude)
    return [c for c in df.columns if c not in NOT_METRICS and c not in grid and not c.endswith("]")
            and pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])]


def hidden_metrics(df: pd.DataFrame) -> list[str]:
    """The columns of `df` that are metrics meaning nothing for any of its runs: a feedback rate
    where no run had congestion points, the sources' rates where none had reaction points, …
    (`cnsim.metrics.shown`; each run's mechanisms told by its row, `cnsim.metrics.MARKERS`; a
    mechanism whose marker column is missing counts as present)."""
    present = {m for m, marker in MARKERS.items() if marker not in df.columns}
    present |= set().union(*map(row_mechanisms, df.to_dict("records"))) if len(df) else set()
    keep = set(shown("global", list(df.columns), present))
    return [c for c in df.columns if c not in keep]


def aggregate(df: pd.DataFrame, by: list[str], metrics: list[str] | None = None) -> pd.DataFrame:
    """Mean, 95 % CI half-width and count over seeds of each metric, per group of `by`."""
    from scipy import stats

    for col in by:
        if col not in df.columns:
            raise ValueError(f"--by {col!r}: no such column; columns are {', '.join(df.columns)}")
    metrics = metrics or metric_columns(df, exclude=by)
    for m in metrics:
        if m not in df.columns:
            raise ValueError(f"metric {m!r}: no such column; metrics are {', '.join(metric_columns(df))}")
    ok = df[df["error"].isna()] if "error" in df.columns else df
    rows = []
    groups = ok.groupby(by, sort=False, dropna=False) if by else [((), ok)]
    for point, g in groups:
        point = point if isinstance(point, tuple) else (point,)
        row = dict(zip(by, point))
        row["n"] = len(g)
        for m in metrics:
            v = pd.to_numeric(g[m], errors="coerce").dropna()
            n = len(v)
            row[f"{m}_mean"] = v.mean() if n else math.nan
            row[f"{m}_ci95"] = stats.t.ppf(0.975, n - 1) * v.std() / math.sqrt(n) if n > 1 else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def numeric_axis(df: pd.DataFrame, x: str) -> str:
    """The column to put on an axis for key `x`: `x` itself if numeric, else its `x [UNIT]`."""
    if x in df.columns and pd.api.types.is_numeric_dtype(df[x]):
        return x
    companions = [c for c in df.columns if c.startswith(f"{x} [") and c.endswith("]")]
    if companions:
        return companions[0]
    if x in df.columns:
        return x
    raise ValueError(f"--x {x!r}: no such column; columns are {', '.join(df.columns)}")


def plot(df: pd.DataFrame, metric: str, x: str, hue: str | None = None, path: str | Path | None = None):
    """`metric` (mean ± 95 % CI over seeds) over `x`, one line per value of `hue`; saved to
    `path` when given. Returns the matplotlib Figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xcol = numeric_axis(df, x)
    by = [xcol] + ([hue] if hue else [])
    agg = aggregate(df, by, [metric])
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, g in (agg.groupby(hue, sort=False) if hue else [(None, agg)]):
        g = g.sort_values(xcol)
        ax.errorbar(g[xcol], g[f"{metric}_mean"], yerr=g[f"{metric}_ci95"].fillna(0), marker="o", capsize=3,
                    label=None if hue is None else f"{hue} = {label}")
    ax.set_xlabel(xcol)
    ax.set_ylabel(f"{metric} (mean ± 95 % CI over seeds)")
    ax.grid(alpha=0.3)
    if hue:
        ax.legend()
    if path is not None:
        fig.savefig(path, dpi=150, bbox_inches="tight")
    return fig
