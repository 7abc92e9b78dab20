"""`Result`: what a finished (or stopped) run leaves behind — stats, summary, time series."""

import functools
import json
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from . import jsonio
from .metrics import metric_declarations, summarize
from .outputs import write_run


@functools.cache
def _renamed() -> tuple[dict, ...]:
    """Every output renamed since stored results were written, as the engine declares them (its
    own, then each protocol's): [{document, scope, old, new}]."""
    from . import _core

    return tuple(json.loads(_core.renamed_outputs()))


def _old_series() -> list[tuple[str, str, str]]:
    """Series names before they carried their unit: (old prefix, old suffix, new prefix). Only
    for the hint in `Result.series`; the engine's catalog (`cnsim.metric_declarations()`) is the
    source of the current names."""
    out = []
    for r in _renamed():
        if r["document"] == "series":
            prefix, suffix = r["old"].split("*")
            out.append((prefix, suffix, r["new"].split("*")[0]))
    return out


def renamed_counters() -> dict[str, str]:
    """The `frames` and `window` counters renamed: old name → new name."""
    return {r["old"]: r["new"] for r in _renamed() if r["document"] == "stats" and r["scope"] == "frames"}


def renamed_entity_counters() -> dict[str, dict[str, str]]:
    """The entities' counters renamed: stats section → {old name → new name}."""
    out: dict[str, dict[str, str]] = {}
    for r in _renamed():
        if r["document"] == "stats" and r["scope"] != "frames":
            out.setdefault(r["scope"], {})[r["old"]] = r["new"]
    return out


def renamed_summary() -> dict[tuple[str, str], dict[str, str]]:
    """The entities' summary metrics renamed: (summary section, definitions' scope) → {old → new};
    an entity scope's section is its plural ("queue" → "queues")."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    for r in _renamed():
        if r["document"] == "summary":
            out.setdefault((r["scope"] + "s", r["scope"]), {})[r["old"]] = r["new"]
    return out


def __getattr__(name: str):
    """`RENAMED_COUNTERS`, `RENAMED_ENTITY_COUNTERS` and `RENAMED_SUMMARY`, read from the engine's
    declarations on first use (`renamed_counters()`, `renamed_entity_counters()`, `renamed_summary()`)."""
    found = {"RENAMED_COUNTERS": renamed_counters, "RENAMED_ENTITY_COUNTERS": renamed_entity_counters,
             "RENAMED_SUMMARY": renamed_summary}.get(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found()


def _rename(entry: dict, names: dict[str, str]) -> None:
    """Rename `entry`'s keys `names` (old → new) in place, keeping their order; a document that
    already has a new name keeps it."""
    renamed = {old: new for old, new in names.items() if old in entry and new not in entry}
    if renamed:
        items = [(renamed.get(k, k), v) for k, v in entry.items()]
        entry.clear()
        entry.update(items)


def upgrade_stats(stats: dict) -> dict:
    """A stored stats document with the counters' current names (`RENAMED_COUNTERS`,
    `RENAMED_ENTITY_COUNTERS`), in place. A `frames` or `window` section is renamed only when it
    holds none of the new names: a current document may hold an old name in its new meaning (a
    protocol's own counter, once every protocol's)."""
    renamed = renamed_counters()
    for section in ("frames", "window"):
        counters = stats.get(section)
        if isinstance(counters, dict) and not set(renamed.values()) & counters.keys():
            for old, new in renamed.items():
                if old in counters:
                    counters[new] = counters.pop(old)
    for section, names in renamed_entity_counters().items():
        for entry in stats.get(section) or []:
            if isinstance(entry, dict):
                _rename(entry, names)
    return stats


def upgrade_summary(summary: dict) -> dict:
    """A stored summary with the metrics' current names (`RENAMED_SUMMARY`), in place: its
    entities' metrics and their definitions."""
    for (section, scope), names in renamed_summary().items():
        for entry in (summary.get(section) or {}).values():
            if isinstance(entry, dict):
                _rename(entry, names)
        for d in summary.get("definitions") or []:
            if isinstance(d, dict) and d.get("scope") == scope and d.get("metric") in names:
                d["metric"] = names[d["metric"]]
    return summary


def renamed_series(name: str) -> str | None:
    """The current name of a series named the old way (`rx.F>H` → `rx_bps.F>H`), else None."""
    for prefix, suffix, new in _old_series():
        if name.startswith(prefix) and name.endswith(suffix) and len(name) > len(prefix) + len(suffix):
            return new + name[len(prefix):len(name) - len(suffix)]
    return None


