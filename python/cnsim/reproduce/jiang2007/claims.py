"""The claims of Jiang & Jain 2007 §VI, each decided over every seed by compare.py's rule with the
paper's values from tables.py, and each calibrated: its rule fed the paper's own data (Tables I–VI,
the figure annotations, or for words only the smallest effect the words imply) must say
*supported*, fed a counter-datum *not supported* (calibration.py). The project's own findings apart.

One tolerance serves every comparison with a paper number, and one minimum effect every claimed
difference: `CLOSE_REL`, the share by which two rates differ that the paper itself calls "very
close" (§VI.F: 1.16 and 1.34 Gb/s; tables.py) — never cnsim's spread.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .. import compare
from ..calibration import stated
from ..compare import INCONCLUSIVE, NOT_SUPPORTED, SUPPORTED, Interval, Values, Verdict, num
from ..paper import Runs
from ..verdicts import Calibration, Check, PaperValue, claim
from .experiment import EXCURSION_BLOCKS, EXCURSION_SHARE
from .measure import View
from .tables import (BAND, BEST, CLOSE_REL, E_EXTREMES, E_ONE, FIG8_STABLE_MS, LINK_GBPS, PAPER, PARK, QEQ, ROUNDING,
                     SETTLE_MS, TABLE1, TABLE2, TABLE3, TABLE3_UTIL, TABLE4, TABLE4_LATE, TABLE4_UTIL,
                     TABLE4_UTIL_DERIVED, TABLE5, TABLE5_UTIL, TABLE6, TABLE6_MEANS)

BULK = [f"ST{i}" for i in range(1, 5)]
UDP = [f"SU{i}" for i in range(1, 5)]
MIXED = BULK + UDP
CLOSE = f"±{CLOSE_REL:.1%}, what §VI.F calls very close (1.16 and 1.34 Gb/s, with their rounding)"
MIN_EFFECT = f"minimum effect {CLOSE_REL:.1%} of the larger mean (a smaller difference §VI.F calls very close)"
# Words only ("best", "larger", "much larger"): the smallest effect the words imply is a difference
# the paper would not call very close; the paper's data are two values twice that margin apart.
WORDS = 1 + 2 * CLOSE_REL
# §VI.E's e is a whole number of packets (ns-2 counts its queue in packets): a stated e is read ± half a packet.
E_TOL = 0.5
# §VI.E's one- and four-source runs (experiment.py: the symmetric topology at 1 Gb/s, Fig. 7's best setting)
E_ONE_SRC = ("vie-e", "1G-ru0.8-pm0.1-1src")
E_FOUR_SRC = ("fig7", "1G-ru0.8-pm0.1")
# Fig. 11 (asymmetric.toml): SW1 and SW2 are the two congested links the text names, ES5→DT1 and
# ES5→DT2 (the 1 Gb/s link); the single-congestion-point queue of the same capacity and settings is
# Fig. 7's 1 Gb/s bottleneck at Ru 0.8 Mb/s = 0.0008·C, Pm 0.05.
SW1, SW2 = "ES5>DT1", "ES5>DT2"
ONE_CP_1G = ("fig7", "1G-ru0.8-pm0.05")
# Table III's "link utilization is about 93 %" (§VI.D): the paper's own rates give 92.6 and 92.0 %, each
# sum of five rates rounded to 0.01 Gb/s (± 0.025 Gb/s, ± 0.25 points): about 93 % is read as 93 ± (1 + 0.25) points.
ABOUT_93_TOL = abs(TABLE4_UTIL.value - min(TABLE3_UTIL)) + 100 * 5 * ROUNDING / LINK_GBPS
# Table II's utilisation is given to 0.1 point: "almost fully utilised" is read as at least 99.9 − 0.1 %.
FULL_PCT = TABLE2["bcn"][2] - 0.1
# Table V: "both congested links are highly utilized" at 83.8 % (ES5→DT1, derived) and 100 %: highly
# utilised is read as at least the smaller, less its rounding (two rates ± 0.005 Gb/s of 10 Gb/s: 0.1 point).
HIGH_PCT = min(TABLE5_UTIL) - 100 * 2 * ROUNDING / LINK_GBPS
# The TCP host's regulator share (Table VI): "slightly higher" is any difference beyond the stated
# means' resolution (0.01 Gb/s).
SLIGHT_GBPS = 2 * ROUNDING


# ---- values of the runs --------------------------------------------------------------------------

def val(runs: Runs, exp: str, var: str, part: str, metric: str) -> Values:
    return runs.values(metric, part, experiment=exp, variant=var)


def combine(fn, *values: Values) -> Values:
    """fn(x, y, …) per seed over the seeds every input has; the result knows the first input's runs."""
    seeds = sorted(set.intersection(*(set(v.seeds) for v in values))) if values else []
    maps = [v.by_seed() for v in values]
    return Values([fn(*(m[s] for m in maps)) for s in seeds], runs=values[0].runs if values else None, seeds=seeds)


def mean_of(runs: Runs, exp: str, var: str, parts: list[str], metric: str) -> Values:
    """The per-seed mean of `metric` over `parts` (one configuration)."""
    return combine(lambda *x: float(np.mean(x)), *(val(runs, exp, var, p, metric) for p in parts))


def sum_of(runs: Runs, exp: str, var: str, parts: list[str], metric: str, scale: float = 1.0) -> Values:
    return combine(lambda *x: scale * float(np.sum(x)), *(val(runs, exp, var, p, metric) for p in parts))


def settle_times(runs: Runs, exp: str, var: str, queue: str = "CS>ES5") -> Values:
    """Per run, the stable-state time (ms, experiment.settling_time) of `queue`; a run whose queue
    never settles in its window is censored: ∞ (known only to be later than the window's end)."""
    ran = val(runs, exp, var, queue, "q_mean")
    settled = val(runs, exp, var, queue, "settle_s").by_seed()
    return Values([settled[s] * 1e3 if s in settled else math.inf for s in ran.seeds], runs=ran.runs, seeds=ran.seeds)


# ---- rules ---------------------------------------------------------------------------------------

def _mean(values) -> float:
    return abs(compare.interval(values).mean or 0.0)


def near(values, paper: float, what: str = "") -> Verdict:
    """The interval inside the paper's value ± CLOSE_REL of it."""
    v = compare.against(values, paper, CLOSE_REL * abs(paper))
    return v.saying(f"{what}: {v.evidence}") if what else v


def clearly(a, b, direction: int = 1, what: str = "") -> Verdict:
    """a − b in `direction` by at least CLOSE_REL of the larger mean (paired when a and b are of the same runs)."""
    v = compare.exceeds(a, b, CLOSE_REL * max(_mean(a), _mean(b)), direction)
    return v.saying(f"{what}: {v.evidence}") if what else v


