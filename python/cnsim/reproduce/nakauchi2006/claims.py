"""The claims of Nakauchi & Kobayashi 2006 §3.3 (Figs. 4–9), each decided by compare.py's rule over
every seed and calibrated both ways (the paper's own data, a counter-datum; calibration.py).

Where the tolerances come from. Seed 003's text keeps only the captions of Figs. 4–9 (no axis, tick
or plotted value survives), so no figure can be read and no figure resolution exists to take a band
from. What the paper does state:

- the channel ladder, 100·2^(i−1) kb/s (§3.3): EMcast can hold only these rates, a factor 2 apart.
  The finest statement "fair" can make of such a receiver is "on the channel nearest the fair
  share", i.e. within half a level, |log₂(rate ÷ fair)| ≤ 0.5 (a factor √2). A factor-2 band
  (±1 level) would call EMcast at 1.9× a TCP flow fair.
- RLM's times in round tens of seconds ("about 50", "about 10 seconds", §3.3): ± half that step, 5 s.
- RLM's join timer, 3.0 s (§3.3): RLM cannot add a layer sooner; "quickly", said of EMcast against
  RLM, is read as faster than one RLM join timer.
- "almost all the receivers eventually join the same multicast group" (Figs. 6–7), of ten receivers:
  at least 9 of 10 on one level.
"""

from __future__ import annotations

import math

from .. import compare
from ..calibration import stated
from ..compare import INCONCLUSIVE, NOT_SUPPORTED, SUPPORTED, Verdict
from ..paper import Runs
from ..verdicts import Calibration, Check, PaperValue, claim
from .experiment import CASE
from .measure import TOP_LEVEL

# "Fair" for a receiver on a ladder of channels a factor 2 apart: on the channel nearest the fair
# share, within half a level (module docstring).
HALF_LEVEL = 0.5
# "About 50 seconds", "about 10 seconds": stated in round tens of seconds → ± half a step.
ABOUT_S = 5.0
# RLM's join timer (§3.3): "quickly" is faster than RLM's first possible step.
JOIN_TIMER_S = 3.0
EMCAST_INTERVAL_S = 0.2                  # §3.2: "We set the value of Interval to 0.2 s."
# "Almost all" of ten receivers: at least 9 of 10. The share on the modal level moves in steps of 0.1
# per run; the threshold sits between 8 and 9 of 10.
ALMOST_ALL = 0.85
RECEIVERS = 10


def _jain(shares: list[float]) -> float:
    return sum(shares) ** 2 / (len(shares) * sum(x * x for x in shares))


# Jain's index of the receivers' throughputs when 8 of 10 sit on one channel and 2 on the next one up:
# not "almost all" on one group. "Approximately ... intra-session fairness" must lie above it.
JAIN_NOT_ALMOST_ALL = _jain([1.0] * 8 + [2.0] * 2)            # 0.9
JAIN_ALMOST_ALL = _jain([1.0] * 9 + [2.0])                      # 0.931: 9 of 10, the tenth a level up
JAIN_COUNTER = _jain([1.0] * 7 + [2.0] * 3)                     # 0.889: 7 of 10
SECTION = "Nakauchi & Kobayashi 2006 §3.3"


def _log2(values) -> list[float]:
    return [math.log2(v) for v in values if v and v > 0]


def within_half_level(ratio) -> Verdict:
    """log₂(ratio) within ± half a subscription level of 0."""
    return compare.against(_log2(ratio), 0.0, HALF_LEVEL)


def censored(verdict: Verdict, times, runs) -> Verdict:
    """`verdict` on the measured times, aware of the runs in which the event never happened
    (censored at the run's end, which lies above every band and reference here): one such run and a
    verdict that would support → inconclusive; every run censored → not supported."""
    n_runs, n_times = len(runs), len(times)
    cens = n_runs - n_times
    if cens <= 0:
        return verdict
    note = f"; {cens} of {n_runs} runs never reached it (censored at the run's end)"
    if n_times == 0:
        return Verdict(NOT_SUPPORTED, verdict.evidence + note, verdict.intervals)
    state = INCONCLUSIVE if verdict.state == SUPPORTED else verdict.state
    return Verdict(state, verdict.evidence + note, verdict.intervals)


