"""The report of `hpcc2019`: what could be read of the paper, the setting and its scale-down, FCT
slowdown percentiles per flow-size bucket and protocol for each workload and load, the fabric's
queues and PFC pauses, and the checks (claims.py)."""

from __future__ import annotations

from .. import compare, prose
from ..paper import Report, Runs
from . import claims
from .experiment import (ARRIVALS, BUCKETS, DURATION, ETA, KMAX, KMIN, LOADS, MAX_STAGE, PERCENTILES, PMAX, PODS,
                         PROTOCOLS, QUICK, SEEDS, TORS, HOSTS_PER_TOR, HOST_RATE, WORKLOADS, XOFF, XON, base_rtt_us)

SOURCES = [
    "## What could be read of the paper",
    "",
    "cnsim could not read the paper's §5 (text and figures): no number of the paper's evaluation is quoted here, "
    "and no figure was read. The claims come from what could be read: the paper's abstract; the authors' results "
    "page (hpcc-group.github.io/results.html), whose ns-3 runs use \"the same topology and configurations of CC "
    "schemes as those in the paper\" except η = 99 % and maxStage = 0 (and DCQCN+w, TIMELY+w); the authors' "
    "project page (liyuliang001.github.io/projects/hpcc), which says the paper evaluates η = 95 % and that its "
    "simulations used maxStage = 0 (\"The maxStage=5 in the paper is due to a typo for the simulation\"); and "
    "the artifact github.com/alibaba-edu/High-Precision-Congestion-Control (simulation/mix/fat.txt, "
    "mix/config.txt, traffic_gen/), whose files give the topology, link speeds, marking thresholds and the two "
    "flow-size distributions. Every claim is therefore an ordering of schemes in words, tested with the smallest "
    "effect the words are read to imply (claims.py).",
    "",
]

LONG_BUCKET = BUCKETS[-1][0]   # transfers of 10 MB or more

N_HOSTS = PODS * TORS * HOSTS_PER_TOR
N_CONFIGS = len(PROTOCOLS) * len(WORKLOADS) * len(LOADS)

CHOICES = [
    f"Topology: the artifact's fat tree (mix/fat.txt: 320 hosts at 100 Gb/s under 20 ToRs, 20 aggregation and 16 "
    f"core switches in 5 pods, 400-Gb/s fabric links, 1 µs per link, non-blocking) scaled to {PODS} pods × {TORS} "
    f"ToRs × {HOSTS_PER_TOR} hosts ({N_HOSTS} hosts), same link speeds, delays and shape. Reason: the golden re-run "
    f"of this paper must fit in 3 CPU minutes ({N_CONFIGS} configurations × {SEEDS} seeds). What it changes: fewer "
    f"equal-cost paths and fewer hosts that can send to one receiver at once ({N_HOSTS - 1}, not 319), the same longest "
    "path "
    f"(6 links: a base RTT of {base_rtt_us():.2f} µs), and fewer transfers per run, so the 99th percentiles rest "
    "on few transfers.",
    f"Duration: transfers arrive for {ARRIVALS} and the run ends at {DURATION} (the artifact's traffic_gen example "
    "generates 0.1 s). Reason: the CPU budget. What it changes: long web-search transfers (up to 30 MB, 2.4 ms "
    "alone at 100 Gb/s) may still run at the end; they count as infinitely slow (censored), and a percentile that "
    "falls on one is not given; the completed share per bucket is in the tables.",
    f"--quick: {QUICK}.",
    f"HPCC: η = {ETA}, maxStage = {MAX_STAGE} (project page), base RTT T = {base_rtt_us():.3f} µs, the fabric's "
    "longest (the artifact's GLOBAL_T 1); W_AI and the rest cnsim's defaults (docs/scenarios.md gives each one's "
    "source). The authors' results page runs η = 99 %: its words are tested at the paper's η.",
    f"DCQCN and DCTCP mark with the artifact's 100-Gb/s thresholds on every port (Kmin {KMIN}, Kmax {KMAX}, "
    f"Pmax {PMAX}; its map has no 400-Gb/s entry); DCQCN's RP and NP are cnsim's defaults (DCQCN paper), not the "
    "artifact's RP_TIMER 900 etc. DCQCN's transfers are open-loop RoCE frames of 1000 B (lossless under PFC); "
    "DCTCP is cnsim's TCP with RFC 8257 (slow start from 3 segments), where the artifact's DCTCP is a rate-based "
    "NIC starting at line rate.",
    "TIMELY: cnsim's defaults, which are the HPCC artifact's (α 0.875, β 0.8, T_low 50 µs, T_high 500 µs, min RTT "
    "20 µs), 1000-B payloads.",
    f"PFC: static per-port thresholds XOFF {XOFF}, XON {XON} (frames of 1000 B) above Kmax; the artifact shares a "
    "32-MB buffer per switch with dynamic thresholds.",
    "Queues: the sum over switch ports of the time-average queue (in 1000-B frames × 1000 B), and the largest peak "
    "of a port; PFC: pause time summed over ports and priorities, and PAUSE frames sent.",
]


def _cell(runs: Runs, metric: str, part: str, **label) -> str:
    v = runs.values(metric, part, **label)
    return compare.num(sum(v) / len(v)) if v else "–"