def alike(a, b, what: str = "") -> Verdict:
    """a − b within ± CLOSE_REL of the larger mean (paired when of the same runs)."""
    v = compare.similar(a, b, CLOSE_REL * max(_mean(a), _mean(b)))
    return v.saying(f"{what}: {v.evidence}") if what else v


def settles_within(times, bound_ms: float, what: str = "") -> Verdict:
    """Censoring-aware "the stable state is reached within bound_ms": the median settling time lies
    below the bound, i.e. more than half of the runs settle within it (a run that never settles is
    known to settle later). The share's Clopper–Pearson interval at the level in force: above ½ →
    supported, below ½ → not supported."""
    t = [x for x in times if x is not None and not (isinstance(x, float) and math.isnan(x))]
    n, k, never = len(t), sum(1 for x in t if x <= bound_ms), sum(1 for x in t if math.isinf(x))
    head = (f"{what}: " if what else "") + f"stable within {num(bound_ms)} ms in {k} of {n} runs"
    head += f" ({never} never stable in the window)" if never else ""
    if n < compare.MIN_SEEDS:
        return Verdict(INCONCLUSIVE, f"{head}: {n} run(s)", (Interval(None if not n else k / n, -math.inf, math.inf, n),))
    alpha = 1 - compare.level()
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    iv = Interval(k / n, lo, hi, n)
    state = SUPPORTED if lo > 0.5 else NOT_SUPPORTED if hi < 0.5 else INCONCLUSIVE
    return Verdict(state, f"{head}; share {iv.show()} (Clopper–Pearson) vs one half", (iv,))


def r(x: float, runs=None) -> Values:
    """The paper's value as cnsim's would be (calibration.stated)."""
    return stated(x, runs=runs)


# ---- the checks ----------------------------------------------------------------------------------

def checks(runs: Runs) -> list[Check]:
    out: list[Check] = []
    out += _table1(runs)
    out += _table2_fig5(runs)
    out += _factorial(runs)
    out += _parking_lot(runs)
    out += _asymmetric(runs)
    out += _mixed(runs)
    return out


def _table1(runs: Runs) -> list[Check]:
    out = []
    t1 = f"{PAPER} Table I"
    q = {(var, src, m): val(runs, "table1-2", var, src, m) for var in ("none", "bcn", "bcn-perconn")
         for src in ("SR1", "SR2") for m in ("tps", "latency_us")}
    p = {(var, src): TABLE1[(var, src)] for var in ("none", "bcn") for src in ("SR1", "SR2")}

    def improves(tps_bcn, tps_none, lat_bcn, lat_none):
        return compare.all_of([clearly(tps_bcn, tps_none, 1, "tps, BCN − none"),
                               clearly(lat_bcn, lat_none, -1, "latency µs, BCN − none")])
    paper_in = {"tps_bcn": r(p["bcn", "SR1"][0], "bcn"), "tps_none": r(p["none", "SR1"][0], "none"),
                "lat_bcn": r(p["bcn", "SR1"][2], "bcn"), "lat_none": r(p["none", "SR1"][2], "none")}
    out.append(claim(
        "table1.sr1-improves", "BCN significantly improves the throughput and delay of reference source 1",
        f"{PAPER} §VI.B, Table I", f"Welch, for tps and latency, {MIN_EFFECT}", improves,
        {"tps_bcn": q["bcn", "SR1", "tps"], "tps_none": q["none", "SR1", "tps"],
         "lat_bcn": q["bcn", "SR1", "latency_us"], "lat_none": q["none", "SR1", "latency_us"]},
        Calibration(paper_in, {"tps_bcn": paper_in["tps_none"], "tps_none": paper_in["tps_bcn"],
                               "lat_bcn": paper_in["lat_none"], "lat_none": paper_in["lat_bcn"]},
                    "Table I: SR1 556 → 6686 tps, 1780.78 → 133.51 µs; counter-datum: the two CMs swapped"),
        paper=f"tps {p['none', 'SR1'][0]} → {p['bcn', 'SR1'][0]}, latency {p['none', 'SR1'][2]} → "
              f"{p['bcn', 'SR1'][2]} µs ({t1})"))

    for src, words in (("SR1", "the congested reference source"), ("SR2", "the uncongested reference source")):
        def values(_src=src, **x):
            return compare.all_of([near(x[f"{m}_{var}"], p[var, _src][i], f"{m} {var}")
                                   for var in ("none", "bcn") for i, m in ((0, "tps"), (2, "latency"))])
        inputs = {f"{m}_{var}": q[var, src, metric] for var in ("none", "bcn")
                  for m, metric in (("tps", "tps"), ("latency", "latency_us"))}
        paper_in = {f"{m}_{var}": r(p[var, src][i], var) for var in ("none", "bcn") for i, m in ((0, "tps"), (2, "latency"))}
        counter = {k: r(p[k.split("_")[1], src][0 if k.startswith("tps") else 2] * (WORDS if k.startswith("tps") else 1 / WORDS),
                        k.split("_")[1]) for k in paper_in}
        out.append(claim(
            f"table1.{src.lower()}-values", f"Table I's transactions per second and latency of {words} ({src}), "
            "with and without BCN", f"{PAPER} §VI.B, Table I", f"each interval inside the paper's value {CLOSE}",
            values, inputs, Calibration(paper_in, counter, f"Table I's {src} row; counter-datum: {WORDS:.3g}× the "
                                                           "transactions per second at 1/{WORDS:.3g} the latency"),
            paper=f"none {p['none', src][0]} tps / {p['none', src][2]} µs, BCN {p['bcn', src][0]} tps / "
                  f"{p['bcn', src][2]} µs ({t1})"))

    def unaffected(tps_bcn, tps_none, lat_bcn, lat_none):
        return compare.all_of([alike(tps_bcn, tps_none, "tps, BCN − none"), alike(lat_bcn, lat_none, "latency µs, BCN − none")])
    paper_in = {"tps_bcn": r(p["bcn", "SR2"][0], "bcn"), "tps_none": r(p["none", "SR2"][0], "none"),
                "lat_bcn": r(p["bcn", "SR2"][2], "bcn"), "lat_none": r(p["none", "SR2"][2], "none")}
    out.append(claim(
        "table1.sr2-unaffected", "Reference source 2 is not congested and hence its performance is not affected by BCN",
        f"{PAPER} §VI.B, Table I", f"Welch interval of BCN − none, for tps and latency, within {CLOSE} of the larger mean",
        unaffected, {"tps_bcn": q["bcn", "SR2", "tps"], "tps_none": q["none", "SR2", "tps"],
                     "lat_bcn": q["bcn", "SR2", "latency_us"], "lat_none": q["none", "SR2", "latency_us"]},
        Calibration(paper_in, {**paper_in, "tps_bcn": r(p["bcn", "SR2"][0] / WORDS, "bcn"),
                               "lat_bcn": r(p["bcn", "SR2"][2] * WORDS, "bcn")},
                    f"Table I: SR2 16634 → 16624 tps, 59.11 → 59.16 µs; counter-datum: with BCN 1/{WORDS:.3g} the "
                    f"transactions at {WORDS:.3g}× the latency"),
        paper=f"{p['none', 'SR2'][0]} / {p['bcn', 'SR2'][0]} tps, {p['none', 'SR2'][2]} / {p['bcn', 'SR2'][2]} µs ({t1})"))

    per = [clearly(q["bcn", "SR1", "tps"], q["bcn-perconn", "SR1", "tps"], 1, "tps, per source − per connection"),
           clearly(q["bcn", "SR1", "latency_us"], q["bcn-perconn", "SR1", "latency_us"], -1,
                   "latency µs, per source − per connection")]
    out.append(Check("table1.sr1-needs-per-source-regulators", "Reference source 1 gains from BCN regulating each bulk "
                     "host as one source: with one regulator per connection instead, its throughput and delay are worse",
                     "diagnostic: the ten connections per bulk host each behind its own regulator",
                     compare.all_of(per), f"Welch, for both, {MIN_EFFECT}", kind="project"))
    fct = val(runs, "table1-restart", "bcn", "SR2", "fct_us")
    restart = near(fct, p["none", "SR2"][2], "10-kB transfer from slow start, µs")
    out.append(Check("table1.slow-start-restart-explains-latency", "Table I's uncongested latency is explained by ns-2 restarting slow start for each transaction: SR2's "
                     "transactions as fresh connections in slow start take as long",
                     "cnsim's reading of the gap, tested: six-source-restart.toml (each of SR2's 20 transactions a "
                     "10-kB tcp-transfer starting in slow start)",
                     restart.saying(f"{restart.evidence}; SR2's transactions keeping their window: "
                                    f"{compare.interval(q['none', 'SR2', 'latency_us']).show()} µs"),
                     f"the mean completion time's interval inside Table I's 59.11 µs {CLOSE}", kind="project",
                     paper=PaperValue(p["none", "SR2"][2], "µs", t1)))
    return out


