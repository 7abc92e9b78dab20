"""What Roeck 2007's findings rest on, measured on one run (the metrics of experiment.py's table),
and the oscillating hotspot's bandwidth loss against an ideal scheme."""

from __future__ import annotations

import math
import tomllib

import pandas as pd


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


def rate_cut_reaction(result, hotspot: str, phases: list) -> dict:
    """QCN-FbHat's reaction time in the oscillating hotspot: per on-phase [start, length] (s), from
    the phase's start until the rate the RPs allow the flows bound to the hotspot's host — Σ over
    those flows of min(CR, the flow's generated rate) — first falls to half its value at the phase's
    start (the time the sources take to halve what they send into the hotspot). A phase in which it
    never does is *censored*: its reaction time is only known to be at least the phase's length.
    `phases`: [(ms, censored)] per phase — a censored phase's ms is that lower bound, never a value
    (claims.py reads them censoring-aware); `reaction_censored`: how many phases were censored.
    Needs the rp_cr_bps series."""
    stats = result.stats
    dst = hotspot.split(">")[1]
    window = stats["time"].get("window_s") or stats["time"]["duration_s"]
    bits = stats["frame_size_bytes"] * 8
    offered = {f["name"]: f["frames_generated_window"] * bits / window for f in stats["flows"]
               if any(r["host"] == dst for r in f["receivers"])}
    sf = result.series_frame
    d = sf[sf.name.isin([f"rp_cr_bps.{n}" for n in offered])]
    if d.empty:
        return {}
    cap = d.name.astype(str).str.removeprefix("rp_cr_bps.").map(offered)
    allowed = d.assign(value=d.value.clip(upper=cap)).groupby("t")["value"].sum()
    out = []
    for start, length in phases:
        ph = allowed[(allowed.index > start) & (allowed.index <= start + length + 1e-9)]
        if ph.empty:
            continue
        low = ph[ph <= ph.iloc[0] / 2]
        out.append((length * 1e3, True) if low.empty else ((float(low.index[0]) - start) * 1e3, False))
    if not out:
        return {}
    return {"phases": out, "reaction_censored": float(sum(c for _, c in out))}


SERIES_POINTS = 1000   # at most this many samples per kept time series (the figures' resolution)


