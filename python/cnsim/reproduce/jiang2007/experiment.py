"""Jiang & Jain 2007 ("Analysis of Backward Congestion Notification (BCN) for Ethernet in
Datacenter Applications"): `cnsim reproduce jiang2007-bcn`.

The experiments of §VI (docs/reproduction.md), each a set of configurations (a shipped scenario of
scenarios/jiang2007/ plus overrides) run over seeds. A run yields per-source throughput (and TCP
transactions) and per-queue statistics (`extract`), and seed 1 a trace of the queues the paper
plots; report.py sets them beside the paper's numbers (tables.py), claims.py decides each claim.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..paper import Task
from .tables import BAND, QEQ

NAME = "jiang2007-bcn"
TITLE = "Jiang & Jain 2007 — BCN: six-source, factorial, parking lot, asymmetric, mixed, bursty"
SCEN = "scenarios/jiang2007/"
NO_BCN = {"cp": '"none"'}
PAUSE = {"flow_control": "{ pause = {} }"}   # 802.3x PAUSE with cnsim's documented defaults
QUICK_SCALE = 0.05  # --quick: every duration (and window) × this
RESTART_TRANSFERS = 20   # six-source-restart.toml: SR2's 10-kB transfers, flows 2..21


def no_rp(n: int) -> dict:
    return {f"flow.{i}.rp": '"none"' for i in range(n)}


def per_connection(n: int) -> dict:
    """One BCN regulator per TCP connection in the first `n` flow tables (cnsim's default, as BCN
    specifies, is one per source: `limiter.regulate`)."""
    return {f"flow.{i}.limiter.regulate": '"per-connection"' for i in range(n)}


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
    starts: tuple[tuple[int, float], ...] = ()       # (flow index, start s): scaled with the durations


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


def _one_source() -> Config:
    """§VI.E's remark: e with one source against four. CHOICE: the paper does not say which
    topology its one-source run used; here the symmetric topology of Fig. 6 with ST1 alone, at Fig. 7's
    1 Gb/s bottleneck and its best setting (Ru 0.8 Mb/s, Pm 0.1), beside the four-source run of the same
    setting (fig7): one 10 Gb/s source cannot congest the 10 Gb/s bottleneck."""
    return Config("vie-e", "1G-ru0.8-pm0.1-1src", SCEN + "symmetric.toml",
                  {"link.5.rate": "1Gbps", "flow.0.rp": '{ bcn = { ru = "0.8Mbps" } }', "cp.bcn.pm": "0.1",
                   "flow.0.from": '"ST1"'}, traces=("CS>ES5",))


def configs() -> list[Config]:
    six = dict(scenario=SCEN + "six-source.toml", traces=("CS>ES5",))
    park = SCEN + "parking-lot-tcp.toml"
    park_q = ("SW1>SW2", "SW2>SW3")
    mixed = dict(scenario=SCEN + "mixed.toml", traces=("CS>ES5",))
    return [
        Config("table1-2", "none", sets={**NO_BCN, **no_rp(3)}, **six),
        Config("table1-2", "bcn", **six),
        # diagnostic (not BCN's model): the bulk hosts' ten connections each behind its own regulator
        Config("table1-2", "bcn-perconn", sets=per_connection(3), **six),
        # diagnostic: each of SR2's transactions a fresh connection in slow start (the report's reading of ns-2)
        Config("table1-restart", "bcn", SCEN + "six-source-restart.toml", duration=0.5, traces=("CS>ES5",),
               starts=tuple((2 + k, 0.3 + 0.01 * k) for k in range(RESTART_TRANSFERS))),
        *_symmetric(),
        _one_source(),
        Config("table3", "bcn", park, traces=park_q),
        Config("table3", "none", park, {**NO_BCN, **no_rp(3)}, traces=park_q),
        Config("table3", "pause", park, {**NO_BCN, **no_rp(3), **PAUSE}, traces=park_q),
        Config("table3-udp", "bcn", SCEN + "parking-lot.toml", traces=park_q),
        Config("table3-udp", "pause", SCEN + "parking-lot.toml", {**NO_BCN, **no_rp(3), **PAUSE}, traces=park_q),
        Config("table4", "bcn", park, duration=3.0, measure_from=0.0, windows=((0.0, 1.0), (1.0, 2.0), (2.0, 3.0)),
               starts=((2, 1.0),)),
        Config("table5", "bcn", SCEN + "asymmetric.toml", traces=("ES5>DT1", "ES5>DT2")),
        Config("table5", "none", SCEN + "asymmetric.toml", {**NO_BCN, **no_rp(2)}, traces=("ES5>DT1", "ES5>DT2")),
        # diagnostic: the other reading of Fig. 10, all four sources through one core link CS→ES5
        Config("table5-core", "bcn", SCEN + "asymmetric-core.toml", traces=("CS>ES5", "ES5>DT2")),
        Config("table6", "bcn", **mixed),
        Config("table6", "none", sets={**NO_BCN, **no_rp(2)}, **mixed),
        Config("table6", "bcn-10conn", sets={"flow.0.traffic": '{ kind = "tcp-bulk", connections = 10 }'}, **mixed),
        Config("fig14", "bcn-1ms", sets=_pareto(1), duration=3.0, **mixed),
        Config("fig14", "bcn-100ms", sets=_pareto(100), duration=3.0, **mixed),
    ]


def _us(seconds: float) -> str:
    return f"{round(seconds * 1e6)}us"


def _series(result) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The queue-length and receive-rate series of a run: {name: (t, value)}."""
    return {name: (s.index.to_numpy(), s.to_numpy()) for name in result.names()
            if name.startswith(("q_frames.", "rx_bps.")) for s in [result.series(name)]}