def _table2_fig5(runs: Runs) -> list[Check]:
    out = []
    util = {k: val(runs, "table1-2", k, "CS>ES5", "util_pct") for k in ("none", "bcn")}
    out.append(claim(
        "table2.link-fully-used", "The congested link (between CS and ES5) is almost fully utilized — with BCN",
        f"{PAPER} §VI.B, Table II", f"the utilisation's interval above {num(FULL_PCT)} % (Table II's 99.9 % less "
        "one unit of its last digit; a fully busy link is not a contradiction)",
        lambda u: compare.beyond(u, FULL_PCT), {"u": util["bcn"]},
        Calibration({"u": r(TABLE2["bcn"][2])}, {"u": r(TABLE4_UTIL.value)},
                    "Table II: 99.9 %; counter-datum: §VI.D's 93 %, which the paper does not call fully used"),
        paper=PaperValue(TABLE2["bcn"][2], "%", f"{PAPER} Table II")))
    out.append(Check("table2.link-fully-used-without-bcn", "The congested link is almost fully utilized — without BCN",
                     f"{PAPER} Table II", compare.by_construction(
                         "forty bulk TCP connections through a drop-tail queue of 100 frames keep the link busy: a "
                         "consequence of the offered load", f"utilisation {compare.interval(util['none']).show()} %"),
                     "–", paper=PaperValue(TABLE2["none"][2], "%", f"{PAPER} Table II")))
    cvs = {k: combine(lambda *x: 100 * float(np.std(x) / np.mean(x)), *(val(runs, "table1-2", k, s, "thr_gbps")
                                                                          for s in BULK)) for k in ("none", "bcn")}
    cv_p = {k: r(TABLE2[k][1], k) for k in ("none", "bcn")}
    out.append(claim(
        "table2.bcn-reduces-variance", "BCN reduces the variance of the bulk sources' throughputs significantly",
        f"{PAPER} §VI.B, Table II", f"std/avg over ST1..ST4, none − BCN, Welch, {MIN_EFFECT}",
        lambda none, bcn: clearly(none, bcn, 1, "std/avg %, none − BCN"), {"none": cvs["none"], "bcn": cvs["bcn"]},
        Calibration({"none": cv_p["none"], "bcn": cv_p["bcn"]}, {"none": cv_p["bcn"], "bcn": cv_p["none"]},
                    "Table II: 16.84 → 0.73 %; counter-datum: swapped"),
        paper=f"{TABLE2['none'][1]} → {TABLE2['bcn'][1]} % ({PAPER} Table II)"))
    out.append(claim(
        "table2.bcn-variance-value", "std/avg of the bulk sources' throughputs with BCN", f"{PAPER} Table II",
        f"interval inside the paper's value {CLOSE}", lambda cv: near(cv, TABLE2["bcn"][1]), {"cv": cvs["bcn"]},
        Calibration({"cv": r(TABLE2["bcn"][1])}, {"cv": r(TABLE2["bcn"][1] * WORDS)},
                    f"Table II: 0.73 %; counter-datum: {WORDS:.3g}× it"),
        paper=PaperValue(TABLE2["bcn"][1], "%", f"{PAPER} Table II")))
    out.append(claim(
        "fig5.queue-around-qeq", "The queue length oscillates closely around Qeq", f"{PAPER} §VI.B, Fig. 5",
        f"mean queue's interval inside Qeq ± {BAND} frames (§VI.B's stable band)",
        lambda q: compare.against(q, QEQ, BAND), {"q": val(runs, "table1-2", "bcn", "CS>ES5", "q_mean")},
        Calibration({"q": r(QEQ)}, {"q": r(QEQ + 2 * BAND)},
                    f"words: the mean at Qeq = {QEQ}; counter-datum: {QEQ + 2 * BAND} frames, outside the band by its width"),
        paper=PaperValue(QEQ, "frames", f"{PAPER} §VI.A (Qeq)")))
    bound = SETTLE_MS * (1 + CLOSE_REL)
    out.append(claim(
        "fig5.stable-within-4ms", "The system reaches the stable state (queue in [12, 20]) within approximately 4 ms",
        f"{PAPER} §VI.B, Fig. 5",
        f"censoring-aware: the median stable-state time below 4 ms + {CLOSE_REL:.1%} = {num(bound)} ms, i.e. more than "
        "half of the runs stable within it (Clopper–Pearson interval of the share; a run never stable in its window "
        f"counts as later). Stable state: the first 1-ms block from which the 1-ms mean queue stays in Qeq ± {BAND}, "
        f"excursions of at most {EXCURSION_BLOCKS} ms allowed ({EXCURSION_SHARE:.0%} of the blocks after it at most)",
        lambda t: settles_within(t, bound), {"t": settle_times(runs, "table1-2", "bcn")},
        Calibration({"t": r(SETTLE_MS)}, {"t": Values([math.inf] * 10, seeds=range(1, 11))},
                    "§VI.B: about 4 ms; counter-datum: never stable in the window"),
        paper=PaperValue(SETTLE_MS, "ms", f"{PAPER} §VI.B")))
    return out


