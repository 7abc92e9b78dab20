"""The claims of Jiang & Jain 2007 §VI, each decided over every seed by compare.py's rule, with the
paper's values from tables.py; the project's own findings apart."""

from __future__ import annotations

import tomllib

import numpy as np

from ... import api
from ...analysis import parse_rate
from .. import compare
from ..compare import Verdict
from ..paper import Runs, scenario_file
from ..verdicts import Check, PaperValue
from .measure import View, cv
from .tables import (BAND, BEST, E_FOUR, E_ONE, FIG8_STABLE, PAPER, PARK, PARK_SCENARIO, QEQ, R5_R1, SETTLE_MS, TABLE1,
                     TABLE2, TABLE2_CV, TABLE4, TABLE4_UTIL, TABLE6_TCP, TABLE6_UDP, UTIL)

BULK = [f"ST{i}" for i in range(1, 5)]
MIXED = BULK + [f"SU{i}" for i in range(1, 5)]
SR2_TOL = 0.10      # "not affected": SR2's rate within ±10 % (cnsim's reading; the paper's two values are 0.06 % apart)
BUSY_PCT = 95.0     # "highly utilised" (Table V): busy at least 95 % of the window (cnsim's reading)
EQUAL_CV_PCT = 10.0  # "equal rates" (Table IV): std/avg across the five sources below 10 % (cnsim's reading)
NEVER_MS = 1e3      # a run whose queue never settles counts as settling at its end (1 s)
# §VI.E's e is a whole number of packets (ns-2 counts its queue in packets): "e ≈ 1" is read as a mean
# |e| that rounds to 1, i.e. within ± half a frame.
E_TOL = 0.5
# §VI.E's one- and four-source runs (experiment.py: the symmetric topology at 1 Gb/s, Fig. 7's best setting)
E_ONE_SRC = ("vie-e", "1G-ru0.8-pm0.1-1src")
E_FOUR_SRC = ("fig7", "1G-ru0.8-pm0.1")
# Fig. 11: the asymmetric run's congestion points (cnsim's names) and the single-congestion-point
# queue of the same capacity and settings (Fig. 7's 1 Gb/s bottleneck, Ru 0.8 Mb/s = 0.0008·C, Pm 0.05)
SW2 = "ES5>DT2"
SW1_READINGS = ("CS>ES5", "ES5>DT1")
ONE_CP_1G = ("fig7", "1G-ru0.8-pm0.05")


def table4_utilisation(v: View) -> list[np.ndarray]:
    """Per seed, % of each parking-lot bottleneck over Table IV's last two seconds: SW1→SW2 carries
    ST1..ST5, SW2→SW3 ST1..ST4 and ST6 (§VI.D), each at the scenario's link rate."""
    rate = parse_rate(tomllib.loads(api.check(scenario_file(PARK_SCENARIO)))["defaults"]["link"]["rate"]) / 1e9
    # the per-second windows are named by their end (scaled under --quick): the last two
    windows = sorted({m for m in v.df[v.df.experiment == "table4"].metric if m.startswith("thr_gbps_")},
                     key=lambda m: float(m.removeprefix("thr_gbps_").removesuffix("s")))[-2:]
    if len(windows) < 2:
        return [np.array([]), np.array([])]
    late = sum(v.per_seed("table4", "bcn", PARK, w) for w in windows) / 2
    if not late.size:
        return [np.array([]), np.array([])]
    return [late[:, :5].sum(axis=1) / rate * 100, (late[:, :4].sum(axis=1) + late[:, 5]) / rate * 100]


def settle_ms(v: View, exp: str, var: str, queue: str = "CS>ES5") -> np.ndarray:
    """Per run, the stable-state time (ms, experiment.settling_time) of `queue`; a run whose queue
    never settles counts as NEVER_MS."""
    settle = np.nan_to_num(v.values(exp, var, queue, "settle_s") * 1e3, nan=NEVER_MS)
    runs_ = len(v.values(exp, var, queue, "q_mean"))
    return np.concatenate([settle, np.full(max(0, runs_ - len(settle)), NEVER_MS)])


def _labelled(what: str, verdict: Verdict) -> Verdict:
    return Verdict(verdict.state, f"{what}: {verdict.evidence}")


def _rel(values) -> float:
    return compare.tolerance(max(abs(compare.interval(values).mean or 0.0), 0.0), "%")


def _more(a, b, direction: int, what: str) -> Verdict:
    """a − b in `direction`, minimum effect 20 % of the larger mean."""
    big = max(abs(compare.interval(a).mean or 0.0), abs(compare.interval(b).mean or 0.0))
    v = compare.exceeds(a, b, compare.REL_TOL * big, direction)
    return Verdict(v.state, f"{what}: {v.evidence}")


