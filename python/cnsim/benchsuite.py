"""`cnsim bench --suite`: the benchmark suite of docs/performance.md.

Every case is a scenario text run in a child process (`bench_child.py`), so each reports its own
peak memory and a second build can run the very same text (`compare=`: another interpreter whose
`cnsim` is that build). Reported per case: delivered data frames per wall-second, events per
second, wall nanoseconds per delivered frame, build time, and the child's peak RSS with
`rss_before_mb`, its RSS before the scenario was built (the interpreter and its imports). Times
are medians over `reps` repetitions, the builds interleaved repetition by repetition so that load
on the machine hits both alike.

The cases are data, in benchsuite.toml beside this file: each one's name, durations and scenario
(the engine's benchmark, a shipped scenario, a generated fat tree with its fabric preset, or a
scenario's text). Sizes: "full" (the numbers of docs/performance.md) and "smoke" (the same cases,
tiny durations, for the tests: they check the output, never a time).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Callable, Iterable

from . import _core
from .generators import fat_tree

CHILD = Path(__file__).with_name("bench_child.py")


@dataclass(frozen=True)
class Case:
    name: str
    text: Callable[[float], str]      # duration in simulated seconds → scenario text
    duration: dict                    # size → simulated seconds
    path: str = "<bench>"
    overrides: tuple = ()


CASE_FILE = "benchsuite.toml"         # the cases, as data (shipped in the package)
SCENARIO_KINDS = ("engine", "shipped", "fat_tree", "text")


def _ps(d: float) -> str:
    return f"{round(d * 1e12)}ps"


def _case(c: dict) -> Case:
    """One `[[case]]` of benchsuite.toml: its one scenario table made a function of the duration."""
    given = [k for k in SCENARIO_KINDS if k in c]
    if len(given) != 1:
        raise ValueError(f"{CASE_FILE}: case {c.get('name')!r} needs exactly one of {', '.join(SCENARIO_KINDS)}")
    kind, arg = given[0], c[given[0]]
    if kind == "engine":
        text = lambda d: _core.bench_scenario(**arg, duration_s=d)  # noqa: E731
    elif kind == "shipped":
        text = lambda d: files("cnsim").joinpath("scenarios", arg).read_text(encoding="utf-8")  # noqa: E731
    elif kind == "fat_tree":
        text = lambda d: fat_tree(**arg, duration=_ps(d))  # noqa: E731
    else:
        text = lambda d: Template(arg).substitute(duration=_ps(d))  # noqa: E731
    return Case(c["name"], text, c["duration"], path=arg if kind == "shipped" else "<bench>")


def load_cases() -> list[Case]:
    """The suite's cases, in the order of benchsuite.toml."""
    doc = tomllib.loads(files("cnsim").joinpath(CASE_FILE).read_text(encoding="utf-8"))
    return [_case(c) for c in doc["case"]]


def _seed000_overrides(d: float) -> tuple:
    return (("simulation.duration", _ps(d)), ("simulation.measure_from", "0s"),
            ("simulation.record_interval", "0s"))


CASES: list[Case] = load_cases()


def case_names() -> list[str]:
    return [c.name for c in CASES]


def interpreter(build: str | Path) -> str:
    """The Python of another build: an interpreter path, or a checkout holding `.venv`."""
    p = Path(build)
    for cand in (p, p / ".venv" / "bin" / "python", p / "bin" / "python"):
        if cand.is_file():
            return str(cand)
    raise FileNotFoundError(f"{build}: neither a Python interpreter nor a directory with .venv/bin/python")


def _request(case: Case, size: str) -> str:
    d = case.duration[size]
    ov = list(case.overrides) + (list(_seed000_overrides(d)) if case.path != "<bench>" else [])
    return json.dumps({"text": case.text(d), "path": case.path, "overrides": ov})


def _run_child(python: str, request: str, timeout: float) -> dict:
    out = subprocess.run([python, str(CHILD)], input=request, capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child ({python}) failed: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(size: str = "full", reps: int = 3, cases: Iterable[str] | None = None, compare: str | Path | None = None,
        timeout: float = 1800.0, progress: Callable[[str], None] | None = None) -> list[dict]:
    """Run the suite; one row per (case, build) with medians and min–max spreads."""
    if size not in ("full", "smoke"):
        raise ValueError(f"size must be 'full' or 'smoke', not {size!r}")
    if reps < 1:
        raise ValueError(f"reps must be ≥ 1, not {reps}")
    chosen = [c for c in CASES if cases is None or c.name in set(cases)]
    unknown = set(cases or ()) - {c.name for c in CASES}
    if unknown:
        raise ValueError(f"unknown case(s) {', '.join(sorted(unknown))}; one of {', '.join(case_names())}")
    builds = {"this": sys.executable}
    if compare is not None:
        builds["other"] = interpreter(compare)
    samples: dict[tuple[str, str], list[dict]] = {}
    for rep in range(reps):
        for case in chosen:
            req = _request(case, size)
            for label, py in builds.items():
                if progress:
                    progress(f"rep {rep + 1}/{reps} {case.name} [{label}]")
                samples.setdefault((case.name, label), []).append(_run_child(py, req, timeout))
    rows = []
    for case in chosen:
        for label in builds:
            s = samples[(case.name, label)]
            wall = [x["wall_s"] for x in s]
            med = statistics.median(wall)
            delivered, events = s[0]["delivered_frames"], s[0]["events"]
            rows.append({
                "case": case.name, "build": label, "sim_s": case.duration[size], "reps": reps,
                "wall_s": med, "wall_min_s": min(wall), "wall_max_s": max(wall),
                "events": events, "delivered_frames": delivered,
                "delivered_per_s": delivered / med if med > 0 else None,
                "events_per_s": events / med if med > 0 else None,
                "ns_per_frame": med * 1e9 / delivered if delivered else None,
                "build_s": statistics.median(x["build_s"] for x in s),
                "peak_rss_mb": max(x["peak_rss_mb"] for x in s),
                "rss_before_mb": max(x.get("rss_before_mb", 0.0) for x in s),
                "stopped_by": s[0]["stopped_by"],
            })
    if compare is not None:
        by = {(r["case"], r["build"]): r for r in rows}
        for case in chosen:
            this, other = by[(case.name, "this")], by[(case.name, "other")]
            this["speedup_vs_other"] = other["wall_s"] / this["wall_s"] if this["wall_s"] > 0 else None
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a fixed-width text table."""
    head = f"{'case':28} {'build':5} {'sim_s':>7} {'wall_s':>8} {'spread':>15} {'delivered/s':>12} {'events/s':>12} {'ns/frame':>9} {'RSS MB':>7} {'speedup':>7}"
    lines = [head]
    for r in rows:
        spread = f"{r['wall_min_s']:.3f}-{r['wall_max_s']:.3f}"
        fmt = lambda v, f: format(v, f) if v is not None else "-"  # noqa: E731
        lines.append(f"{r['case']:28} {r['build']:5} {r['sim_s']:>7g} {r['wall_s']:>8.3f} {spread:>15} "
                     f"{fmt(r['delivered_per_s'], '>12,.0f')} {fmt(r['events_per_s'], '>12,.0f')} "
                     f"{fmt(r['ns_per_frame'], '>9.0f')} {r['peak_rss_mb']:>7.0f} {fmt(r.get('speedup_vs_other'), '>7.2f')}")
    return "\n".join(lines)