def _factorial(runs: Runs) -> list[Check]:
    out = []
    std = {(cap, ru, pm): val(runs, f"fig{7 if cap == 1 else 8}", f"{cap}G-ru{ru:g}-pm{pm:g}", "CS>ES5", "q_std")
           for cap in (1, 10) for ru in (0.8, 8.0) for pm in (0.05, 0.1)}
    words_basis = ("words only (Figs. 7–8's panels are not in the text): the smallest effect the words imply, a "
                   f"difference the paper would not call very close — the paper's data {WORDS:.3g}× apart "
                   f"(the band's {BAND} frames as the scale); counter-datum: the order reversed")
    for cap in (1, 10):
        ru, pm = BEST[cap]
        others = [(o_ru, o_pm) for o_ru in (0.8, 8.0) for o_pm in (0.05, 0.1) if (o_ru, o_pm) != (ru, pm)]

        def best(best, **o):
            return compare.all_of([clearly(o[k], best, 1, f"queue std-dev, {k} − best") for k in sorted(o)])
        keys = {f"Ru{o_ru:g}/Pm{o_pm:g}": (o_ru, o_pm) for o_ru, o_pm in others}
        out.append(claim(
            f"fig{7 if cap == 1 else 8}.best-setting", f"For the {cap} Gb/s case the best performance is obtained for "
            f"Ru of {ru:g} Mbps and Pm of {pm:g}", f"{PAPER} §VI.C, Fig. {7 if cap == 1 else 8}",
            f"the paper's setting has the smallest queue std-dev: each other setting larger, Welch, {MIN_EFFECT}",
            best, {"best": std[cap, ru, pm], **{k: std[cap, *v] for k, v in keys.items()}},
            Calibration({"best": r(BAND, "b"), **{k: r(BAND * WORDS, k) for k in keys}},
                        {"best": r(BAND * WORDS, "b"), **{k: r(BAND, k) for k in keys}}, words_basis)))

    bound = max(FIG8_STABLE_MS) * (1 + CLOSE_REL)
    settings = [(ru, pm) for ru in (0.8, 8.0) for pm in (0.05, 0.1)]

    def stable_after(**t):
        return compare.all_of([settles_within(t[k], bound, k) for k in sorted(t)])
    keys = {f"Ru{ru:g}/Pm{pm:g}": (ru, pm) for ru, pm in settings}
    legible = list(FIG8_STABLE_MS) + [max(FIG8_STABLE_MS)]
    out.append(claim(
        "fig8.stable-after", "Each setting of the 10 Gb/s factorial becomes stable within a few ms (the panels of "
        "Fig. 8 are annotated \"stable after 5.0ms, 6.9ms, 1ms\")", f"{PAPER} §VI.C, Fig. 8",
        f"for each of the four settings, censoring-aware: more than half of the runs stable within the largest legible "
        f"annotation {max(FIG8_STABLE_MS):g} ms + {CLOSE_REL:.1%} = {num(bound)} ms (which panel carries which value "
        f"is lost in the seed text); stable state as §VI.B defines it (Qeq ± {BAND} frames, 1-ms means CS→ES5)",
        stable_after, {k: settle_times(runs, "fig8", f"10G-ru{ru:g}-pm{pm:g}") for k, (ru, pm) in keys.items()},
        Calibration({k: r(legible[i]) for i, k in enumerate(keys)},
                    {**{k: r(legible[i]) for i, k in enumerate(keys)},
                     next(iter(keys)): Values([math.inf] * 10, seeds=range(1, 11))},
                    "Fig. 8's legible annotations 5.0, 6.9 and 1 ms, the fourth panel's (lost) read as the largest; "
                    "counter-datum: one setting never stable in the window"),
        paper=PaperValue(max(FIG8_STABLE_MS), "ms", f"{PAPER} Fig. 8", derived="the largest legible annotation")))

    def faster(smaller, larger):
        a, b = settles_within(smaller, bound, "Ru 0.8 Mb/s"), settles_within(larger, bound, "Ru 8 Mb/s")
        state = (SUPPORTED if (a.state, b.state) == (SUPPORTED, NOT_SUPPORTED) else
                 NOT_SUPPORTED if (a.state, b.state) == (NOT_SUPPORTED, SUPPORTED) else INCONCLUSIVE)
        return Verdict(state, f"{a.evidence}; {b.evidence}", a.intervals + b.intervals)
    never = Values([math.inf] * 10, seeds=range(1, 11))
    out.append(claim(
        "prop3.convergence-slower-with-ru", "Without considering time lags and stochastic perturbations, the rate of "
        "convergence for BCN generally decreases with Gi, Gd and Ru", f"{PAPER} §V.C, Proposition 3",
        f"at 10 Gb/s, Pm 0.05: the queue CS→ES5 stable within {num(bound)} ms (as Fig. 8's row) in more than half of "
        "the runs with the smaller Ru (0.8 Mb/s) and in fewer than half with the larger (8 Mb/s)",
        faster, {"smaller": settle_times(runs, "fig8", "10G-ru0.8-pm0.05"),
                 "larger": settle_times(runs, "fig8", "10G-ru8-pm0.05")},
        Calibration({"smaller": r(1.0), "larger": never}, {"smaller": never, "larger": r(1.0)},
                    "words only: converging faster with the smaller Ru; counter-datum: the larger Ru stable, the "
                    "smaller never"),
        reason="the model cannot produce the condition: the proposition is about eq. (7) without time lags and "
               "stochastic perturbations, and a packet-level run has both (sampling with probability Pm, feedback "
               "delays); no run of the paper or of cnsim varies Gi or Gd. The rule's verdict on Fig. 8's runs is shown "
               "for information"))

    def pairs(**x):
        return compare.all_of([clearly(x[f"{k}_worse"], x[f"{k}_better"], 1, f"queue std-dev, {k}")
                               for k in sorted({k.rsplit("_", 1)[0] for k in x})])

    def pair_cal(names):
        return Calibration({**{f"{k}_worse": r(BAND * WORDS, f"{k}w") for k in names},
                            **{f"{k}_better": r(BAND, f"{k}b") for k in names}},
                           {**{f"{k}_worse": r(BAND, f"{k}w") for k in names},
                            **{f"{k}_better": r(BAND * WORDS, f"{k}b") for k in names}}, words_basis)
    ru_in = {}
    for cap in (1, 10):
        ru, pm = BEST[cap]
        other = 8.0 if ru == 0.8 else 0.8
        k = f"{cap}G Ru{other:g} − Ru{ru:g}"
        ru_in[f"{k}_worse"], ru_in[f"{k}_better"] = std[cap, other, pm], std[cap, ru, pm]
    out.append(claim(
        "vic.ru-scales-with-capacity", "The optimal Ru appears to be a fixed fraction of the bottleneck capacity "
        "(0.8 Mb/s at 1 Gb/s, 8 Mb/s at 10 Gb/s)", f"{PAPER} §VI.C",
        f"at each capacity (the paper's best Pm) the paper's Ru gives the smaller queue std-dev, Welch, {MIN_EFFECT}",
        pairs, ru_in, pair_cal({k.rsplit("_", 1)[0] for k in ru_in})))
    pm_in, msg_in = {}, {}
    for cap in (1, 10):
        for ru in (0.8, 8.0):
            k = f"{cap}G Ru{ru:g}"
            pm_in[f"{k} Pm0.05 − Pm0.1_worse"], pm_in[f"{k} Pm0.05 − Pm0.1_better"] = std[cap, ru, 0.05], std[cap, ru, 0.1]
            exp, var = f"fig{7 if cap == 1 else 8}", f"{cap}G-ru{ru:g}-pm"
            msg_in[f"{k} Pm0.1 − Pm0.05_worse"] = val(runs, exp, var + "0.1", "CS>ES5", "bcn_sent")
            msg_in[f"{k} Pm0.1 − Pm0.05_better"] = val(runs, exp, var + "0.05", "CS>ES5", "bcn_sent")
    out.append(claim(
        "vic.larger-pm-steadier", "Larger Pm can restrain the magnitude of the oscillations", f"{PAPER} §VI.C",
        f"every (capacity, Ru): queue std-dev at Pm 0.05 larger than at Pm 0.1, Welch, {MIN_EFFECT}",
        pairs, pm_in, pair_cal({k.rsplit("_", 1)[0] for k in pm_in})))
    out.append(claim(
        "vic.larger-pm-more-messages", "However, this [a larger Pm] results in more frequent BCN messages",
        f"{PAPER} §VI.C",
        "every (capacity, Ru): BCN messages the CP sent in the window at Pm 0.1 more than at Pm 0.05, Welch, "
        f"{MIN_EFFECT}. Not by construction: a sampled frame sends a message only when the queue is above Qeq, or "
        "below it when the frame carries the CP's own rate-regulator tag (§IV.E), and Pm changes the queue",
        lambda **x: pairs(**x).saying(pairs(**x).evidence.replace("queue std-dev", "messages")), msg_in,
        pair_cal({k.rsplit("_", 1)[0] for k in msg_in})))
    return out


