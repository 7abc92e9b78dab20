"""The report of `dcqcn-fixed-point`: the checks, the fluid model's fixed point per N beside cnsim's
numbers, and the choices where the papers are silent."""

from __future__ import annotations

from .. import compare
from ..paper import Report, Runs
from . import claims
from .experiment import FLOWS

CHOICES = [
    "Topology: N senders and one receiver on one switch (CoNEXT 2016 §3, 'Model validation'); 40 Gb/s "
    "links (the model's C) with 1-µs delay, so the control loop delay is a few µs — the papers' stable case.",
    "Packets of 1000 B in the model and the scenario (the authors' ns-3 payload; the papers do not say).",
    "PFC on with XOFF/XON 400/380 frames, far above Kmax, so that DCQCN acts before PFC as the model assumes.",
    "Warm-up 100 ms of 200 ms: about 7 time constants τ'/g of α; the fluid model settles well within it "
    "at a 4-µs delay (tests/test_dcqcn_fluid.py).",
    "Tolerance ±20 % (the framework's default): the papers state their model-vs-simulation agreement only "
    "in figures and words (claims.py).",
]


def report(runs: Runs) -> Report:
    lines = ["## The fluid model's fixed point and cnsim", "",
             "| N | q* (KB) | p* | p* (cube-root form) | α* | RC* (Gb/s) | RT* (Gb/s) | cnsim queue (KB) | "
             "cnsim rate min / max (Gb/s) |", "|---|---|---|---|---|---|---|---|---|"]
    for n in FLOWS:
        fp = claims.model(n)
        q = compare.interval([v / 1e3 for v in runs.values("q_mean_bytes", n=n)]).show()
        lo = compare.interval(runs.values("rate_min_gbps", n=n)).show()
        hi = compare.interval(runs.values("rate_max_gbps", n=n)).show()
        lines.append(f"| {n} | {compare.num(fp['q_bytes'] / 1e3)}{' (at Kmax)' if fp['on_kmax_step'] else ''} | "
                     f"{compare.num(fp['p'])} | {compare.num(fp['p_approx'])} | {compare.num(fp['alpha'])} | "
                     f"{compare.num(fp['rc_bps'] / 1e9)} | {compare.num(fp['rt_bps'] / 1e9)} | {q} | {lo} / {hi} |")
    return Report(claims.checks(runs), lines + [""], CHOICES)
