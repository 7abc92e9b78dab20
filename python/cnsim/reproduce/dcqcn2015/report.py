"""The report of `dcqcn-fixed-point`: the checks, the fluid model's fixed point per N beside cnsim's
numbers (with the bottleneck's utilisation), how far q* moves with each reading the papers leave
open, the packet queue's distribution against the model's solved at the measured loop delay, a
figure of queue and rates over time beside the fluid trajectory, and the choices where the papers
are silent."""

from __future__ import annotations

import statistics
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np

from .. import compare, prose
from ..paper import Report, Runs, scenario_file
from . import claims, fluid
from .experiment import DIR, FLOWS, QUICK

CHOICES = [
    "Topology: N senders and one receiver on one switch (CoNEXT 2016 §3, 'Model validation'); 40 Gb/s "
    "links with 1-µs delay, so the loop delay without a queue is a few µs — the papers' stable case.",
    "Packets of 1000 B in the model and the scenario (the authors' ns-3 payload; the papers do not say). The "
    "model's C is the capacity these frames get, 40 Gb/s × 1000/1020 = 39.2 Gb/s (20 B of preamble and gap "
    "per frame on the wire), the unit cnsim's rates count.",
    "PFC on with XOFF/XON 400/380 frames, far above Kmax, so that DCQCN acts before PFC as the model assumes.",
    "Warm-up 100 ms of 200 ms: about 7 time constants τ'/g of α.",
    "Tolerances: the largest move of the model's value under one of the papers' open readings (T, B, C), at "
    "least one frame for the queue (claims.py); the papers state their model-vs-simulation agreement only in "
    "figures and words.",
    "The NP counts CNPs per 50-µs window in the claims' runs, as the fluid model does (one CNP per interval "
    "that holds a mark); the engine's default answers a mark when no CNP went out in the last 50 µs (§3.2's "
    "wording). Both are run; the project findings compare them.",
    "The loop delay of the packet system: four 1-µs link delays and two data-frame serialisations, plus the "
    "queueing time of the mean queue (marks are made at enqueue, so a marked frame waits out the queue before "
    "its CNP can be sent); the fluid model is integrated at that delay rounded to whole µs (1-µs steps).",
]
DT_S = 1e-6


def _scenario(n: int) -> dict:
    return tomllib.loads(scenario_file(f"{DIR}/fixed-point-n{n}.toml").read_text(encoding="utf-8"))


def _seconds(text: str) -> float:
    units = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}
    for u, f in units.items():
        if text.endswith(u):
            return float(text[: -len(u)]) * f
    raise ValueError(f"not a duration: {text!r}")


def base_delay_s(n: int) -> float:
    """The loop delay with an empty queue: S→SW→R and the CNP's R→SW→S (four link delays) and the data
    frame's serialisation at S and at SW (the CNP's own serialisation neglected)."""
    doc = _scenario(n)
    link = doc["defaults"]["link"]
    wire = (claims.FRAME_B + claims.OVERHEAD_B) * 8 / claims.LINK_BPS
    return 4 * _seconds(link["delay"]) + 2 * wire


def loop_delay_s(runs: Runs, n: int) -> float | None:
    """The measured loop delay: the base delay plus the mean queue's queueing time (mean over seeds)."""
    q = runs.values("q_mean_bytes", n=n, pacing="window")
    if not q:
        return None
    return base_delay_s(n) + statistics.fmean(q) * 8 / claims.C_FRAMES_BPS


def window(runs: Runs) -> tuple[float, float]:
    """(duration, measure_from) of the runs, s: the scenarios' own, or --quick's."""
    sim = {**_scenario(FLOWS[0])["simulation"]}
    if runs.quick:
        sim.update({k.removeprefix("simulation."): v for k, v in QUICK.items()})
    return _seconds(sim["duration"]), _seconds(sim["measure_from"])


