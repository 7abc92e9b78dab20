"""Seed 002 (Jiang & Jain 2007, "Analysis of Backward Congestion Notification (BCN) for Ethernet in
Datacenter Applications"): `cnsim reproduce jiang2007-bcn`.

The experiments of §VI (REPRODUCTION.md, seed 002), each a set of configurations (a shipped
scenario of scenarios/jiang2007/ plus overrides) run over seeds on the sweep machinery
(common.stored_runs: the store in OUT/runs/, resume, --jobs, --dask). A run's row holds per-source
throughput (and TCP transactions), per-queue statistics and a trace of the queues the paper plots;
jiang2007_report.py turns the rows into tables beside the paper's numbers, claims and figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import _args

NAME = "jiang2007-bcn"
TITLE = "Seed 002 — BCN (Jiang & Jain 2007): six-source, factorial, parking lot, asymmetric, mixed, bursty"
SEEDS = 5          # default seeds per configuration
BAND = 4           # §VI.B: "stable state as a maximum queue variation of ±4 packets" around Qeq
QEQ = 16           # §VI.A
SCEN = "scenarios/jiang2007/"
NO_BCN = {"cp": '"none"'}
PAUSE = {"flow_control": "{ pause = {} }"}   # 802.3x PAUSE with cnsim's documented defaults
ONE_CONN = {"flow.0.traffic": '{ kind = "tcp-bulk", connections = 1 }'}
QUICK_SCALE = 0.05  # --quick: every duration (and window) × this


def no_rp(n: int) -> dict:
    return {f"flow.{i}.rp": '"none"' for i in range(n)}


@dataclass
class Config:
    """One configuration: `experiment` (the paper's table or figure), `variant`, the scenario and
    its overrides, the simulated time and what the worker extracts."""
    experiment: str
    variant: str
    scenario: str
    sets: dict = field(default_factory=dict)
    duration: float = 1.0          # s
    measure_from: float = 0.2      # s
    traces: tuple[str, ...] = ()   # queues whose length is kept as a trace (figures, settling time)
    windows: tuple[tuple[float, float], ...] = ()   # extra throughput windows (s), e.g. Table IV


def _symmetric() -> list[Config]:
    """§VI.C: the 2² factorial design over Ru and Pm at 1 and 10 Gb/s. CHOICE: the levels are the
    values the text names (Ru 0.8 and 8 Mb/s, Pm 0.05 and 0.1) at both capacities."""
    out = []
    for cap in (1, 10):
        for ru in (0.8, 8):
            for pm in (0.05, 0.1):
                out.append(Config(f"fig{7 if cap == 1 else 8}", f"{cap}G-ru{ru:g}-pm{pm:g}", SCEN + "symmetric.toml",
                                  {"link.5.rate": f"{cap}Gbps", "flow.0.rp": f'{{ bcn = {{ ru = "{ru:g}Mbps" }} }}',
                                   "cp.bcn.pm": str(pm)}, traces=("CS>ES5",)))
    return out


def _pareto(period_ms: float) -> dict:
    """§VI.G: the UDP sources of Fig. 12 become Pareto on/off sources at 5 Gb/s during bursts.
    CHOICE: "burst period" = the mean burst (on) time, the mean idle time the same; shape 1.5 (ns-2's
    Pareto default)."""
    return {"flow.1.traffic": f'{{ kind = "pareto", rate = "5Gbps", burst = "{period_ms:g}ms", '
                              f'idle = "{period_ms:g}ms", shape = 1.5 }}'}


def configs() -> list[Config]:
    six = dict(scenario=SCEN + "six-source.toml", traces=("CS>ES5",))
    park = SCEN + "parking-lot-tcp.toml"
    park_q = ("SW1>SW2", "SW2>SW3")
    mixed = dict(scenario=SCEN + "mixed.toml", traces=("CS>ES5",))
    return [
        Config("table1-2", "none", sets={**NO_BCN, **no_rp(3)}, **six),
        Config("table1-2", "bcn", **six),
        # diagnostic (not the paper's set-up): one connection per bulk host = one BCN regulator per source
        Config("table1-2", "none-1conn", sets={**NO_BCN, **no_rp(3), **ONE_CONN}, **six),
        Config("table1-2", "bcn-1conn", sets=ONE_CONN, **six),
        *_symmetric(),
        Config("table3", "bcn", park, traces=park_q),
        Config("table3", "none", park, {**NO_BCN, **no_rp(3)}, traces=park_q),
        Config("table3", "pause", park, {**NO_BCN, **no_rp(3), **PAUSE}, traces=park_q),
        Config("table3-udp", "bcn", SCEN + "parking-lot.toml", traces=park_q),
        Config("table3-udp", "pause", SCEN + "parking-lot.toml", {**NO_BCN, **no_rp(3), **PAUSE}, traces=park_q),
        Config("table4", "bcn", park, {"flow.2.start": '"1s"'}, duration=3.0, measure_from=0.0,
               windows=((0.0, 1.0), (1.0, 2.0), (2.0, 3.0))),
        Config("table5", "bcn", SCEN + "asymmetric.toml", traces=("CS>ES5", "ES5>DT2")),
        Config("table5", "none", SCEN + "asymmetric.toml", {**NO_BCN, **no_rp(2)}, traces=("CS>ES5", "ES5>DT2")),
        Config("table6", "bcn", **mixed),
        Config("table6", "none", sets={**NO_BCN, **no_rp(2)}, **mixed),
        Config("table6", "bcn-10conn", sets={"flow.0.traffic": '{ kind = "tcp-bulk", connections = 10 }'}, **mixed),
        Config("fig14", "bcn-1ms", sets=_pareto(1), duration=3.0, **mixed),
        Config("fig14", "bcn-100ms", sets=_pareto(100), duration=3.0, **mixed),
    ]


def _us(seconds: float) -> str:
    return f"{round(seconds * 1e6)}us"


def tasks(seeds: int, quick: bool) -> tuple[list[dict], list[tuple], list[Config]]:
    """(labels, tasks, configs): a task is (TOML text, path label, overrides, seed, extraction
    spec) for `run_task`; its label {experiment, variant, seed}."""
    from .common import scenario_file

    labels, out, cfgs = [], [], configs()
    scale = QUICK_SCALE if quick else 1.0
    for c in cfgs:
        resource = scenario_file(c.scenario)
        text = resource.read_text(encoding="utf-8")
        sets = {**c.sets, "simulation.duration": _us(c.duration * scale),
                "simulation.measure_from": _us(c.measure_from * scale)}
        if c.windows:
            sets["simulation.record_interval"] = _us(1e-3 * scale)
        if "flow.2.start" in sets and quick:
            sets["flow.2.start"] = f'"{_us(scale)}"'
        spec = {"traces": list(c.traces), "windows": [[a * scale, b * scale] for a, b in c.windows]}
        overrides = [(k, str(v)) for k, v in sets.items()]
        for seed in range(1, seeds + 1):
            out.append((text, str(resource), overrides, seed, spec))
            labels.append({"experiment": c.experiment, "variant": c.variant, "seed": seed})
    return labels, out, cfgs


def run_task(task: tuple) -> dict:
    """Run one task (in a worker); never raises. Its row: `parts` ([part, metric, value]: a
    source host, a queue or "all"), `traces` ({queue: {"t": […], "q": […]}}) and `error`."""
    from .. import _core
    from ..api import _drive

    text, label, overrides, seed, spec = task
    try:
        sim = _core.Simulation(text, label, overrides, seed)
        _drive(sim, lambda: None)
        stats = json.loads(sim.stats_json())
        series = sim.series()
        parts, traces = extract(stats, series, spec)
    except Exception as exc:
        return {"parts": [], "traces": {}, "events": None, "stopped_by": None, "error": str(exc) or type(exc).__name__}
    return {"parts": parts, "traces": traces, "events": stats["events"], "stopped_by": stats.get("stopped_by"),
            "error": None}


def _series(series: dict) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    codes = np.frombuffer(series["index"], dtype="<u4")
    t = np.frombuffer(series["t"], dtype="<f8")
    v = np.frombuffer(series["value"], dtype="<f8")
    return {name: (t[codes == i], v[codes == i]) for i, name in enumerate(series["names"])
            if name.startswith(("q_frames.", "rx_bps."))}


def settling_time(t: np.ndarray, q: np.ndarray, end: float, block: float = 1e-3) -> float | None:
    """§VI.B's "reaches the stable state": the start of the first `block` (1 ms) of the queue trace
    from which on every block's mean queue lies in [Qeq − 4, Qeq + 4] until `end`; None if none.
    CHOICE: the seed defines the band, not how long the queue must stay in it; 1-ms means smooth
    the per-packet jitter."""
    n = int(round(end / block))
    if n == 0 or len(t) == 0:
        return None
    idx = np.minimum((t / block).astype(int), n - 1)
    sums, counts = np.bincount(idx, q, n), np.bincount(idx, minlength=n)
    ok = counts > 0
    means = np.where(ok, sums / np.maximum(counts, 1), np.nan)
    inside = ~ok | (np.abs(means - QEQ) <= BAND)
    bad = np.flatnonzero(~inside)
    first = 0 if len(bad) == 0 else bad[-1] + 1
    return None if first >= n else first * block


def extract(stats: dict, series: dict, spec: dict) -> tuple[list[list], dict]:
    """The row of a finished run (see `run_task`)."""
    window = stats["time"]["window_s"]
    start, end = stats["time"]["measure_from_s"], stats["time"]["end_s"]
    parts: list[list] = []
    hosts: dict[str, dict] = {}
    for f in stats["flows"]:
        h = hosts.setdefault(f["source"], {"thr_gbps": 0.0, "goodput_gbps": 0.0, "tps": 0.0, "lat": [],
                                           "retransmissions": 0, "timeouts": 0, "flows": []})
        h["flows"].append(f["name"])
        h["thr_gbps"] += sum(r["throughput_bps"] for r in f["receivers"]) / 1e9
        h["goodput_gbps"] += (f.get("tcp_goodput_bps") or 0.0) / 1e9
        h["tps"] += f.get("tcp_transactions_per_s") or 0.0
        if f.get("tcp_transaction_latency_s") is not None:
            h["lat"].append(f["tcp_transaction_latency_s"] * 1e6)
        h["retransmissions"] += f.get("tcp_retransmissions") or 0
        h["timeouts"] += f.get("tcp_timeouts") or 0
    for name, h in hosts.items():
        for m in ("thr_gbps", "goodput_gbps", "tps", "retransmissions", "timeouts"):
            parts.append([name, m, float(h[m])])
        if h["lat"]:
            parts.append([name, "latency_us", float(np.mean(h["lat"]))])
    ser = _series(series)
    for a, b in spec.get("windows", []):   # throughput per window, from the rx series
        for name, h in hosts.items():
            bits = 0.0
            for s, (t, v) in ser.items():
                if s.startswith("rx_bps.") and s.removeprefix("rx_bps.").split(">")[0] in h["flows"]:
                    # A sample at t is the rate over the record interval ending at t (bit/s).
                    dt = np.diff(t, prepend=t[0])
                    inside = (t > a) & (t <= b)
                    bits += float(np.sum(v[inside] * dt[inside]))
            parts.append([name, f"thr_gbps_{b:g}s", bits / (b - a) / 1e9])
    for q in stats["queues"]:
        if not q["cp"] and q["name"] not in spec.get("traces", []) and q["drops_window"] == 0:
            continue
        util = q["busy_s_window"] / window if window else None
        if util is not None and util < 0.05 and q["name"] not in spec.get("traces", []):
            continue
        parts += [[q["name"], "q_mean", q["q_mean_frames"]], [q["name"], "q_std", q["q_std_frames"]],
                  [q["name"], "util_pct", 100 * util if util is not None else None],
                  [q["name"], "drops", q["drops_window"]], [q["name"], "bcn_sent", q["cnms_sent_window"]],
                  [q["name"], "arrivals", q["arrivals_window"]]]
    traces = {}
    for qname in spec.get("traces", []):
        t, v = ser.get(f"q_frames.{qname}", (np.array([]), np.array([])))
        if len(t):
            sel = t >= start
            inside = np.abs(v[sel] - QEQ) <= BAND
            parts.append([qname, "in_band_pct", 100 * float(inside.mean()) if inside.size else None])
            parts.append([qname, "settle_s", settling_time(t, v, end)])
            step = max(1, len(t) // 4000)   # at most ~4000 points per trace
            traces[qname] = {"t": t[::step].round(7).tolist(), "q": v[::step].round(2).tolist()}
    w = stats["window"]   # counters over the measurement window
    parts += [["all", "data_dropped", w.get("data_dropped")], ["all", "bcn_messages", w.get("cnm_sent")],
              ["all", "source_dropped", w.get("data_source_dropped")], ["all", "data_delivered", w.get("data_delivered")]]
    return [p for p in parts if isinstance(p[2], (int, float))], traces


class Jiang2007:
    """The experiment as `cnsim.reproduce` sees it: a name, a title, default seeds, `reproduce`."""
    name, title, seeds = NAME, TITLE, SEEDS

    def reproduce(self, out: Path, *, seeds: int | None = None, jobs: int | None = None, quick: bool = False,
                  client=None, progress: bool | None = None) -> Path:
        """Run every configuration `seeds` times (--quick: once, durations × QUICK_SCALE) into
        `out`: the store in out/runs/, results.parquet (long: experiment, variant, seed, part,
        metric, value), traces.json, figures/, report.md, summary.json; return the report's path."""
        import pandas as pd

        from ..sweep import write_parquet
        from .common import _write_atomic, stored_runs
        from .jiang2007_report import write_report

        out = _args.path(out, "out")
        seeds = 1 if quick else _args.integer(SEEDS if seeds is None else seeds, "seeds", low=1)
        labels, tasks_, cfgs = tasks(seeds, quick)
        salts = [f"reproduce {NAME} " + json.dumps(t[4], sort_keys=True) for t in tasks_]
        with stored_runs(NAME, out, run_task, tasks_, labels, salts, jobs=jobs, client=client,
                         progress=progress) as (results, counts):
            df = pd.DataFrame([{**lab, "part": p, "metric": m, "value": v} for lab, r in zip(labels, results)
                               for p, m, v in r["parts"]])
            write_parquet(df, out / "results.parquet")
            traces = {f"{lab['experiment']}/{lab['variant']}": r["traces"] for lab, r in zip(labels, results)
                      if lab["seed"] == 1}
            _write_atomic(out / "traces.json", json.dumps(traces))
            report = write_report(df, traces, cfgs, out, seeds=seeds, quick=quick)
            _write_atomic(out / "summary.json", json.dumps({"experiment": NAME, "seeds": seeds, "quick": quick,
                                                            "runs": len(results), "ran": counts["ran"]}, indent=1))
        return report


EXPERIMENT = Jiang2007()