def _parking_lot(runs: Runs) -> list[Check]:
    out = []
    rate = {s: val(runs, "table3", "bcn", s, "thr_gbps") for s in PARK}
    t3 = f"{PAPER} Table III"
    out.append(claim(
        "table3.r5-over-r1", "The simulation results show that r5/r1 is approximately 2 (the proportional fair "
        "allocation)", f"{PAPER} §VI.D, Table III", f"the interval of r5/r1 inside 2 {CLOSE}",
        lambda ratio: near(ratio, 2.0, "r5/r1"), {"ratio": combine(lambda a, b: a / b, rate["ST5"], rate["ST1"])},
        Calibration({"ratio": r(TABLE3[4] / TABLE3[0])}, {"ratio": r(1.0)},
                    "Table III: r5/r1 = 3.08 ÷ 1.46 = 2.11 (derived); counter-datum: the max-min ratio 1"),
        paper=PaperValue(2.0, "1", f"{PAPER} §VI.D", derived="Table III's r5 ÷ r1 = 3.08 ÷ 1.46 = 2.11")))
    out.append(claim(
        "table3.not-max-min", "BCN achieves proportional fairness and not max-min fairness (max-min gives r5 = r1)",
        f"{PAPER} §VI.D, §VII", f"r5 − r1, paired (the same runs), {MIN_EFFECT}",
        lambda r5, r1: clearly(r5, r1, 1, "r5 − r1 Gb/s"), {"r5": rate["ST5"], "r1": rate["ST1"]},
        Calibration({"r5": r(TABLE3[4], "t3"), "r1": r(TABLE3[0], "t3")},
                    {"r5": r(LINK_GBPS / 5, "t3"), "r1": r(LINK_GBPS / 5, "t3")},
                    "Table III: r5 3.08, r1 1.46 Gb/s; counter-datum: the max-min allocation C/5 each"),
        paper=f"r5 {TABLE3[4]}, r1 {TABLE3[0]} Gb/s ({t3})"))
    util3 = [sum_of(runs, "table3", "bcn", PARK[:5], "thr_gbps", 100 / LINK_GBPS),
             sum_of(runs, "table3", "bcn", PARK[:4] + PARK[5:], "thr_gbps", 100 / LINK_GBPS)]

    def about_93(sw12, sw23):
        return compare.all_of([compare.against(u, TABLE4_UTIL.value, ABOUT_93_TOL).saying(
            f"{k}: " + compare.against(u, TABLE4_UTIL.value, ABOUT_93_TOL).evidence)
            for k, u in (("SW1→SW2", sw12), ("SW2→SW3", sw23))])
    out.append(claim(
        "table3.utilisation", "Note that the link utilization is about 93 % (read on Table III's run; on Table IV's, "
        "where the sentence stands, it is not testable as stated)", f"{PAPER} §VI.D",
        f"each bottleneck's Σ of its five sources' rates ÷ {LINK_GBPS:g} Gb/s, interval inside 93 ± {num(ABOUT_93_TOL)} "
        "points: the paper calls its own 92.6 and 92.0 % (derived from Table III, rounded to ± 0.25 points) about 93 %",
        about_93, {"sw12": util3[0], "sw23": util3[1]},
        Calibration({"sw12": r(TABLE3_UTIL[0]), "sw23": r(TABLE3_UTIL[1])},
                    {"sw12": r(TABLE4_UTIL_DERIVED[0]), "sw23": r(TABLE4_UTIL_DERIVED[1])},
                    "Table III's rates: 92.6 and 92.0 % (derived); counter-datum: Table IV's last two seconds, 99.45 "
                    "and 99.9 %"), paper=TABLE4_UTIL))
    late = {s: combine(lambda a, b: (a + b) / 2, *(runs.values(w, s, experiment="table4", variant="bcn")
                                                     for w in _late_windows(runs))) for s in PARK}
    util4 = [combine(lambda *x: 100 * sum(x) / LINK_GBPS, *(late[s] for s in PARK[:5])),
             combine(lambda *x: 100 * sum(x) / LINK_GBPS, *(late[s] for s in PARK[:4] + PARK[5:]))]
    out.append(claim(
        "table4.utilisation", "Note that the link utilization is about 93 % (Table IV's run, the last two seconds)",
        f"{PAPER} §VI.D, Table IV", "as table3.utilisation, on Table IV's last two seconds (mean of seconds 2 and 3)",
        about_93, {"sw12": util4[0], "sw23": util4[1]},
        Calibration({"sw12": r(TABLE4_UTIL_DERIVED[0]), "sw23": r(TABLE4_UTIL_DERIVED[1])},
                    {"sw12": r(TABLE4_UTIL_DERIVED[0]), "sw23": r(TABLE4_UTIL_DERIVED[1])},
                    "Table IV's last two seconds: 99.45 and 99.9 % (derived)"), paper=TABLE4_UTIL,
        reason=f"the paper's numbers contradict its words: the sentence follows Table IV, whose last two seconds give "
               f"{num(TABLE4_UTIL_DERIVED[0])} % and {num(TABLE4_UTIL_DERIVED[1])} % of C on the two bottlenecks "
               f"(derived), not about 93 %; Table III's give {num(TABLE3_UTIL[0])} and {num(TABLE3_UTIL[1])} %, and the sentence "
               "is tested there (table3.utilisation)"))
    first = {s: runs.values(_first_window(runs), s, experiment="table4", variant="bcn") for s in PARK[:5]}

    def equal(**x):
        spread = combine(lambda *v: (max(v) - min(v)) / max(v), *(x[s] for s in sorted(x)))
        v = compare.beyond(spread, CLOSE_REL, -1)
        return v.saying(f"(largest − smallest) ÷ largest of r1..r5: {v.evidence}")
    out.append(claim(
        "table4.equal-while-st6-idle", "In the first second [ST6 idle], the first 5 sources are supposed to have equal "
        "rates", f"{PAPER} §VI.D, Table IV",
        f"the spread (largest − smallest) ÷ largest of r1..r5 in the first second below {CLOSE_REL:.1%} (very close)",
        equal, first, Calibration({s: r(TABLE4[1][i], "t4") for i, s in enumerate(PARK[:5])},
                                  {**{s: r(TABLE4[1][0], "t4") for s in PARK[:4]}, PARK[4]: r(2 * TABLE4[1][0], "t4")},
                                  "Table IV's first second: 1.81, 1.82, 1.83, 2.23, 2.25 Gb/s"),
        reason=f"the paper's numbers contradict its words: its first second gives r1 = {TABLE4[1][0]} and r5 = "
               f"{TABLE4[1][4]} Gb/s, {(TABLE4[1][4] - TABLE4[1][0]) / TABLE4[1][4]:.1%} apart — more than the "
               f"{CLOSE_REL:.1%} the paper calls very close (§VI.F), so Table IV does not show equal rates"))
    base = combine(lambda *x: float(np.mean(x)), *(late[s] for s in PARK[:4]))
    ratios = {"r5": combine(lambda a, b: a / b, late["ST5"], base), "r6": combine(lambda a, b: a / b, late["ST6"], base)}
    p4 = {k: sum(TABLE4_LATE[:4]) / 4 for k in ("r5", "r6")}
    out.append(claim(
        "table4.proportional-after-st6", "After ST6 starts it is still approximately proportional fair for all sources "
        "(r5 and r6 twice r1..r4)", f"{PAPER} §VI.D, Table IV",
        f"over seconds 2–3, r5 and r6 each ÷ the mean of r1..r4: interval inside 2 {CLOSE}",
        lambda r5, r6: compare.all_of([near(r5, 2.0, "r5 ÷ mean r1..r4"), near(r6, 2.0, "r6 ÷ mean r1..r4")]), ratios,
        Calibration({"r5": r(TABLE4_LATE[4] / p4["r5"]), "r6": r(TABLE4_LATE[5] / p4["r6"])},
                    {"r5": r(1.0), "r6": r(1.0)},
                    f"Table IV, seconds 2–3: r5 ÷ mean r1..r4 = {TABLE4_LATE[4] / p4['r5']:.3g}, r6 ÷ it = "
                    f"{TABLE4_LATE[5] / p4['r6']:.3g} (derived); counter-datum: max-min, 1"),
        paper=PaperValue(2.0, "1", f"{PAPER} §VI.D", derived="the proportional fair r5/r1 = r6/r1 = 2")))
    pause = {s: val(runs, "table3", "pause", s, "thr_gbps") for s in ("ST5", "ST6")}
    out.append(Check("table3.pause-unfair", "PAUSE without BCN is unfair on the parking lot: ST6 (one hop from the "
                     "second bottleneck) gets more than ST5", "cnsim's TCP + PAUSE runs",
                     clearly(pause["ST6"], pause["ST5"], 1, "r6 − r5 Gb/s, paired"), f"paired, {MIN_EFFECT}",
                     kind="project"))
    return out


