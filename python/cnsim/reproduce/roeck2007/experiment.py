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
| `cm_messages_per_s` | frames.feedback_sent (CNMs, ECM messages and probe answers) ÷ run time |
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
| `reaction_ms` | FbHat grid: from the hotspot's onset (flow start) until the hotspot queue, having exceeded Qeq (24 kB), is first sampled (1 ms) at or below Qeq again (none if it never does) |
| `phase_reaction_ms`, `phase_censored` | oscillating-w, part `phase<i>` per on-phase: the time until what the RPs let into the hotspot halves (`measure.rate_cut_reaction`), and 1 if it never did in the phase (censored: the time is then only a lower bound, the phase's length) |
| `reaction_censored` | oscillating-w: on-phases in which it never halved (censored) |
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass

from ... import api
from ..compare import LEVEL
from ..paper import Task, inline, scenario_file
from . import measure

NAME = "roeck2007-qau"
TITLE = "Roeck 2007 — ECM vs QCN, QCN-FbHat and probing QCN in complex scenarios"
DIR = "scenarios/roeck2007"
# The sequential design (runs.py): one look, at 5 seeds, which is also the cap. A full run at 5 seeds
# takes ≈ 290 s on two free cores; a second look at 10 would bring the worst case to ≈ 10 min, all of
# this experiment's share of CI's budget for the seven experiments, and its Bonferroni level (97.5 %
# at each look) would leave more rows undecided at the first look.
SCHEDULE = (5,)

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
    "QCN-HSP": _qcn("eqcn", probe="sub-path"),
}
OPEN_LOOP = ("QCN", "QCN-FbHat")   # no positive feedback; every other variant closes the loop (tags or probes)


# The seed's per-RTT ECM parameters (W, Gi, Gd), keyed by RTT in µs (= the forward latency here).
TUNED = {
    "ECM-T": {100: (2.5, 0.5, 0.00010), 200: (4.0, 0.5, 0.00003), 500: (0.5, 0.5, 0.00001), 1000: (0.5, 0.5, 0.00001)},
    "ECM-DT": {100: (2.5, 0.4, 0.00015), 200: (3.5, 0.3, 0.00004), 500: (3.5, 0.3, 0.00010), 1000: (5.0, 0.2, 0.00006)},
}

# The slide "ECM Stability Margins (+/- 1% performance)": per variant and RTT, its bold (optimal)
# (W, Gi, Gd) and the ends of each stated range (at 1 ms without drops: "not calculated"). Where the
# margins slide's bold values differ from the throughput slides' (`TUNED`), the margins slide's are used.
MARGINS = {
    ("ECM-T", 200): ((4.0, 0.5, 0.00003), {"gi": (0.2,), "gd": (0.00008,), "w": (3.0, 6.0)}),
    ("ECM-T", 500): ((0.5, 0.5, 0.00001), {"gi": (0.2,)}),
    ("ECM-DT", 200): ((3.5, 0.3, 0.00004), {"gi": (0.2, 0.45), "gd": (0.00002, 0.00017), "w": (2.5,)}),
    ("ECM-DT", 500): ((2.5, 0.31, 0.00006), {"gi": (0.2, 0.4), "gd": (0.00005, 0.00010), "w": (3.5,)}),
    ("ECM-DT", 1000): ((5.0, 0.2, 0.00008), {"gi": (0.3,), "gd": (0.00006,)}),
}
MARGIN = 0.01   # "+/- 1% performance"
MARGIN_POINTS = [f"{v}/{rtt}/base" for (v, rtt) in MARGINS] + [
    f"{v}/{rtt}/{k}={x:g}" for (v, rtt), (_, ends) in MARGINS.items() for k, xs in ends.items() for x in xs]

# Fb's unit (what Gi and Gd multiply): 64 B is cnsim's reading (docs/modelling.md); the other
# readings a unit-less number admits are one frame (1500 B) and one byte. Qeq, Qsc and Qmc stay in
# bytes (24, 102.4, 153.6 kB): in frames or bytes they would exceed the buffer or be below one frame.
FB_UNITS = ("64B", "1500B", "1B")

