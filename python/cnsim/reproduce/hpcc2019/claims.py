"""The claims of `hpcc2019`, from the sources cnsim could read.

cnsim could not read the paper's §5 (its text and figures): the claims come from what is readable —
the paper's abstract [ABSTRACT], the authors' results page [RESULTS] (hpcc-group.github.io/results.html:
their ns-3 runs "with the same topology and configurations of CC schemes as those in the paper",
except η = 99 % and DCQCN+w / TIMELY+w) and the artifact's configuration (experiment.py). No number of
§5 is quoted, so every claim is an ordering of schemes, not a value.

Every comparison is between two protocols run on the same seeds: a seed fixes the workload's arrivals,
sizes and destinations (its stream depends on the seed, the workload's name and the host), so the
two runs of one seed carry the same transfers and the comparison is paired by seed. The quantity
compared is the relative reduction r = 1 − HPCC's value / the other's, per seed.

The minimum effect. The sources give words ("significantly improves", "more evident", "little
congestion"), no number. The smallest effect a word like "significantly" is read to imply is the
project's default relative tolerance (compare.REL_TOL, 20 %): a reduction of at least 20 %. The paper's
data for such a claim is that smallest effect (r = 20 %, which the rule must accept); its counter-datum
is the reverse (r = −20 %: HPCC worse by as much).
"""

from __future__ import annotations

from .. import compare
from ..calibration import stated
from ..paper import Runs
from ..verdicts import Calibration, Check, claim

ABSTRACT = "Li et al. 2019, abstract"
RESULTS = "authors' results page (hpcc-group.github.io/results.html), web search, 30 % load"
RESULTS_HADOOP = "authors' results page (hpcc-group.github.io/results.html), Hadoop, 30 % load"
MIN_REDUCTION = compare.REL_TOL       # "significantly": the smallest effect the words are read to imply
LONGER = 0.05                         # the page's "~5% more" load, read as a 5 % longer median
MORE_EVIDENT = 0.10                   # "more evident": ten points more reduction (a reading; no number given)
OTHERS = ("dcqcn", "timely", "dctcp")
SHORT = "<200KB"
LONG = "1MB-10MB"      # long flows: the bucket whose median is not censored in every protocol's runs


def reduction(runs: Runs, metric: str, part: str, other: str, **label) -> dict[int, float]:
    """{seed: 1 − HPCC's value / `other`'s} over the seeds both have (0 when both are 0)."""
    h = runs.by_seed(metric, part, cc="hpcc", **label)
    o = runs.by_seed(metric, part, cc=other, **label)
    out = {}
    for s in sorted(set(h) & set(o)):
        if o[s] > 0:
            out[s] = 1 - h[s] / o[s]
        elif h[s] == 0:
            out[s] = 0.0
    return out


def _at_least(r, min_effect: float) -> compare.Verdict:
    """The claim "the reduction is at least `min_effect`" on per-seed reductions `r`."""
    return compare.judge_difference(compare.interval(r), min_effect, 1, "reduction 1 − HPCC/other")


def _reduction_claim(id, words, source, rule, r, min_effect=MIN_REDUCTION) -> Check:
    return claim(id, words, source, rule, lambda r, _m=min_effect: _at_least(r, _m), {"r": r},
                 Calibration({"r": stated(min_effect)}, {"r": stated(-min_effect)},
                             f"words only: the smallest reduction they imply, {min_effect:.0%} (accepted); "
                             f"counter-datum HPCC worse by as much (−{min_effect:.0%})"))