def _windows(runs: Runs) -> list[str]:
    """Table IV's per-second throughput metrics, by their end (scaled under --quick)."""
    names = {m for m in runs.frame.loc[runs.frame.experiment == "table4", "metric"] if m.startswith("thr_gbps_")} \
        if "experiment" in runs.frame else set()
    return sorted(names, key=lambda m: float(m.removeprefix("thr_gbps_").removesuffix("s")))


def _late_windows(runs: Runs) -> list[str]:
    w = _windows(runs)
    return w[-2:] if len(w) >= 2 else ["thr_gbps_2s", "thr_gbps_3s"]


def _first_window(runs: Runs) -> str:
    w = _windows(runs)
    return w[0] if w else "thr_gbps_1s"


def _asymmetric(runs: Runs) -> list[Check]:
    out = []
    t5 = f"{PAPER} Table V"
    rate = {s: val(runs, "table5", "bcn", s, "thr_gbps") for s in BULK}
    util = {"ES5→DT1": combine(lambda a, b: 100 * (a + b) / LINK_GBPS, rate["ST1"], rate["ST2"]),
            "ES5→DT2": combine(lambda a, b: 100 * (a + b) / 1.0, rate["ST3"], rate["ST4"])}

    def busy(**u):
        return compare.all_of([compare.beyond(u[k], HIGH_PCT).saying(f"{k.replace('_', '→')} %: "
                                                                      f"{compare.beyond(u[k], HIGH_PCT).evidence}")
                               for k in sorted(u)])
    keys = {"ES5_DT1": util["ES5→DT1"], "ES5_DT2": util["ES5→DT2"]}
    out.append(claim(
        "table5.both-links-busy", "Note that both congested links (ES5→DT1, ES5→DT2) are highly utilized",
        f"{PAPER} §VI.E, Table V",
        f"each link's Σ of its two sources' rates ÷ its capacity above {num(HIGH_PCT)} %: the paper calls its own "
        f"{num(TABLE5_UTIL[0])} % (Table V's ST1 + ST2 on 10 Gb/s, derived) highly utilized, less the rounding",
        busy, keys,
        Calibration({"ES5_DT1": r(TABLE5_UTIL[0]), "ES5_DT2": r(TABLE5_UTIL[1])},
                    {"ES5_DT1": r(100 * TABLE5[0] / LINK_GBPS), "ES5_DT2": r(100 * TABLE5[2] / 1.0)},
                    "Table V: 83.8 and 100 % (derived); counter-datum: each link carrying one source's rate (43.4, 51 %)"),
        paper=f"{num(TABLE5_UTIL[0])} %, {num(TABLE5_UTIL[1])} % (derived from {t5})"))
    out.append(claim(
        "table5.rates", "The average throughput for the sources of the asymmetric topology (Table V)", t5,
        f"each source's interval inside the paper's rate {CLOSE}",
        lambda **x: compare.all_of([near(x[s], TABLE5[i], s) for i, s in enumerate(BULK)]), rate,
        Calibration({s: r(TABLE5[i], "t5") for i, s in enumerate(BULK)},
                    {**{s: r(TABLE5[i], "t5") for i, s in enumerate(BULK)}, "ST1": r(TABLE5[0] * WORDS, "t5")},
                    f"Table V: 4.34, 4.04, 0.51, 0.49 Gb/s; counter-datum: ST1 at {WORDS:.3g}× its rate"),
        paper=f"{', '.join(f'{x:g}' for x in TABLE5)} Gb/s ({t5})"))
    std = {k: val(runs, "table5", "bcn", q, "q_std") for k, q in (("sw1", SW1), ("sw2", SW2))}
    out.append(claim(
        "fig11.oscillations-at-sw2", "Note that there are relatively large oscillations at SW2",
        f"{PAPER} §VI.E, Fig. 11",
        f"queue std-dev at SW2 (ES5→DT2, the 1 Gb/s link) larger than at SW1 (ES5→DT1), paired (the same runs), "
        f"{MIN_EFFECT}",
        lambda sw2, sw1: clearly(sw2, sw1, 1, "queue std-dev frames, SW2 − SW1"), std,
        Calibration({"sw2": r(BAND * WORDS, "a"), "sw1": r(BAND, "a")}, {"sw2": r(BAND, "a"), "sw1": r(BAND * WORDS, "a")},
                    "Fig. 11's panels are not in the text; words only: SW2's std-dev a difference the paper would not "
                    f"call very close above SW1's ({WORDS:.3g}×); counter-datum: reversed")))
    one = val(runs, *ONE_CP_1G, "CS>ES5", "q_std")
    out.append(claim(
        "fig11.congestion-propagation", "These [oscillations at SW2] are due to the congestion propagation between "
        "the two congested links", f"{PAPER} §VI.E, Fig. 11",
        "queue std-dev at SW2 larger than at a single congestion point of the same capacity and BCN settings (Fig. 7's "
        f"1 Gb/s bottleneck, Ru 0.8 Mb/s, Pm 0.05), Welch, {MIN_EFFECT}",
        lambda sw2, one: clearly(sw2, one, 1, "queue std-dev frames, SW2 − one congestion point"),
        {"sw2": std["sw2"], "one": one},
        Calibration({"sw2": r(BAND * WORDS, "a"), "one": r(BAND, "b")}, {"sw2": r(BAND, "a"), "one": r(BAND * WORDS, "b")},
                    f"words only: SW2's std-dev {WORDS:.3g}× a single congestion point's; counter-datum: reversed")))
    e_abs = {n: val(runs, *c, "CS>ES5", "e_abs_mean") for n, c in (("one", E_ONE_SRC), ("four", E_FOUR_SRC))}
    out.append(claim(
        "vie.e-one-source", "For single source simulation, e_i(t) ≈ 1", f"{PAPER} §VI.E",
        f"mean absolute e of the BCN messages CS→ES5 sent, ST1 alone on the symmetric topology at 1 Gb/s (Ru 0.8 Mb/s, "
        f"Pm 0.1): interval inside 1 ± {E_TOL:g} frame (the paper's e counts whole packets)",
        lambda e: compare.against(e, E_ONE.value, E_TOL), {"e": e_abs["one"]},
        Calibration({"e": r(E_ONE.value)}, {"e": r(E_ONE.value + 2 * E_TOL)},
                    "§VI.E: e ≈ 1; counter-datum: 2 packets"), paper=E_ONE))
    extreme = combine(lambda lo, hi: max(-lo, hi), val(runs, *E_FOUR_SRC, "CS>ES5", "e_min"),
                      val(runs, *E_FOUR_SRC, "CS>ES5", "e_max"))
    mid, half = sum(E_EXTREMES) / 2, (E_EXTREMES[1] - E_EXTREMES[0]) / 2 + E_TOL

    def four(four, one, extreme):
        return compare.all_of([clearly(four, one, 1, "mean |e|, four sources − one"),
                               compare.against(extreme, mid, half).saying(
                                   "largest |e| of the window, four sources: " + compare.against(extreme, mid, half).evidence)])
    out.append(claim(
        "vie.e-four-sources", "In four sources scenario, e_i(t) is much larger, sometimes e_i = ±6, or ±7",
        f"{PAPER} §VI.E",
        f"the same run with ST1..ST4: mean |e| larger than with one source (Welch, {MIN_EFFECT}), and the window's "
        f"largest |e| inside 6–7 ± {E_TOL:g} packet (the extremes the paper saw, whole packets; the paper gives no "
        "window, cnsim's is 0.8 s and an extreme grows with it)",
        four, {"four": e_abs["four"], "one": e_abs["one"], "extreme": extreme},
        Calibration({"four": r(E_ONE.value * WORDS, "4"), "one": r(E_ONE.value, "1"), "extreme": r(mid, "4")},
                    {"four": r(E_ONE.value * WORDS, "4"), "one": r(E_ONE.value, "1"), "extreme": r(2 * E_EXTREMES[1], "4")},
                    f"§VI.E: ≈ 1 with one source, \"much larger\" with four ({WORDS:.3g}×, the smallest the words "
                    "imply), extremes ±6 or ±7; counter-datum: extremes of ±14"),
        paper="±6 or ±7 frames; ≈ 1 with one source (" + PAPER + " §VI.E)"))
    return out