# The oscillating hotspot of the W reaction-time test: the seed's "Test 1" gives no t_on; 100 ms on
# and off (four on-phases in 100 … 900 ms) holds the slide's 60-ms reaction inside one on-phase.
REACTION_T_ON_MS = 100


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
             ["ECM", "QCN-SP", "QCN", "QCN-FbHat", "QCN-P", "QCN-PP", "QCN-HP", "QCN-HSP"], {"stage": (["-"], ["-"])},
             "SW18>H53", "1s", "50ms"),
    # The backup slides "QCN-FbHat: Throughput at Hotspot, W=2.0 / W=var, HAI / no HAI, RTT=100 µs …
    # 1 ms", reduced to W ∈ {2, 4} × HAI {off, on} × forward latency {100 µs, 1 ms}, plus the seed's own
    # W=var value at 1 ms (20 without HAI, 40 with); 300-ms runs (flows 20 … 280 ms). Point = "W/HAI/latency".
    Scenario("fbhat", "symmetric-latency.toml", "QCN-FbHat: W × HAI × forward latency (symmetric, 4 sources at 50 %)",
             ["QCN-FbHat"], {"w_hai_latency": ([f"{w}/{h}/{l}" for l in (100, 1000) for h in ("off", "on") for w in (2, 4)]
                                               + ["20/off/100", "20/off/1000", "40/on/1000"], ["2/off/1000", "4/off/1000"])},
             "SW>N5", "300ms", "100ms"),
    # "Increasing W affects reaction time in OG hotspot scenarios — Test 1: W 2.0 → 4.0 ⇒ reaction
    # time 7 ms → 60 ms", measured in the oscillating hotspot with QCN-FbHat (`REACTION_T_ON_MS`).
    Scenario("oscillating-w", "oscillating-hotspot.toml", f"Oscillating hotspot, t_on = t_off = {REACTION_T_ON_MS} ms: "
             "QCN-FbHat's reaction time against W", ["QCN-FbHat"], {"w": ([2, 4], [2, 4])}, "SW>N1", "1s", "240ms"),
    # ECM's parameters: the slide's stability margins, and the readings of Fb's unit.
    Scenario("ecm-margins", "symmetric-latency.toml", "ECM stability margins: each stated range end against the "
             "slide's optimum (symmetric, forward latency = RTT)", ["ECM"],
             {"margin": (MARGIN_POINTS, ["ECM-DT/200/base", "ECM-DT/200/gi=0.2"])}, "SW>N5", "1s", "300ms"),
    Scenario("ecm-unit", "symmetric-latency.toml", "ECM under three readings of Fb's unit (64 B, a frame, a byte) "
             "with the default and the seed's per-RTT parameters", ["ECM", "ECM-T", "ECM-DT"],
             {"unit_latency": ([f"{u}/{l}" for u in FB_UNITS for l in (100, 200, 500, 1000)], ["64B/500", "1500B/500"])},
             "SW>N5", "1s", "300ms"),
]
# Scenario → the grid points whose seed-1 run keeps the hotspot's queue and throughput against time
# (the figures the slides show; None: every point). Recording adds sampling events, so such a run is
# another (equally valid, deterministic) realisation of its seed than an unrecorded one would be.
TIME_SERIES = {"latency": ("100", "500"), "twenty-stage": None, "oscillating": ("10",)}
SERIES_INTERVAL = "1ms"

PSAMPLE_BUFFER_B = 1_200_000  # the psample runs' buffer (the seed: "buffer 1.2 MB")

