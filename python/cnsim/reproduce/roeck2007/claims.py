"""The findings of Roeck 2007's slides, each decided over every seed by compare.py's rule. Where a
finding compares schemes, the difference must be significant and at least 20 % of the larger mean
(the framework's default minimum effect) unless its rule says otherwise; grid points are pooled
where the slides state the finding over a whole sweep."""

from __future__ import annotations

import pandas as pd

from .. import compare
from ..compare import INCONCLUSIVE, NOT_SUPPORTED, SUPPORTED, Verdict
from ..paper import Runs
from ..verdicts import Check
from .experiment import FB_UNITS, MARGIN, MARGINS, OPEN_LOOP, SCENARIOS
from .measure import values

PAPER = "Roeck 2007"
HOTSPOT_GBPS = 9.87      # a 10 Gb/s hotspot delivers 1500 of every 1520 B on the wire: 9.87 Gb/s of frames
# Each scenario's headline metric as the slides look at it ("Look for …"), and +1 where higher is better.
HEADLINE = {"no-hotspot": ("limiters_created", -1), "oscillating": ("bandwidth_loss_gbps", -1),
            "latency": ("hotspot_active_gbps", 1), "twenty-stage": ("switch_throughput_mean_gbps", 1)}
ACCEPTABLE = 0.9         # "unacceptable": below 90 % of that while the flows run (cnsim's reading)
THRASH_RHO = -0.5        # an effect of CPID thrashing: Spearman ρ ≤ −0.5 (cnsim's reading)


def _more(a, b, what: str, direction: int = 1, min_effect: float | None = None) -> Verdict:
    big = max(abs(compare.interval(a).mean or 0.0), abs(compare.interval(b).mean or 0.0))
    v = compare.exceeds(a, b, compare.REL_TOL * big if min_effect is None else min_effect, direction)
    return Verdict(v.state, f"{what}: {v.evidence}")


def _not_lower(a, b, what: str, min_effect: float | None = None) -> Verdict:
    """a not lower than b by the minimum effect: not supported if b exceeds a by it, supported if
    the difference b − a is significantly negative or wholly within ± the minimum effect, else
    inconclusive."""
    v = _more(b, a, f"{what}, shortfall", min_effect=min_effect)
    state = {SUPPORTED: NOT_SUPPORTED, NOT_SUPPORTED: SUPPORTED}.get(v.state, INCONCLUSIVE)
    return Verdict(state, v.evidence)


def _grid(scenario: str) -> list[str]:
    sc = next(s for s in SCENARIOS if s.key == scenario)
    (_, (full, _)), = sc.grid.items()
    return [str(x) for x in full]