def checks(runs: Runs) -> list[Check]:
    out = []
    for workload, src in (("web-search", RESULTS), ("fb-hadoop", RESULTS_HADOOP)):
        lab = {"workload": workload, "load": 0.3}
        words = ("HPCC significantly improves the FCT for flows < 200KB, especially at the tail" if workload == "web-search"
                 else "Under the Hadoop workload, the trend is similar")
        for other in OTHERS:
            out.append(_reduction_claim(
                f"{workload}.load30.short-tail-vs-{other}", f"{words} ({other.upper()}: 95th-percentile slowdown)", src,
                f"per-seed reduction of the 95th-percentile FCT slowdown of flows < 200 KB against {other.upper()} on the "
                f"same transfers, at least {MIN_REDUCTION:.0%} (words only; see claims.py)",
                reduction(runs, "p95_slowdown", SHORT, other, **lab)))
    for other in ("dcqcn", "timely"):
        ws = reduction(runs, "p95_slowdown", SHORT, other, workload="web-search", load=0.3)
        hd = reduction(runs, "p95_slowdown", SHORT, other, workload="fb-hadoop", load=0.3)
        out.append(claim(
            f"load30.hadoop-advantage-more-evident-vs-{other}",
            f"since there are more short flows, HPCC's advantage is more evident (Hadoop against web search; "
            f"{other.upper()})", RESULTS_HADOOP,
            f"Welch: the reduction of the short flows' 95th-percentile slowdown against {other.upper()} under Hadoop "
            f"exceeds that under web search by at least {MORE_EVIDENT:.0%} points (a reading of 'more evident')",
            lambda hd, ws: compare.exceeds(hd, ws, MORE_EVIDENT, paired=False), {"hd": hd, "ws": ws},
            Calibration({"hd": stated(MIN_REDUCTION + MORE_EVIDENT), "ws": stated(MIN_REDUCTION)},
                        {"hd": stated(MIN_REDUCTION), "ws": stated(MIN_REDUCTION + MORE_EVIDENT)},
                        "the smallest advantage the words imply under web search and that plus the reading's ten points "
                        "under Hadoop; counter-datum: the two swapped")))
    lab = {"workload": "web-search", "load": 0.3}
    for other in ("dcqcn", "timely", "dctcp"):
        out.append(_reduction_claim(
            f"web-search.load30.queue-vs-{other}",
            f"HPCC resolves congestion in just one RTT, and converge to zero queue thereafter ({other.upper()}: the "
            "fabric's time-average queue)", RESULTS,
            f"per-seed reduction of the switches' summed time-average queue against {other.upper()}, at least "
            f"{MIN_REDUCTION:.0%}", reduction(runs, "q_mean_kb", "all", other, **lab)))
    h = runs.by_seed("p50_slowdown", LONG, cc="hpcc", **lab)
    for other in ("dcqcn", "timely"):
        o = runs.by_seed("p50_slowdown", LONG, cc=other, **lab)
        r = {s: h[s] / o[s] - 1 for s in sorted(set(h) & set(o)) if o[s] > 0}
        out.append(claim(
            f"web-search.load30.long-flows-slower-vs-{other}",
            f"HPCC-INT has longer FCT for long flows ... because of the INT overhead ({other.upper()}: median slowdown "
            "of flows of 1–10 MB)", RESULTS,
            "per-seed increase HPCC/other − 1 of the median slowdown of flows of 1–10 MB (censored: a transfer still "
            f"running counts as infinitely slow; a seed whose median fell on one is left out), at least {LONGER:.0%} "
            "(the page's 'effectively runs at a higher network load (~5% more)')",
            lambda r: compare.judge_difference(compare.interval(r), LONGER, 1, "increase HPCC/other − 1"), {"r": r},
            Calibration({"r": stated(LONGER)}, {"r": stated(-LONGER)},
                        "the page's ~5 % more load read as a 5 % longer median (accepted); counter-datum: 5 % shorter")))
    # "Up to 95 %": a bound over the paper's settings; shown, not counted.
    r = reduction(runs, "p99_slowdown", SHORT, "dcqcn", **lab)
    out.append(claim(
        "web-search.load30.up-to-95pct-vs-dcqcn", "compared to DCQCN and TIMELY, HPCC shortens flow completion times by "
        "up to 95%", ABSTRACT, "the 99th-percentile slowdown's reduction of flows < 200 KB against DCQCN lies below 95 %",
        lambda r: compare.beyond(r, 0.95, -1), {"r": r}, None,
        reason="'up to' bounds the largest reduction over the paper's settings, sizes and percentiles, which its §5 "
               "figures give and cnsim could not read: any smaller reduction agrees with it, so the words exclude no "
               "outcome of these runs but a reduction above 95 %"))
    return out


def project_findings(runs: Runs) -> list[Check]:
    """cnsim's own observations (not claims of a readable source): PFC pause time of HPCC against the
    others, paired by seed, at each workload and load; minimum effect 20 % as for the claims."""
    out = []
    for workload in ("web-search", "fb-hadoop"):
        for load in (0.3, 0.5):
            for other in ("dcqcn", "timely"):
                r = reduction(runs, "paused_us", "all", other, workload=workload, load=load)
                out.append(Check(
                    f"{workload}.load{round(load * 100)}.pfc-pause-below-{other}",
                    f"HPCC's PFC pause time (summed over ports) is at least {MIN_REDUCTION:.0%} below {other.upper()}'s "
                    f"({workload}, load {load:g}; both zero counts as no reduction)", "project finding",
                    _at_least(r, MIN_REDUCTION), "per-seed reduction 1 − HPCC/other, paired by seed", kind="project"))
    return out