CHOICES = [
    f"Seeds: {SCHEDULE[-1]} per configuration, the cap (one look of the sequential design, intervals at 95 %): a row "
    "still inconclusive at it stays so; a second look at twice the seeds would double the run's wall time.",
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
    "times. ECM-P and ECM-SP (ECM with probes) are not implemented: the slides say neither what a CP answers "
    "to an ECM probe nor how the RP combines it with the tag feedback; QCN-HSP is QCN-FbHat with sub-path probes.",
    f"W's reaction time (\"Test 1\", no t_on given) is measured in the oscillating hotspot with t_on = t_off = "
    f"{REACTION_T_ON_MS} ms, as the halving time of what the RPs let into the hotspot (docs/modelling.md).",
    "ECM stability margins: one parameter at a time moved to each end of the slide's range, the others at the "
    "slide's bold optimum (the margins slide's values where they differ from the throughput slides').",
    "ECM's Fb unit: besides 64 B, the runs `ecm-unit` count Fb in frames (1500 B) and in bytes, thresholds unchanged.",
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
    elif param in ("latency_us", "psample_pct", "unit_latency", "margin"):
        latency = value if param == "latency_us" else 200 if param == "psample_pct" else int(str(value).split("/")[1])
        tuned = TUNED.get(variant, {}).get(latency)
        if param == "unit_latency":
            cp["ecm"]["unit"] = str(value).split("/")[0]
        if param == "margin":
            tuned, cp, rp = _margin(str(value))
        if tuned:
            w, gi, gd = tuned
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
    elif param == "w":
        cp["qcn"]["w"] = float(value)
        t0, t1 = (20, 220) if quick else (100, 900)
        sets.update({"port.0.oscillate.on": f"{REACTION_T_ON_MS}ms", "port.0.oscillate.off": f"{REACTION_T_ON_MS}ms",
                     "port.0.oscillate.from": f"{t0}ms", "port.0.oscillate.until": f"{t1}ms",
                     "simulation.record_interval": "1ms"})
        if quick:
            sets["simulation.measure_from"] = "20ms"
        sets["_phases"] = [[t / 1e3, REACTION_T_ON_MS / 1e3] for t in range(t0, t1, 2 * REACTION_T_ON_MS)]
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


def _margin(value: str) -> tuple[tuple, dict, dict]:
    """A stability-margin point "ECM-DT/200/gi=0.45": its (W, Gi, Gd) and its variant's tables."""
    variant, rtt, change = value.split("/")
    (w, gi, gd), _ = MARGINS[(variant, int(rtt))]
    if change != "base":
        key, x = change.split("=")
        w, gi, gd = {"w": (float(x), gi, gd), "gi": (w, float(x), gd), "gd": (w, gi, float(x))}[key]
    cp, rp = VARIANTS[variant]
    return (w, gi, gd), json.loads(json.dumps(cp)), json.loads(json.dumps(rp))


def _keeps_series(sc: Scenario, value, seed: int) -> bool:
    if sc.key not in TIME_SERIES or seed != 1:
        return False
    points = TIME_SERIES[sc.key]
    return points is None or str(value) in points


def tasks(seeds: int, quick: bool) -> list[Task]:
    out = []
    for sc in SCENARIOS:
        (param, (full, short)), = sc.grid.items()
        for value in (short if quick else full):
            for variant in sc.variants:
                base = point(sc, param, value, variant, quick)
                extra = {k[1:]: base.pop(k) for k in ("_on_fraction", "_onset_s", "_phases") if k in base}
                for seed in range(1, seeds + 1):
                    sets, spec = base, {"hotspot": sc.hotspot, **extra}
                    if _keeps_series(sc, value, seed):
                        sets = dict(base, **{"simulation.record_interval": SERIES_INTERVAL})
                        spec["series"] = True
                    out.append(Task({"scenario": sc.key, "param": param, "point": str(value), "variant": variant},
                                    f"{DIR}/{sc.file}", sets, seed, spec=spec))
    return out


def extract(result, spec) -> dict:
    m = measure.metrics(result.stats, spec["hotspot"], result.scenario_toml)
    if "onset_s" in spec:
        m["reaction_ms"] = measure.reaction_ms(result.series(f"q_frames.{spec['hotspot']}"), spec["onset_s"])
    phases = []
    if "phases" in spec:
        got = measure.rate_cut_reaction(result, spec["hotspot"], spec["phases"])
        phases = got.pop("phases", [])
        m.update(got)
    m.update({k: v for k, v in spec.items() if k in ("on_fraction", "onset_s")})
    out = {"values": [["all", k, v] for k, v in m.items() if v is not None and v == v]
           + [[f"phase{i}", metric, v] for i, (ms, cens) in enumerate(phases)
              for metric, v in (("phase_reaction_ms", ms), ("phase_censored", float(cens)))]}
    if spec.get("series"):
        out["extra"] = measure.hotspot_series(result, spec["hotspot"])
    return out