def checks(runs: Runs, df: pd.DataFrame) -> list[Check]:
    """`df`: the runs' frame with the bandwidth loss added (measure.with_bandwidth_loss)."""
    v = lambda sc, m, var, p=None: values(df, sc, m, var, p)  # noqa: E731
    points = lambda sc: sorted(set(df[df.scenario == sc].point), key=lambda p: float(p) if p.replace(".", "", 1).isdigit() else 0)  # noqa: E731
    out = []

    def add(key, claim, source, verdict, rule, paper=""):
        out.append(Check(key, claim, f"{PAPER}, {source}", verdict, rule, paper=paper))

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
    add("twenty-stage.sub-path-probing-best", "20-stage: best overall performance with sub-path probing (QCN-SP, "
        "QCN-HSP), better than path probing and (marginally) CP probing", "20-stage slides",
        compare.all_of([_more(thr["QCN-SP"], thr["QCN-PP"], "throughput SP − PP"),
                        _more(thr["QCN-SP"], thr["QCN-P"], "throughput SP − P", min_effect=0.0),
                        _more(thr["QCN-HSP"], thr["QCN-PP"], "throughput HSP − PP"),
                        _more(thr["QCN-HSP"], thr["QCN-HP"], "throughput HSP − HP", min_effect=0.0)]),
        "Welch; minimum effect 20 % against path probing, any significant difference against CP probing (QCN-P for "
        "QCN-SP, QCN-HP for QCN-HSP)")
    fp = {var: v("twenty-stage", "false_positives", var) for var in thr}
    add("twenty-stage.ecm-false-positives", "20-stage: ECM has a large number of false positives", "20-stage slides",
        compare.all_of([_more(fp["ECM"], fp[o], f"false positives ECM − {o}") for o in ("QCN-P", "QCN-SP", "QCN-PP")]),
        "more than every probing variant, Welch, minimum effect 20 %")
    sd = {var: v("twenty-stage", "switch_throughput_std_gbps", var) for var in thr}
    add("twenty-stage.qcn-high-spread", "20-stage: high throughput std-dev for QCN and QCN-FbHat (the slide \"CP "
        "Throughput Standard Deviation\")", "20-stage slides",
        compare.all_of([_more(sd[o], sd["ECM"], f"CP throughput std-dev {o} − ECM") for o in ("QCN", "QCN-FbHat")]),
        "the std-dev over the CPs (the inter-switch ports SWk→SWk+1) of each CP's throughput — the slide that follows "
        "\"Throughput per switch\" — above ECM's, Welch, minimum effect 20 %")
    jit = {var: v("twenty-stage", "hotspot_q_std_kb", var) for var in thr}
    add("twenty-stage.ecm-queue-jitter", "20-stage: ECM has a large queue length jitter in the last switch",
        "20-stage slides", compare.all_of([_more(jit["ECM"], jit[o], f"last hotspot's queue std-dev ECM − {o}")
                                           for o in ("QCN-SP", "QCN", "QCN-FbHat")]),
        "the last hotspot's queue std-dev above that of each variant the slides plot beside it (QCN-SP, QCN, QCN-H), "
        "Welch, minimum effect 20 %")
    rho = [Verdict((x := compare.beyond(v("twenty-stage", "cpid_throughput_rho", var), THRASH_RHO)).state, f"{var}: {x.evidence}")
           for var in thr if v("twenty-stage", "cpid_throughput_rho", var)]
    add("twenty-stage.no-cpid-thrashing-effect", "20-stage: no effects of CPID thrashing observed", "20-stage slides",
        compare.all_of(rho), f"for every variant that changes CPID, the interval of Spearman ρ (a flow's CPID changes vs "
        f"its throughput) above {THRASH_RHO}")
    stab, hai = [], []
    for h in ("off", "on"):
        base = f"2/{h}/1000"
        for p in [p for p in _grid("fbhat") if p.endswith(f"/{h}/1000") and float(p.split("/")[0]) > 2]:
            stab.append(_more(v("fbhat", "hotspot_q_std_kb", "QCN-FbHat", base), v("fbhat", "hotspot_q_std_kb", "QCN-FbHat", p),
                              f"queue std-dev W 2 − W {p.split('/')[0]} (HAI {h}, 1 ms)"))
    for w in (2, 4):
        for lat_us in (100, 1000):
            hai.append(_more(v("fbhat", "hotspot_q_std_kb", "QCN-FbHat", f"{w}/on/{lat_us}"),
                             v("fbhat", "hotspot_q_std_kb", "QCN-FbHat", f"{w}/off/{lat_us}"),
                             f"queue std-dev HAI on − off (W {w}, {lat_us} µs)"))
    add("fbhat.larger-w-stable-at-large-latency", "QCN-FbHat: larger W stabilises it at large latency", "QCN-FbHat slides",
        compare.all_of(stab), "at 1 ms each W > 2 has a lower queue std-dev than W = 2, Welch, minimum effect 20 %")
    add("fbhat.hai-less-stable", "QCN, QCN-FbHat: less stable with Hyperactive Increase enabled",
        "Observations and Conclusions (QCN-FbHat slides)", compare.all_of(hai),
        "at each W (2, 4) and forward latency (100 µs, 1 ms) the hotspot queue std-dev with HAI above that without, "
        "Welch, minimum effect 20 %")
    add("fbhat.optimal-w-depends-on-rtt", "QCN, QCN-FbHat: the optimal value of W depends on RTT",
        "Observations and Conclusions (QCN-FbHat slides)", _optimal_w(v), _optimal_w_rule())
    r2, r4 = v("oscillating-w", "reaction_ms", "QCN-FbHat", "2"), v("oscillating-w", "reaction_ms", "QCN-FbHat", "4")
    add("fbhat.larger-w-slower", "Increasing W affects reaction time in OG hotspot scenarios — W 2 → 4: reaction time "
        "7 ms → 60 ms", "Observations and Conclusions (QCN-FbHat slides), \"Test 1\"",
        _more(r4, r2, f"reaction W 2 {compare.interval(r2).show()} ms, W 4 {compare.interval(r4).show()} ms "
              "(oscillating hotspot); W 4 − W 2", min_effect=compare.interval(r2).mean or 0.0),
        "in the oscillating hotspot with QCN-FbHat: the time from an on-phase's start until the rate its RPs allow "
        "the hotspot-bound flows halves (mean over the on-phases; a phase without halving counts its whole length); "
        "W = 4's at least twice W = 2's (Welch, minimum effect W = 2's mean)",
        paper="7 ms → 60 ms (Observations and Conclusions, Test 1)")
    add("ecm.stability-margins", "ECM stability margins (±1 % performance): the stated ranges of Gi, Gd and W at each "
        "RTT keep the performance within 1 % of the optimum", "ECM Stability Margins slide",
        _margins(v), f"each range end's hotspot throughput (while the flows run) against the slide's optimum at that "
        f"RTT: the Welch interval of the difference within ± {MARGIN:.0%} of the optimum's mean (supported), wholly "
        "outside (not supported), else inconclusive; every end")
    add("summary.closed-loop-better", "Closed-loop protocols perform better in all test cases", "Summary and Conclusions",
        _closed_loop(v), "in each scenario with both kinds, the best closed-loop variant (positive feedback: ECM's tags "
        "or probes) better than the best open-loop one (QCN, QCN-FbHat) on the scenario's headline metric ("
        + ", ".join(f"{k}: {m}" for k, (m, _) in HEADLINE.items()) + "; grid points pooled), Welch, minimum effect 20 %")
    for u in FB_UNITS:
        out.append(Check(f"ecm-unit.tuned-not-worse.{u}", f"The seed's per-RTT ECM parameters (without RTT drops) do "
                         f"at least as well as the defaults, with Fb counted in units of {u}", "cnsim's test of the "
                         "reading of ECM's unit-less parameters", _tuned_not_worse(v, u),
                         f"at each RTT ≥ 200 µs, ECM-T's hotspot throughput (while the flows run) not lower than ECM's "
                         f"by {MARGIN:.0%} of the hotspot's rate — the slides' per-RTT values are the optimum within their "
                         "±1 % performance margin, so a reading under which the defaults beat them by more is suspect",
                         kind="project"))
    return out


