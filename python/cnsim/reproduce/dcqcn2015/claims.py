"""The claims of `dcqcn-fixed-point`: cnsim's packet-level DCQCN against the fluid model's fixed
point (fluid.py) for N flows — the time-average bottleneck queue against q*(N), every flow's rate
against RC* = C/N, and q* growing with N — with the NP counting CNPs per window as the model does;
and, as project findings, how the engine's default NP pacing moves the queue. Here the fluid
model's fixed point is "the paper's" value; each claim is calibrated on it (supported) and on a
counter-datum (not supported).

The parameters, pinned. Zhu et al. SIGCOMM 2015 [DCQCN15] Table 2's values as fluid.Params states
them (Kmin 5 KB, Kmax 200 KB, Pmax 1 %, g 1/256, τ 50 µs, τ' 55 µs, T 55 µs, B 10 MB, R_AI 40 Mb/s,
F 5), the exponents counting packets of 1000 B (the scenario's frames), and C the capacity the
frames actually get: 40 Gb/s carries 1000-B frames plus 20 B of preamble and gap each, so 39.2 Gb/s of
frame bits (4.9 M frames/s) — what cnsim's rates count.

The tolerance. Neither paper states a number for the model's agreement with packets (SIGCOMM 2015
§5 shows it in figures; CoNEXT 2016 §3 says "good agreement" beside a figure of rates). What is
known is how far the model's own value moves with the readings the papers leave open (`READINGS`:
T = 55 or 60 µs, B = 10 MB or 300 KB, C = 39.2 or 40 Gb/s): the paper's q* is stated no finer than
that. Each N's tolerance is the largest move of q* (of RC* for the rates) under any one of these
readings, and at least one frame (1 KB) for the queue, whose packet system counts whole frames.
The reading "the exponents count bits" (the authors' companion code) is shown but not used: it puts
q* at Kmin, 5.0 KB, for every N, which contradicts the papers' statement that q* depends on N.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from .. import compare
from ..calibration import stated
from ..paper import Runs
from ..verdicts import Calibration, Check, PaperValue, claim
from . import fluid
from .experiment import FLOWS

SOURCE = "Zhu et al. 2016 (CoNEXT) §3, fixed point of the DCQCN fluid model"
LINK_BPS = 40e9
FRAME_B, OVERHEAD_B = 1000.0, 20.0
C_FRAMES_BPS = LINK_BPS * FRAME_B / (FRAME_B + OVERHEAD_B)   # 39.2 Gb/s of frame bits
QUEUE_FLOOR_KB = FRAME_B / 1e3                                # one frame
PINNED = fluid.Params(link_bps=C_FRAMES_BPS, packet_bytes=FRAME_B)
# The readings the papers leave open, each against the pinned parameters.
READINGS = {
    "T = 60 µs (authors' ns-3 RP timer)": {"timer_s": 60e-6},
    "B = 300 KB (byte counter)": {"byte_counter_bytes": 300e3},
    "C = 40 Gb/s (the wire rate, not the frames')": {"link_bps": LINK_BPS},
}
BITS = "exponents count bits (not used: q* at Kmin for every N)"
TOL = compare.REL_TOL   # the project findings' minimum effect only (not a claim's tolerance)


@lru_cache(maxsize=None)
def model(n: int, reading: str | None = None) -> dict:
    """The fluid fixed point for N flows with the pinned parameters, or with one open `reading`."""
    if reading is None:
        return fluid.fixed_point(n, PINNED)
    if reading == BITS:
        return fluid.fixed_point(n, replace(PINNED, packet_bytes=1 / 8))
    return fluid.fixed_point(n, replace(PINNED, **READINGS[reading]))


def q_tol_kb(n: int) -> float:
    """The largest move of q*(N) under any one open reading, at least one frame (KB)."""
    q = model(n)["q_bytes"]
    return max(QUEUE_FLOOR_KB, *(abs(model(n, r)["q_bytes"] - q) / 1e3 for r in READINGS))


def rate_tol_gbps(n: int) -> float:
    """The largest move of RC*(N) = C/N under any one open reading (Gb/s)."""
    rc = model(n)["rc_bps"]
    return max(abs(model(n, r)["rc_bps"] - rc) / 1e9 for r in READINGS)


def _kb(values) -> list[float]:
    return [v / 1e3 for v in values]


def checks(runs: Runs) -> list[Check]:
    out = []
    for n in FLOWS:
        fp = model(n)
        q, tol = fp["q_bytes"] / 1e3, q_tol_kb(n)
        step = " (p* > Pmax: on the step at Kmax)" if fp["on_kmax_step"] else ""
        out.append(claim(
            f"n{n}.queue-at-fixed-point", f"the queue settles at the fixed point q*, which depends on N (N = {n})",
            SOURCE, f"time-average queue of SW>R after the warm-up, KB, within q* ± {compare.num(tol)} KB (the largest "
            "move of q* under one of the papers' open readings, at least one frame)",
            lambda q_kb, _q=q, _t=tol: compare.against(q_kb, _q, _t),
            {"q_kb": _kb(runs.values("q_mean_bytes", n=n, pacing="window"))},
            Calibration({"q_kb": stated(q)}, {"q_kb": stated(q + 2 * tol)},
                        f"the model's q*({n}) = {compare.num(q)} KB; counter-datum q* + twice the tolerance"),
            paper=PaperValue(round(q, 2), "KB", SOURCE,
                             derived=f"q* = Kmin + p*/Pmax·(Kmax − Kmin), p* = {fp['p']:.3g}{step}, C = 39.2 Gb/s")))
        fair, rtol = fp["rc_bps"] / 1e9, rate_tol_gbps(n)
        f = runs.frame
        names = sorted(set(f.loc[(f["metric"] == "rate_gbps") & (f["n"].astype(str) == str(n))
                                 & (f["pacing"] == "window"), "part"]))
        out.append(claim(
            f"n{n}.rate-fair-share", f"every flow's rate at the fixed point is RC* = C/N (N = {n})", SOURCE,
            f"each flow's mean rate after the warm-up, Gb/s, within C/N ± {compare.num(rtol)} Gb/s (C = 39.2 Gb/s of "
            "frame bits; the tolerance is C/N's move if C were the 40-Gb/s wire rate)",
            lambda rates, _r=fair, _t=rtol: compare.all_of([compare.against(x, _r, _t) for x in rates]),
            {"rates": [runs.values("rate_gbps", part=p, n=n, pacing="window") for p in names]},
            Calibration({"rates": [stated(fair, runs=("model", i)) for i in range(n)]},
                        {"rates": [stated(fair - 2 * rtol, runs=("model", i)) for i in range(n)]},
                        f"RC* = C/N = {compare.num(fair)} Gb/s for each of the {n} flows; counter-datum: every flow "
                        "twice the tolerance below it (the link not filled)"),
            paper=PaperValue(round(fair, 3), "Gb/s", SOURCE, derived="RC* = C/N, C = 39.2 Gb/s of 1000-B frames")))
    for lo, hi in zip(FLOWS, FLOWS[1:]):
        qlo, qhi = model(lo)["q_bytes"] / 1e3, model(hi)["q_bytes"] / 1e3
        effect = max(q_tol_kb(lo), q_tol_kb(hi))
        out.append(claim(
            f"n{lo}-n{hi}.queue-grows-with-n", f"q* depends on the number of flows N: larger with {hi} flows than "
            f"with {lo}", SOURCE,
            f"Welch, minimum effect {compare.num(effect)} KB (the larger of the two q*'s tolerances: a smaller "
            "difference is within what the open readings move q* by)",
            lambda q_hi, q_lo, _e=effect: compare.exceeds(q_hi, q_lo, _e),
            {"q_hi": _kb(runs.values("q_mean_bytes", n=hi, pacing="window")),
             "q_lo": _kb(runs.values("q_mean_bytes", n=lo, pacing="window"))},
            Calibration({"q_hi": stated(qhi), "q_lo": stated(qlo)}, {"q_hi": stated(qlo), "q_lo": stated(qhi)},
                        f"the model's q*({hi}) = {compare.num(qhi)} KB against q*({lo}) = {compare.num(qlo)} KB; "
                        "counter-datum: the two swapped")))
    return out


def project_findings(runs: Runs) -> list[Check]:
    """cnsim's own observations: the NP's pacing against the model's (not claims of the papers)."""
    out = []
    for n in FLOWS:
        window = runs.by_seed("q_mean_bytes", n=n, pacing="window")
        since = runs.by_seed("q_mean_bytes", n=n, pacing="since-last")
        effect = TOL * model(n)["q_bytes"]
        out.append(Check(
            f"n{n}.since-last-pacing-raises-the-queue",
            f"With one CNP when none went out in the last 50 µs (the engine's default) the queue sits higher than "
            f"with one CNP per 50-µs window (N = {n}; paired by seed; a hypothesis tested, not a claim of the papers)",
            "project finding",
            compare.exceeds({s: v / 1e3 for s, v in since.items()}, {s: v / 1e3 for s, v in window.items()}, effect / 1e3,
                            paired=True),
            f"paired difference in KB, minimum effect {TOL:.0%} of q*", kind="project"))
    return out