def fct_tables(runs: Runs) -> list[str]:
    lines = ["## FCT slowdown per flow size", "",
             "Mean over seeds of each run's censored percentile (a transfer still running at the end counts as "
             "infinitely slow; '–' where a percentile fell on one in some seed, or no run); 'done' is the share of "
             "the bucket's transfers that completed, 'n' the transfers per run.", ""]
    head = "| protocol | " + " | ".join(f"{b} p{q}" for b, _, _ in BUCKETS for q in PERCENTILES) + \
           " | " + " | ".join(f"{b} done % (n)" for b, _, _ in BUCKETS) + " |"
    for w in WORKLOADS:
        for load in LOADS:
            lines += [f"### {w}, load {load:g}", "", head, "|---" * (head.count("|") - 1) + "|"]
            for cc in PROTOCOLS:
                lab = {"cc": cc, "workload": w, "load": load}
                cells = []
                for b, _, _ in BUCKETS:
                    for q in PERCENTILES:
                        by = runs.by_seed(f"p{q}_slowdown", b, **lab)
                        n = runs.by_seed("flows", b, **lab)
                        cells.append(compare.num(sum(by.values()) / len(by)) if by and len(by) == len(n) else "–")
                done = [f"{_cell(runs, 'completed_pct', b, **lab)} ({_cell(runs, 'flows', b, **lab)})"
                        for b, _, _ in BUCKETS]
                lines.append(f"| {cc} | " + " | ".join(cells + done) + " |")
            lines.append("")
    return lines


def fabric_table(runs: Runs) -> list[str]:
    lines = ["## Queues and PFC pauses", "",
             "Mean over seeds: the switches' summed time-average queue, the largest peak of a switch port, PFC pause "
             "time summed over ports and priorities, PAUSE frames sent.", "",
             "| workload | load | protocol | queue, summed mean (KB) | queue, peak (KB) | PFC pause (µs) | PAUSE frames |",
             "|---|---|---|---|---|---|---|"]
    for w in WORKLOADS:
        for load in LOADS:
            for cc in PROTOCOLS:
                lab = {"cc": cc, "workload": w, "load": load}
                lines.append(f"| {w} | {load:g} | {cc} | " + " | ".join(
                    _cell(runs, m, "all", **lab) for m in ("q_mean_kb", "q_peak_kb", "paused_us", "pause_frames")) + " |")
    return lines + [""]


def findings(runs: Runs) -> list[str]:
    """The differences these runs show, explained as far as they explain them."""
    lab = {"workload": "web-search", "load": 0.3}
    done = {cc: runs.values("completed_pct", LONG_BUCKET, cc=cc, **lab) for cc in PROTOCOLS}
    rate = runs.values("unfinished_rate_gbps", "all", cc="dcqcn", **lab)
    if not all(done.values()):
        return []
    iv = {cc: compare.interval(v).show() for cc, v in done.items()}
    lines = ["## What these runs show beyond the claims", "",
             "- " + prose.text(
                 "How many long transfers finish. With web search at {load} % load, the share of transfers of {big} or "
                 "more that completed by the end of the run is {h} % with HPCC, {d} % with DCQCN, {t} % with TIMELY "
                 "and {c} % with DCTCP (mean over seeds), although arrivals stop {gap} before the end. DCQCN's "
                 "unfinished transfers end the run at {r} Gb/s on {host} links: after a cut, cnsim's DCQCN (the "
                 "DCQCN paper's defaults) climbs back by its additive step once per timer period, which at this line "
                 "rate takes milliseconds; TIMELY, once the fabric empties and the RTT falls below T_low, climbs by "
                 "its additive step δ per completion event ({alg}), the same kind of slow climb (these runs do "
                 "not record TIMELY's rates, so this is a reading, not a measurement). A long-flow percentile that "
                 "falls on an unfinished transfer is censored ('–' in the tables).",
                 load=f"{lab['load'] * 100:g}", big=LONG_BUCKET.removeprefix(">="), h=iv["hpcc"], d=iv["dcqcn"],
                 t=iv["timely"], c=iv["dctcp"], gap=f"{_gap_ms(runs.quick):g} ms",
                 r=compare.interval(rate).show() if rate else "–", host=HOST_RATE, alg=prose.ref("Algorithm 1")),
             "- " + prose.text(
                 "DCTCP here is cnsim's TCP with {rfc} ECN, which starts every transfer in slow start from {iw} "
                 "segments; its median slowdown of transfers above a few segments is set by slow start at a {rtt}-µs "
                 "base RTT, not by queueing (the artifact's DCTCP is a rate-based NIC starting at line rate).",
                 rfc=prose.ref("RFC 8257"), iw="three", rtt=f"{base_rtt_us():.1f}"), ""]
    return lines


def _gap_ms(quick: bool) -> float:
    """The time from the last arrival to the end of the run, ms (--quick's or the full runs')."""
    end, stop = (QUICK["simulation.duration"], QUICK["workload.0.stop"]) if quick else (DURATION, ARRIVALS)
    return float(end.removesuffix("ms")) - float(stop.removesuffix("ms"))


def report(runs: Runs) -> Report:
    body = SOURCES + fct_tables(runs) + fabric_table(runs) + findings(runs)
    return Report(claims.checks(runs) + claims.project_findings(runs), body, CHOICES)