def _mixed(runs: Runs) -> list[Check]:
    out = []
    t6 = f"{PAPER} Table VI"
    tcp = {k: mean_of(runs, "table6", k, BULK, "thr_gbps") for k in ("bcn", "none")}
    udp = {k: mean_of(runs, "table6", k, UDP, "thr_gbps") for k in ("bcn", "none")}
    out.append(claim(
        "table6.tcp-udp-close", "The average throughputs of TCP and UDP sources are very close (BCN does not "
        "discriminate UDP traffic from TCP traffic)", f"{PAPER} §VI.F, Table VI",
        f"TCP − UDP (means over the four sources of each), paired (the same runs), within {CLOSE} of the larger",
        lambda tcp, udp: alike(tcp, udp, "TCP − UDP Gb/s"), {"tcp": tcp["bcn"], "udp": udp["bcn"]},
        Calibration({"tcp": r(TABLE6_MEANS[0], "t6"), "udp": r(TABLE6_MEANS[1], "t6")},
                    {"tcp": r(TABLE6_MEANS[0], "t6"), "udp": r(TABLE6_MEANS[0] * WORDS, "t6")},
                    f"§VI.F: 1.16 and 1.34 Gb/s; counter-datum: UDP at {WORDS:.3g}× TCP"),
        paper=f"TCP {TABLE6_MEANS[0]}, UDP {TABLE6_MEANS[1]} Gb/s ({PAPER} §VI.F)"))
    out.append(claim(
        "table6.udp-slightly-more", "UDP flows have a slightly higher throughput than TCP (TCP flows adjust their rates "
        "below that set by the rate regulators)", f"{PAPER} §VI.F",
        f"UDP − TCP, paired (the same runs: TCP + UDP share the link in each), minimum effect {num(SLIGHT_GBPS)} Gb/s "
        "(the stated means' resolution)",
        lambda udp, tcp: compare.exceeds(udp, tcp, SLIGHT_GBPS).saying(
            "UDP − TCP Gb/s: " + compare.exceeds(udp, tcp, SLIGHT_GBPS).evidence), {"udp": udp["bcn"], "tcp": tcp["bcn"]},
        Calibration({"udp": r(TABLE6_MEANS[1], "t6"), "tcp": r(TABLE6_MEANS[0], "t6")},
                    {"udp": r(TABLE6_MEANS[0], "t6"), "tcp": r(TABLE6_MEANS[1], "t6")},
                    "§VI.F: UDP 1.34, TCP 1.16 Gb/s; counter-datum: swapped"),
        paper=f"TCP {TABLE6_MEANS[0]}, UDP {TABLE6_MEANS[1]} Gb/s ({PAPER} §VI.F)"))
    rate = {s: val(runs, "table6", "bcn", s, "thr_gbps") for s in MIXED}
    out.append(claim(
        "table6.rates", "The average throughput of each TCP and UDP source with BCN (Table VI)", t6,
        f"each source's interval inside the paper's rate {CLOSE}",
        lambda **x: compare.all_of([near(x[s], TABLE6[i], s) for i, s in enumerate(MIXED)]), rate,
        Calibration({s: r(TABLE6[i], "t6") for i, s in enumerate(MIXED)},
                    {**{s: r(TABLE6[i], "t6") for i, s in enumerate(MIXED)}, "SU1": r(TABLE6[4] * WORDS, "t6")},
                    f"Table VI: 1.23, 1.22, 1.18, 1.01, 1.33, 1.37, 1.31, 1.35 Gb/s; counter-datum: SU1 at {WORDS:.3g}×"),
        paper=f"{', '.join(f'{x:g}' for x in TABLE6)} Gb/s ({t6})"))
    out.append(Check("vif.udp-takes-link-without-bcn", "Without BCN (drop-tail), UDP takes the link from TCP — the "
                     "paper has no such run; it argues that transport-layer control reduces only TCP traffic (§VI.F)",
                     "cnsim's mixed run without BCN",
                     clearly(udp["none"], tcp["none"], 1, "UDP − TCP Gb/s, paired"), f"paired, {MIN_EFFECT}",
                     kind="project"))
    std = {k: val(runs, "fig14", f"bcn-{k}", "CS>ES5", "q_std") for k in ("1ms", "100ms")}
    out.append(claim(
        "fig14.short-bursts-oscillate-more", "There are very large oscillations when the burst period is 1 ms "
        "(against 100 ms)", f"{PAPER} §VI.G, Fig. 14", f"queue std-dev, 1 ms − 100 ms, Welch, {MIN_EFFECT}",
        lambda short, long: clearly(short, long, 1, "queue std-dev frames, 1 ms − 100 ms"),
        {"short": std["1ms"], "long": std["100ms"]},
        Calibration({"short": r(BAND * WORDS, "s"), "long": r(BAND, "l")}, {"short": r(BAND, "s"), "long": r(BAND * WORDS, "l")},
                    f"Fig. 14's panels are not in the text; words only: {WORDS:.3g}×; counter-datum: reversed")))
    q = {k: val(runs, "fig14", f"bcn-{k}", "CS>ES5", "q_mean") for k in ("1ms", "100ms")}
    out.append(claim(
        "fig14.queue-around-qeq", "However, the average queue length is still around Qeq", f"{PAPER} §VI.G, Fig. 14",
        f"for both burst periods, the mean queue's interval inside Qeq ± {BAND} frames",
        lambda short, long: compare.all_of([compare.against(short, QEQ, BAND), compare.against(long, QEQ, BAND)]),
        {"short": q["1ms"], "long": q["100ms"]},
        Calibration({"short": r(QEQ), "long": r(QEQ)}, {"short": r(QEQ + 2 * BAND), "long": r(QEQ)},
                    f"words: the mean at Qeq; counter-datum: {QEQ + 2 * BAND} frames with 1-ms bursts"),
        paper=PaperValue(QEQ, "frames", f"{PAPER} §VI.A (Qeq)")))
    return out


def table4_utilisation(v: View) -> list[np.ndarray]:
    """Per seed, % of each parking-lot bottleneck over Table IV's last two seconds: SW1→SW2 carries
    ST1..ST5, SW2→SW3 ST1..ST4 and ST6 (§VI.D), at §VI.A's 10 Gb/s (the report's table)."""
    windows = sorted({m for m in v.df[v.df.experiment == "table4"].metric if m.startswith("thr_gbps_")},
                     key=lambda m: float(m.removeprefix("thr_gbps_").removesuffix("s")))[-2:]
    if len(windows) < 2:
        return [np.array([]), np.array([])]
    late = sum(v.per_seed("table4", "bcn", PARK, w) for w in windows) / 2
    if not late.size:
        return [np.array([]), np.array([])]
    return [late[:, :5].sum(axis=1) / LINK_GBPS * 100, (late[:, :4].sum(axis=1) + late[:, 5]) / LINK_GBPS * 100]