def hotspot_series(result, hotspot: str) -> dict:
    """The hotspot's queue (kB) and the throughput delivered to its host (Gb/s) against time (s),
    thinned to at most SERIES_POINTS samples: what the slides' time-series figures show."""
    stats = result.stats
    dst = hotspot.split(">")[1]
    sf = result.series_frame
    names = sf.name.astype(str)
    q = sf[names == f"q_frames.{hotspot}"].set_index("t")["value"] * stats["frame_size_bytes"] / 1000
    thr = sf[names.str.startswith("rx_bps.") & names.str.endswith(f">{dst}")].groupby("t")["value"].sum() / 1e9
    frame = pd.DataFrame({"q_kb": q, "thr_gbps": thr}).sort_index()
    step = max(1, -(-len(frame) // SERIES_POINTS))
    frame = frame.iloc[::step]
    return {"t": [float(t) for t in frame.index], "q_kb": [None if v != v else float(v) for v in frame.q_kb],
            "thr_gbps": [None if v != v else float(v) for v in frame.thr_gbps]}


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


def active_fraction(stats: dict, scenario_toml: str) -> float:
    """The share of the measurement window in which the flows run (the scenario's first flow's start
    … stop, clipped to the window): a throughput over the window divided by it is the throughput
    while they run."""
    t = stats["time"]
    start, end = t["measure_from_s"], t["end_s"]
    flows = tomllib.loads(scenario_toml).get("flow", [])
    if not flows or end <= start:
        return 1.0
    on = seconds(flows[0].get("start", "0s"))
    off = seconds(flows[0].get("stop")) if flows[0].get("stop") else end
    return max(0.0, min(off, end) - max(on, start)) / (end - start)


def seconds(text: str) -> float:
    """A duration of the resolved scenario ("100ms", "1s", "500us", "20ns") in seconds."""
    for unit, scale in (("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("ns", 1e-9), ("ps", 1e-12), ("s", 1.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float(text)


def metrics(stats: dict, hotspot: str | None, scenario_toml: str) -> dict:
    """Roeck 2007's metrics of one run, from the engine's stats document (window = measure_from … end)."""
    fr, win = stats["frames"], stats["window"]
    t = stats["time"]
    window = t.get("window_s") or t.get("duration_s")
    duration = t.get("duration_s") or window
    rps = stats.get("rps", [])
    flows = stats["flows"]
    thr = [r["throughput_bps"] for f in flows for r in f["receivers"]]
    mean = sum(thr) / len(thr) if thr else float("nan")
    m = {
        "cm_messages_per_s": fr["feedback_sent"] / duration,
        "limiters_created": sum(r.get("limiters_created", r.get("regulators_created", 0)) for r in rps),
        "false_positives": sum(r.get("false_positives", 0) for r in rps),
        "cpid_changes_per_flow_s": sum(r.get("cpid_changes", 0) for r in rps) / max(len(rps), 1) / duration,
        "positive_feedback": sum(r.get("ecm_positive", 0) + r.get("probe_positive", 0) for r in rps),
        "probes_sent": sum(r.get("probes_sent", 0) for r in rps),
        "pause_sent": fr.get("pause_sent", 0),
        "drops_window": win["data_dropped"],
        # the longest any port's transmitter was paused in the window, as a share of it
        "paused_share_max": max((max(p["paused_s_window"]) for p in stats.get("ports", [])), default=0.0) / window
        if window else float("nan"),
        "total_throughput_gbps": sum(thr) / 1e9,
        "flow_throughput_cov": _std(thr) / mean if mean else float("nan"),
        "jain_throughput": (sum(thr) ** 2 / (len(thr) * sum(x * x for x in thr))) if any(thr) else float("nan"),
    }
    fb_hat = [r["fb_hat"] for r in rps if r.get("fb_hat") is not None]
    if fb_hat:  # QCN-FbHat: the RPs' saved largest feedback at the end (QntzFb scale)
        m["fb_hat_mean"] = sum(fb_hat) / len(fb_hat)
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
        frac = active_fraction(stats, scenario_toml)
        m["active_fraction"] = frac
        m["hotspot_active_gbps"] = m["hotspot_throughput_gbps"] / frac if frac else float("nan")
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


def ideal_throughput(on_fraction: float) -> float:
    """The oscillating hotspot's ideal throughput (Gb/s of frames) when `on_fraction` of the window is
    spent in on-phases (`with_bandwidth_loss`)."""
    k = 1500 / 1520
    return 20 * 8.5 * k - on_fraction * (8.5 - 1.0) * k


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
    on = df[(df.scenario == "oscillating") & (df.metric == "on_fraction")].set_index(["point", "variant", "seed"])["value"]
    frac = [on.get((p, v, s), 0.5) for p, v, s in zip(d.point, d.variant, d.seed)]
    loss = d.assign(metric="bandwidth_loss_gbps", value=[ideal_throughput(f) - x for f, x in zip(frac, d.value)])
    return pd.concat([df, loss], ignore_index=True)


SECTIONS = {
    "no-hotspot": ["cm_messages_per_s", "limiters_created", "total_throughput_gbps", "pause_sent"],
    "oscillating": ["bandwidth_loss_gbps", "total_throughput_gbps", "hotspot_throughput_gbps", "flow_throughput_cov",
                    "false_positives", "pause_sent", "drops_window"],
    "latency": ["hotspot_active_gbps", "hotspot_throughput_gbps", "hotspot_q_mean_kb", "hotspot_q_std_kb", "hotspot_q_max_kb", "pause_sent",
                "drops_window"],
    "psample": ["hotspot_throughput_gbps", "hotspot_q_mean_kb", "hotspot_q_std_kb", "hotspot_q_max_kb", "pause_sent",
                "drops_window"],
    "twenty-stage": ["hotspot_throughput_gbps", "hotspot_q_std_kb", "switch_throughput_mean_gbps",
                     "switch_throughput_std_gbps", "switch2_throughput_gbps", "flow_throughput_cov",
                     "false_positives", "positive_feedback", "cpid_changes_per_flow_s", "cpid_throughput_rho",
                     "cpid_top_bottom_ratio", "total_throughput_gbps", "pause_sent", "paused_share_max",
                     "cm_messages_per_s", "fb_hat_mean"],
    "fbhat": ["hotspot_active_gbps", "hotspot_q_std_kb", "hotspot_q_max_kb", "reaction_ms", "pause_sent"],
    "oscillating-w": ["reaction_censored", "total_throughput_gbps", "hotspot_throughput_gbps", "pause_sent"],
    "ecm-margins": ["hotspot_active_gbps", "hotspot_q_std_kb", "pause_sent", "drops_window"],
    "ecm-unit": ["hotspot_active_gbps", "hotspot_q_std_kb", "hotspot_q_max_kb", "pause_sent", "drops_window"],
}
# Axis labels and table headings, with units.
LABELS = {
    "cm_messages_per_s": "congestion messages (1/s)", "limiters_created": "rate limiters created",
    "total_throughput_gbps": "total throughput (Gb/s)", "bandwidth_loss_gbps": "bandwidth loss (Gb/s)",
    "hotspot_throughput_gbps": "hotspot throughput (Gb/s)", "hotspot_active_gbps": "hotspot throughput while the flows run (Gb/s)",
    "flow_throughput_cov": "per-flow throughput std-dev ÷ mean", "false_positives": "false positives",
    "pause_sent": "PAUSE frames sent", "paused_share_max": "longest pause of any port ÷ window",
    "fb_hat_mean": "QCN-FbHat: RPs' saved F̂b at the end (QntzFb)", "hotspot_q_mean_kb": "hotspot queue mean (kB)",
    "hotspot_q_std_kb": "hotspot queue std-dev (kB)", "hotspot_q_max_kb": "hotspot queue max (kB)",
    "drops_window": "frames dropped in the window", "switch_throughput_mean_gbps": "mean inter-switch throughput (Gb/s)",
    "switch_throughput_std_gbps": "inter-switch throughput std-dev (Gb/s)",
    "switch2_throughput_gbps": "SW2→SW3 throughput (Gb/s)", "positive_feedback": "positive feedback messages",
    "cpid_changes_per_flow_s": "CPID changes per flow (1/s)", "cpid_throughput_rho": "Spearman ρ (CPID changes, throughput)",
    "cpid_top_bottom_ratio": "throughput, most ÷ least CPID changes", "reaction_ms": "reaction time (ms)",
    "reaction_censored": "on-phases without the rate halved (censored)",
}


def table(df: pd.DataFrame, scenario: str, metric: str) -> pd.DataFrame:
    """Mean over seeds: rows = grid values, columns = variants."""
    d = df[(df.scenario == scenario) & (df.metric == metric)]
    if d.empty:
        return pd.DataFrame()
    t = d.groupby(["point", "variant"], sort=False)["value"].mean().unstack("variant")
    t.index.name = d["param"].iloc[0]
    return t[[v for v in d["variant"].unique()]]


def values(df: pd.DataFrame, scenario: str, metric: str, variant: str, point=None) -> list[float]:
    """The metric's values over seeds (every grid point pooled unless `point` is given; a list of
    points pools those)."""
    d = df[(df.scenario == scenario) & (df.metric == metric) & (df.variant == variant)]
    if point is not None:
        pts = [str(p) for p in (point if isinstance(point, (list, tuple)) else [point])]
        d = d[d.point.isin(pts)]
    return d["value"].tolist()
