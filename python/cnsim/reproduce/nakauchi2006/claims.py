"""The claims of Nakauchi & Kobayashi 2006 §3.3 (Figs. 4–9), each decided by compare.py's rule over
every seed, and the project's own findings beside them."""

from __future__ import annotations

import math

from .. import compare
from ..paper import Runs
from ..verdicts import Check, PaperValue
from .experiment import CASE
from .measure import TOP_LEVEL

# "Fair" for a receiver that can only take channels a factor 2 apart: within one subscription level
# of the fair share (|log₂(rate ÷ fair share)| ≤ 1) — cnsim's reading, the paper gives no number.
ONE_LEVEL = 1.0
# "About 50 seconds" and "about 10 seconds" (§3.3) read as the stated value ± 50 %.
ABOUT = 0.5
# "Quickly" (§3.3, Fig. 9): within 10 of EMcast's 0.2-s Intervals (§3.2) — cnsim's reading.
QUICK_S = 2.0
SECTION = "Nakauchi & Kobayashi 2006 §3.3"


def _log2(values: list[float]) -> list[float]:
    return [math.log2(v) for v in values if v and v > 0]


def checks(runs: Runs) -> list[Check]:
    v = lambda case, metric: runs.values(metric, case=case)  # noqa: E731
    out = []
    for k in ("fig4", "fig5"):
        fig = CASE[k].figure
        out.append(Check(
            f"{k}.emcast-fair-share", "EMcast can gradually decrease the subscription level to fairly share the "
            "bottleneck link with TCP flows (EMcast's throughput against the fair share)", f"{SECTION}, {fig}",
            compare.against(_log2(v(k, "emcast_over_fair")), 0.0, ONE_LEVEL),
            "log₂(EMcast ÷ fair share) within ±1 (one subscription level: channels are a factor 2 apart)"))
        out.append(Check(
            f"{k}.emcast-like-tcp", "… fairly share the bottleneck link with TCP flows (EMcast against a TCP "
            "flow's throughput)", f"{SECTION}, {fig}",
            compare.against(_log2(v(k, "emcast_over_tcp")), 0.0, ONE_LEVEL),
            "log₂(EMcast ÷ mean TCP flow) within ±1 (one subscription level)"))
        out.append(Check(
            f"{k}.emcast-gradual", "EMcast can gradually decrease the subscription level", f"{SECTION}, {fig}",
            compare.by_construction("EMcast drops at most one level per Interval (Fig. 2's algorithm, "
                                    "protocols/emcast/), so any decrease is gradual",
                                    f"level decreases per run {compare.interval(v(k, 'level_decreases')).show()}"),
            "–"))
    for k in ("fig6", "fig7"):
        fig = CASE[k].figure
        out.append(Check(
            f"{k}.emcast-fair-share", "EMcast can approximately achieve intra-session fairness even when competing "
            "TCP flows (here: EMcast's throughput against its fair share of the bottleneck beside them)",
            f"{SECTION}, {fig}", compare.against(_log2(v(k, "emcast_over_fair")), 0.0, ONE_LEVEL),
            "log₂(EMcast ÷ fair share) within ±1 (one subscription level: channels are a factor 2 apart)"))
        share = compare.interval(v(k, "share_at_modal"))
        out.append(Check(
            f"{k}.receivers-same-group", "almost all the receivers eventually join the same multicast group",
            f"{SECTION}, {CASE[k].figure}",
            compare.by_construction("the ten receivers sit behind one router port of the reconstructed topology, "
                                    "so they see the same SIRENS values and losses and decide alike",
                                    f"share on the most common level {share.show()}"), "–"))
    out.append(Check(
        "fig8.rlm-slow-to-optimal", "RLM takes about 50 seconds to reach optimal subscription level",
        f"{SECTION}, Fig. 8", compare.against(v("fig8", "t_level9_projected_s"), 50.0, ABOUT * 50.0),
        f"time to level {TOP_LEVEL} (projected at the pace of the climb when the burst cuts it) within 50 s ± 50 %",
        paper=PaperValue(50.0, "s", f"{SECTION} (\"about 50 seconds\")")))
    out.append(Check(
        "fig8.rlm-drops-for-10s", "the RLM receiver suffers from the significant packet drops for about 10 seconds",
        f"{SECTION}, Fig. 8", compare.against(v("fig8", "lossy_s_in_burst"), 10.0, ABOUT * 10.0),
        "seconds with more than 10 % loss from the burst's start to 10 s after its end, within 10 s ± 50 %",
        paper=PaperValue(10.0, "s", f"{SECTION} (\"about 10 seconds\")")))
    quick = [("t_reach_level9_s", "reaches the top level from the start"), ("t_adapt_s", "falls to the level that "
             "fits beside the CBR flow after it starts"), ("t_recover_s", "regains its level after the CBR flow ends")]
    for metric, what in quick:
        out.append(Check(
            f"fig9.emcast-quick.{metric.removeprefix('t_').removesuffix('_s').replace('_', '-')}",
            f"EMcast can adapt its subscription level quickly in response to network conditions ({what})",
            f"{SECTION}, Fig. 9", compare.beyond(v("fig9", metric), QUICK_S, direction=-1),
            f"the interval below {QUICK_S:g} s (10 EMcast Intervals of 0.2 s)"))
    out.append(Check(
        "fig8-9.emcast-faster-than-rlm", "EMcast adapts its subscription level quickly, RLM is slow (time to the top "
        "level, RLM minus EMcast)", f"{SECTION}, Figs. 8–9",
        compare.exceeds(v("fig8", "t_level9_projected_s"), v("fig9", "t_reach_level9_s"), 10 * QUICK_S),
        f"Welch, minimum effect {10 * QUICK_S:g} s"))
    return out