def about(paper_s: float):
    def decide(t, runs) -> Verdict:
        return censored(compare.against(t, paper_s, ABOUT_S), t, runs)
    return decide


def quick(t, runs) -> Verdict:
    return censored(compare.beyond(t, JOIN_TIMER_S, direction=-1), t, runs)


def checks(runs: Runs) -> list[Check]:
    v = lambda case, metric: runs.values(metric, case=case)  # noqa: E731
    half = (f"log₂(EMcast ÷ {{}}) within ±{HALF_LEVEL:g}: on the channel nearest it (channels are a factor 2 apart, "
            "§3.3; the figures' axes are not in seed 003's text, so no finer resolution exists)")
    fair_cal = Calibration(
        {"ratio": stated(1.0)}, {"ratio": stated(2.0)},
        "words only ('fairly share'): EMcast at exactly its fair share; counter-datum: EMcast on the channel one "
        "level above it (2×)")
    tcp_cal = Calibration(
        {"ratio": stated(1.0)}, {"ratio": stated(1.9)},
        "words only ('fairly share … with TCP flows'): EMcast at a TCP flow's rate; counter-datum: EMcast at 1.9× "
        "a TCP flow")
    out = []
    for k in ("fig4", "fig5"):
        fig = CASE[k].figure
        out.append(claim(
            f"{k}.emcast-fair-share", "EMcast can gradually decrease the subscription level to fairly share the "
            "bottleneck link with TCP flows (EMcast's throughput against the fair share)", f"{SECTION}, {fig}",
            half.format("fair share"), within_half_level, {"ratio": v(k, "emcast_over_fair")}, fair_cal))
        out.append(claim(
            f"{k}.emcast-like-tcp", "… fairly share the bottleneck link with TCP flows (EMcast against a TCP "
            "flow's throughput)", f"{SECTION}, {fig}", half.format("mean TCP flow"), within_half_level,
            {"ratio": v(k, "emcast_over_tcp")}, tcp_cal))
        out.append(Check(
            f"{k}.emcast-gradual", "EMcast can gradually decrease the subscription level", f"{SECTION}, {fig}",
            compare.by_construction("EMcast drops at most one level per Interval (Fig. 2's algorithm, "
                                    "protocols/emcast/), so any decrease is gradual",
                                    f"level decreases per run {compare.interval(v(k, 'level_decreases')).show()}"),
            "–"))
    for k in ("fig6", "fig7"):
        fig = CASE[k].figure
        out.append(claim(
            f"{k}.emcast-fair-share", "EMcast can achieve … TCP-friendliness (§4; here in the ten-receiver case "
            f"of {fig}: EMcast's throughput against its fair share of the bottleneck)", f"{SECTION}, {fig}; §4",
            half.format("fair share"), within_half_level, {"ratio": v(k, "emcast_over_fair")}, fair_cal))
        out.append(claim(
            f"{k}.receivers-same-group", "almost all the receivers eventually join the same multicast group",
            f"{SECTION}, {fig}",
            f"share of the {RECEIVERS} receivers on the most common final level, interval above {ALMOST_ALL:g} "
            f"(\"almost all\": at least 9 of {RECEIVERS}; the share moves in steps of 0.1)",
            lambda share: compare.beyond(share, ALMOST_ALL), {"share": v(k, "share_at_modal")},
            Calibration({"share": stated(0.9)}, {"share": stated(0.7)},
                        "words only: 'almost all' of ten is at least 9 on one level (0.9); counter-datum: 7 of 10")))
        out.append(claim(
            f"{k}.intra-session-fairness", "EMcast can approximately achieve intra-session fairness even when "
            "competing TCP flows (the receivers of the session get alike throughput)", f"{SECTION}, {fig}",
            f"Jain's index of the {RECEIVERS} receivers' throughputs, interval above {JAIN_NOT_ALMOST_ALL:.3g} (8 of "
            "10 on one channel, 2 on the next: not 'almost all' on one group)",
            lambda jain: compare.beyond(jain, JAIN_NOT_ALMOST_ALL), {"jain": v(k, "jain_receivers")},
            Calibration({"jain": stated(JAIN_ALMOST_ALL)}, {"jain": stated(JAIN_COUNTER)},
                        f"words only: the least fair state 'almost all … the same group' allows, 9 of 10 on one "
                        f"channel and the tenth one level up (Jain {JAIN_ALMOST_ALL:.3f}); counter-datum: 7 of 10, "
                        f"3 one level up (Jain {JAIN_COUNTER:.3f})")))
    cbr8, cbr9 = v("fig8", "burst_fit_level"), v("fig9", "burst_fit_level")   # one value per run: the runs
    out.append(claim(
        "fig8.rlm-slow-to-optimal", "RLM takes about 50 seconds to reach optimal subscription level",
        f"{SECTION}, Fig. 8",
        f"measured time of RLM's first arrival at level {TOP_LEVEL} (the top that fits the 50 Mb/s bottleneck) "
        f"within 50 ± {ABOUT_S:g} s (the paper states its times in round tens of seconds); runs that never get there "
        "are counted as censored",
        about(50.0), {"t": v("fig8", "t_reach_level9_s"), "runs": cbr8},
        Calibration({"t": stated(50.0), "runs": stated(1.0)}, {"t": stated(60.0), "runs": stated(1.0)},
                    "the paper's 'about 50 seconds'; counter-datum 60 s, one of the paper's ten-second steps later"),
        paper=PaperValue(50.0, "s", f"{SECTION} (\"about 50 seconds\")")))
    out.append(claim(
        "fig8.rlm-drops-for-10s", "due to this slow response to the congestion, the RLM receiver suffers from the "
        "significant packet drops for about 10 seconds", f"{SECTION}, Fig. 8",
        f"seconds with more than 10 % loss from the burst's start to 10 s after its end, within 10 ± {ABOUT_S:g} s "
        "(round tens of seconds)",
        lambda secs: compare.against(secs, 10.0, ABOUT_S), {"secs": v("fig8", "lossy_s_in_burst")},
        Calibration({"secs": stated(10.0)}, {"secs": stated(20.0)},
                    "the paper's 'about 10 seconds'; counter-datum 20 s"),
        paper=PaperValue(10.0, "s", f"{SECTION} (\"about 10 seconds\")")))
    slow_quick = JOIN_TIMER_S - EMCAST_INTERVAL_S
    quick_cal = Calibration(
        {"t": stated(slow_quick), "runs": stated(1.0)}, {"t": stated(2 * JOIN_TIMER_S), "runs": stated(1.0)},
        f"words only ('quickly', against RLM): the slowest time still quicker than one RLM join timer, one EMcast "
        f"Interval less ({slow_quick:g} s); counter-datum two join timers ({2 * JOIN_TIMER_S:g} s), RLM's pace")
    for metric, what in [("t_reach_level9_s", "reaches the top level from the start"),
                         ("t_adapt_s", "falls to the level that fits beside the CBR flow after it starts"),
                         ("t_recover_s", "regains its level after the CBR flow ends")]:
        out.append(claim(
            f"fig9.emcast-quick.{metric.removeprefix('t_').removesuffix('_s').replace('_', '-')}",
            f"EMcast can adapt its subscription level quickly in response to network conditions ({what})",
            f"{SECTION}, Fig. 9",
            f"the interval below {JOIN_TIMER_S:g} s, RLM's join timer (§3.3): quicker than RLM's first possible step; "
            "runs that never get there are counted as censored",
            quick, {"t": v("fig9", metric), "runs": cbr9}, quick_cal))
    out.append(claim(
        "fig8-9.emcast-faster-than-rlm", "EMcast adapts its subscription level quickly, RLM is slow (measured time "
        f"to level {TOP_LEVEL} from the start, RLM minus EMcast)", f"{SECTION}, Figs. 8–9",
        f"Welch, minimum effect {2 * ABOUT_S:g} s (the ten-second step of the paper's RLM times)",
        lambda rlm, emcast: compare.exceeds(rlm, emcast, 2 * ABOUT_S),
        {"rlm": v("fig8", "t_reach_level9_s"), "emcast": v("fig9", "t_reach_level9_s")},
        Calibration({"rlm": stated(50.0), "emcast": stated(slow_quick)},
                    {"rlm": stated(slow_quick), "emcast": stated(slow_quick)},
                    f"RLM's 'about 50 seconds' against the slowest 'quick' EMcast ({slow_quick:g} s); counter-datum: "
                    "both equally quick")))
    return out
