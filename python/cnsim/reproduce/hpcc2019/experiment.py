"""The runs of `hpcc2019`: DCQCN, TIMELY, DCTCP and HPCC side by side on one fat tree with the HPCC
authors' link speeds and delays, web-search and FB Hadoop transfers at 30 % and 50 % load, and what a
run yields: FCT slowdown percentiles per flow-size bucket (transfers still running at the end count
as infinitely slow: a censored percentile is only given when it falls on a completed transfer), the
fabric's queues and its PFC pause time.

The fabric (`topology`) has the shape of the artifact's mix/fat.txt, scaled down: pods of ToRs and
aggregation switches, each ToR with 100-Gb/s hosts and 400-Gb/s uplinks to every aggregation switch
of its pod (as many uplink as host bits: non-blocking), each aggregation switch with 400-Gb/s links
to its own group of cores, every link 1 µs. The artifact has 5 pods × 4 ToRs × 16 hosts (320 hosts,
20 ToRs, 20 aggregation and 16 core switches); cnsim's has 2 pods × 2 ToRs × 16 hosts (64 hosts), each
ToR the artifact's (16 hosts, 4 uplinks), which the CPU budget of the golden re-run allows (report.py says
what that changes). The shipped
scenarios, one per protocol (scenarios/hpcc2019/), are written by `scenario`; the workload and its
load are overrides of each task.
"""

from __future__ import annotations

from ..paper import Task

NAME = "hpcc2019"
TITLE = "Li et al. 2019 (HPCC) — FCT slowdown, queues and PFC pauses of DCQCN, TIMELY, DCTCP and HPCC on a fat tree"
DIR = "scenarios/hpcc2019"
PROTOCOLS = ("hpcc", "dcqcn", "timely", "dctcp")
WORKLOADS = ("web-search", "fb-hadoop")
LOADS = (0.3, 0.5)
SEEDS = 5

# The fabric: pods × ToRs per pod × hosts per ToR; aggregation switches per pod; cores per aggregation.
PODS, TORS, HOSTS_PER_TOR, AGGS, CORES_PER_AGG = 2, 2, 16, 4, 2
HOST_RATE, FABRIC_RATE, DELAY_US = "100Gbps", "400Gbps", 1
PAYLOAD_B = 1000                  # the artifact's PACKET_PAYLOAD_SIZE
ARRIVALS = "3ms"                  # transfers arrive in [0, ARRIVALS)
DURATION = "10ms"                  # and the run drains them until DURATION
QUICK = {"simulation.duration": "3ms", "workload.0.stop": "1ms"}

# The artifact's DCQCN marking at a 100-Gb/s port (mix/config.txt: KMIN_MAP, KMAX_MAP, PMAX_MAP in KB);
# its map has no 400-Gb/s entry, so every port marks with the 100-Gb/s values (a choice).
KMIN, KMAX, PMAX = "400kB", "1600kB", 0.2
# PFC: the artifact's switches share a 32-MB buffer with dynamic thresholds (USE_DYNAMIC_PFC_THRESHOLD,
# BUFFER_SIZE 32); cnsim's are per port and static (a choice, above Kmax so that marking acts first).
CAPACITY, XOFF, XON = "3000 frames", "2000 frames", "1900 frames"
# HPCC's settings in the authors' simulations: η = 95 % (the paper's value) and maxStage = 0 (the
# authors' project page: "maxStage=0, which is the same as the simulation setting in our paper").
ETA, MAX_STAGE = 0.95, 0