def fluid_at(n: int, delay_s: float, duration: float, measure_from_s: float) -> dict:
    """The fluid model integrated from line rate at `delay_s` (rounded to whole steps) over `duration`:
    its trajectory and the queue's mean and spread after the warm-up."""
    k = max(1, round(delay_s / DT_S))
    P = replace(claims.PINNED, tau_star_s=k * DT_S)
    tr = fluid.integrate(n, P, duration_s=duration, dt_s=DT_S, every=100)
    after = tr["t"] >= measure_from_s
    q = tr["q_bytes"][after] / 1e3
    return {"traj": tr, "delay_us": k * DT_S * 1e6, "q_mean_kb": float(q.mean()), "q_std_kb": float(q.std()),
            "rc_mean_gbps": float(tr["rc_bps"][after].mean() / 1e9)}


def _iv(runs: Runs, metric: str, n: int, pacing: str = "window", scale: float = 1.0) -> str:
    return compare.interval([v * scale for v in runs.values(metric, n=n, pacing=pacing)]).show()


def report(runs: Runs) -> Report:
    duration, measure_from = window(runs)
    models = {}
    for n in FLOWS:
        d = loop_delay_s(runs, n)
        if d is not None:
            models[n] = fluid_at(n, d, duration, measure_from)
    lines = ["## The fluid model's fixed point and cnsim", "",
             "The model's parameters are pinned to [DCQCN15]'s values with C = 39.2 Gb/s of 1000-B frames (claims.py). "
             "Utilisation is the share of the measured time the bottleneck is sending; at the fixed point it never "
             "idles (N·RC* = C with a standing queue).", "",
             "| N | q* (KB) | p* | p* (cube-root form) | α* | RC* (Gb/s) | RT* (Gb/s) | cnsim queue (KB), per window | "
             "cnsim utilisation (%) | cnsim rate min / max (Gb/s) | cnsim queue (KB), since last CNP |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n in FLOWS:
        fp = claims.model(n)
        lines.append(f"| {n} | {compare.num(fp['q_bytes'] / 1e3)}{' (at Kmax)' if fp['on_kmax_step'] else ''} | "
                     f"{compare.num(fp['p'])} | {compare.num(fp['p_approx'])} | {compare.num(fp['alpha'])} | "
                     f"{compare.num(fp['rc_bps'] / 1e9)} | {compare.num(fp['rt_bps'] / 1e9)} | "
                     f"{_iv(runs, 'q_mean_bytes', n, scale=1e-3)} | {_iv(runs, 'util_pct', n)} | "
                     f"{_iv(runs, 'rate_min_gbps', n)} / {_iv(runs, 'rate_max_gbps', n)} | "
                     f"{_iv(runs, 'q_mean_bytes', n, 'since-last', 1e-3)} |")
    lines += [""] + readings() + distribution(runs, models) + findings(runs, models) + draw(runs, models)
    checks = claims.checks(runs) + claims.project_findings(runs)
    return Report(checks, lines, CHOICES)


def readings() -> list[str]:
    """How far q* moves with each reading the papers leave open (the claims' tolerances)."""
    names = list(claims.READINGS) + [claims.BITS]
    lines = ["## How far q* moves with each open reading", "",
             "q* (KB) with the pinned parameters and with one reading changed at a time; the claims' tolerance is "
             "the largest move of the first three, at least one frame.", "",
             "| N | pinned | " + " | ".join(names) + " | tolerance (KB) |", "|---" * (len(names) + 3) + "|"]
    for n in FLOWS:
        cells = [compare.num(claims.model(n, r)["q_bytes"] / 1e3) for r in names]
        lines.append(f"| {n} | {compare.num(claims.model(n)['q_bytes'] / 1e3)} | " + " | ".join(cells)
                     + f" | {compare.num(claims.q_tol_kb(n))} |")
    return lines + [""]


def distribution(runs: Runs, models: dict) -> list[str]:
    """The packet queue's mean and spread against the fluid model's at the measured loop delay."""
    lines = ["## The queue's distribution against the model at the measured loop delay", "",
             "cnsim: the time-average queue and its time-weighted standard deviation after the warm-up, per run "
             "(mean ± interval over seeds). Model: the fluid model integrated from line rate at the measured loop "
             "delay, mean and standard deviation of its queue after the same warm-up.", "",
             "| N | loop delay, base / measured (µs) | cnsim queue mean (KB) | cnsim queue std-dev (KB) | model at the "
             "measured delay: mean / std-dev (KB) | model RC (Gb/s) | q* (KB) |", "|---|---|---|---|---|---|---|"]
    for n in FLOWS:
        m = models.get(n)
        if m is None:
            continue
        lines.append(f"| {n} | {compare.num(base_delay_s(n) * 1e6)} / {compare.num(m['delay_us'])} | "
                     f"{_iv(runs, 'q_mean_bytes', n, scale=1e-3)} | {_iv(runs, 'q_std_bytes', n, scale=1e-3)} | "
                     f"{compare.num(m['q_mean_kb'])} / {compare.num(m['q_std_kb'])} | {compare.num(m['rc_mean_gbps'])} | "
                     f"{compare.num(claims.model(n)['q_bytes'] / 1e3)} |")
    return lines + [""]


def _trend(runs: Runs, a: int, b: int) -> str:
    """Whether the default pacing's queue is above the windowed one at `a` and `b` alike, or not."""
    def side(n: int) -> str:
        since, window = (statistics.fmean(runs.values("q_mean_bytes", n=n, pacing=p)) for p in ("since-last", "window"))
        return "above" if since > window else "below"

    sa, sb = side(a), side(b)
    return f"is {sa} the windowed one at both" if sa == sb else f"goes from {sa} the windowed one to {sb}"


def _settles(m: dict) -> str:
    return "settles" if m["q_std_kb"] < claims.QUEUE_FLOOR_KB else "swings"


def findings(runs: Runs, models: dict) -> list[str]:
    """The differences from the model, explained as far as these runs explain them."""
    par = claims.PINNED
    big = max(FLOWS)
    fp = claims.model(big)
    if not runs.values("q_mean_bytes", n=big, pacing="window") or big not in models:
        return []
    m = models[big]
    util = runs.values("util_pct", n=big, pacing="window")
    spread = [n for n in FLOWS if n in models]
    return ["## Differences from the model", "",
            "- " + prose.text(
                "With {n} flows the model's balance needs a marking probability p* = {p}, above Pmax = {pmax}: no "
                "queue on the marking ramp gives it, so the model's fixed point sits on the step at Kmax = {kmax} KB, "
                "where the marking probability jumps to one. cnsim's queue stays on the ramp, at {q} KB, and the "
                "bottleneck is busy {util} % of the time: the flows' rates ({lo} to {hi} Gb/s against C/N = {fair} "
                "Gb/s) do not add up to C, so the packet system is not at a fixed point. Solved at the measured loop "
                "delay ({tau} µs: marks are made at enqueue, so the queueing time is part of the loop) the fluid "
                "model {settles} too, its queue at {mq} ± {sq} KB (mean ± std-dev) against cnsim's {pq} KB with a "
                "std-dev of {ps} KB.",
                n=str(big), p=compare.num(fp["p"]), pmax=compare.num(par.pmax), kmax=compare.num(par.kmax_bytes / 1e3),
                q=_iv(runs, "q_mean_bytes", big, scale=1e-3), util=compare.interval(util).show(),
                lo=_iv(runs, "rate_min_gbps", big), hi=_iv(runs, "rate_max_gbps", big),
                fair=compare.num(fp["rc_bps"] / 1e9), tau=compare.num(m["delay_us"]), settles=_settles(m),
                mq=compare.num(m["q_mean_kb"]), sq=compare.num(m["q_std_kb"]),
                pq=_iv(runs, "q_mean_bytes", big, scale=1e-3), ps=_iv(runs, "q_std_bytes", big, scale=1e-3)),
            "- " + prose.text(
                "Below {big} flows, at the measured loop delay the model {which}; cnsim's queue has a std-dev of "
                "{sds} KB (N = {ns}; the table above), so the fixed point describes its mean, not its spread.",
                big=str(big), which=", ".join(f"{_settles(models[n])} at N = {n}" for n in spread if n != big),
                sds=", ".join(_iv(runs, "q_std_bytes", n, scale=1e-3) for n in spread if n != big),
                ns=", ".join(str(n) for n in spread if n != big)),
            "- " + prose.text(
                "The NP's pacing moves the balance point. The engine's default answers a mark only when no CNP "
                "went out in the last {tau} µs; the fluid model counts one CNP per window of {tau} µs that holds a "
                "mark, so the claims above run with windowed pacing. With {na} flows the default's queue is {sa} KB "
                "against {wa} KB per window, with {nb} flows {sb} KB against {wb} KB (every N in the table above; "
                "the project findings judge each). The two readings of the paper's NP are not interchangeable, "
                "and between these two N the default's queue {trend}; these runs do not say why.",
                tau=compare.num(par.tau_s * 1e6), na=str(FLOWS[1]), sa=_iv(runs, "q_mean_bytes", FLOWS[1], "since-last", 1e-3),
                wa=_iv(runs, "q_mean_bytes", FLOWS[1], scale=1e-3), nb=str(FLOWS[2]),
                sb=_iv(runs, "q_mean_bytes", FLOWS[2], "since-last", 1e-3),
                wb=_iv(runs, "q_mean_bytes", FLOWS[2], scale=1e-3), trend=_trend(runs, FLOWS[1], FLOWS[2])),
            ""]


def draw(runs: Runs, models: dict) -> list[str]:
    """One row per N: the bottleneck queue over time (seed 1) beside the fluid trajectory at the measured
    loop delay, the RPs' current rates beside the model's RC and C/N, and the queue's distribution after
    the warm-up."""
    rows = [(n, runs.extra(seed=1, n=n, pacing="window"), models.get(n)) for n in FLOWS]
    rows = [r for r in rows if r[1] and r[2]]
    if not rows:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(rows), 3, figsize=(13, 2.6 * len(rows)), squeeze=False,
                             gridspec_kw={"width_ratios": [3, 3, 2]})
    for (n, x, m), (aq, ar, ah) in zip(rows, axes):
        t, q = (np.asarray(v, dtype=float) for v in x["q_frames"])
        qkb = q * claims.FRAME_B / 1e3
        tr = m["traj"]
        aq.plot(t * 1e3, qkb, lw=0.5, label="cnsim (seed 1)")
        aq.plot(tr["t"] * 1e3, tr["q_bytes"] / 1e3, lw=1.0, label=f"fluid, delay {compare.num(m['delay_us'])} µs")
        aq.axhline(claims.model(n)["q_bytes"] / 1e3, color="k", ls="--", lw=0.8, label="q*")
        aq.set_ylim(0, 1.3 * claims.PINNED.kmax_bytes / 1e3)   # the start-up burst is clipped
        aq.set_ylabel(f"N = {n}\nqueue (KB)")
        aq.legend(fontsize=6, loc="upper right")
        for name, (tt, r) in sorted(x["rc_bps"].items()):
            ar.plot(np.asarray(tt) * 1e3, np.asarray(r) / 1e9, lw=0.4)
        ar.plot(tr["t"] * 1e3, tr["rc_bps"] / 1e9, color="k", lw=1.0, label="fluid RC")
        ar.axhline(claims.model(n)["rc_bps"] / 1e9, color="k", ls="--", lw=0.8, label="C/N")
        ar.set_ylim(0, min(claims.C_FRAMES_BPS / 1e9, 4 * claims.model(n)["rc_bps"] / 1e9))
        ar.set_ylabel("RP rate (Gb/s)")
        ar.legend(fontsize=6, loc="upper right")
        after = t >= x["measure_from_s"]
        fa = tr["t"] >= x["measure_from_s"]
        bins = np.linspace(0, max(float(qkb[after].max(initial=1.0)), float((tr["q_bytes"][fa] / 1e3).max(initial=1.0))), 40)
        ah.hist(qkb[after], bins=bins, density=True, alpha=0.6, label="cnsim")
        ah.hist(tr["q_bytes"][fa] / 1e3, bins=bins, density=True, alpha=0.6, label="fluid")
        ah.set_xlabel("queue after the warm-up (KB)")
        ah.legend(fontsize=6)
    for a in axes[-1][:2]:
        a.set_xlabel("time (ms)")
    fig.tight_layout()
    path = Path(runs.out) / "figures" / "trajectories.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return ["## Queue and rates over time, and the queue's distribution (seed 1)", "",
            "Per N: the bottleneck queue beside the fluid model's trajectory at the measured loop delay (left), every "
            "RP's current rate beside the model's RC and C/N (middle), the queue's distribution after the warm-up "
            "(right).", "", f"![trajectories](figures/{path.name})", ""]

