"""`cnsim bench --suite`: the benchmark suite of docs/performance.md.

Every case is a scenario text run in a child process (`bench_child.py`), so each reports its own
peak memory and a second build can run the very same text (`compare=`: another interpreter whose
`cnsim` is that build). Reported per case: delivered data frames per wall-second, events per
second, wall nanoseconds per delivered frame, build time, and the child's peak RSS with
`rss_before_mb`, its RSS before the scenario was built (the interpreter and its imports). Times
are medians over `reps` repetitions, the builds interleaved repetition by repetition so that load
on the machine hits both alike.

Sizes: "full" (the numbers of docs/performance.md) and "smoke" (the same cases, tiny durations, for
the tests: they check the output, never a time).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
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


def _dumbbell(n: int, qcn: bool) -> Callable[[float], str]:
    return lambda d: _core.bench_scenario("cbr", n, qcn, d)


def _tcp(n: int) -> Callable[[float], str]:
    return lambda d: _core.bench_scenario("tcp", n, False, d)


def _shipped(rel: str) -> Callable[[float], str]:
    return lambda d: files("cnsim").joinpath("scenarios", rel).read_text(encoding="utf-8")


def _incast(n: int) -> Callable[[float], str]:
    """n hosts at 5 Gb/s each into one 10 Gb/s port with 802.3x PAUSE (ingress trigger)."""
    def text(d: float) -> str:
        return f"""[simulation]
duration = "{round(d * 1e12)}ps"
record_interval = "0s"
[defaults]
link = {{ rate = "10Gbps", delay = "1us" }}
queue = {{ capacity = "64 frames" }}
[flow_control.pause]
trigger = "ingress"
xoff = "10 frames"
xon = "5 frames"
[[switch]]
names = "SW"
[[host]]
names = ["H1..H{n}", "D"]
[[link]]
between = ["H1..H{n}", "SW"]
queue = {{ capacity = "1000 frames" }}
[[link]]
between = ["SW", "D"]
[[flow]]
from = "H1..H{n}"
to = "D"
traffic = {{ kind = "cbr", rate = "5Gbps", frame = "1500B" }}
"""
    return text


def _fat_tree(k: int) -> Callable[[float], str]:
    return lambda d: fat_tree(k, qcn=True, duration=f"{round(d * 1e12)}ps")


def _fat_tree_dcqcn(k: int) -> Callable[[float], str]:
    """A RoCEv2-style fabric: ECMP, PFC, DCQCN on every queue and flow, web-search transfers at load 0.5."""
    return lambda d: fat_tree(k, dcqcn=True, workload="web-search", load=0.5, capacity="1000 frames",
                              duration=f"{round(d * 1e12)}ps")


def _seed000_overrides(d: float) -> tuple:
    return (("simulation.duration", f"{round(d * 1e12)}ps"), ("simulation.measure_from", "0s"),
            ("simulation.record_interval", "0s"))


CASES: list[Case] = [
    *(Case(f"dumbbell-n{n}-qcn-{'on' if q else 'off'}", _dumbbell(n, q),
           {"full": 0.5 if n < 1000 else 0.2, "smoke": 0.002}) for n in (10, 100, 1000) for q in (False, True)),
    Case("seed000-multicast-dumbbell", _shipped("mliki2016/dumbbell-multicast.toml"), {"full": 6.0, "smoke": 0.2},
         path="mliki2016/dumbbell-multicast.toml"),
    Case("tcp-bulk-n10", _tcp(10), {"full": 0.2, "smoke": 0.002}),
    Case("pause-incast-n8", _incast(8), {"full": 0.2, "smoke": 0.002}),
    Case("fat-tree-k8-qcn", _fat_tree(8), {"full": 0.01, "smoke": 0.0002}),
    Case("fat-tree-k16-qcn", _fat_tree(16), {"full": 0.01, "smoke": 0.0002}),
    Case("fat-tree-k16-ecmp-dcqcn-websearch-0.5", _fat_tree_dcqcn(16), {"full": 0.005, "smoke": 0.0002}),
]


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
