"""`cnsim reproduce roeck2007-qau`: Roeck 2007 (IEEE 802.1Qau interim, Sept. 2007) — ECM, QCN,
QCN-FbHat and the probing QCN variants on the slides' four "complex scenarios"
(scenarios/roeck2007/), with PAUSE on as in the slides; claims.py sets each result beside the
slides' findings.

Each scenario file runs QCN as shipped; a *variant* replaces every congestion point and reaction
point with the parameters of the seed's backup slides (`VARIANTS`). What the seed leaves open is
listed in `CHOICES` and in docs/modelling.md.

Roeck 2007's metrics, per run, from the engine's stats document (each engine field is declared by
its protocol's `METRICS`; window = simulation.measure_from … end):

| metric | definition |
|---|---|
| `cm_messages_per_s` | frames.cnm_sent (CNMs, ECM messages and probe answers) ÷ run time |
| `drops_window` | window.data_dropped: data frames dropped in switches in the window |
| `pause_sent`, `probes_sent` | frames.pause_sent (PAUSE frames); Σ rps.probes_sent |
| `paused_share_max` | max over ports of max over priorities of paused_s_window, ÷ the window: the longest pause |
| `fb_hat_mean` | QCN-FbHat: mean over the RPs of fb_hat (the saved largest QntzFb) at the end |
| `active_fraction` | the share of the window in which the flows run (start … stop of the scenario's first flow) |
| `hotspot_active_gbps` | `hotspot_throughput_gbps` ÷ `active_fraction`: the hotspot's throughput while the flows run |
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
import tomllib
from dataclasses import dataclass

from ... import api
from ..paper import Task, inline, scenario_file
from . import measure

NAME = "roeck2007-qau"
TITLE = "Roeck 2007 — ECM vs QCN, QCN-FbHat and probing QCN in complex scenarios"
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

PSAMPLE_BUFFER_B = 1_200_000  # the psample runs' buffer (the seed: "buffer 1.2 MB")

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
    "latency at the RP; QCN-FbHat = E-QCN's representative CP (Mliki et al. 2016b) with A = 24 Mbit; probes one per "
    "rate-increase cycle, positive answers = one increase cycle (docs/modelling.md).",
    "Simulated time: the no-hotspot runs last 200 ms (the seed: 1 s; counts are reported per second), the "
    "others 1 s as in the seed; --quick shortens every run (smoke test only).",
    "psample runs: QCN's `sample_base` = 1500 B / psample with oversampling off; ECM's `sample_interval` the "
    "same bytes; buffer 1.2 MB; Qeq 300 kB for QCN (ECM keeps its Qeq, the seed gives no ECM value for them); "
    "PAUSE thresholds scaled with the buffer (six times the 200 kB runs' XOFF and XON per ingress port), since "
    "at the defaults PAUSE, not QCN, would hold the queue far below Qeq.",
    "ECM-T / ECM-DT: ECM with the seed's own per-RTT (W, Gi, Gd) without / with RTT-triggered CM drops (the "
    "seed's text gives them, so they are not tuned here); the RTT for the drops is measured from the echoed send "
    "times. ECM-P and ECM-SP (ECM with probes) are not implemented.",
]


def _flows(path: str) -> int:
    return len(tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", []))


def pause_scaled(path: str, buffer_b: int) -> dict:
    """PAUSE's XOFF and XON for a buffer of `buffer_b` bytes, in the proportion the scenario's resolved
    thresholds have to its queue capacity (the seed gives no thresholds). At the 200 kB scenarios'
    thresholds PAUSE would act long before QCN's Qeq of 300 kB in the psample runs."""
    r = tomllib.loads(api.check(scenario_file(path)))
    pause, capacity = r["flow_control"]["pause"], r["defaults"]["queue"]["capacity"]
    if not capacity.endswith("B") or not all(pause[k].endswith(" frames") for k in ("xoff", "xon")):
        raise ValueError(f"{path}: expected a capacity in bytes and PAUSE thresholds in frames")
    scale = buffer_b / int(capacity[:-1])
    return {f"flow_control.pause.{k}": f"{round(int(pause[k].split()[0]) * scale)} frames" for k in ("xoff", "xon")}


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
            sets["defaults.queue.capacity"] = f"{PSAMPLE_BUFFER_B}B"
            sets.update(pause_scaled(path, PSAMPLE_BUFFER_B))
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
    sets["cp"] = inline(cp)
    for i in range(n):
        sets[f"flow.{i}.rp"] = inline(rp)
    return sets


def tasks(seeds: int, quick: bool) -> list[Task]:
    out = []
    for sc in SCENARIOS:
        (param, (full, short)), = sc.grid.items()
        for value in (short if quick else full):
            for variant in sc.variants:
                sets = point(sc, param, value, variant, quick)
                extra = {k[1:]: sets.pop(k) for k in ("_on_fraction", "_onset_s") if k in sets}
                for seed in range(1, seeds + 1):
                    out.append(Task({"scenario": sc.key, "param": param, "point": str(value), "variant": variant},
                                    f"{DIR}/{sc.file}", sets, seed, spec={"hotspot": sc.hotspot, **extra}))
    return out


def extract(result, spec) -> dict:
    m = measure.metrics(result.stats, spec["hotspot"], result.scenario_toml)
    if "onset_s" in spec:
        m["reaction_ms"] = measure.reaction_ms(result.series(f"q_frames.{spec['hotspot']}"), spec["onset_s"])
    m.update({k: v for k, v in spec.items() if k in ("on_fraction", "onset_s")})
    return {"values": [["all", k, v] for k, v in m.items() if v is not None and v == v]}