def stat_rows(stats: dict) -> list[dict]:
    """Every number of the engine's stats document as a row {scope, entity, metric, element, value}.

    The one walk over the raw document: `scope` is where a number lives, as the engine's metric
    declarations name it (`cnsim.metric_declarations()`): "run" for the top level, the section
    ("time", "frames", "rps", "queues", …), "receivers" inside a flow; the `window` section holds
    the `frames` counters counted in the window, so its scope is "frames" and its entity "window".
    `entity` names the item (a queue, an RP, "FLOW>HOST" for a receiver; the section for "time",
    "frames", "window"); a per-priority list gives one row per `element` (else None).
    """
    rows: list[dict] = []

    def number(v) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool)

    def walk(obj: dict, scope: str, entity) -> None:
        for key, v in obj.items():
            if isinstance(v, dict):
                walk(v, "frames" if key == "window" else key, key)
            elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                sub = "receivers" if key == "receivers" else key
                for item in v:
                    name = item.get("name") or item.get("host")
                    walk(item, sub, f"{entity}>{name}" if sub == "receivers" else name)
            elif number(v):
                rows.append({"scope": scope, "entity": entity, "metric": key, "element": None, "value": v})
            elif isinstance(v, list) and v and all(number(x) for x in v):
                rows.extend({"scope": scope, "entity": entity, "metric": key, "element": i, "value": x}
                            for i, x in enumerate(v))

    walk(stats, "run", None)
    return rows


# table → definitions' scope
SCOPES = {"rps": "rp", "queues": "queue", "flows": "flow", "ports": "port", "fct": "fct bucket"}


