"""The runs of `dcqcn-fixed-point`: N ∈ {2, 4, 8, 16} long-lived DCQCN flows from N senders through
one switch to one receiver at 40 Gb/s, PFC on (scenarios/dcqcn2015/fixed-point-nN.toml), and what a
run yields: the bottleneck's time-average queue in bytes and every flow's rate after the warm-up.
Each N runs with the NP counting CNPs per 50-µs window (the fluid model's counting, the scenarios'
setting) and again with the engine's default, one CNP when none went out in the last 50 µs
(`rp.dcqcn.cnp_pacing`).
"""

from __future__ import annotations

from ..paper import Task

NAME = "dcqcn-fixed-point"
TITLE = "Zhu et al. 2015 / Zhu et al. 2016 — DCQCN's fixed point: queue and rates against the fluid model"
DIR = "scenarios/dcqcn2015"
FLOWS = (2, 4, 8, 16)
BOTTLENECK = "SW>R"
QUICK = {"simulation.duration": "40ms", "simulation.measure_from": "20ms"}
SUFFIX = ".toml"
# The sequential design (runs.py): 5 → 10 → 20 → 40 seeds while a claim is inconclusive. Its worst case,
# 2 pacings × 4 N × 40 seeds = 320 runs of 0.2 s simulated, takes a few minutes on 2 cores.
SCHEDULE = (5, 10, 20, 40)


# NP pacing → the override that selects it ("window" is the scenarios' own setting).
PACING = {"window": {}, "since-last": {"flow.0.rp": '{ dcqcn = { cnp_pacing = "since-last" } }'}}


def tasks(seeds: int, quick: bool) -> list[Task]:
    return [Task({"n": n, "pacing": p}, f"{DIR}/fixed-point-n{n}{SUFFIX}", {**(QUICK if quick else {}), **over}, seed,
                 spec={"n": n, "series": seed == 1 and p == "window"})
            for p, over in PACING.items() for n in FLOWS for seed in range(1, seeds + 1)]


def extract(result, spec) -> dict:
    """"all": q_mean_bytes, q_std_bytes (time-weighted, after the warm-up), util_pct,
    rate_mean/min/max_gbps; per flow (its name): rate_gbps. A run that is drawn (seed 1, windowed
    pacing) also carries its bottleneck queue and its RPs' current rates over time (`extra`)."""
    stats = result.stats
    frame = float(stats["frame_size_bytes"])
    window = stats["time"]["window_s"]
    q = next(x for x in stats["queues"] if x["name"] == BOTTLENECK)
    rates = {f["name"]: sum(r["throughput_bps"] for r in f["receivers"]) / 1e9 for f in stats["flows"]}
    values = [["all", "q_mean_bytes", q["q_mean_frames"] * frame],
              ["all", "q_std_bytes", q["q_std_frames"] * frame],
              ["all", "util_pct", 100 * q["busy_s_window"] / window if window else None],
              ["all", "rate_mean_gbps", sum(rates.values()) / len(rates)],
              ["all", "rate_min_gbps", min(rates.values())],
              ["all", "rate_max_gbps", max(rates.values())]]
    values += [[name, "rate_gbps", v] for name, v in rates.items()]
    extra = None
    if spec.get("series"):
        def pair(name):
            x = result.series(name)
            return [x.index.to_numpy().round(7).tolist(), x.to_numpy().round(1).tolist()]
        extra = {"q_frames": pair(f"q_frames.{BOTTLENECK}"),
                 "rc_bps": {n.split(".", 1)[1]: pair(n) for n in result.names() if n.startswith("rp_cr_bps.")},
                 "measure_from_s": stats["time"]["measure_from_s"]}
    return {"values": [v for v in values if v[2] is not None], "extra": extra}