# An isolated excursion out of the band: at most this many consecutive 1-ms blocks, with at most
# EXCURSION_SHARE of the blocks after the stable state out of the band in all. CHOICE: §VI.B defines
# the band, not how strictly the queue must stay in it; one stray millisecond of a burst should not
# move the stable state to after it, while a queue that keeps leaving the band has not settled.
EXCURSION_BLOCKS = 2
EXCURSION_SHARE = 0.05


def settling_time(t: np.ndarray, q: np.ndarray, end: float, block: float = 1e-3) -> float | None:
    """§VI.B's "reaches the stable state": the start of the first `block` (1 ms) of the queue trace
    in the band [Qeq − 4, Qeq + 4] from which on the queue stays in it up to isolated excursions
    (runs of at most EXCURSION_BLOCKS blocks out of the band, at most EXCURSION_SHARE of the blocks
    after it in all) and ends in it at `end`; None if there is no such block (censored at `end`).
    1-ms means smooth the per-packet jitter."""
    n = int(round(end / block))
    if n == 0 or len(t) == 0:
        return None
    idx = np.minimum((t / block).astype(int), n - 1)
    sums, counts = np.bincount(idx, q, n), np.bincount(idx, minlength=n)
    ok = counts > 0
    means = np.where(ok, sums / np.maximum(counts, 1), np.nan)
    inside = ~ok | (np.abs(means - QEQ) <= BAND)
    if not inside[-1]:
        return None
    # after the last excursion longer than EXCURSION_BLOCKS
    start, run = 0, 0
    for i, ins in enumerate(inside):
        run = 0 if ins else run + 1
        if run > EXCURSION_BLOCKS:
            start = i + 1
    out_after = np.cumsum((~inside)[::-1])[::-1]   # blocks out of the band from i to the end
    for s in range(start, n):
        if inside[s] and out_after[s] <= EXCURSION_SHARE * (n - s):
            return s * block
    return None