def checks(runs: Runs) -> list[Check]:
    v = View(runs.frame)
    out: list[Check] = []
    tps = {k: v.values("table1-2", k, "SR1", "tps") for k in ("none", "bcn", "bcn-perconn")}
    lat = {k: v.values("table1-2", k, "SR1", "latency_us") for k in ("none", "bcn", "bcn-perconn")}
    out.append(Check("table1.sr1-improves", "BCN significantly improves the throughput and delay of reference source 1",
                     f"{PAPER} §VI.B, Table I",
                     compare.all_of([_more(tps["bcn"], tps["none"], 1, "tps, BCN − none"),
                                     _more(lat["bcn"], lat["none"], -1, "latency µs, BCN − none")]),
                     "Welch, minimum effect 20 % of the larger mean, for both",
                     paper=f"tps {TABLE1[('none', 'SR1')][0]} → {TABLE1[('bcn', 'SR1')][0]}, latency "
                           f"{TABLE1[('none', 'SR1')][2]} → {TABLE1[('bcn', 'SR1')][2]} µs ({PAPER} Table I)"))
    out.append(Check("table1.sr1-needs-per-source-regulators", "Reference source 1 gains from BCN regulating each bulk "
                     "host as one source: with one regulator per connection instead, its throughput and delay are worse",
                     "diagnostic: the ten connections per bulk host each behind its own regulator",
                     compare.all_of([_more(tps["bcn"], tps["bcn-perconn"], 1, "tps, per source − per connection"),
                                     _more(lat["bcn"], lat["bcn-perconn"], -1, "latency µs, per source − per connection")]),
                     "Welch, minimum effect 20 % of the larger mean, for both", kind="project"))
    sr2 = {k: v.values("table1-2", k, "SR2", "tps") for k in ("none", "bcn")}
    out.append(Check("table1.sr2-unaffected", "Reference source 2 is not congested and is not affected by BCN",
                     f"{PAPER} §VI.B, Table I",
                     compare.similar(sr2["bcn"], sr2["none"], SR2_TOL * (compare.interval(sr2["none"]).mean or 0.0)),
                     "Welch interval of BCN − none within ±10 % of the rate without BCN",
                     paper=f"{TABLE1[('none', 'SR2')][0]} / {TABLE1[('bcn', 'SR2')][0]} tps ({PAPER} Table I)"))
    util = np.concatenate([v.values("table1-2", k, "CS>ES5", "util_pct") for k in ("none", "bcn")])
    out.append(Check("table2.link-fully-used", "The congested link CS→ES5 is almost fully utilised",
                     f"{PAPER} Table II", compare.against(util, UTIL.value, 1.0),
                     "interval inside 99.9 % ± 1 point (with and without BCN)", paper=UTIL))
    cvs = {k: cv(v.per_seed("table1-2", k, BULK, "thr_gbps")) for k in ("none", "bcn")}
    out.append(Check("table2.bcn-reduces-variance", "BCN reduces the variance of the bulk sources' throughputs "
                     "significantly", f"{PAPER} §VI.B, Table II", _more(cvs["none"], cvs["bcn"], 1, "std/avg %, none − BCN"),
                     "Welch, minimum effect 20 % of the larger", paper=f"{TABLE2_CV['none'].value} → "
                     f"{TABLE2_CV['bcn'].value} % ({PAPER} Table II)"))
    out.append(Check("table2.bcn-variance-value", "std/avg of the bulk sources' throughputs with BCN",
                     f"{PAPER} Table II", compare.against(cvs["bcn"], TABLE2_CV["bcn"].value,
                                                          compare.tolerance(TABLE2_CV["bcn"].value, "%")),
                     "interval inside paper ± 20 % (floor 0.5 points)", paper=TABLE2_CV["bcn"]))
    out.append(Check("fig5.queue-around-qeq", "The queue oscillates closely around Qeq (±4 packets)", f"{PAPER} §VI.B, Fig. 5",
                     compare.against(v.values("table1-2", "bcn", "CS>ES5", "q_mean"), QEQ, 4.0),
                     "mean queue's interval inside Qeq ± 4 frames (the paper's stable band)",
                     paper=PaperValue(QEQ, "frames", f"{PAPER} §VI.A (Qeq)")))
    settle = settle_ms(v, "table1-2", "bcn")
    out.append(Check("fig5.stable-within-4ms", "The queue reaches the stable state within about 4 ms",
                     f"{PAPER} §VI.B, Fig. 5", compare.against(settle, SETTLE_MS, SETTLE_MS),
                     "settling time inside 4 ms ± 4 ms (a run that never settles counts as 1 s)",
                     paper=PaperValue(SETTLE_MS, "ms", f"{PAPER} §VI.B")))
    for cap in (1, 10):
        exp, (ru, pm) = f"fig{7 if cap == 1 else 8}", BEST[cap]
        best = v.values(exp, f"{cap}G-ru{ru:g}-pm{pm:g}", "CS>ES5", "q_std")
        others = [(r, p) for r in (0.8, 8.0) for p in (0.05, 0.1) if (r, p) != (ru, pm)]
        out.append(Check(f"fig{7 if cap == 1 else 8}.best-setting", f"At {cap} Gb/s the best setting is Ru = {ru:g} Mb/s, "
                         f"Pm = {pm:g}", f"{PAPER} §VI.C, Fig. {7 if cap == 1 else 8}",
                         compare.all_of([_more(v.values(exp, f"{cap}G-ru{r:g}-pm{p:g}", "CS>ES5", "q_std"), best, 1,
                                               f"queue std-dev, Ru {r:g}/Pm {p:g} − best") for r, p in others]),
                         "the paper's setting has the smallest queue std-dev: each other setting larger, Welch, "
                         "minimum effect 20 %"))
    bound = FIG8_STABLE.value + compare.tolerance(FIG8_STABLE.value, "ms")
    out.append(Check("fig8.stable-after", "Each setting of the 10 Gb/s factorial becomes stable within a few ms "
                     "(every panel of Fig. 8 is annotated \"stable after …\")", f"{PAPER} §VI.C, Fig. 8",
                     compare.all_of([_labelled(f"Ru {ru:g}/Pm {pm:g}, stable from ms",
                                               compare.beyond(settle_ms(v, "fig8", f"10G-ru{ru:g}-pm{pm:g}"), bound, -1))
                                     for ru in (0.8, 8.0) for pm in (0.05, 0.1)]),
                     f"for each of the four settings, the interval of the queue's stable-state time below the largest "
                     f"legible annotation {FIG8_STABLE.value:g} ms + 20 % (which panel carries which value is lost in the "
                     f"seed text). Stable state as §VI.B defines it: from the first 1-ms block after which every 1-ms "
                     f"mean queue CS→ES5 lies in Qeq ± {BAND} frames; a run that never settles counts as "
                     f"{NEVER_MS / 1e3:g} s", paper=FIG8_STABLE))
    ru_checks = []
    for cap in (1, 10):
        exp, (ru, pm) = f"fig{7 if cap == 1 else 8}", BEST[cap]
        other = 8.0 if ru == 0.8 else 0.8
        ru_checks.append(_more(v.values(exp, f"{cap}G-ru{other:g}-pm{pm:g}", "CS>ES5", "q_std"),
                               v.values(exp, f"{cap}G-ru{ru:g}-pm{pm:g}", "CS>ES5", "q_std"), 1,
                               f"{cap} Gb/s, queue std-dev Ru {other:g} − Ru {ru:g}"))
    out.append(Check("vic.ru-scales-with-capacity", "The optimal Ru is a fixed fraction of the bottleneck capacity "
                     "(0.8 Mb/s at 1 Gb/s, 8 Mb/s at 10 Gb/s)", f"{PAPER} §VI.C", compare.all_of(ru_checks),
                     "at each capacity the paper's Ru gives the smaller queue std-dev, Welch, minimum effect 20 %"))
    pm_checks = [_more(v.values(f"fig{7 if cap == 1 else 8}", f"{cap}G-ru{ru:g}-pm0.05", "CS>ES5", "q_std"),
                       v.values(f"fig{7 if cap == 1 else 8}", f"{cap}G-ru{ru:g}-pm0.1", "CS>ES5", "q_std"), 1,
                       f"{cap} Gb/s Ru {ru:g}: std-dev Pm 0.05 − Pm 0.1") for cap in (1, 10) for ru in (0.8, 8.0)]
    out.append(Check("vic.larger-pm-steadier", "A larger Pm restrains the magnitude of the oscillations",
                     f"{PAPER} §VI.C", compare.all_of(pm_checks), "every (capacity, Ru): Welch, minimum effect 20 %"))
    out.append(Check("vic.larger-pm-more-messages", "… at the cost of more BCN messages", f"{PAPER} §VI.C",
                     compare.by_construction("Pm is the probability that a CP samples a frame, and every sample sends a "
                                             "BCN message: doubling Pm doubles the messages"), "–"))
    park = v.per_seed("table3", "bcn", PARK, "thr_gbps")
    r51 = park[:, 4] / park[:, 0] if park.size else []
    out.append(Check("table3.r5-over-r1", "BCN is proportionally fair, not max-min fair: r5/r1 as in Table III",
                     f"{PAPER} §VI.D, Table III", compare.against(r51, R5_R1.value, compare.tolerance(R5_R1.value, "ratio")),
                     "interval inside the paper's r5/r1 ± 20 %", paper=R5_R1))
    out.append(Check("table3.not-max-min", "BCN is not max-min fair on the parking lot (r5/r1 above 1)",
                     f"{PAPER} §VI.D", compare.beyond(r51, 1.0), "interval above 1 (max-min gives 1)"))
    pause = v.per_seed("table3", "pause", PARK, "thr_gbps")
    out.append(Check("table3.pause-unfair", "PAUSE without BCN is unfair on the parking lot: ST6 (one hop from the "
                     "second bottleneck) gets more than ST5", "cnsim's TCP + PAUSE runs",
                     compare.beyond(pause[:, 5] / pause[:, 4] if pause.size else [], 1.5), "r6/r5's interval above 1.5",
                     kind="project"))
    first = v.per_seed("table4", "bcn", PARK, "thr_gbps_1s")
    third = v.per_seed("table4", "bcn", PARK, "thr_gbps_3s")
    out.append(Check("table4.equal-while-st6-idle", "With ST6 idle the first five sources get equal rates",
                     f"{PAPER} §VI.D, Table IV", compare.beyond(cv(first[:, :5]) if first.size else [], EQUAL_CV_PCT, -1),
                     "std/avg over r1..r5 in the first second below 10 %"))
    r3 = PaperValue(TABLE4[3][4] / TABLE4[3][0], "1", f"{PAPER} Table IV", derived="third second r5 ÷ r1 = 3.12 ÷ 1.66")
    out.append(Check("table4.proportional-after-st6", "Once ST6 starts the allocation is again approximately "
                     "proportionally fair", f"{PAPER} §VI.D, Table IV",
                     compare.against(third[:, 4] / third[:, 0] if third.size else [], r3.value,
                                     compare.tolerance(r3.value, "ratio")), "interval inside the paper's r5/r1 ± 20 %",
                     paper=r3))
    out.append(Check("table4.utilisation", "The link utilization is about 93 % (the two bottlenecks, last two "
                     "seconds)", f"{PAPER} §VI.D, Table IV",
                     compare.all_of([compare.against(u, TABLE4_UTIL.value, compare.tolerance(TABLE4_UTIL.value, "%"))
                                     for u in table4_utilisation(v)]),
                     "each bottleneck's interval inside 93 % ± 20 %: (Σ of its five sources' throughput) ÷ its "
                     "capacity, mean of seconds 2 and 3", paper=TABLE4_UTIL))
    busy = [compare.beyond(v.values("table5", "bcn", q, "util_pct"), BUSY_PCT) for q in ("ES5>DT1", "ES5>DT2")]
    out.append(Check("table5.both-links-busy", "Both congested links (ES5→DT1, ES5→DT2) are highly utilised",
                     f"{PAPER} §VI.E, Table V", compare.all_of(busy), "each link's busy share above 95 %"))
    sw2 = v.values("table5", "bcn", SW2, "q_std")
    out.append(Check("fig11.oscillations-at-sw2", "There are relatively large oscillations at SW2 (the congestion "
                     "propagates between the two congested links)", f"{PAPER} §VI.E, Fig. 11",
                     compare.all_of([*[_more(sw2, v.values("table5", "bcn", q, "q_std"), 1, f"queue std-dev, {SW2} − {q}")
                                       for q in SW1_READINGS],
                                     _more(sw2, v.values(*ONE_CP_1G, "CS>ES5", "q_std"), 1,
                                           f"queue std-dev, {SW2} − one congestion point at the same capacity")]),
                     "Fig. 11's panels are \"Queue at SW1\" and \"Queue at SW2\", but the text names Fig. 10's "
                     "switches CS and ES1..ES5: SW2 is read as ES5's queue to DT2 (the 1 Gb/s link), the second switch "
                     "on the path and the second of the two links the text calls congested; SW1 is either CS's queue "
                     "to ES5 or ES5's to DT1, so both are tested. Queue std-dev over the window at SW2 larger than at "
                     "each reading of SW1, and than the 1 Gb/s bottleneck of Fig. 7 with a single congestion point "
                     "(Ru 0.8 Mb/s, Pm 0.05, as the asymmetric run), Welch, minimum effect 20 % of the larger"))
    e_abs = {n: v.values(*c, "CS>ES5", "e_abs_mean") for n, c in (("one", E_ONE_SRC), ("four", E_FOUR_SRC))}
    out.append(Check("vie.e-one-source", "For single source simulation, e_i(t) ≈ 1", f"{PAPER} §VI.E",
                     compare.against(e_abs["one"], E_ONE.value, E_TOL),
                     f"mean absolute e of the BCN messages CS→ES5 sent, ST1 alone on the symmetric topology at 1 Gb/s "
                     f"(Ru 0.8 Mb/s, Pm 0.1): interval inside 1 ± {E_TOL:g} frame (the paper's e counts whole "
                     "packets: ≈ 1 read as rounding to 1)", paper=E_ONE))
    four = [_more(e_abs["four"], e_abs["one"], 1, "mean absolute e, four sources − one"),
            _labelled("largest e, four sources", compare.beyond(v.values(*E_FOUR_SRC, "CS>ES5", "e_max"), E_FOUR.value)),
            _labelled("−(smallest e), four sources",
                      compare.beyond(-v.values(*E_FOUR_SRC, "CS>ES5", "e_min"), E_FOUR.value))]
    out.append(Check("vie.e-four-sources", "In four sources scenario, e_i(t) is much larger, sometimes e_i = ±6, "
                     "or ±7, which introduces large oscillations in the source rates", f"{PAPER} §VI.E",
                     compare.all_of(four),
                     "the same run with ST1..ST4: mean absolute e larger than with one source (Welch, minimum effect 20 % of "
                     "the larger; \"much\" is not quantified), and e reaching both +6 and −6 (the interval of the "
                     "window's largest e above 6, of its smallest below −6; the paper gives no upper bound, and an "
                     "extreme over thousands of messages grows with the window)", paper="±6 or ±7 frames (" + PAPER +
                     " §VI.E); ≈ 1 with one source"))
    mixed = {k: v.per_seed("table6", k, MIXED, "thr_gbps") for k in ("bcn", "none")}
    tcp = {k: m[:, :4].mean(axis=1) if m.size else [] for k, m in mixed.items()}
    udp = {k: m[:, 4:].mean(axis=1) if m.size else [] for k, m in mixed.items()}
    out.append(Check("table6.tcp-udp-close", "With BCN, TCP and UDP sources get very close rates (BCN does not "
                     "discriminate UDP from TCP)", f"{PAPER} §VI.F, Table VI",
                     compare.similar(tcp["bcn"], udp["bcn"], _rel(udp["bcn"])),
                     "Welch interval of TCP − UDP within ±20 % of UDP's mean",
                     paper=f"TCP {TABLE6_TCP.value:.3g}, UDP {TABLE6_UDP.value:.3g} Gb/s (derived means of {PAPER} "
                           "Table VI)"))
    out.append(Check("table6.udp-slightly-more", "UDP gets slightly more than TCP (TCP runs below its regulated rate)",
                     f"{PAPER} §VI.F", compare.exceeds(udp["bcn"], tcp["bcn"], 0.0),
                     "Welch interval of UDP − TCP above 0 (any significant difference)"))
    out.append(Check("vif.udp-takes-link-without-bcn", "An advantage over transport-layer control, which reduces only "
                     "TCP: without BCN UDP takes the link", f"{PAPER} §VI.F",
                     compare.exceeds(udp["none"], tcp["none"], compare.interval(tcp["none"]).mean or 0.0),
                     "Welch, minimum effect TCP's own mean (UDP at least twice TCP)"))
    out.append(Check("fig14.short-bursts-oscillate-more", "Bursts of 1 ms cause larger queue oscillations than bursts "
                     "of 100 ms", f"{PAPER} §VI.G, Fig. 14",
                     _more(v.values("fig14", "bcn-1ms", "CS>ES5", "q_std"), v.values("fig14", "bcn-100ms", "CS>ES5", "q_std"),
                           1, "queue std-dev, 1 ms − 100 ms"), "Welch, minimum effect 20 %"))
    out.append(Check("fig14.queue-around-qeq", "The average queue stays around Qeq in both", f"{PAPER} §VI.G, Fig. 14",
                     compare.all_of([compare.against(v.values("fig14", var, "CS>ES5", "q_mean"), QEQ, 4.0)
                                     for var in ("bcn-1ms", "bcn-100ms")]),
                     "mean queue's interval inside Qeq ± 4 frames, for both"))
    return out