class Result:
    """The outcome of one run.

    `stats` is the engine's raw stats document, `summary` the metrics of `cnsim.metrics`,
    `scenario_toml` the resolved scenario. Series are in long format (name, t in s, value);
    see docs/internals/core-api.md for the names.
    """

    def __init__(self, stats: dict, series: dict, scenario_toml: str):
        """`series` is the dict of `sim.series()`: names plus little-endian index/t/value bytes."""
        self.stats = stats
        self.scenario_toml = scenario_toml
        self._names = list(series["names"])
        self._codes = np.frombuffer(series["index"], dtype="<u4")
        self._t = np.frombuffer(series["t"], dtype="<f8")
        self._values = np.frombuffer(series["value"], dtype="<f8")
        if not len(self._codes) == len(self._t) == len(self._values):
            raise ValueError("series: index, t and value differ in length")
        self._index = {n: i for i, n in enumerate(self._names)}
        self.capture = None  # cnsim.capture.Capture, when the run captured frames
        self.trace = None  # the event trace (a DataFrame, see cnsim.trace), when the run traced
        self.capture_path = None  # capture.pcapng of a reopened run directory

    @classmethod
    def from_simulation(cls, sim) -> "Result":
        """Collect the results of a `_core.Simulation`."""
        return cls(jsonio.loads_tables(*sim.stats_json_cut(jsonio.ROWS)), sim.series(), sim.resolved_toml())

    @cached_property
    def summary(self) -> dict:
        """The summary metrics (see `cnsim.metrics`)."""
        return summarize(self.stats)

    def table(self, scope: str = "global") -> pd.DataFrame:
        """The summary of one scope as a DataFrame: "global" (one row), or one row per entity of
        "rps", "queues", "flows" (a flow's throughput summed over its receivers) or "ports" (runs
        with flow control), indexed by name; or "fct", one row per flow-size bucket (runs with
        transfers: their FCT slowdown), indexed by bucket. A scope the run lacks gives no rows."""
        if scope == "global":
            return pd.DataFrame([self.summary["global"]])
        if not isinstance(scope, str) or scope not in SCOPES:
            raise ValueError(f"scope must be global, {', '.join(SCOPES)}, not {scope!r}")
        entities = self.summary.get(scope, {})
        rows = {name: {k: v for k, v in d.items() if not isinstance(v, dict)} for name, d in entities.items()}
        columns = [d["metric"] for d in self.summary.get("definitions", []) if d["scope"] == SCOPES[scope]]
        table = pd.DataFrame.from_dict(rows, orient="index") if rows else pd.DataFrame(columns=columns)
        return table.rename_axis("bucket" if scope == "fct" else "name")

    @cached_property
    def stats_frame(self) -> pd.DataFrame:
        """The raw stats document in long format (`stat_rows`), with each metric's declared unit,
        kind and meaning (`cnsim.metric_declarations()`; needs the engine)."""
        declared = pd.DataFrame(metric_declarations()).rename(columns={"name": "metric"})
        return pd.DataFrame(stat_rows(self.stats)).merge(declared, on=["scope", "metric"], how="left")

    @cached_property
    def series_frame(self) -> pd.DataFrame:
        """All series in one long frame: name (categorical), t (s), value."""
        # Views of the engine's arrays, not copies: a run's series may take up to
        # simulation.max_series_memory (the codes shrink to the smallest integer type).
        name = pd.Categorical.from_codes(self._codes, categories=self._names)
        return pd.DataFrame({"name": name, "t": self._t, "value": self._values}, copy=False)

    def series_table(self):
        """`series_frame` as an Arrow table (what series.parquet holds), made from the engine's arrays
        without pandas: a Categorical of a million-queue run's names took a second to check them."""
        import pyarrow as pa

        n = len(self._names)  # the index type pandas gives a Categorical of n categories
        index = np.int8 if n < 2**7 else np.int16 if n < 2**15 else np.int32
        name = pa.DictionaryArray.from_arrays(self._codes.astype(index), pa.array(self._names, pa.large_string()))
        return pa.table({"name": name, "t": self._t, "value": self._values})

    @classmethod
    def load(cls, directory: str | Path) -> "Result":
        """Reopen a run directory written by `cnsim run` or `Result.write` (summary.json,
        series.parquet, scenario.toml; trace.parquet when the run traced). The capture stays a
        file: `Result.capture_path`."""
        from .outputs import CAPTURE, SUMMARY, TRACE

        d = Path(directory)
        try:
            doc = jsonio.loads((d / SUMMARY).read_bytes())
            frame = pd.read_parquet(d / "series.parquet")
            toml = (d / "scenario.toml").read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise FileNotFoundError(f"{d} is not a cnsim run directory (no {Path(exc.filename).name})") from None
        name = frame["name"].astype("category")
        series = {
            "names": [str(c) for c in name.cat.categories],
            "index": name.cat.codes.to_numpy().astype("<u4").tobytes(),
            "t": frame["t"].to_numpy("<f8").tobytes(),
            "value": frame["value"].to_numpy("<f8").tobytes(),
        }
        result = cls(upgrade_stats(doc["stats"]), series, toml)
        result.__dict__["summary"] = upgrade_summary(doc["summary"])  # as written (renames aside), not recomputed
        if (d / TRACE).exists():
            result.trace = pd.read_parquet(d / TRACE)
        result.capture_path = d / CAPTURE if (d / CAPTURE).exists() else None
        return result

    def cr_figure(self):
        """The figure of every RP's current rate over time (`figures/cr.png`), or None."""
        from .figures import cr_figure

        return cr_figure(self)

    def throughput_figure(self):
        """The figure of every receiver's throughput over time (`figures/throughput.png`), or None."""
        from .figures import throughput_figure

        return throughput_figure(self)

    def queue_figure(self, queue: str | None = None):
        """The figure of one CP queue's length over time (`figures/queue_*.png`); default: the
        first queue the CLI draws."""
        from .figures import plotted_queues, queue_figure

        queues = plotted_queues(self.stats) if queue is None else [q for q in self.stats["queues"] if q["name"] == queue]
        if not queues:
            raise KeyError(f"no queue {queue!r}; see Result.table('queues')")
        return queue_figure(self, queues[0])

    def draw_figures(self, directory: str | Path) -> list[Path]:
        """Draw every figure `cnsim run` draws into `directory` (PNG); return the files."""
        from .outputs import draw_run_figures

        return draw_run_figures(self, directory)

    def names(self) -> list[str]:
        """Names of the recorded series."""
        return list(self._names)

    @cached_property
    def _families(self) -> dict[str, list[int]]:
        """The series' codes by family, the name up to its first dot included ("q_frames."), in
        one pass: each figure asks for a family, and a million-queue run has a million names."""
        families: dict[str, list[int]] = {}
        for i, n in enumerate(self._names):
            families.setdefault(n[:n.find(".") + 1], []).append(i)
        return families

    def busiest(self, prefix: str, k: int) -> tuple[list[str], int]:
        """(the at most `k` series named `prefix`… with the largest mean value, in name order; how
        many such series there are), in one pass over the samples whatever their number."""
        if prefix and prefix.find(".") == len(prefix) - 1:  # a family ("rx_bps."): looked up, not searched for
            codes = list(self._families.get(prefix, ()))
        else:
            codes = [i for i, n in enumerate(self._names) if n.startswith(prefix)]
        total = len(codes)
        if total > k:
            n = len(self._names)
            sums = np.bincount(self._codes, weights=self._values, minlength=n)
            counts = np.bincount(self._codes, minlength=n)
            means = sums[codes] / np.maximum(counts[codes], 1)
            codes = [codes[i] for i in np.argsort(-means, kind="stable")[:k]]
        return sorted(self._names[i] for i in codes), total

    def series(self, name: str) -> pd.Series:
        """One series, indexed by t (s)."""
        if not isinstance(name, str):
            raise TypeError(f"series name: expected a str, got {name!r}")
        try:
            code = self._index[name]
        except KeyError:
            new = renamed_series(name)
            if new is not None:
                raise KeyError(f"no series {name!r}; series names now carry their unit: {new!r}") from None
            raise KeyError(f"no series {name!r}; see Result.names()") from None
        mask = self._codes == code
        return pd.Series(self._values[mask], index=pd.Index(self._t[mask], name="t"), name=name)

    def write(self, out: str | Path, *, figures: bool = True, force: bool = False) -> Path:
        """Write summary.json, series.parquet, scenario.toml and figures/ into `out`, atomically
        (`force`: into a directory with other files, which are kept; see `cnsim.outputs`)."""
        from ._args import path

        return write_run(self, path(out, "out"), figures=figures, force=force)

    def __repr__(self) -> str:
        return (
            f"<Result {self.stats.get('scenario')!r} seed={self.stats.get('seed')} "
            f"events={self.stats.get('events')} series={len(self._names)}>"
        )
