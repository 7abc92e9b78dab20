"""The findings of Roeck 2007's slides, each decided over every seed by compare.py's rule. Where a
finding compares schemes, the difference must be significant and at least 20 % of the larger mean
(the framework's default minimum effect) unless its rule says otherwise; grid points are pooled
where the slides state the finding over a whole sweep."""

from __future__ import annotations

import pandas as pd

from .. import compare
from ..compare import NOT_SUPPORTED, SUPPORTED, Verdict
from ..paper import Runs
from ..verdicts import Check
from .experiment import SCENARIOS
from .measure import values

PAPER = "Roeck 2007"
HOTSPOT_GBPS = 9.87      # a 10 Gb/s hotspot delivers 1500 of every 1520 B on the wire: 9.87 Gb/s of frames
ACCEPTABLE = 0.9         # "unacceptable": below 90 % of that while the flows run (cnsim's reading)
THRASH_RHO = -0.5        # an effect of CPID thrashing: Spearman ρ ≤ −0.5 (cnsim's reading)


def _more(a, b, what: str, direction: int = 1, min_effect: float | None = None) -> Verdict:
    big = max(abs(compare.interval(a).mean or 0.0), abs(compare.interval(b).mean or 0.0))
    v = compare.exceeds(a, b, compare.REL_TOL * big if min_effect is None else min_effect, direction)
    return Verdict(v.state, f"{what}: {v.evidence}")


def _not_lower(a, b, what: str) -> Verdict:
    """a not lower than b: not supported if b exceeds a by the minimum effect, else supported."""
    v = _more(b, a, what)
    return Verdict(NOT_SUPPORTED if v.state == SUPPORTED else SUPPORTED, f"{what} (not lower): {v.evidence}")


def _grid(scenario: str) -> list[str]:
    sc = next(s for s in SCENARIOS if s.key == scenario)
    (_, (full, _)), = sc.grid.items()
    return [str(x) for x in full]


