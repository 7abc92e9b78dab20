"""`cnsim reproduce roeck2007-qau`: seed 004 (004_416c8b8b44491907.txt, Roeck, IEEE 802.1Qau
interim, Sept. 2007) — ECM, QCN, QCN-FbHat and the probing QCN variants on the seed's four
"complex scenarios" (scenarios/roeck2007/), with PAUSE on as in the seed. The runs go through the
sweep machinery (result store in OUT/runs/, resumed on a re-run, `jobs` processes or a Dask
client); the report sets each result beside the seed's findings.

Each scenario file runs QCN as shipped; a *variant* replaces every congestion point and reaction
point with the parameters of the seed's backup slides (`VARIANTS`). What the seed leaves open is
listed in `CHOICES` and in docs/modelling.md.

Seed 004's metrics, per run, from the engine's stats document (each engine field is declared by
its protocol's `METRICS`; window = simulation.measure_from … end):

| metric | definition |
|---|---|
| `cm_messages_per_s` | frames.cnm_sent (CNMs, ECM messages and probe answers) ÷ run time |
| `limiters_created` | Σ rps.limiters_created (QCN, ECM; BCN's regulators_created) |
| `false_positives` | Σ rps.false_positives: positive feedback from a CP other than the one limiting the flow |
| `positive_feedback` | Σ rps.ecm_positive + rps.probe_positive |
| `cpid_changes_per_flow_s` | Σ rps.cpid_changes ÷ flows ÷ run time (CPID thrashing) |
| `total_throughput_gbps` | Σ receivers' throughput_bps (window) |
| `flow_throughput_cov`, `jain_throughput` | std-dev ÷ mean, and Jain's index, of the per-flow throughputs |
| `hotspot_throughput_gbps`, `hotspot_q_*_kb` | throughput delivered to the hotspot's host; its port's queue (mean, std-dev, max; 1.5 kB frames) |
| `switch_throughput_*_gbps` | 20-stage chain: each SWk>SWk+1 port's busy share × its rate; mean, std-dev over k, and k = 2 |
| `bandwidth_loss_gbps` | oscillating hotspot: ideal − total throughput (`with_bandwidth_loss`) |
| `cpid_throughput_rho` | 20-stage: Spearman rank correlation, over the flows, of an RP's cpid_changes and its flow's throughput |
| `cpid_top_bottom_ratio` | 20-stage: mean throughput of the third of flows with the most CPID changes ÷ that of the third with the fewest |
| `reaction_ms` | FbHat grid: from the hotspot's onset (flow start) until the hotspot queue, having exceeded Qeq (24 kB), is first sampled (1 ms) at or below Qeq again |
"""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .. import _args
from .common import _inline, scenario_file

NAME = "roeck2007-qau"
# Seeds per configuration: the CLI's --seeds (default 10) is capped here so that the whole grid
# runs in under 15 minutes on two cores; the seed's own figures are single runs.
MAX_SEEDS = 1
TITLE = "Seed 004 — ECM vs QCN, QCN-FbHat and probing QCN in complex scenarios (Roeck 2007)"
DIR = "scenarios/roeck2007"

# The backup slide "Simulation Parameters - QCN-xx": timer 500 µs, A = 12 Mbit (R_AI; QCN-H
# 24 Mbit), TO_THRESH 150 kB (BC_LIMIT), drift factor 1.005; FR threshold 5 and Gd 1/128 are the
# defaults; the CNM processing latency 5 µs and the 100-frame RP buffer are in the scenario files.
QCN_RP = {"timer": "500us", "r_ai": "12Mbps", "bc_limit": "150000B", "drift_factor": 1.005}
QCN_CP = {"qeq": "24000B"}


def _qcn(rp: str = "qcn", **more) -> tuple[dict, dict]:
    keys = dict(QCN_RP, **({"r_ai": "24Mbps"} if rp == "eqcn" else {}), **more)
    return {"qcn": QCN_CP}, {rp: keys}


# variant → (cp table, rp table)
VARIANTS = {
    "ECM": ({"ecm": {}}, {"ecm": {}}),
    # ECM with the parameters the seed optimised for each RTT, without and with RTT-triggered CM
    # drops (slides "ECM: Throughput at Hotspot, [No] RTT triggered CM drops"; `TUNED`).
    "ECM-T": ({"ecm": {}}, {"ecm": {}}),
    "ECM-DT": ({"ecm": {}}, {"ecm": {"rtt_drop": True}}),
    "QCN": _qcn(),
    "QCN-FbHat": _qcn("eqcn"),
    "QCN-P": _qcn(probe="cp"),
    "QCN-SP": _qcn(probe="sub-path"),
    "QCN-PP": _qcn(probe="path"),
    "QCN-HP": _qcn("eqcn", probe="cp"),
}


# The seed's per-RTT ECM parameters (W, Gi, Gd), keyed by RTT in µs (= the forward latency here).
TUNED = {
    "ECM-T": {100: (2.5, 0.5, 0.00010), 200: (4.0, 0.5, 0.00003), 500: (0.5, 0.5, 0.00001), 1000: (0.5, 0.5, 0.00001)},
    "ECM-DT": {100: (2.5, 0.4, 0.00015), 200: (3.5, 0.3, 0.00004), 500: (3.5, 0.3, 0.00010), 1000: (5.0, 0.2, 0.00006)},
}