W_OPT = (2, 4, 20)   # the Ws the FbHat grid runs at both latencies without HAI


def _optimal_w_rule() -> str:
    return (f"among W ∈ {{{', '.join(map(str, W_OPT))}}} without HAI, the W with the highest hotspot throughput (while "
            f"the flows run) at 100 µs and at 1 ms: different Ws, each significantly better than the other latency's "
            f"optimum at its own latency by at least {MARGIN:.0%} of the hotspot's rate (the slides' own ±1 % "
            "performance margin); the same W at both latencies: not supported")


def _optimal_w(v) -> Verdict:
    thr = {(w, lat): v("fbhat", "hotspot_active_gbps", "QCN-FbHat", f"{w}/off/{lat}") for w in W_OPT for lat in (100, 1000)}
    if not all(thr.values()):
        return Verdict(INCONCLUSIVE, "no data")
    best = {lat: max(W_OPT, key=lambda w: compare.interval(thr[(w, lat)]).mean or 0.0) for lat in (100, 1000)}
    ev = f"optimum W {best[100]} at 100 µs, W {best[1000]} at 1 ms"
    if best[100] == best[1000]:
        return Verdict(NOT_SUPPORTED, ev)
    both = compare.all_of([_more(thr[(best[lat], lat)], thr[(best[other], lat)], f"{lat} µs: W {best[lat]} − W {best[other]}",
                                 min_effect=MARGIN * HOTSPOT_GBPS) for lat, other in ((100, 1000), (1000, 100))])
    return Verdict(both.state, f"{ev}; {both.evidence}")


def _margins(v) -> Verdict:
    parts = []
    for (variant, rtt), (_, ends) in MARGINS.items():
        base = v("ecm-margins", "hotspot_active_gbps", "ECM", f"{variant}/{rtt}/base")
        if not base:
            continue
        tol = MARGIN * (compare.interval(base).mean or 0.0)
        for key, xs in ends.items():
            for x in xs:
                end = v("ecm-margins", "hotspot_active_gbps", "ECM", f"{variant}/{rtt}/{key}={x:g}")
                if end:
                    r = compare.similar(end, base, tol)
                    parts.append(Verdict(r.state, f"{variant} {rtt} µs {key} {x:g}: {r.evidence}"))
    return compare.all_of(parts)


def _closed_loop(v) -> Verdict:
    parts = []
    for sc in SCENARIOS:
        if sc.key not in HEADLINE:
            continue
        metric, better = HEADLINE[sc.key]
        opened = [x for x in sc.variants if x in OPEN_LOOP and v(sc.key, metric, x)]
        closed = [x for x in sc.variants if x not in OPEN_LOOP and v(sc.key, metric, x)]
        if not opened or not closed:
            continue
        pick = lambda names: max(names, key=lambda x: better * (compare.interval(v(sc.key, metric, x)).mean or 0.0))  # noqa: E731
        c, o = pick(closed), pick(opened)
        r = _more(v(sc.key, metric, c), v(sc.key, metric, o), f"{sc.key}, {metric} {c} − {o}", direction=better)
        parts.append(r)
    return compare.all_of(parts)


def _tuned_not_worse(v, unit: str) -> Verdict:
    parts = []
    for lat in (200, 500, 1000):
        p = f"{unit}/{lat}"
        t, d = v("ecm-unit", "hotspot_active_gbps", "ECM-T", p), v("ecm-unit", "hotspot_active_gbps", "ECM", p)
        if t and d:
            parts.append(_not_lower(t, d, f"{lat} µs ECM-T vs ECM", min_effect=MARGIN * HOTSPOT_GBPS))
    return compare.all_of(parts)
