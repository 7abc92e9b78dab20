"""Nakauchi & Kobayashi 2006 (SIRENS router feedback for multi-rate multicast; EMcast against TCP,
and RLM vs EMcast under a CBR burst), Figs. 4–9, as `cnsim reproduce nakauchi-sirens`.

Six cases, each a shipped scenario of scenarios/nakauchi2006/ plus overrides, run over seeds. The
worker (`extract`) turns a finished run into the numbers the claims rest on (`measure.py`); the
runs of seed 1 also carry the few series their figure draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..paper import Task
from . import measure

NAME = "nakauchi-sirens"
TITLE = "Nakauchi & Kobayashi 2006 — SIRENS / EMcast vs TCP, and RLM vs EMcast under a CBR burst (Figs. 4–9)"
DIR = "scenarios/nakauchi2006"
BURST = (50.0, 80.0)      # the CBR flow, §3.3: "from 50 seconds to 80 seconds"
QUICK = {"simulation.duration": "14s", "simulation.measure_from": "2s"}
QUICK_BURST = (6.0, 10.0)
# The sequential design (runs.py): 5 → 10 → 20 → 40 seeds while a claim is inconclusive. Its worst case,
# 6 cases × 40 seeds = 240 runs, takes about a minute on 2 cores (a 5-seed run is ~5 s).
SCHEDULE = (5, 10, 20, 40)
KEEP = ("level.", "mrx_bps.", "mlost_frames.", "rx_bps.tcp", "rx_bps.cbr")   # what a figure draws


@dataclass(frozen=True)
class Case:
    key: str
    figure: str
    scenario: str
    overrides: dict
    title: str
    tcp: int = 0
    receivers: int = 1
    cbr: bool = False


CASES = [
    Case("fig4", "Fig. 4", "emcast-tcp.toml", {}, "EMcast (1 receiver) vs 5 TCP flows, delay 30 ms", tcp=5),
    Case("fig5", "Fig. 5", "emcast-tcp.toml", {"link.0.delay": "68ms", "mcast_receiver.0.cc.emcast.rtt": "140ms"},
         "EMcast (1 receiver) vs 5 TCP flows, delay 70 ms", tcp=5),
    Case("fig6", "Fig. 6", "emcast-10rx-tcp.toml", {}, "EMcast (10 receivers) vs 1 TCP flow", tcp=1, receivers=10),
    Case("fig7", "Fig. 7", "emcast-10rx-tcp.toml", {"flow.10.traffic.connections": "5"},
         "EMcast (10 receivers) vs 5 TCP flows", tcp=5, receivers=10),
    Case("fig8", "Fig. 8", "rlm-cbr.toml", {}, "RLM (1 receiver) with a 45 Mb/s CBR flow from 50 s to 80 s", cbr=True),
    Case("fig9", "Fig. 9", "emcast-cbr.toml", {}, "EMcast (1 receiver) with a 45 Mb/s CBR flow from 50 s to 80 s", cbr=True),
]
CASE = {c.key: c for c in CASES}


def overrides(case: Case, quick: bool) -> dict:
    sets = dict(case.overrides)
    if quick:
        sets.update(QUICK)
        if case.cbr:
            sets.update({"flow.10.start": f"{QUICK_BURST[0]:g}s", "flow.10.stop": f"{QUICK_BURST[1]:g}s"})
    return sets


def tasks(seeds: int, quick: bool) -> list[Task]:
    burst = QUICK_BURST if quick else BURST
    return [Task({"case": c.key}, f"{DIR}/{c.scenario}", overrides(c, quick), seed,
                 spec={"case": c.key, "burst": list(burst), "series": seed == 1})
            for c in CASES for seed in range(1, seeds + 1)]


def extract(result, spec) -> dict:
    """The case's numbers (`measure.analyse`) and, for a run that is drawn, its series."""
    series = {}
    for name in result.names():
        if name.startswith(KEEP):
            x = result.series(name)
            series[name] = [x.index.to_numpy().round(6).tolist(), x.to_numpy().tolist()]
    stats = result.stats
    run = {"series": series, "endpoints": stats.get("endpoints", []),
           "tcp": {f["name"]: f["tcp_goodput_bps"] for f in stats["flows"] if "tcp_goodput_bps" in f}}
    numbers = measure.analyse(CASE[spec["case"]], run, tuple(spec["burst"]))
    values = [["all", k, v] for k, v in numbers.items() if v is not None]
    extra = {"series": series, "endpoints": run["endpoints"]} if spec["series"] else None
    return {"values": values, "extra": extra}