@dataclass
class Scenario:
    key: str
    file: str
    title: str
    variants: list[str]
    # grid: parameter name → (values, values under --quick); each value → overrides via `point`
    grid: dict
    hotspot: str | None          # the hotspot's output port ("SW>N1")
    duration: str
    quick_duration: str


SCENARIOS = [
    Scenario("no-hotspot", "no-hotspot.toml", "No hotspot, 20 nodes, load 1 … 9.5 Gb/s",
             ["ECM", "QCN", "QCN-FbHat"], {"load_gbps": ([1, 3, 5, 7, 8.5, 9.5], [5, 9.5])}, None, "200ms", "20ms"),
    Scenario("oscillating", "oscillating-hotspot.toml", "One oscillating hotspot (1 Gb/s for t_on, 10 Gb/s for t_off)",
             ["ECM", "QCN-P", "QCN", "QCN-FbHat"], {"t_on_ms": ([2, 10, 50], [10])}, "SW>N1", "1s", "140ms"),
    Scenario("latency", "symmetric-latency.toml", "Symmetric 4 sources at 50 % to node 5, forward latency 100 µs … 1 ms",
             ["ECM", "ECM-T", "ECM-DT", "QCN", "QCN-P", "QCN-FbHat"], {"latency_us": ([100, 200, 500, 1000], [500])}, "SW>N5",
             "1s", "300ms"),
    Scenario("psample", "symmetric-latency.toml", "Symmetric, RTT 200 µs, psample 0.1 … 10 %, oversampling off, "
             "buffer 1.2 MB, Qeq 300 kB", ["QCN", "ECM"], {"psample_pct": ([0.1, 0.2, 0.5, 1, 2, 5, 10], [0.2, 5])},
             "SW>N5", "1s", "300ms"),
    Scenario("twenty-stage", "twenty-stage.toml", "20-stage hotspot with bursty load (18 switches × 3 hosts)",
             ["ECM", "QCN-SP", "QCN", "QCN-FbHat", "QCN-P", "QCN-PP", "QCN-HP"], {"stage": (["-"], ["-"])}, "SW18>H53",
             "1s", "50ms"),
    # The backup slides "QCN-FbHat: Throughput at Hotspot, W=2.0 / W=var, HAI / no HAI, RTT=100 µs …
    # 1 ms", reduced to W ∈ {2, 4} × HAI {off, on} × forward latency {100 µs, 1 ms}, plus the seed's own
    # W=var value at 1 ms (20 without HAI, 40 with); 300-ms runs (flows 20 … 280 ms). Point = "W/HAI/latency".
    Scenario("fbhat", "symmetric-latency.toml", "QCN-FbHat: W × HAI × forward latency (symmetric, 4 sources at 50 %)",
             ["QCN-FbHat"], {"w_hai_latency": ([f"{w}/{h}/{l}" for l in (100, 1000) for h in ("off", "on") for w in (2, 4)]
                                               + ["20/off/1000", "40/on/1000"], ["2/off/1000", "4/off/1000"])},
             "SW>N5", "300ms", "100ms"),
]

CHOICES = [
    "Topologies the seed does not draw: the 20-node scenarios are one switch with 20 hosts, each host sending "
    "to each of the 19 others (Bernoulli, load/19 each: uniformly random destinations, so no hotspot on "
    "average); the symmetric scenario is N1…N4 → SW → N5 with the forward latency on the N1…N4 links "
    "(one way: the way back stays 500 ns, so the RTT is about the latency, as the seed equates them; the "
    "psample runs use 200 µs); the 20-stage "
    "scenario is a chain SW1…SW18 with H(3k−2), H(3k−1), H(3k) on SWk (the last switch's first and third "
    "hosts, which have no i+3 / i+4, send to H53).",
    "Bursty load in the 20-stage scenario: Pareto on/off at the line rate with mean on = mean off = half the "
    "seed's interval 1 + k·0.1 ms (shape 1.5) — the seed gives only the interval.",
    "Switch buffer 200 kB (the slide's \"200kB, 250 packets\" disagree for 1500-B frames; 200 kB binds first); "
    "PAUSE with cnsim's default thresholds (XOFF 20, XON 10 frames per ingress port; the seed gives none).",
    "ECM's unit-less Qeq 375, Qsc 1600, Qmc 2400 read in 64-B units (Qeq = 24 kB; docs/modelling.md); the "
    "two congestion levels and the RTT source of the RTT-triggered drops are cnsim's reading.",
    "QCN-xx slide mapping: A → R_AI, TO_THRESH → BC_LIMIT, drift factor at each timer expiry, CNM processing "
    "latency at the RP; QCN-FbHat = E-QCN's representative CP (seed 001) with A = 24 Mbit; probes one per "
    "rate-increase cycle, positive answers = one increase cycle (docs/modelling.md).",
    "Simulated time: the no-hotspot runs last 200 ms (the seed: 1 s; counts are reported per second), the "
    "others 1 s as in the seed; --quick shortens every run (smoke test only).",
    "psample runs: QCN's `sample_base` = 1500 B / psample with oversampling off; ECM's `sample_interval` the "
    "same bytes; buffer 1.2 MB; Qeq 300 kB for QCN (ECM keeps its Qeq, the seed gives no ECM value for them).",
    "ECM-T / ECM-DT: ECM with the seed's own per-RTT (W, Gi, Gd) without / with RTT-triggered CM drops (the "
    "seed's text gives them, so they are not tuned here); the RTT for the drops is measured from the echoed send "
    "times. ECM-P and ECM-SP (ECM with probes) are not implemented.",
]