def topology() -> tuple[str, int]:
    """The [[switch]], [[host]] and [[link]] tables of the fabric, and its number of hosts."""
    n_tor, n_agg = PODS * TORS, PODS * AGGS
    n_core, n_hosts = AGGS * CORES_PER_AGG, PODS * TORS * HOSTS_PER_TOR
    out = [f'[[switch]]\nnames = ["T1..T{n_tor}", "A1..A{n_agg}", "C1..C{n_core}"]\n'
           f'[[host]]\nnames = "H1..H{n_hosts}"\n']
    for t in range(n_tor):
        pod = t // TORS
        out.append(f'[[link]]\nbetween = ["T{t + 1}", "H{t * HOSTS_PER_TOR + 1}..H{(t + 1) * HOSTS_PER_TOR}"]\n'
                   f'rate = "{HOST_RATE}"\n')
        out.append(f'[[link]]\nbetween = ["T{t + 1}", "A{pod * AGGS + 1}..A{(pod + 1) * AGGS}"]\n')
    for a in range(n_agg):
        i = a % AGGS
        out.append(f'[[link]]\nbetween = ["A{a + 1}", "C{i * CORES_PER_AGG + 1}..C{(i + 1) * CORES_PER_AGG}"]\n')
    return "\n".join(out), n_hosts


def base_rtt_us() -> float:
    """HPCC's T: the fabric's longest base RTT (the artifact's GLOBAL_T 1), host–ToR–agg–core–agg–ToR–host:
    12 link delays, one HPCC data frame's wire time (payload + 100 B of headers + 20 B of preamble and
    gap) at each of the two host links and four fabric links, and a 124-B ACK's (104 B + 20 B) back."""
    hops_host, hops_fabric = 2, 4
    data, ack = (PAYLOAD_B + 100 + 20) * 8, 124 * 8
    wire = (data + ack) * (hops_host / 100e9 + hops_fabric / 400e9)
    return 2 * (hops_host + hops_fabric) * DELAY_US + wire * 1e6


def transport(cc: str) -> tuple[str, str]:
    """(the queues' discipline keys, the workload's traffic keys) of protocol `cc`."""
    marking = f'discipline = "dcqcn", dcqcn = {{ kmin = "{KMIN}", kmax = "{KMAX}", pmax = {PMAX} }}'
    if cc == "hpcc":
        return "", (f'transport = {{ hpcc = {{ base_rtt = "{base_rtt_us():.3f}us", eta = {ETA}, '
                    f'max_stage = {MAX_STAGE}, mss = "{PAYLOAD_B}B" }} }}')
    if cc == "timely":
        return "", f'transport = {{ timely = {{ mss = "{PAYLOAD_B}B" }} }}'
    if cc == "dctcp":   # the artifact's DCTCP marks with the same RED-like thresholds as its DCQCN
        return marking, f'transport = {{ tcp = {{ ecn = "dctcp", mss = "{PAYLOAD_B}B" }} }}'
    if cc == "dcqcn":   # open-loop RoCE transfers (lossless under PFC), frames of the payload's size
        return marking, f'frame = "{PAYLOAD_B}B"\nrp = {{ dcqcn = {{}} }}'
    raise ValueError(f"unknown protocol {cc!r}; one of {', '.join(PROTOCOLS)}")


def scenario(cc: str) -> str:
    """The shipped scenario of protocol `cc` (scenarios/hpcc2019/<cc>.toml): web-search at 30 %."""
    topo, n_hosts = topology()
    disc, traffic = transport(cc)
    queue = f'queue = {{ capacity = "{CAPACITY}"{", " + disc if disc else ""} }}'
    return f'''# HPCC (Li et al., SIGCOMM 2019) evaluation setting, scaled down, with {cc}: written by
# cnsim.reproduce.hpcc2019.experiment.scenario (do not edit by hand; tests compare the two). A fat tree
# of {PODS} pods × {TORS} ToRs × {HOSTS_PER_TOR} hosts at {HOST_RATE} with {FABRIC_RATE} fabric links, {DELAY_US} µs
# each (the HPCC artifact's mix/fat.txt has 5 pods × 4 ToRs × 16 hosts), ECMP, PFC, and Poisson
# arrivals of transfers ({ARRIVALS}) from the workload's size distribution at the load of every host link.

[simulation]
duration = "{DURATION}"
measure_from = "0s"
record_interval = "0s"
frame_size = "{PAYLOAD_B}B"

[defaults]
link = {{ rate = "{FABRIC_RATE}", delay = "{DELAY_US}us" }}
{queue}

[routing]
ecmp = true

[flow_control.pfc]
xoff = "{XOFF}"
xon = "{XON}"

{topo}
[[workload]]
name = "w"
hosts = ["H1..H{n_hosts}"]
sizes = "web-search"
load = 0.3
start = "0s"
stop = "{ARRIVALS}"
traffic = "transfer"
{traffic}
'''


