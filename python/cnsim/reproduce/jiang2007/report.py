"""The report of `cnsim reproduce jiang2007-bcn`: every number beside Jiang & Jain 2007's (tables.py,
each named), the fair allocations `cnsim.analysis` computes for the same scenarios, the checks of
claims.py, the differences explained with numbers from the runs, and the figures (figures/)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import prose
from .. import compare
from ..compare import interval, num
from ..paper import Report, Runs, scenario_file
from . import claims as checks_of, experiment
from .measure import View, cv as _cv
from .tables import (BAND, BEST, CLOSE_REL, E_ONE, LINK_GBPS, PARK, PARK_C_GBPS, QEQ, SETTLE_MS, TABLE1, TABLE2, TABLE3,
                     TABLE4, TABLE4_UTIL, TABLE5, TABLE5_UTIL, TABLE6, TABLE6_MEANS)

fmt = num

def _ms(x: np.ndarray | list) -> str:
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]
    if not len(x):
        return "–"
    return fmt(float(x.mean())) + (f" ± {fmt(float(x.std(ddof=1)))}" if len(x) > 1 else "")


def _settled(ms: np.ndarray, runs: int) -> str:
    """Settling times (ms) of the runs that settled, out of `runs`."""
    if len(ms) == runs:
        return f"from {_ms(ms)} ms"
    if not len(ms):
        return f"in none of {runs} run(s)"
    return f"in {len(ms)} of {runs} runs only (from {_ms(ms)} ms), never in the others"


def _settle_cell(ms: np.ndarray, runs: int) -> str:
    if len(ms) == runs:
        return _ms(ms)
    return "never" if not len(ms) else f"{_ms(ms)} ({len(ms)} of {runs} runs; never in the others)"


def _pf(path: str):
    from ... import analysis

    res = scenario_file(path)
    text = res.read_text(encoding="utf-8")
    return analysis.proportional_fair(text) / 1e9, analysis.max_min_fair(text) / 1e9, text


def _bcn_eq(text: str, ru_bps: float) -> pd.Series:
    """Jiang & Jain 2007's eq. (14) equilibrium (fluid.bcn_equilibrium) on the scenario's routes."""
    from ... import analysis
    from .fluid import bcn_equilibrium

    net = analysis.network(text)
    m = net.matrix
    routes = {f: [r for r in m.index if m.loc[r, f] > 0] for f in m.columns}
    caps = {r: float(net.capacity[r]) for r in m.index}
    return bcn_equilibrium(routes=routes, capacity=caps, ru=ru_bps) / 1e9


def report(runs: Runs) -> Report:
    """The checks (claims.py) and the body: the tables beside the paper's, the differences
    explained, the figures."""
    from . import figures as figs

    df, seeds = runs.frame, runs.seeds
    traces = {f"{t.label['experiment']}/{t.label['variant']}": x["traces"] for t, x in zip(runs.tasks, runs.extras)
              if x and t.seed == 1}
    body = tables(df, seeds)
    drawn = figs.draw(df, traces, runs.out / "figures")
    body += differences(runs) + ["## Figures", ""] + [f"- `figures/{name}`: {what}" for name, what in drawn] + [""]
    return Report(checks_of.checks(runs), body, choices())


def tables(df: pd.DataFrame, seeds: int) -> list[str]:
    """Every measured number beside the paper's, by experiment (mean ± std-dev over seeds)."""
    v = View(df)
    L = ["Values are the mean ± standard deviation over seeds; the paper's numbers are typed from its tables "
         "(tables.py, named in each heading). Throughputs are delivered 1500-B frames (headers included) per "
         "second over the measurement window (0.2–1 s unless said), summed over a source's connections.", ""]

    # ---- Tables I-II ----
    L += ["## 6-source topology (§VI.B, Fig. 4): Tables I and II, Fig. 5", "",
          "### Table I — reference sources (10-kB transactions)", "",
          "| CM | source | tps cnsim | tps paper | Gb/s cnsim | Gb/s paper | latency µs cnsim | latency µs paper | TCP timeouts (cnsim, window) |",
          "|---|---|---|---|---|---|---|---|---|"]
    for var in ("none", "bcn", "bcn-perconn"):
        for src in ("SR1", "SR2"):
            p = TABLE1[(var.split("-")[0], src)]
            L.append(f"| {var} | {src} | {v.cell('table1-2', var, src, 'tps')} | {p[0]} | "
                     f"{v.cell('table1-2', var, src, 'thr_gbps')} | {p[1]} | {v.cell('table1-2', var, src, 'latency_us')} | {p[2]} | "
                     f"{v.cell('table1-2', var, src, 'timeouts')} |")
    L += ["", "`bcn-perconn` rows are a diagnostic, not BCN's model: each of a bulk host's ten connections has its "
          "own regulator (`limiter.regulate = \"per-connection\"`); in the `bcn` rows the host's connections share "
          "one, as BCN regulates per source (see the choices)."]
    bulk = [f"ST{i}" for i in range(1, 5)]
    L += ["", "### Table II — bulk TCP (ST1..ST4, 10 connections each), link CS→ES5", "",
          "| CM | average Gb/s cnsim | paper | std/avg % cnsim | paper | utilisation % cnsim | paper |",
          "|---|---|---|---|---|---|---|"]
    cv = {}
    for var in ("none", "bcn"):
        rows = v.per_seed("table1-2", var, bulk, "thr_gbps")
        cv[var] = _cv(rows)
        p = TABLE2[var]
        L.append(f"| {var} | {_ms(rows.mean(axis=1))} | {p[0]} | {_ms(cv[var])} | {p[1]} | "
                 f"{v.cell('table1-2', var, 'CS>ES5', 'util_pct')} | {p[2]} |")
    settle = v.values("table1-2", "bcn", "CS>ES5", "settle_s") * 1e3
    L += ["", f"Queue CS→ES5 with BCN (Fig. 5): mean {v.cell('table1-2', 'bcn', 'CS>ES5', 'q_mean')} frames "
          f"(Qeq {QEQ}), std-dev {v.cell('table1-2', 'bcn', 'CS>ES5', 'q_std')}; "
          f"{v.cell('table1-2', 'bcn', 'CS>ES5', 'in_band_pct')} % of 50-µs samples in [12, 20]; "
          f"stable (every later 1-ms mean in [12, 20]): {_settled(settle, seeds)} (paper: ≈ {SETTLE_MS:g} ms). Without BCN: mean "
          f"{v.cell('table1-2', 'none', 'CS>ES5', 'q_mean')} frames, {v.cell('table1-2', 'none', 'CS>ES5', 'drops')} drops.", ""]

    # ---- Figs 7-8 ----
    L += ["## Symmetric topology (§VI.C, Fig. 6): the 2² factorial design, Figs. 7 and 8", "",
          "Queue CS→ES5 over the window; utilisation of the bottleneck; BCN messages per 1000 frames "
          "arriving at it. Paper: best (Ru, Pm) = (0.8 Mb/s, 0.1) at 1 Gb/s and (8 Mb/s, 0.05) at 10 Gb/s, "
          "judged from queue plots (Figs. 7, 8).", "",
          "| bottleneck | Ru Mb/s | Pm | queue mean | queue std-dev | in [12, 20] % | stable from ms | utilisation % | BCN/1000 frames | Jain |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for cap in (1, 10):
        exp = f"fig{7 if cap == 1 else 8}"
        for ru in (0.8, 8.0):
            for pm in (0.05, 0.1):
                var = f"{cap}G-ru{ru:g}-pm{pm:g}"
                sent, arr = v.values(exp, var, "CS>ES5", "bcn_sent"), v.values(exp, var, "CS>ES5", "arrivals")
                per = 1000 * sent / np.maximum(arr, 1) if len(sent) == len(arr) else []
                th = v.per_seed(exp, var, [f"ST{i}" for i in range(1, 5)], "thr_gbps")
                jain = (th.sum(axis=1) ** 2) / (th.shape[1] * (th ** 2).sum(axis=1)) if th.size else []
                L.append(f"| {cap} Gb/s | {ru:g} | {pm:g} | {v.cell(exp, var, 'CS>ES5', 'q_mean')} | "
                         f"{v.cell(exp, var, 'CS>ES5', 'q_std')} | {v.cell(exp, var, 'CS>ES5', 'in_band_pct')} | "
                         f"{_settle_cell(v.values(exp, var, 'CS>ES5', 'settle_s') * 1e3, seeds)} | {v.cell(exp, var, 'CS>ES5', 'util_pct')} | "
                         f"{_ms(per)} | {_ms(jain)} |")
    L.append("")

    # ---- parking lot ----
    pf, mm, park_text = _pf("scenarios/jiang2007/parking-lot-tcp.toml")
    eq = _bcn_eq(park_text, 8e6)
    L += ["## Parking lot (§VI.D, Fig. 9): Table III", "",
          "Rates in Gb/s. `proportional fair` and `max-min` are `cnsim.analysis.proportional_fair` / "
          "`max_min_fair` of parking-lot-tcp.toml; `eq. (14)` is the paper's own fluid-model equilibrium "
          "(`cnsim.reproduce.jiang2007.fluid.bcn_equilibrium`, Σ log(r + k) with k = Gi·Ru/Gd, Ru = 8 Mb/s).", "",
          "| run | " + " | ".join(f"r{i}" for i in range(1, 7)) + " | r5/r1 | r6/r1 | SW1→SW2 util % | SW2→SW3 util % | drops |",
          "|---|" + "---|" * 11]
    ratios = {}
    for exp, var, title in (("table3", "bcn", "TCP + BCN (the paper's)"), ("table3", "none", "TCP, drop-tail, no BCN"),
                            ("table3", "pause", "TCP + PAUSE, no BCN"), ("table3-udp", "bcn", "UDP + BCN"),
                            ("table3-udp", "pause", "UDP + PAUSE, no BCN")):
        rows = v.per_seed(exp, var, PARK, "thr_gbps")
        if not rows.size:
            continue
        r51, r61 = rows[:, 4] / rows[:, 0], rows[:, 5] / rows[:, 0]
        ratios[(exp, var)] = r51
        drops = v.values(exp, var, "all", "data_dropped")
        L.append(f"| {title} | " + " | ".join(_ms(rows[:, i]) for i in range(6)) + f" | {_ms(r51)} | {_ms(r61)} | "
                 f"{v.cell(exp, var, 'SW1>SW2', 'util_pct')} | {v.cell(exp, var, 'SW2>SW3', 'util_pct')} | {_ms(drops)} |")
    L.append("| paper, Table III | " + " | ".join(f"{x:g}" for x in TABLE3) +
             f" | {TABLE3[4] / TABLE3[0]:.3g} (derived: 3.08 ÷ 1.46) | {TABLE3[5] / TABLE3[0]:.3g} | – | – | – |")
    for title, s in (("proportional fair", pf), ("max-min", mm), ("eq. (14) equilibrium", eq)):
        r = [float(s[n]) for n in PARK]
        L.append(f"| {title} | " + " | ".join(f"{x:.3g}" for x in r) + f" | {r[4] / r[0]:.3g} | {r[5] / r[0]:.3g} | – | – | – |")
    L.append("")

    # ---- Table IV ----
    L += ["### Table IV — ST6 idle for the first second (TCP + BCN), throughput per second", "",
          "| second | " + " | ".join(f"r{i} cnsim | r{i} paper" for i in range(1, 7)) + " | utilisation of SW1→SW2 % |",
          "|---|" + "---|" * 13]
    for s, paper in TABLE4.items():
        rows = v.per_seed("table4", "bcn", PARK, f"thr_gbps_{s}s")
        if not rows.size:
            continue
        util = 100 * rows[:, :5].sum(axis=1) / 10
        L.append(f"| {s} s | " + " | ".join(f"{_ms(rows[:, i])} | {paper[i]:g}" for i in range(6)) + f" | {_ms(util)} |")
    L += ["", "The paper's utilisation (§VI.D) is of ns-2's TCP; cnsim's per-second utilisation of SW1→SW2 is "
          "the sum r1..r5 over the link's rate in the last column.", ""]

    # ---- Table V ----
    pf5, _, _ = _pf("scenarios/jiang2007/asymmetric.toml")
    L += ["## Asymmetric topology (§VI.E, Fig. 10): Table V", "",
          "ES5→DT1 and ES5→DT2 are the two congested links the text names (SW1 and SW2 of Fig. 11); their "
          "utilisation here is the sum of their sources' rates over the link's capacity, as the paper's rates give it.", "",
          "| run | ST1 | ST2 | ST3 | ST4 | ES5→DT1 util % | ES5→DT2 util % | queue ES5→DT1 (SW1) mean / std | queue ES5→DT2 (SW2) mean / std |",
          "|---|---|---|---|---|---|---|---|---|"]
    srcs = ["ST1", "ST2", "ST3", "ST4"]
    for var in ("bcn", "none"):
        rows = v.per_seed("table5", var, srcs, "thr_gbps")
        if not rows.size:
            continue
        u1 = 100 * rows[:, :2].sum(axis=1) / LINK_GBPS
        u2 = 100 * rows[:, 2:].sum(axis=1) / 1
        L.append(f"| TCP {'+ BCN' if var == 'bcn' else 'drop-tail'} | " + " | ".join(_ms(rows[:, i]) for i in range(4)) +
                 f" | {_ms(u1)} | {_ms(u2)} | {v.cell('table5', var, 'ES5>DT1', 'q_mean')} / {v.cell('table5', var, 'ES5>DT1', 'q_std')} | "
                 f"{v.cell('table5', var, 'ES5>DT2', 'q_mean')} / {v.cell('table5', var, 'ES5>DT2', 'q_std')} |")
    core = v.per_seed("table5-core", "bcn", srcs, "thr_gbps")
    if core.size:
        L.append("| TCP + BCN, the core-link reading (asymmetric-core.toml, diagnostic) | " +
                 " | ".join(_ms(core[:, i]) for i in range(4)) +
                 f" | {_ms(100 * core[:, :2].sum(axis=1) / LINK_GBPS)} | {_ms(100 * core[:, 2:].sum(axis=1) / 1)} | "
                 f"{v.cell('table5-core', 'bcn', 'ES5>DT1', 'q_mean')} / {v.cell('table5-core', 'bcn', 'ES5>DT1', 'q_std')} | "
                 f"{v.cell('table5-core', 'bcn', 'ES5>DT2', 'q_mean')} / {v.cell('table5-core', 'bcn', 'ES5>DT2', 'q_std')} |")
    L.append("| paper, Table V | " + " | ".join(f"{x:g}" for x in TABLE5) + " | – | – | – | – |")
    L.append("| proportional fair | " + " | ".join(f"{float(pf5[s]):.3g}" for s in srcs) + " | – | – | – | – |")
    L.append("")
    L += ["### Fig. 11 — queue std-dev (frames) at the asymmetric run's queues, with BCN", "",
          "| queue | mean | std-dev | utilisation % |", "|---|---|---|---|"]
    for q in (checks_of.SW1, checks_of.SW2):
        L.append(f"| {q} | {v.cell('table5', 'bcn', q, 'q_mean')} | {v.cell('table5', 'bcn', q, 'q_std')} | "
                 f"{v.cell('table5', 'bcn', q, 'util_pct')} |")
    L.append(f"| core-link reading (diagnostic): CS>ES5 | {v.cell('table5-core', 'bcn', 'CS>ES5', 'q_mean')} | "
             f"{v.cell('table5-core', 'bcn', 'CS>ES5', 'q_std')} | {v.cell('table5-core', 'bcn', 'CS>ES5', 'util_pct')} |")
    L.append(f"| core-link reading (diagnostic): ES5>DT2 | {v.cell('table5-core', 'bcn', 'ES5>DT2', 'q_mean')} | "
             f"{v.cell('table5-core', 'bcn', 'ES5>DT2', 'q_std')} | {v.cell('table5-core', 'bcn', 'ES5>DT2', 'util_pct')} |")
    exp, var = checks_of.ONE_CP_1G
    L += [f"| one congestion point at 1 Gb/s ({exp} {var}, CS>ES5) | {v.cell(exp, var, 'CS>ES5', 'q_mean')} | "
          f"{v.cell(exp, var, 'CS>ES5', 'q_std')} | {v.cell(exp, var, 'CS>ES5', 'util_pct')} |", ""]
    L += ["### §VI.E's feedback e — the BCN messages a CP sent in the window (frames)", "",
          f"Paper: e ≈ {E_ONE.value:g} with one source; with four \"much larger, sometimes ±6, or ±7\".", "",
          "| run | CP queue | messages | mean e | mean \\|e\\| | smallest e | largest e |", "|---|---|---|---|---|---|---|"]
    for title, (exp, var), q in (("one source, 1 Gb/s (Ru 0.8 Mb/s, Pm 0.1)", checks_of.E_ONE_SRC, "CS>ES5"),
                                 ("four sources, 1 Gb/s (Ru 0.8 Mb/s, Pm 0.1)", checks_of.E_FOUR_SRC, "CS>ES5"),
                                 ("four sources, 10 Gb/s (Ru 8 Mb/s, Pm 0.05)", ("fig8", "10G-ru8-pm0.05"), "CS>ES5"),
                                 ("asymmetric (Table V)", ("table5", "bcn"), "ES5>DT1"),
                                 ("asymmetric (Table V)", ("table5", "bcn"), "ES5>DT2")):
        L.append(f"| {title} | {q} | {v.cell(exp, var, q, 'bcn_sent')} | {v.cell(exp, var, q, 'e_mean')} | "
                 f"{v.cell(exp, var, q, 'e_abs_mean')} | {v.cell(exp, var, q, 'e_min')} | {v.cell(exp, var, q, 'e_max')} |")
    L.append("")

    # ---- Table VI ----
    mixed = [f"ST{i}" for i in range(1, 5)] + [f"SU{i}" for i in range(1, 5)]
    pf6, _, _ = _pf("scenarios/jiang2007/mixed.toml")
    L += ["## TCP and UDP mixed traffic (§VI.F, Fig. 12): Table VI", "",
          "| run | " + " | ".join(mixed) + " | TCP avg | UDP avg | queue CS→ES5 mean / std |",
          "|---|" + "---|" * 11]
    avg = {}
    for var, title in (("bcn", "BCN (1 TCP connection per source)"), ("none", "no BCN (drop-tail)"),
                       ("bcn-10conn", "BCN, 10 TCP connections per source")):
        rows = v.per_seed("table6", var, mixed, "thr_gbps")
        if not rows.size:
            continue
        avg[var] = (rows[:, :4].mean(axis=1), rows[:, 4:].mean(axis=1))
        L.append(f"| {title} | " + " | ".join(_ms(rows[:, i]) for i in range(8)) +
                 f" | {_ms(avg[var][0])} | {_ms(avg[var][1])} | {v.cell('table6', var, 'CS>ES5', 'q_mean')} / {v.cell('table6', var, 'CS>ES5', 'q_std')} |")
    L.append("| paper, Table VI | " + " | ".join(f"{x:g}" for x in TABLE6) + f" | {sum(TABLE6[:4]) / 4:.3g} (derived) | "
             f"{sum(TABLE6[4:]) / 4:.3g} (derived) | – |")
    L.append("| proportional fair | " + " | ".join(f"{float(pf6[s]):.3g}" for s in mixed) + " | – | – | – |")
    L.append("")

    # ---- Fig 14 ----
    L += ["## Bursty traffic (§VI.G, Fig. 14): Pareto on/off UDP sources on the mixed topology", "",
          "| burst period | queue mean | queue std-dev | in [12, 20] % | utilisation % | TCP avg Gb/s | UDP avg Gb/s |",
          "|---|---|---|---|---|---|---|"]
    for var in ("bcn-1ms", "bcn-100ms"):
        rows = v.per_seed("fig14", var, mixed, "thr_gbps")
        if not rows.size:
            continue
        L.append(f"| {var[4:]} | {v.cell('fig14', var, 'CS>ES5', 'q_mean')} | {v.cell('fig14', var, 'CS>ES5', 'q_std')} | "
                 f"{v.cell('fig14', var, 'CS>ES5', 'in_band_pct')} | {v.cell('fig14', var, 'CS>ES5', 'util_pct')} | "
                 f"{_ms(rows[:, :4].mean(axis=1))} | {_ms(rows[:, 4:].mean(axis=1))} |")
    L.append("")
    return L


def choices() -> list[str]:
    """Each is also a comment in the scenario (scenarios/jiang2007/) and a row of docs/modelling.md.
    None was tuned to a paper number."""
    return ["**Topologies**: the figures are not in the text; each scenario reconstructs its figure from the "
            "prose (edge switches per source, a core switch; six-source: SR2 shares ST1's edge switch, as the text "
            "says SR2 affects ST1).",
            "**Durations**: 1 s per run, measured over 0.2–1 s (Table IV and Fig. 14: 3 s); the paper gives none. "
            "Rates settle within tens of ms.",
            "**Connections**: 10 per bulk source in the 6-source experiment (the paper says so); one elsewhere "
            "(\"four bulk TCP sources\"). A host's connections share one BCN regulator (BCN has one per source and "
            "CPID), taking turns to send through it; the six-source experiment also runs one regulator per connection, "
            "and the mixed experiment 10 connections, to show what the regulator's scope does.",
            "**Transactions**: 10 kB, then 1 µs idle: Table I's uncongested source gives 1/16634 s − 59.11 µs = 1.0 µs.",
            "**BCN**: Tables I–II use §VI.A's fixed Ru = 4 Mb/s with Pm = 0.01 (no Pm is given); after §VI.C, "
            "enhanced BCN with Ru = 0.0008·C (8 Mb/s at 10 Gb/s) and Pm = 0.05. The factorial levels are the values "
            "the text names: Ru ∈ {0.8, 8} Mb/s, Pm ∈ {0.05, 0.1}, at 1 and 10 Gb/s.",
            "**PAUSE**: `flow_control = { pause = {} }` with cnsim's documented defaults (ingress trigger, XOFF "
            "20 frames, XON 10).",
            "**Pareto**: the UDP sources of Fig. 12 send 5 Gb/s bursts; \"burst period\" is read as the mean burst "
            "time, the mean idle time the same; shape 1.5.",
            "**Stable state**: the start of the first 1-ms block from which on the 1-ms mean queue stays in "
            f"[Qeq − 4, Qeq + 4] (§VI.B's band; how long it must hold is not said), isolated excursions of at most "
            f"{experiment.EXCURSION_BLOCKS} ms allowed, {experiment.EXCURSION_SHARE:.0%} of the blocks after it at most, "
            "and in the band at the end of the window. \"Best\" factorial setting: "
            "the smallest queue std-dev (the paper judged plots).",
            "**Asymmetric topology (Table V, Fig. 11)**: the text names the two congestion points, \"both links ES5 to "
            "DT1 and ES5 to DT2 are congested\"; a core link carrying all four sources (as Fig. 6's CS→ES5) would be the "
            "bottleneck itself and leave ES5→DT1 uncongested, so ES1..ES4 link to ES5 directly, and Fig. 11's SW1 and SW2 "
            "are read as the queues of those two links, for Table V's rows and Fig. 11's alike. Table V's own rates put "
            f"ES5→DT1 at {TABLE5_UTIL[0]:.1f} % (derived), which a link its two sources can fill would exceed: they fit "
            "the other reading better, a core link CS→ES5 that all four sources cross (then the congestion points are "
            "CS→ES5 and ES5→DT2, and ES5→DT1 never queues). That reading runs beside as a diagnostic "
            "(asymmetric-core.toml, its rows in the Table V and Fig. 11 tables), not counted.",
            "**Slow-start restart (Table I)**: a diagnostic run replaces SR2's transactions by fresh 10-kB TCP transfers "
            "from slow start (cnsim's initial window, 3 segments), one every 10 ms, to test whether ns-2 restarting slow "
            "start explains Table I's uncongested latency.",
            prose.text("**Verdicts**: one tolerance against the paper's numbers and one minimum effect for the differences "
                       "it claims: {close} of the value, the share by which two rates differ that the paper itself calls "
                       "very close ({f}: {tcp} and {udp} Gb/s, with their rounding). Stable-state times are censored "
                       "when a run never settles within its window: they are judged on the share of runs stable within "
                       "the bound (Clopper–Pearson), never with the window's end as a value.",
                       close=f"{CLOSE_REL:.1%}", f=prose.ref("§VI.F"), tcp=num(TABLE6_MEANS[0]), udp=num(TABLE6_MEANS[1]))]


def stable(runs: Runs, exp: str, var: str) -> str:
    """Censoring-aware words for the stable-state time of a configuration's runs."""
    t = list(checks_of.settle_times(runs, exp, var))
    done = [x for x in t if not np.isinf(x)]
    if not t:
        return "not run"
    if not done:
        return prose.text("never stable within the window ({n} runs)", n=len(t))
    if len(done) == len(t):
        return prose.text("stable from {iv} ms", iv=interval(done).show())
    return prose.text("stable in {k} of {n} runs (from {iv} ms), never within the window in the others",
                      k=len(done), n=len(t), iv=interval(done).show())


def differences(runs: Runs) -> list[str]:
    """Why cnsim's numbers differ from the paper's; every number comes from these runs, the
    scenarios or tables.py."""
    v = View(runs.frame)
    util = checks_of.table4_utilisation(v)
    iv = lambda exp, var, part, metric, scale=1.0: interval(v.values(exp, var, part, metric) * scale).show()  # noqa: E731
    ratio = lambda exp, var, a, b: interval(  # noqa: E731
        (lambda r: r[:, 1] / r[:, 0])(v.per_seed(exp, var, [a, b], "thr_gbps"))).show()
    cv = {var: interval(_cv(v.per_seed("table1-2", var, [f"ST{i}" for i in range(1, 5)], "thr_gbps"))).show()
          for var in ("none", "bcn")}
    ref = prose.ref
    return ["## Why cnsim's numbers differ", "",
            "- " + prose.text(
                "**Reference sources ({t1})**: cnsim's transaction source keeps its congestion window from one "
                "transaction to the next (far below the RTO apart, so no restart): {sr2n}'s uncongested latency is {sr2} "
                "µs against the paper's {lat} µs. Restarting slow start for each transaction (a fresh connection per "
                "transaction, {restart_file}) makes it {restart} µs: {verdict} "
                "(see the project findings). Without BCN cnsim's congested source does better than "
                "the paper's ({lat1} µs): its SACK recovery repairs many losses, and only some of its transactions wait "
                "for the timeout ({to} timeouts in the window).",
                t1=ref("Table I"), ns2=ref("ns-2"), sr2n=ref("SR2"), lat=num(TABLE1[("none", "SR2")][2]), sr2=iv("table1-2", "none", "SR2", "latency_us"),
                restart=iv("table1-restart", "bcn", "SR2", "fct_us"), restart_file=ref("six-source-restart.toml"),
                verdict={compare.SUPPORTED: "that accounts for the paper's latency",
                         compare.NOT_SUPPORTED: "that does not account for the paper's latency",
                         compare.INCONCLUSIVE: "whether that accounts for the paper's latency is undecided"}[
                    checks_of.near(v.values("table1-restart", "bcn", "SR2", "fct_us"), TABLE1[("none", "SR2")][2]).state],
                lat1=iv("table1-2", "none", "SR1", "latency_us"), to=iv("table1-2", "none", "SR1", "timeouts")),
            "- " + prose.text(
                "**Reference source {one} under BCN**: with one regulator per bulk host, as BCN specifies, {sr1} "
                "makes {bcn} transactions/s against {none} without BCN (the paper: {p_none} → {p_bcn}). With one "
                "regulator per connection (the {diag} rows) the bottleneck is shared by the bulk hosts' many "
                "regulators and {sr1}'s one, and BCN holds {sr1} near one connection's share: {perconn}.",
                one=ref("1"), sr1=ref("SR1"), diag=ref("`bcn-perconn`"),
                bcn=iv("table1-2", "bcn", "SR1", "tps"), none=iv("table1-2", "none", "SR1", "tps"),
                p_none=num(TABLE1[("none", "SR1")][0]), p_bcn=num(TABLE1[("bcn", "SR1")][0]),
                perconn=iv("table1-2", "bcn-perconn", "SR1", "tps")),
            "- " + prose.text(
                "**Bulk variance ({t2})**: std/avg over the four bulk hosts is {none} % without BCN and {bcn} % with it "
                "(the paper: {p_none} → {p_bcn} %): without BCN which host wins depends on the phase of the losses; "
                "with BCN each host's regulator oscillates around its share.",
                t2=ref("Table II"), none=cv["none"], bcn=cv["bcn"], p_none=num(TABLE2["none"][1]),
                p_bcn=num(TABLE2["bcn"][1])),
            "- " + prose.text(
                "**Queue and stable state ({f5})**: the six-source queue with BCN averages {q} frames (Qeq {qeq}); it is "
                "{settle} (the paper: about {p} ms). The paper notes that the "
                "queue's offset grows with the number of sources ({ve}); with four regulators (the symmetric topology) "
                "the queue averages {q8} frames.",
                f5=ref("Fig. 5"), q=iv("table1-2", "bcn", "CS>ES5", "q_mean"), qeq=QEQ,
                settle=stable(runs, "table1-2", "bcn"), p=num(SETTLE_MS), ve=ref("§VI.E"),
                q8=iv("fig8", "10G-ru8-pm0.05", "CS>ES5", "q_mean")),
            "- " + prose.text(
                "**Stable after a few ms ({f8})**: with the paper's best Ru at {c} the queue {cs} is {s8} (Pm {pa}) and "
                "{s8b} (Pm {pb}); with the ten times smaller Ru it averages {q08} frames, below Qeq = {qeq}, and {inband} % "
                "of its samples lie in [{lo}, {hi}], so some late millisecond means leave the band: it is {s08}.",
                f8=ref("Fig. 8"), c=ref("10 Gb/s"), cs=ref("CS→ES5"), pa=num(BEST[10][1]), pb=num(0.1),
                s8=stable(runs, "fig8", f"10G-ru{BEST[10][0]:g}-pm{BEST[10][1]:g}"),
                s8b=stable(runs, "fig8", f"10G-ru{BEST[10][0]:g}-pm0.1"),
                q08=iv("fig8", "10G-ru0.8-pm0.05", "CS>ES5", "q_mean"), qeq=QEQ, lo=QEQ - BAND, hi=QEQ + BAND,
                inband=iv("fig8", "10G-ru0.8-pm0.05", "CS>ES5", "in_band_pct"),
                s08=stable(runs, "fig8", "10G-ru0.8-pm0.05")),
            "- " + prose.text(
                "**Oscillations at {sw2} ({f11})**: in cnsim's reading of {f10} the two congested links leave {es5} "
                "side by side, each fed by its own two sources; the queue {d1} ({sw1}) has std-dev {s1} frames and "
                "the {g1} queue {d2} ({sw2}) {s2} frames, against {s0} frames at a single congestion point of the same "
                "capacity and settings. The two queues share no link and no source, so no congestion can propagate "
                "between them in this reading.",
                sw2=ref("SW2"), sw1=ref("SW1"), f11=ref("Fig. 11"), f10=ref("Fig. 10"), d1=ref("ES5→DT1"),
                d2=ref("ES5→DT2"), es5=ref("ES5"), g1=ref("1 Gb/s"), s1=iv("table5", "bcn", checks_of.SW1, "q_std"),
                s2=iv("table5", "bcn", checks_of.SW2, "q_std"), s0=iv(*checks_of.ONE_CP_1G, "CS>ES5", "q_std")),
            "- " + prose.text(
                "**Feedback e ({ve})**: the mean absolute e of the messages is {one} frames with one source and {four} "
                "with four (the paper: about {p} with one source, the claim's band ± {tol}). With four sources the "
                "largest and smallest e of a window are {mx} and {mn} frames.",
                ve=ref("§VI.E"), one=iv(*checks_of.E_ONE_SRC, "CS>ES5", "e_abs_mean"),
                four=iv(*checks_of.E_FOUR_SRC, "CS>ES5", "e_abs_mean"), p=num(E_ONE.value), tol=num(checks_of.E_TOL),
                mx=iv(*checks_of.E_FOUR_SRC, "CS>ES5", "e_max"), mn=iv(*checks_of.E_FOUR_SRC, "CS>ES5", "e_min")),
            "- " + prose.text(
                "**Parking lot**: BCN's AIMD is proportionally fair only as k = Gi·Ru/Gd → {zero} ({v}); with the "
                "scenario's Ru, k is not small next to the shares, so the paper's own equilibrium ({eq}) leans towards "
                "the throughput-maximising allocation and its {r51} is above the proportionally fair value (see the "
                "table). cnsim's {r51} is {r} with BCN (TCP) and {ru} with UDP.",
                zero=ref("0"), r51=ref("r5/r1"), v=ref("§V"), eq=ref("eq. (14)"), r=ratio("table3", "bcn", "ST1", "ST5"),
                ru=ratio("table3-udp", "bcn", "ST1", "ST5")),
            "- " + prose.text(
                "**Link utilisation ({t4})**: the paper says about {p} %; its own table's last two seconds give "
                "(derived) {d1} % and {d2} % of C on the two bottlenecks, and cnsim's runs {c1} % and {c2} %.",
                t4=ref("Table IV"), p=num(TABLE4_UTIL.value),
                d1=num(sum((TABLE4[2][i] + TABLE4[3][i]) / 2 for i in range(5)) / PARK_C_GBPS * 100),
                d2=num(sum((TABLE4[2][i] + TABLE4[3][i]) / 2 for i in (0, 1, 2, 3, 5)) / PARK_C_GBPS * 100),
                c1=interval(util[0]).show(), c2=interval(util[1]).show()),
            "- " + prose.text(
                "**PAUSE**: it stops whole links hop by hop, so the source one hop from the second bottleneck keeps "
                "most of it: {r65n} = {r65} with TCP + PAUSE. The drops with PAUSE ({drops} frames) are at the first "
                "bottleneck, whose queue is fed by five ingress ports each paused only when it holds more than its own "
                "XOFF threshold.",
                r65n=ref("r6/r5"), r65=ratio("table3", "pause", "ST5", "ST6"), drops=iv("table3", "pause", "all", "data_dropped")),
            "- " + prose.text(
                "**Mixed traffic ({t6})**: cnsim's TCP fills its regulated rate closely, so the paper's TCP < UDP gap "
                "(TCP running below its regulator) is small or reversed; the table also shows the TCP host with ten "
                "connections behind its one regulator.", t6=ref("Table VI")),
            "- " + prose.text(
                "**Bursty traffic ({f14})**: the paper gives plots, no numbers; cnsim's queue std-dev is {s1} frames "
                "with the shorter bursts and {s2} with the longer ones, so the comparison is qualitative.",
                f14=ref("Fig. 14"), s1=iv("fig14", "bcn-1ms", "CS>ES5", "q_std"),
                s2=iv("fig14", "bcn-100ms", "CS>ES5", "q_std")),
            ""]