def _flows(path: str) -> int:
    return len(tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", []))


def point(sc: Scenario, param: str, value, variant: str, quick: bool) -> dict:
    """The overrides of one run: the variant's protocol on every CP and flow, and the grid value."""
    path = f"{DIR}/{sc.file}"
    cp, rp = VARIANTS[variant]
    cp = json.loads(json.dumps(cp))
    rp = json.loads(json.dumps(rp))
    sets: dict = {"simulation.duration": sc.quick_duration if quick else sc.duration,
                  "simulation.record_interval": "0s"}
    n = _flows(path)
    if param == "load_gbps":
        for i in range(n):
            sets[f"flow.{i}.traffic.load"] = round(value / 10 / 19, 9)
    elif param == "t_on_ms":
        sets["port.0.oscillate.on"] = f"{value}ms"
        sets["port.0.oscillate.off"] = f"{value}ms"
        if quick:
            sets["simulation.measure_from"] = "20ms"
            sets["port.0.oscillate.from"] = "20ms"
            sets["port.0.oscillate.until"] = "120ms"
        # the share of the window in on-phases (t_on = t_off, whole periods), for the ideal throughput
        t0, t1 = (20, 120) if quick else (100, 900)
        window = (140 - 20) if quick else (1000 - 100)
        sets["_on_fraction"] = (t1 - t0) / 2 / window
    elif param in ("latency_us", "psample_pct"):
        latency = value if param == "latency_us" else 200
        if variant in TUNED:
            w, gi, gd = TUNED[variant][latency]
            cp["ecm"]["w"] = w
            rp["ecm"].update({"gi": gi, "gd": gd})
        sets["link.0.delay"] = f"{latency}us"
        if quick:
            sets.update({"flow.0.start": "20ms", "flow.0.stop": "280ms", "simulation.measure_from": "20ms"})
        if param == "psample_pct":
            interval = f"{round(1500 / (value / 100))}B"
            sets["defaults.queue.capacity"] = "1200000B"
            if "qcn" in cp:
                cp["qcn"].update({"qeq": "300000B", "sample_base": interval, "oversampling": False})
            else:
                cp["ecm"]["sample_interval"] = interval
    elif param == "stage" and quick:
        sets["simulation.measure_from"] = "10ms"
    elif param == "w_hai_latency":
        w, hai, latency = str(value).split("/")
        cp["qcn"]["w"] = float(w)
        if hai == "off":
            rp["eqcn"]["r_hai"] = "0Mbps"
        sets["link.0.delay"] = f"{latency}us"
        stop = "80ms" if quick else "280ms"
        sets.update({"flow.0.start": "20ms", "flow.0.stop": stop, "simulation.measure_from": "20ms",
                     "simulation.record_interval": "1ms"})
        sets["_onset_s"] = 0.020
    sets["cp"] = _inline(cp)
    for i in range(n):
        sets[f"flow.{i}.rp"] = _inline(rp)
    return sets


def _runs(quick: bool, seeds: int) -> tuple[list[dict], list[tuple]]:
    from ..api import _value_text

    labels, tasks = [], []
    for sc in SCENARIOS:
        resource = scenario_file(f"{DIR}/{sc.file}")
        text = resource.read_text(encoding="utf-8")
        (param, (full, short)), = sc.grid.items()
        for value in (short if quick else full):
            for variant in sc.variants:
                sets = point(sc, param, value, variant, quick)
                extra = {k[1:]: sets.pop(k) for k in ("_on_fraction", "_onset_s") if k in sets}
                overrides = [(k, _value_text(v)) for k, v in sets.items()]
                for seed in range(1, seeds + 1):
                    tasks.append((text, str(resource), overrides, seed, (sc.hotspot, extra)))
                    labels.append({"scenario": sc.key, "param": param, "point": str(value), "variant": variant,
                                   "seed": seed})
    return labels, tasks


def run_task(task: tuple) -> dict:
    """One run (in a worker); never raises: {"metrics": {...}, "error": None | text}."""
    from .. import _core
    from ..api import _drive
    from ..results import Result

    text, label, overrides, seed, (hotspot, extra) = task
    try:
        sim = _core.Simulation(text, label, overrides, seed)
        _drive(sim, lambda: None)
        result = Result.from_simulation(sim)
        m = metrics(result.stats, hotspot)
        if "onset_s" in extra:
            m["reaction_ms"] = reaction_ms(result.series(f"q_frames.{hotspot}"), extra["onset_s"])
        return {"metrics": {**m, **extra}, "error": None}
    except Exception as exc:
        return {"metrics": {}, "error": str(exc) or type(exc).__name__}


def _std(xs: list[float]) -> float:
    if not xs:
        return float("nan")
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


QEQ_FRAMES = 24000 / 1500


def reaction_ms(q: pd.Series, onset_s: float) -> float:
    """Reaction time of the FbHat grid: from `onset_s` until the queue (frames, sampled every 1 ms),
    having exceeded Qeq, is first sampled at or below Qeq again; NaN if it never exceeds or never
    comes back."""
    q = q[q.index >= onset_s]
    above = q[q > QEQ_FRAMES]
    if above.empty:
        return float("nan")
    back = q[(q.index > above.index[0]) & (q <= QEQ_FRAMES)]
    return (float(back.index[0]) - onset_s) * 1e3 if not back.empty else float("nan")


def _rank(xs: list[float]) -> list[float]:
    return list(pd.Series(xs).rank().values)


def cpid_effect(rps: list[dict], flows: list[dict]) -> dict:
    """CPID thrashing, per run: Spearman ρ over the flows of cpid_changes vs throughput, and the
    mean throughput of the third with the most changes ÷ that of the third with the fewest."""
    thr = {f.get("name"): sum(r["throughput_bps"] for r in f["receivers"]) for f in flows}
    pairs = [(r.get("cpid_changes", 0), thr[r["flow"]]) for r in rps if r.get("flow") is not None and r["flow"] in thr]
    if len(pairs) < 6 or len({c for c, _ in pairs}) < 2:
        return {}
    rc, rt = _rank([c for c, _ in pairs]), _rank([t for _, t in pairs])
    mc, mt = sum(rc) / len(rc), sum(rt) / len(rt)
    cov = sum((a - mc) * (b - mt) for a, b in zip(rc, rt))
    rho = cov / math.sqrt(sum((a - mc) ** 2 for a in rc) * sum((b - mt) ** 2 for b in rt))
    srt = sorted(pairs)
    k = len(srt) // 3
    low, high = [t for _, t in srt[:k]], [t for _, t in srt[-k:]]
    return {"cpid_throughput_rho": rho,
            "cpid_top_bottom_ratio": (sum(high) / k) / (sum(low) / k) if sum(low) else float("nan")}


def metrics(stats: dict, hotspot: str | None) -> dict:
    """Seed 004's metrics of one run, from the engine's stats document (window = measure_from … end)."""
    fr, win = stats["frames"], stats["frames"].get("window", {})
    t = stats["time"]
    window = t.get("window_s") or t.get("duration_s")
    duration = t.get("duration_s") or window
    rps = stats.get("rps", [])
    flows = stats["flows"]
    thr = [r["throughput_bps"] for f in flows for r in f["receivers"]]
    mean = sum(thr) / len(thr) if thr else float("nan")
    m = {
        "cm_messages_per_s": fr["cnm_sent"] / duration,
        "limiters_created": sum(r.get("limiters_created", r.get("regulators_created", 0)) for r in rps),
        "false_positives": sum(r.get("false_positives", 0) for r in rps),
        "cpid_changes_per_flow_s": sum(r.get("cpid_changes", 0) for r in rps) / max(len(rps), 1) / duration,
        "positive_feedback": sum(r.get("ecm_positive", 0) + r.get("probe_positive", 0) for r in rps),
        "probes_sent": fr.get("probe_sent", 0),
        "pause_sent": fr.get("pause_sent", 0),
        "drops_window": win.get("data_dropped", 0),
        "total_throughput_gbps": sum(thr) / 1e9,
        "flow_throughput_cov": _std(thr) / mean if mean else float("nan"),
        "jain_throughput": (sum(thr) ** 2 / (len(thr) * sum(x * x for x in thr))) if any(thr) else float("nan"),
    }
    queues = {q["name"]: q for q in stats.get("queues", [])}
    if hotspot and hotspot in queues:
        q = queues[hotspot]
        dst = hotspot.split(">")[1]
        kb = stats["frame_size_bytes"] / 1000  # the queue stats count frames of simulation.frame_size
        m["hotspot_q_mean_kb"] = q["q_mean_frames"] * kb
        m["hotspot_q_std_kb"] = q["q_std_frames"] * kb
        m["hotspot_q_max_kb"] = q["q_max_frames"] * kb
        m["hotspot_throughput_gbps"] = sum(r["throughput_bps"] for f in flows for r in f["receivers"]
                                           if r["host"] == dst) / 1e9
    # Per-switch throughput: each inter-switch port's busy share of its 10 Gb/s (20-stage chain).
    chain = sorted((q for n, q in queues.items() if n.startswith("SW") and ">SW" in n
                    and int(n.split(">")[1][2:]) == int(n.split(">")[0][2:]) + 1),
                   key=lambda q: int(q["name"].split(">")[0][2:]))
    if chain and window:
        per = [q["busy_s_window"] / window * q["rate_bps"] / 1e9 for q in chain]
        m["switch_throughput_mean_gbps"] = sum(per) / len(per)
        m["switch_throughput_std_gbps"] = _std(per)
        m["switch2_throughput_gbps"] = per[1] if len(per) > 1 else float("nan")
        m.update(cpid_effect(rps, flows))
    return m


def reproduce(out: Path, *, seeds: int = 1, jobs: int | None = None, quick: bool = False, client=None,
              progress: bool | None = None) -> Path:
    """Run the experiment into `out` (runs/, results.parquet, report.md, summary.json)."""
    from ..sweep import write_parquet
    from .common import _write_atomic, stored_runs

    out = _args.path(out, "out")
    seeds = 1 if quick else min(_args.integer(seeds, "seeds", low=1), MAX_SEEDS)
    labels, tasks = _runs(quick, seeds)
    salts = [f"reproduce {NAME} {t[4]}" for t in tasks]
    with stored_runs(NAME, out, run_task, tasks, labels, salts, jobs=jobs, client=client,
                     progress=progress) as (results, counts):
        df = pd.DataFrame([{**lab, "metric": k, "value": v} for lab, r in zip(labels, results)
                           for k, v in r["metrics"].items()])
        write_parquet(df, out / "results.parquet")
        report = out / "report.md"
        figs = draw(with_bandwidth_loss(df), out / "figures")
        _write_atomic(report, render(df, quick, seeds, figs))
        _write_atomic(out / "summary.json", json.dumps({"experiment": NAME, "seeds": seeds, "quick": quick,
                                                        "runs": len(results), "ran": counts["ran"]}, indent=1))
    return report


# ---------------------------------------------------------------- report


def table(df: pd.DataFrame, scenario: str, metric: str) -> pd.DataFrame:
    """Mean over seeds: rows = grid values, columns = variants."""
    d = df[(df.scenario == scenario) & (df.metric == metric)]
    if d.empty:
        return pd.DataFrame()
    t = d.groupby(["point", "variant"], sort=False)["value"].mean().unstack("variant")
    t.index.name = d["param"].iloc[0]
    return t[[v for v in d["variant"].unique()]]


def _md(t: pd.DataFrame) -> str:
    if t.empty:
        return "(not run)\n"
    cols = list(t.columns)
    lines = ["| " + t.index.name + " | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for idx, row in t.iterrows():
        lines.append(f"| {idx} | " + " | ".join(_fmt(row[c]) for c in cols) + " |")
    return "\n".join(lines) + "\n"


def _fmt(x) -> str:
    if x is None or x != x:
        return "–"
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


SECTIONS = {
    "no-hotspot": ["cm_messages_per_s", "limiters_created", "total_throughput_gbps"],
    "oscillating": ["bandwidth_loss_gbps", "total_throughput_gbps", "hotspot_throughput_gbps", "flow_throughput_cov",
                    "false_positives", "pause_sent"],
    "latency": ["hotspot_throughput_gbps", "hotspot_q_mean_kb", "hotspot_q_std_kb", "hotspot_q_max_kb", "drops_window"],
    "psample": ["hotspot_throughput_gbps", "hotspot_q_mean_kb", "hotspot_q_std_kb", "hotspot_q_max_kb"],
    "twenty-stage": ["hotspot_throughput_gbps", "hotspot_q_std_kb", "switch_throughput_mean_gbps",
                     "switch_throughput_std_gbps", "switch2_throughput_gbps", "flow_throughput_cov",
                     "false_positives", "positive_feedback", "cpid_changes_per_flow_s", "cpid_throughput_rho",
                     "cpid_top_bottom_ratio", "total_throughput_gbps"],
    "fbhat": ["hotspot_throughput_gbps", "hotspot_q_std_kb", "hotspot_q_max_kb", "reaction_ms", "pause_sent"],
}


def with_bandwidth_loss(df: pd.DataFrame) -> pd.DataFrame:
    """Oscillating hotspot: bandwidth loss = the throughput an ideal scheme would deliver in the
    window minus what was delivered. Ideal: every flow not bound to N1 is delivered in full (each
    destination receives 8.5 Gb/s < 10 Gb/s); N1 receives 8.5 Gb/s during t_off and its 1 Gb/s
    service rate during t_on (the share of the window spent in on-phases, `on_fraction`), all in
    frame bytes (1500 of every 1520 B on the wire). Backlog held in buffers during t_on and delivered
    in t_off counts for the run, so a loss can be slightly negative."""
    d = df[(df.scenario == "oscillating") & (df.metric == "total_throughput_gbps")]
    if d.empty:
        return df
    k = 1500 / 1520
    on = df[(df.scenario == "oscillating") & (df.metric == "on_fraction")].set_index(["point", "variant", "seed"])["value"]
    frac = [on.get((p, v, s), 0.5) for p, v, s in zip(d.point, d.variant, d.seed)]
    ideal = [20 * 8.5 * k - f * (8.5 - 1.0) * k for f in frac]
    loss = d.assign(metric="bandwidth_loss_gbps", value=[i - x for i, x in zip(ideal, d.value)])
    return pd.concat([df, loss], ignore_index=True)


def draw(df: pd.DataFrame, where: Path) -> dict[str, str]:
    """One figure per scenario: each metric of SECTIONS against the grid value, one line (or bar
    group) per variant. Returns scenario key → file name relative to the report."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    where.mkdir(parents=True, exist_ok=True)
    figs = {}
    for sc in SCENARIOS:
        tables = [(m, table(df, sc.key, m)) for m in SECTIONS[sc.key]]
        tables = [(m, t) for m, t in tables if not t.empty]
        if not tables:
            continue
        cols = 3
        rows = (len(tables) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
        for ax, (m, t) in zip(axes.flat, tables):
            numeric = all(str(i).replace(".", "", 1).isdigit() for i in t.index)
            if len(t.index) == 1 or not numeric:
                if len(t.index) > 1:  # categorical grid (FbHat): one bar per point, first variant
                    t = t.T
                    ax.set_xlabel(t.columns.name or "")
                ax.bar(list(t.columns), list(t.iloc[0]), color="tab:blue")
                ax.tick_params(axis="x", rotation=45)
            else:
                x = [float(i) for i in t.index]
                for v in t.columns:
                    ax.plot(x, list(t[v]), marker="o", label=v)
                ax.set_xlabel(t.index.name)
                if t.index.name in ("psample_pct", "t_on_ms", "latency_us"):
                    ax.set_xscale("log")
                ax.legend(fontsize=7)
            ax.set_title(m, fontsize=9)
        for ax in list(axes.flat)[len(tables):]:
            ax.axis("off")
        fig.suptitle(sc.title, fontsize=10)
        fig.tight_layout()
        name = f"{sc.key}.png"
        fig.savefig(where / name, dpi=90)
        plt.close(fig)
        figs[sc.key] = f"figures/{name}"
    return figs


def render(df: pd.DataFrame, quick: bool, seeds: int, figs: dict | None = None) -> str:
    df = with_bandwidth_loss(df)
    lines = [f"# {TITLE}\n", f"Runs: {df.groupby(['scenario', 'point', 'variant', 'seed']).ngroups}, "
             f"{seeds} seed(s) each{' — QUICK (smoke test: short runs, not a result)' if quick else ''}.\n"]
    lines.append("## Findings of the seed, and whether cnsim supports them\n")
    for text, verdict, why in findings(df):
        lines.append(f"- **{text}** — {verdict}. {why}")
    lines.append("")
    for sc in SCENARIOS:
        lines.append(f"## {sc.title}\n")
        if figs and sc.key in figs:
            lines.append(f"![{sc.key}]({figs[sc.key]})\n")
        for metric in SECTIONS[sc.key]:
            lines.append(f"### {metric}\n")
            lines.append(_md(table(df, sc.key, metric)))
    lines.append("## Choices where the seed is silent\n")
    lines += [f"- {c}" for c in CHOICES]
    return "\n".join(lines) + "\n"


def findings(df: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(the seed's finding, "supported" / "not supported" / "not tested", the reason from cnsim's numbers)."""
    out = []

    def verdict(ok) -> str:
        return "not tested" if ok is None else ("supported" if ok else "not supported")

    lim = table(df, "no-hotspot", "limiters_created")
    cm = table(df, "no-hotspot", "cm_messages_per_s")
    if not lim.empty and {"QCN", "ECM"} <= set(lim.columns):
        # "significantly higher": never fewer, and at least twice as many over the sweep
        ok = bool((lim["QCN"] >= lim["ECM"]).all() and lim["QCN"].sum() >= 2 * lim["ECM"].sum() and lim["QCN"].sum() > 0)
        out.append(("QCN creates many more (spurious) rate limiters than ECM without a hotspot", verdict(ok),
                    "limiters created per run, QCN vs ECM by load (Gb/s): "
                    + ", ".join(f"{i}: {_fmt(r.QCN)} vs {_fmt(r.ECM)}" for i, r in lim.iterrows()) + "."))
        ok = bool((cm["QCN"] > 0).all())
        out.append(("QCN sends negative feedback at any load", verdict(ok),
                    "QCN CM messages per second by load: " + ", ".join(f"{i}: {_fmt(v)}" for i, v in cm["QCN"].items())
                    + (" (none at the lowest loads: a queue must reach ~Qeq/3 within one sample, which Bernoulli "
                       "superposition of 19 sources rarely does at low load)" if not ok else "") + "."))
    bl = table(df, "oscillating", "bandwidth_loss_gbps")
    if not bl.empty:
        mean = bl.mean()
        best, worst = mean.idxmin(), mean.idxmax()
        out.append(("ECM loses the least bandwidth under the oscillating hotspot", verdict(best == "ECM"),
                    "bandwidth loss (Gb/s, mean over t_on): " + ", ".join(f"{v} {_fmt(x)}" for v, x in mean.items())
                    + "."))
        out.append(("QCN does not perform well with recurring hotspots (worst of QCN, QCN-P, ECM)",
                    verdict(mean.get("QCN", 0) >= max(mean.get("ECM", 0), mean.get("QCN-P", 0))),
                    f"largest loss: {worst}."))
        if "QCN-P" in mean and "QCN" in mean:
            out.append(("QCN-P is worse than ECM but better than QCN", verdict(mean["ECM"] <= mean["QCN-P"] <= mean["QCN"]),
                        f"QCN-P {_fmt(mean['QCN-P'])}, ECM {_fmt(mean['ECM'])}, QCN {_fmt(mean['QCN'])} Gb/s."))
    lat = table(df, "latency", "hotspot_throughput_gbps")
    qs = table(df, "latency", "hotspot_q_std_kb")
    if not lat.empty:
        big = [i for i in lat.index if float(i) >= 500]
        if big:
            qmax = table(df, "latency", "hotspot_q_max_kb")
            # Unacceptable: under 90 % of the 9.87 Gb/s (frame bytes) the hotspot can deliver, or
            # the queue reaching the 200-kB buffer.
            bad = {(i, v): bool(lat.loc[i, v] < 0.9 * 9.87 or qmax.loc[i, v] >= 199) for i in big for v in lat.columns}
            out.append(("At 500 µs forward latency (and more) results are unacceptable for all protocols",
                        verdict(all(bad.values())),
                        "criterion: hotspot throughput under 90 % of 9.87 Gb/s or the queue reaching the 200-kB buffer; "
                        "throughput (Gb/s) / max queue (kB): "
                        + "; ".join(f"{i} µs: " + ", ".join(f"{v} {_fmt(lat.loc[i, v])}/{_fmt(qmax.loc[i, v])}"
                                                            for v in lat.columns) for i in big) + "."))
        small = [i for i in lat.index if float(i) <= 100]
        if small:
            out.append(("At 100 µs the protocols do better than at 500 µs (the seed re-tested at 100 µs)",
                        verdict(bool(lat.loc[small].mean().mean() > lat.loc[big].mean().mean())) if big else "not tested",
                        "hotspot throughput (Gb/s) at 100 µs: " + ", ".join(f"{v} {_fmt(x)}" for v, x in lat.loc[small[0]].items())
                        + "."))
        if {"ECM-T", "ECM-DT"} <= set(lat.columns) and big:
            # "Stable": the queue std-dev at least 20 % lower and the throughput not lower.
            ok = bool(all(qs.loc[i, "ECM-DT"] < 0.8 * qs.loc[i, "ECM-T"] and lat.loc[i, "ECM-DT"] >= lat.loc[i, "ECM-T"]
                          for i in big))
            out.append(("ECM needs RTT-triggered CM drops to stay stable at large latency (each with the seed's "
                        "per-RTT parameters)", verdict(ok),
                        "criterion: queue std-dev at least 20 % lower with the drops and throughput not lower; "
                        "queue std-dev (kB) / throughput (Gb/s) without vs with drops: "
                        + "; ".join(f"{i} µs: {_fmt(qs.loc[i, 'ECM-T'])}/{_fmt(lat.loc[i, 'ECM-T'])} vs "
                                    f"{_fmt(qs.loc[i, 'ECM-DT'])}/{_fmt(lat.loc[i, 'ECM-DT'])}" for i in big) + "."))
    ps = table(df, "psample", "hotspot_q_std_kb")
    if not ps.empty and "QCN" in ps:
        lo = ps["QCN"][[float(i) <= 0.5 for i in ps.index]]
        hi = ps["QCN"][[float(i) > 0.5 for i in ps.index]]
        ok = None if lo.empty or hi.empty else bool(hi.min() > 2 * lo.max())
        out.append(("QCN's queue is unstable above psample 0.5 % at RTT 200 µs", verdict(ok),
                    "QCN hotspot queue std-dev (kB) by psample %: " + ", ".join(f"{i}: {_fmt(v)}" for i, v in ps["QCN"].items())
                    + " (criterion: every value above 0.5 % more than twice every value at or below it)."))
    ts = table(df, "twenty-stage", "switch_throughput_mean_gbps")
    if not ts.empty:
        m = ts.iloc[0]
        if {"ECM", "QCN", "QCN-FbHat"} <= set(m.index):
            out.append(("20-stage: ECM performs better than QCN and QCN-FbHat", verdict(m["ECM"] > max(m["QCN"], m["QCN-FbHat"])),
                        "mean throughput per inter-switch hotspot (Gb/s): " + ", ".join(f"{v} {_fmt(x)}" for v, x in m.items()) + "."))
            out.append(("20-stage: FbHat improves on QCN", verdict(m["QCN-FbHat"] > m["QCN"]),
                        f"QCN-FbHat {_fmt(m['QCN-FbHat'])} vs QCN {_fmt(m['QCN'])} Gb/s."))
        if {"QCN-SP", "QCN-PP", "QCN-P"} <= set(m.index):
            ok = bool(m["QCN-SP"] >= m["QCN-PP"] and m["QCN-SP"] >= m["QCN-P"])
            out.append(("20-stage: sub-path probing is best, better than path probing and (marginally) CP probing",
                        verdict(ok), f"QCN-SP {_fmt(m['QCN-SP'])}, QCN-PP {_fmt(m['QCN-PP'])}, QCN-P {_fmt(m['QCN-P'])} Gb/s."))
        fp = table(df, "twenty-stage", "false_positives").iloc[0]
        pos = table(df, "twenty-stage", "positive_feedback").iloc[0]
        if "ECM" in fp:
            probing = [v for v in fp.index if v.startswith("QCN-") and "P" in v.split("-")[1]]
            ok = bool(all(fp["ECM"] > fp[v] for v in probing))
            out.append(("20-stage: ECM has a large number of false positives", verdict(ok),
                        "false positives (positive feedback): " + ", ".join(f"{v} {_fmt(fp[v])} ({_fmt(pos[v])})" for v in fp.index) + "."))
        cov = table(df, "twenty-stage", "flow_throughput_cov").iloc[0]
        if {"QCN", "QCN-FbHat", "ECM"} <= set(cov.index):
            ok = bool(min(cov["QCN"], cov["QCN-FbHat"]) > cov["ECM"])
            out.append(("20-stage: high throughput std-dev for QCN and QCN-FbHat", verdict(ok),
                        "per-flow throughput std-dev / mean: " + ", ".join(f"{v} {_fmt(x)}" for v, x in cov.items()) + "."))
    out += fbhat_findings(df)
    rho = table(df, "twenty-stage", "cpid_throughput_rho")
    cc = table(df, "twenty-stage", "cpid_changes_per_flow_s")
    if not rho.empty:
        ratio = table(df, "twenty-stage", "cpid_top_bottom_ratio").iloc[0]
        r, c = rho.iloc[0], cc.iloc[0]
        # An effect of thrashing = flows whose limiting CP changes often get clearly less: a Spearman
        # ρ (cpid_changes vs flow throughput, over the 53 flows of one run) ≤ −0.5 for a variant
        # that changes CPID at all. Confounded with the path (flows crossing more hotspots both
        # change CP more and get less), so an effect found would be an upper bound.
        tested = [v for v in r.index if r[v] == r[v] and c.get(v, 0) > 0]
        ok = None if not tested else bool(all(r[v] > -0.5 for v in tested))
        out.append(("20-stage: no effects of CPID thrashing observed", verdict(ok),
                    "criterion: no variant with CPID changes has a Spearman ρ ≤ −0.5 between a flow's cpid_changes "
                    "and its throughput; per variant ρ / throughput of the most-changing third ÷ least-changing third / "
                    "changes per flow and second: "
                    + ", ".join(f"{v} {_fmt(r[v])}/{_fmt(ratio.get(v))}/{_fmt(c.get(v))}" for v in r.index) + "."))
    return out


def fbhat_findings(df: pd.DataFrame) -> list[tuple[str, str, str]]:
    """The seed's QCN-FbHat W × HAI × RTT finding, from the `fbhat` grid (points "W/HAI/latency µs")."""
    thr, qs, rt = (table(df, "fbhat", m) for m in ("hotspot_throughput_gbps", "hotspot_q_std_kb", "reaction_ms"))
    text = "QCN-FbHat: larger W stabilises it at large latency; W 2 → 4 slows its reaction 7 ms → 60 ms"
    if thr.empty:
        return [(text, "not tested", "the FbHat grid did not run.")]
    thr, qs, rt = thr.iloc[:, 0], qs.iloc[:, 0], rt.iloc[:, 0]
    pts = [tuple(p.split("/")) for p in thr.index]
    # Stable: at 1 ms, for each HAI setting, every W > 2 has a queue std-dev at least 20 % below W = 2's
    # and a hotspot throughput not lower (the rule of the ECM-DT finding).
    stab = []
    for h in ("off", "on"):
        base = f"2/{h}/1000"
        if base not in thr:
            continue
        for w, hh, lat in pts:
            if hh == h and lat == "1000" and float(w) > 2:
                p = f"{w}/{h}/1000"
                stab.append(bool(qs[p] < 0.8 * qs[base] and thr[p] >= thr[base]))
    # Slower: the W = 4 reaction time at least twice W = 2's at every latency × HAI run (the seed: ×8).
    slow = []
    for w, h, lat in pts:
        if w == "4" and f"2/{h}/{lat}" in rt:
            a, b = rt[f"2/{h}/{lat}"], rt[f"4/{h}/{lat}"]
            slow.append(bool(b >= 2 * a) if a == a and b == b else False)
    ok = None if not stab or not slow else bool(all(stab) and all(slow))
    return [(text, "not tested" if ok is None else ("supported" if ok else "not supported"),
             f"stable at 1 ms latency = queue std-dev ≥ 20 % below W = 2's with throughput not lower "
             f"({sum(stab)} of {len(stab)} larger-W runs); slower = W 4 reaction time ≥ 2 × W 2's "
             f"({sum(slow)} of {len(slow)}); reaction = onset until the hotspot queue, once above Qeq, is sampled "
             f"at or below it again (1-ms samples). W/HAI/latency µs: queue std-dev kB / throughput Gb/s / reaction ms: "
             + "; ".join(f"{p} {_fmt(qs[p])}/{_fmt(thr[p])}/{_fmt(rt[p])}" for p in thr.index) + ".")]