def tasks(seeds: int, quick: bool) -> list[Task]:
    return [Task({"cc": cc, "workload": w, "load": load}, f"{DIR}/{cc}.toml",
                 {**(QUICK if quick else {}), "workload.0.sizes": w, "workload.0.load": load}, seed)
            for w in WORKLOADS for load in LOADS for cc in PROTOCOLS for seed in range(1, seeds + 1)]


# Flow-size buckets (bytes, [low, high)): "short" is the authors' "flows < 200KB".
BUCKETS = (("<200KB", 0, 200e3), ("200KB-1MB", 200e3, 1e6), ("1MB-10MB", 1e6, 10e6), (">=10MB", 10e6, float("inf")))
PERCENTILES = (50, 95, 99)


def censored_percentile(slowdowns: list[float], q: float) -> float | None:
    """The nearest-rank q-th percentile with incomplete transfers as +inf (None when it falls on one)."""
    if not slowdowns:
        return None
    ordered = sorted(slowdowns)
    rank = max(1, -(-len(ordered) * q // 100))
    x = ordered[int(rank) - 1]
    return None if x == float("inf") else x


def extract(result, spec) -> dict:
    """Per bucket: flows, completed_pct and p50/p95/p99_slowdown (censored: see the module); "all":
    q_mean_kb (sum over switch ports of the time-average queue), q_peak_kb (largest peak of a port),
    paused_us (PFC pause time summed over ports and priorities), pause_frames (PAUSE frames sent) and,
    with an RP (DCQCN), unfinished_rate_gbps: the mean final rate of the transfers still running."""
    stats = result.stats
    frame = float(stats["frame_size_bytes"])
    values = []
    flows = [f for f in stats["flows"] if f.get("size_bytes") is not None]
    for name, lo, hi in BUCKETS:
        inside = [f for f in flows if lo <= f["size_bytes"] < hi]
        slow = [f["fct_s"] / f["fct_ideal_s"] if f.get("fct_s") is not None else float("inf") for f in inside]
        values.append([name, "flows", len(inside)])
        if inside:
            values.append([name, "completed_pct", 100 * sum(s != float("inf") for s in slow) / len(slow)])
        for q in PERCENTILES:
            values.append([name, f"p{q}_slowdown", censored_percentile(slow, q)])
    switches = [q for q in stats["queues"] if not q["node"].startswith("H")]
    values += [["all", "q_mean_kb", sum(q["q_mean_frames"] for q in switches) * frame / 1e3],
               ["all", "q_peak_kb", max((q["peak_bytes"] for q in switches), default=0) / 1e3],
               ["all", "paused_us", sum(sum(p["paused_s_window"]) for p in stats.get("ports", [])) * 1e6],
               ["all", "pause_frames", sum(p["pause_sent"] for p in stats.get("ports", []))]]
    # DCQCN's transfers still running at the end: their RPs' rate then (none: no such transfer, or no RP).
    unfinished = {f["name"] for f in flows if f.get("fct_s") is None}
    rates = [r["rate_final_bps"] for r in stats.get("rps", []) if r.get("flow") in unfinished and r.get("rate_final_bps")]
    if rates:
        values.append(["all", "unfinished_rate_gbps", sum(rates) / len(rates) / 1e9])
    return {"values": [v for v in values if v[2] is not None]}