def run_values(stats: dict, ser: dict, spec: dict) -> tuple[list[list], dict]:
    """([part, metric, value] of a finished run: per source host, per queue, "all"; the traces of
    the queues the paper plots)."""
    window = stats["time"]["window_s"]
    start, end = stats["time"]["measure_from_s"], stats["time"]["end_s"]
    parts: list[list] = []
    hosts: dict[str, dict] = {}
    for f in stats["flows"]:
        h = hosts.setdefault(f["source"], {"thr_gbps": 0.0, "goodput_gbps": 0.0, "tps": 0.0, "lat": [],
                                           "retransmissions": 0, "timeouts": 0, "flows": [], "fct": []})
        h["flows"].append(f["name"])
        h["thr_gbps"] += sum(r["throughput_bps"] for r in f["receivers"]) / 1e9
        h["goodput_gbps"] += (f.get("tcp_goodput_bps") or 0.0) / 1e9
        h["tps"] += f.get("tcp_transactions_per_s") or 0.0
        if f.get("tcp_transaction_latency_s") is not None:
            h["lat"].append(f["tcp_transaction_latency_s"] * 1e6)
        h["retransmissions"] += f.get("tcp_retransmissions") or 0
        if f.get("fct_s") is not None:   # a finite transfer that completed: its completion time
            h["fct"].append(f["fct_s"] * 1e6)
        h["timeouts"] += f.get("tcp_timeouts") or 0
    for name, h in hosts.items():
        for m in ("thr_gbps", "goodput_gbps", "tps", "retransmissions", "timeouts"):
            parts.append([name, m, float(h[m])])
        if h["lat"]:
            parts.append([name, "latency_us", float(np.mean(h["lat"]))])
        if h["fct"]:
            parts += [[name, "fct_us", float(np.mean(h["fct"]))], [name, "transfers_done", len(h["fct"])]]
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
                  [q["name"], "drops", q["drops_window"]], [q["name"], "bcn_sent", q["feedback_sent_window"]],
                  [q["name"], "arrivals", q["arrivals_window"]]]
        # BCN's feedback e of the messages the CP sent in the window (absent without one)
        parts += [[q["name"], m, q.get(f"bcn_{m}")] for m in ("e_mean", "e_abs_mean", "e_min", "e_max")]
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
    parts += [["all", "data_dropped", w.get("data_dropped")], ["all", "bcn_messages", w.get("bcn_sent")],
              ["all", "source_dropped", w.get("data_source_dropped")], ["all", "data_delivered", w.get("data_delivered")]]
    return [p for p in parts if isinstance(p[2], (int, float))], traces


def tasks(seeds: int, quick: bool) -> list[Task]:
    """Every configuration `seeds` times (--quick: durations and windows × QUICK_SCALE)."""
    scale = QUICK_SCALE if quick else 1.0
    out = []
    for c in configs():
        sets = {**c.sets, "simulation.duration": _us(c.duration * scale),
                "simulation.measure_from": _us(c.measure_from * scale)}
        if c.windows:
            sets["simulation.record_interval"] = _us(1e-3 * scale)
        sets.update({f"flow.{i}.start": f'"{_us(t * scale)}"' for i, t in c.starts})
        for seed in range(1, seeds + 1):
            spec = {"traces": list(c.traces), "windows": [[a * scale, b * scale] for a, b in c.windows],
                    "keep_traces": seed == 1}
            out.append(Task({"experiment": c.experiment, "variant": c.variant}, c.scenario, sets, seed, spec))
    return out


def extract(result, spec) -> dict:
    """In the worker: the run's values (`parts`) and, for seed 1, the traces of the queues the paper plots."""
    values, traces = run_values(result.stats, _series(result), spec)
    return {"values": values, "extra": {"traces": traces} if spec.get("keep_traces") else None}

# The sequential design (runs.py): 5 seeds, then 10, then 20 while a claim is inconclusive. The
# censoring-aware settling rows need 10 (5 of 5 runs cannot put a Clopper–Pearson share above ½ at
# the looks' level); the worst case, 20 seeds of every configuration, is four times the 5-seed run.
SCHEDULE = (5, 10, 20)