def checks(runs: Runs, df: pd.DataFrame) -> list[Check]:
    """`df`: the runs' frame with the bandwidth loss added (measure.with_bandwidth_loss)."""
    v = lambda sc, m, var, p=None: values(df, sc, m, var, p)  # noqa: E731
    points = lambda sc: sorted(set(df[df.scenario == sc].point), key=lambda p: float(p) if p.replace(".", "", 1).isdigit() else 0)  # noqa: E731
    out = []

    def add(key, claim, source, verdict, rule):
        out.append(Check(key, claim, f"{PAPER}, {source}", verdict, rule))

    def per_seed_sum(sc, m, var):
        d = df[(df.scenario == sc) & (df.metric == m) & (df.variant == var)]
        return d.groupby("seed")["value"].sum().tolist()

    add("no-hotspot.qcn-more-limiters", "QCN creates many more (spurious) rate limiters than ECM without a hotspot",
        "no-hotspot slides",
        _more(per_seed_sum("no-hotspot", "limiters_created", "QCN"), per_seed_sum("no-hotspot", "limiters_created", "ECM"),
              "limiters over the load sweep, QCN − ECM", min_effect=compare.interval(
                  per_seed_sum("no-hotspot", "limiters_created", "ECM")).mean or 0.0),
        "Welch on the per-seed sums over the loads, minimum effect ECM's own mean (at least twice as many)")
    add("no-hotspot.qcn-feedback-at-any-load", "QCN sends negative feedback at any load", "no-hotspot slides",
        compare.all_of([Verdict((x := compare.beyond(v("no-hotspot", "cm_messages_per_s", "QCN", p), 0.0)).state,
                                f"load {p} Gb/s: {x.evidence}") for p in points("no-hotspot")]),
        "at every load the interval of QCN's messages per second above 0")
    loss = {var: v("oscillating", "bandwidth_loss_gbps", var) for var in ("ECM", "QCN-P", "QCN", "QCN-FbHat")}
    add("oscillating.ecm-least-loss", "ECM loses the least bandwidth under the oscillating hotspot",
        "oscillating-hotspot slides",
        compare.all_of([_more(loss[o], loss["ECM"], f"loss {o} − ECM") for o in ("QCN-P", "QCN", "QCN-FbHat")]),
        "each other variant's loss larger (every t_on pooled), Welch, minimum effect 20 %")
    add("oscillating.qcn-worst", "QCN does not perform well with recurring hotspots (worst of QCN, QCN-P, ECM)",
        "oscillating-hotspot slides",
        compare.all_of([_more(loss["QCN"], loss[o], f"loss QCN − {o}") for o in ("ECM", "QCN-P")]),
        "QCN's loss larger than ECM's and QCN-P's, Welch, minimum effect 20 %")
    add("oscillating.qcn-p-between", "QCN-P is worse than ECM but better than QCN", "oscillating-hotspot slides",
        compare.all_of([_more(loss["QCN-P"], loss["ECM"], "loss QCN-P − ECM"),
                        _more(loss["QCN"], loss["QCN-P"], "loss QCN − QCN-P")]), "Welch, minimum effect 20 %, both")
    lat = _grid("latency")
    big = [p for p in lat if float(p) >= 500]
    variants = next(s for s in SCENARIOS if s.key == "latency").variants
    bad = [Verdict((x := compare.beyond(v("latency", "hotspot_active_gbps", var, p), ACCEPTABLE * HOTSPOT_GBPS, -1)).state,
                   f"{var} at {p} µs: {x.evidence}") for p in big for var in variants]
    add("latency.unacceptable-at-500us", "At 500 µs forward latency (and more) results are unacceptable for all "
        "protocols", "large-latency slides", compare.all_of(bad),
        f"hotspot throughput while the flows run below {ACCEPTABLE:.0%} of {HOTSPOT_GBPS} Gb/s, for every variant and "
        "latency ≥ 500 µs (the queue maximum is shown in the tables: it reaches the buffer in every run, so it cannot "
        "decide)")
    small = [p for p in lat if float(p) <= 100]
    add("latency.better-at-100us", "At 100 µs the protocols do better than at 500 µs (the slides re-tested at 100 µs)",
        "large-latency slides",
        compare.all_of([_more(v("latency", "hotspot_active_gbps", var, small), v("latency", "hotspot_active_gbps", var, "500"),
                              f"{var}: 100 µs − 500 µs") for var in variants]),
        "each variant's hotspot throughput (while the flows run) higher at 100 µs, Welch, minimum effect 20 %")
    add("latency.ecm-needs-rtt-drops", "ECM needs RTT-triggered CM drops to stay stable at large latency (each with the "
        "slides' per-RTT parameters)", "ECM slides",
        compare.all_of([_more(v("latency", "hotspot_q_std_kb", "ECM-T", p), v("latency", "hotspot_q_std_kb", "ECM-DT", p),
                              f"{p} µs queue std-dev, without − with drops") for p in big]
                       + [_not_lower(v("latency", "hotspot_active_gbps", "ECM-DT", p),
                                     v("latency", "hotspot_active_gbps", "ECM-T", p), f"{p} µs throughput with drops")
                          for p in big]),
        "at every latency ≥ 500 µs the queue std-dev lower with the drops (Welch, minimum effect 20 %) and the throughput "
        "not lower by the minimum effect")
    ps = _grid("psample")
    add("psample.qcn-unstable-above-half-percent", "QCN's queue is unstable above psample 0.5 % at RTT 200 µs",
        "psample slides",
        _more(v("psample", "hotspot_q_std_kb", "QCN", [p for p in ps if float(p) > 0.5]),
              v("psample", "hotspot_q_std_kb", "QCN", [p for p in ps if float(p) <= 0.5]),
              "queue std-dev above − at or below 0.5 %",
              min_effect=compare.interval(v("psample", "hotspot_q_std_kb", "QCN", [p for p in ps if float(p) <= 0.5])).mean or 0.0),
        "pooled over the points, Welch, minimum effect the lower group's mean (at least twice)")
    thr = {var: v("twenty-stage", "switch_throughput_mean_gbps", var) for var in
           next(s for s in SCENARIOS if s.key == "twenty-stage").variants}
    add("twenty-stage.ecm-best", "20-stage: ECM performs better than QCN and QCN-FbHat", "20-stage slides",
        compare.all_of([_more(thr["ECM"], thr[o], f"throughput ECM − {o}") for o in ("QCN", "QCN-FbHat")]),
        "mean inter-switch throughput, Welch, minimum effect 20 %")
    add("twenty-stage.fbhat-improves", "20-stage: FbHat improves on QCN", "20-stage slides",
        _more(thr["QCN-FbHat"], thr["QCN"], "throughput FbHat − QCN"), "Welch, minimum effect 20 %")
    add("twenty-stage.sub-path-probing-best", "20-stage: sub-path probing is best, better than path probing and "
        "(marginally) CP probing", "20-stage slides",
        compare.all_of([_more(thr["QCN-SP"], thr["QCN-PP"], "throughput SP − PP"),
                        _more(thr["QCN-SP"], thr["QCN-P"], "throughput SP − P", min_effect=0.0)]),
        "Welch; minimum effect 20 % against path probing, any significant difference against CP probing")
    fp = {var: v("twenty-stage", "false_positives", var) for var in thr}
    add("twenty-stage.ecm-false-positives", "20-stage: ECM has a large number of false positives", "20-stage slides",
        compare.all_of([_more(fp["ECM"], fp[o], f"false positives ECM − {o}") for o in ("QCN-P", "QCN-SP", "QCN-PP")]),
        "more than every probing variant, Welch, minimum effect 20 %")
    cov = {var: v("twenty-stage", "flow_throughput_cov", var) for var in thr}
    add("twenty-stage.qcn-high-spread", "20-stage: high throughput std-dev for QCN and QCN-FbHat", "20-stage slides",
        compare.all_of([_more(cov[o], cov["ECM"], f"std/mean {o} − ECM") for o in ("QCN", "QCN-FbHat")]),
        "per-flow throughput std-dev ÷ mean above ECM's, Welch, minimum effect 20 %")
    rho = [Verdict((x := compare.beyond(v("twenty-stage", "cpid_throughput_rho", var), THRASH_RHO)).state, f"{var}: {x.evidence}")
           for var in thr if v("twenty-stage", "cpid_throughput_rho", var)]
    add("twenty-stage.no-cpid-thrashing-effect", "20-stage: no effects of CPID thrashing observed", "20-stage slides",
        compare.all_of(rho), f"for every variant that changes CPID, the interval of Spearman ρ (a flow's CPID changes vs "
        f"its throughput) above {THRASH_RHO}")
    stab, slow = [], []
    for hai in ("off", "on"):
        base = f"2/{hai}/1000"
        for p in [p for p in _grid("fbhat") if p.endswith(f"/{hai}/1000") and float(p.split("/")[0]) > 2]:
            stab.append(_more(v("fbhat", "hotspot_q_std_kb", "QCN-FbHat", base), v("fbhat", "hotspot_q_std_kb", "QCN-FbHat", p),
                              f"queue std-dev W 2 − W {p.split('/')[0]} (HAI {hai}, 1 ms)"))
        for lat_us in ("100", "1000"):
            a = v("fbhat", "reaction_ms", "QCN-FbHat", f"2/{hai}/{lat_us}")
            slow.append(_more(v("fbhat", "reaction_ms", "QCN-FbHat", f"4/{hai}/{lat_us}"), a,
                              f"reaction W 4 − W 2 (HAI {hai}, {lat_us} µs)", min_effect=compare.interval(a).mean or 0.0))
    add("fbhat.larger-w-stable-at-large-latency", "QCN-FbHat: larger W stabilises it at large latency", "QCN-FbHat slides",
        compare.all_of(stab), "at 1 ms each W > 2 has a lower queue std-dev than W = 2, Welch, minimum effect 20 %")
    add("fbhat.larger-w-slower", "QCN-FbHat: W 2 → 4 slows its reaction 7 ms → 60 ms", "QCN-FbHat slides",
        compare.all_of(slow), "W = 4's reaction time at least twice W = 2's (Welch, minimum effect W = 2's mean)")
    return out
