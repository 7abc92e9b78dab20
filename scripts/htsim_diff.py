"""cnsim against htsim, differentially: HPCC, Swift and DCTCP on the same small fat tree, an N-to-1
incast and a permutation, compared metric by metric within tolerances fixed before the first run
(docs/validation.md holds the table, the commands and the explanations).

    python scripts/htsim_diff.py HTSIM [--protocols hpcc swift dctcp] [--cases incast permutation]
                                       [--work DIR] [--out FILE]

HTSIM is a checkout of csg-htsim (https://github.com/Broadcom/csg-htsim, or a snapshot): this script
fetches nothing. It builds htsim's library and links cnsim's own driver, scripts/peer/htsim_diff.cpp,
against it (scripts/peer/htsim_build.py); cnsim runs in this process (`cnsim.run`).

Scenarios (SCENARIOS): k = 4 (16 hosts, 20 switches); every flow is a finite transfer of
`flow_pkts` full packets, all starting at time 0. `incast`: the eight hosts of pods 3 and 4 to host
H1 (htsim's host 0): the bottleneck is H1's ToR port E1>H1. `permutation`: host h to h + 8 (mod 16),
every flow through a core switch. Every flow takes in htsim, as a source route, the path cnsim's ECMP
hash gives it (scripts/peer_fattree.py's renaming of cores), so the same flows collide in both.

Measured in each simulator: every flow's FCT (cnsim: the ACK of its last byte at the sender; htsim:
the first sample at which the sink holds all of it, at most `sample_us` late, and about half an RTT
later than the sender learns it — both far inside the tolerances), the completion time (the last
FCT), and in the incast the bottleneck queue sampled every `sample_us` until the completion.
"""

import argparse
import math
import statistics
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "scripts"))
from peer.htsim_build import build_library, link_driver, sh  # noqa: E402  (scripts/peer/)

# The network, both simulators.
NET = {
    "k": 4,                 # fat tree radix: 16 hosts, 8 ToRs, 8 aggregation, 4 core switches
    "rate_gbps": 10,        # every link, both directions
    "delay_ns": 1000,       # every link's propagation delay; no switching latency (htsim's switch_latency 0)
    "queue_pkts": 100,      # every switch output queue, in full packets (packet_b)
    "host_queue_pkts": 1000,  # cnsim's host NIC queues (htsim's FEEDER_BUFFER); windows keep them short
    "packet_b": 1500,       # a full data packet on the wire, headers included (MTU)
    "overhead_b": 0,        # no preamble or inter-frame gap (htsim models none)
    "flow_pkts": 100,       # every flow: this many full packets of payload
    "sample_us": 1,         # queue and progress sampling period (htsim's driver; cnsim's record_interval)
    "duration_us": 4000,    # simulated time: well past the slowest completion expected (incast ≈ 1 ms)
}
SCENARIOS = {
    # name: (destination host, senders), htsim's numbering from 0 (cnsim's H(i + 1))
    "incast": (0, list(range(8, 16))),
    "permutation": (None, list(range(16))),
}

# Each protocol's parameters, htsim's value and cnsim's key for it. Where htsim's default differs from
# the paper (docs/validation.md), cnsim is set to htsim's value: the comparison is of the models, on
# the same parameters.
HPCC = {
    "header_b": 64,         # htsim: HPCCPacket::ACKSIZE is every data packet's header and an ACK's size
    "cnsim_header_b": 100,  # cnsim: Ethernet 18 + IPv4 20 + UDP 8 + BTH 12 + INT 42 (protocols/hpcc/mod.rs)
    "t_us": 20,             # base RTT T, both: the 6-hop path's RTT with empty queues is ≈ 19.8 µs
    "eta": 0.95,            # target utilisation η (paper §5.1; htsim's default)
    "max_stage": 5,         # maxStage (paper; htsim's default)
    "pfc_high_pkts": 15,    # PFC at every switch ingress: pause above (htsim's LosslessInputQueue)
    "pfc_low_pkts": 12,     # and resume at
}
# W_AI: htsim's is one MSS of payload (hpcc.cpp sets _Wai = _mss in the constructor); cnsim's is
# given the same bytes.
HPCC["wai_b"] = NET["packet_b"] - HPCC["header_b"]
SWIFT = {
    "base_target_us": 20,   # htsim: SwiftSrc::_base_delay
    "hdiv": 6.55,           # htsim: h = base_delay / hdiv per hop (SwiftSrc::set_hdiv)
    "fs_range_us": 100,     # htsim: 5 · base_delay
    "fs_min_cwnd": 0.1,     # packets
    "fs_max_cwnd": 100,
    "ai": 1.0,
    "beta": 0.8,
    "max_mdf": 0.5,
    "min_cwnd_b": 10,       # htsim: _min_cwnd, bytes
    "max_cwnd_pkts": 1000,  # htsim: 1000 · mss
    "init_cwnd_pkts": 10,   # both (set_cwnd in htsim)
    "ack_b": 40,            # htsim: SwiftAck::ACKSIZE
    "cnsim_header_b": 64,   # cnsim: protocols/swift/wire.rs HEADER_BYTES (htsim's packets carry none)
}
DCTCP = {
    "mark_k_pkts": 15,      # htsim's FatTreeTopology ECN queue marks above memFromPkt(15), fixed
    "g": 1 / 16,            # htsim: dctcp.cpp's α gain; cnsim's DCTCP default (RFC 8257 §4.2)
    "init_cwnd_pkts": 10,   # htsim's TcpSrc
    "ack_b": 40,            # htsim's TcpAck::ACKSIZE
    "cnsim_header_b": 40,   # cnsim: TCP/IP headers inside the 1500-B frame (htsim's carry none)
}
PROTOCOLS = {"hpcc": HPCC, "swift": SWIFT, "dctcp": DCTCP}

# Tolerances, fixed before the first comparison run (the commit that adds this script runs nothing).
# Each metric compares cnsim's value c with htsim's h; a row agrees when |c − h| ≤ max(abs, rel·|h|).
#
# - completion_us (the last flow's FCT): both move the same bytes through the same bottleneck (the
#   incast's destination link; the permutation's most shared link), so once the senders fill it the
#   completion is bytes ÷ rate in both. What may differ is the start (a few RTTs of ≈ 20 µs each, the
#   initial windows and HPCC's PFC burst) and the tail (the last flow alone, its ramp-up): 10 % of the
#   ≈ 960-µs incast is ≈ 5 RTTs, and 20 µs absolute covers the permutation's ≈ 120-µs flows.
# - fct_median_us: as the completion, plus the order in which flows finish, which an AIMD protocol
#   decides by small differences: 15 %, 20 µs.
# - fct_jain: Jain's index of the flows' mean rates (bytes ÷ FCT), 1 when all finish together: an
#   unfair model finishes some flows early; 0.05 absolute separates "shared fairly" from "not".
# - queue_p50_pkts, queue_p99_pkts (incast only: the destination's ToR port, over [0, completion]):
#   each protocol's standing queue is what it is designed to hold (HPCC ≈ 0, DCTCP ≈ K, Swift ≈ the
#   target's excess over the base RTT), so two faithful models agree to within the oscillation of
#   that queue: 30 % of htsim's, and 5 packets absolute (a queue near zero is all noise).
TOLERANCES = {
    "completion_us": {"rel": 0.10, "abs": 20.0},
    "fct_median_us": {"rel": 0.15, "abs": 20.0},
    "fct_jain": {"rel": 0.0, "abs": 0.05},
    "queue_p50_pkts": {"rel": 0.30, "abs": 5.0},
    "queue_p99_pkts": {"rel": 0.30, "abs": 5.0},
}


def payload_b(proto: str) -> dict[str, int]:
    """A full packet's payload in each simulator: the packet less each one's headers."""
    p = PROTOCOLS[proto]
    htsim = NET["packet_b"] - HPCC["header_b"] if proto == "hpcc" else NET["packet_b"]
    return {"cnsim": NET["packet_b"] - p["cnsim_header_b"], "htsim": htsim}


def hosts() -> int:
    return NET["k"] ** 3 // 4


def flow_ends(case: str) -> list[tuple[int, int]]:
    dst, srcs = SCENARIOS[case]
    n = hosts()
    return [(s, dst if dst is not None else (s + n // 2) % n) for s in srcs]


def cnsim_transport(proto: str) -> dict:
    """The flow keys giving cnsim the protocol with htsim's parameters (PROTOCOLS)."""
    size = f"{NET['flow_pkts'] * payload_b(proto)['cnsim']}B"
    mss = f"{payload_b(proto)['cnsim']}B"
    if proto == "hpcc":
        return {"traffic": {"kind": "transfer", "size": size},
                "transport": {"hpcc": {"eta": HPCC["eta"], "max_stage": HPCC["max_stage"], "w_ai": f"{HPCC['wai_b']}B",
                                       "base_rtt": f"{HPCC['t_us']}us", "mss": mss}}}
    if proto == "swift":
        s = SWIFT
        h_us = s["base_target_us"] / s["hdiv"]
        # Neither scales the target by hops on this fabric (docs/validation.md): htsim's sources clone
        # their route and Route::clone() restarts the hop count at 0; cnsim's fat-tree switches are
        # Ethernet switches, which leave the TTL (cnsim's hop count) alone. h is set all the same.
        return {"traffic": {"kind": "transfer", "size": size},
                "transport": {"swift": {"base_target": f"{s['base_target_us']}us",
                                        "hop_scale": f"{h_us * 1e6:.0f}ps", "fs_range": f"{s['fs_range_us']}us",
                                        "fs_min_cwnd": s["fs_min_cwnd"], "fs_max_cwnd": s["fs_max_cwnd"],
                                        "ai": s["ai"], "beta": s["beta"], "max_mdf": s["max_mdf"],
                                        "min_cwnd": s["min_cwnd_b"] / NET["packet_b"],
                                        "max_cwnd": s["max_cwnd_pkts"], "init_cwnd": s["init_cwnd_pkts"],
                                        "mss": mss, "ack_size": f"{s['ack_b']}B"}}}
    from peer_fattree import CNSIM_TCP  # DCTCP as the performance comparison runs it, htsim's TcpSrc's settings
    d = DCTCP
    return {"traffic": {"kind": "tcp-transfer", "size": size},
            "tcp": {**CNSIM_TCP, "mss": mss, "ack_size": f"{d['ack_b']}B", "init_cwnd": d["init_cwnd_pkts"]}}


def cnsim_scenario(proto: str, case: str) -> str:
    """cnsim.generators.fat_tree with the case's flows, the protocol's transport and its queues."""
    from cnsim.generators import fat_tree
    from cnsim.scenario import to_toml
    n, half = NET, NET["k"] // 2
    queue = {"discipline": "threshold", "threshold": {"k": f"{DCTCP['mark_k_pkts']} frames"}} if proto == "dctcp" else None
    doc = tomllib.loads(fat_tree(n["k"], rate=f"{n['rate_gbps']}Gbps", delay=f"{n['delay_ns']}ns",
                                 duration=f"{n['duration_us']}us", capacity=f"{n['queue_pkts']} frames",
                                 flow={"traffic": {"kind": "bulk"}}, queue=queue, overhead=f"{n['overhead_b']}B"))
    doc["simulation"]["record_interval"] = f"{n['sample_us']}us"
    doc["simulation"]["frame_size"] = f"{n['packet_b']}B"
    doc["flow"] = [{"from": f"H{s + 1}", "to": f"H{d + 1}", **cnsim_transport(proto)} for s, d in flow_ends(case)]
    if proto == "hpcc":
        doc["flow_control"] = {"pfc": {"trigger": "ingress", "xoff": f"{HPCC['pfc_high_pkts']} frames",
                                       "xon": f"{HPCC['pfc_low_pkts']} frames"}}
    doc["port"] = [{"at": [f"H{h + 1}>E{h // half + 1}" for h in range(hosts())],
                    "queue": {"capacity": f"{n['host_queue_pkts']} frames"}}]
    return to_toml(doc)


def htsim_flows(proto: str, case: str) -> str:
    """Lines `src dst agg core` for the driver: each flow's path as cnsim's ECMP chose it."""
    from peer_fattree import htsim_paths
    lines = htsim_paths(NET["k"], cnsim_scenario(proto, case)).splitlines()
    return "".join(f"{s} {d} {l.split(maxsplit=1)[1]}\n" for (s, d), l in zip(flow_ends(case), lines, strict=True))


def htsim_args(proto: str) -> list[str]:
    """The driver's KEY=VALUE arguments for the protocol."""
    if proto == "hpcc":
        return [f"{k}={HPCC[k]}" for k in ("t_us", "eta", "max_stage", "wai_b", "pfc_high_pkts", "pfc_low_pkts")]
    if proto == "swift":
        return [f"init_cwnd_pkts={SWIFT['init_cwnd_pkts']}", f"hdiv={SWIFT['hdiv']}"]
    return []


def htsim_command(driver: Path, proto: str, case: str, flows_file: Path) -> list[str]:
    n = NET
    dst = SCENARIOS[case][0] or 0
    return [str(driver), proto, str(n["k"]), str(n["duration_us"]), str(n["rate_gbps"]), str(n["delay_ns"]),
            str(n["packet_b"]), str(n["queue_pkts"]), str(n["flow_pkts"]), str(n["sample_us"]), str(dst),
            str(flows_file), *htsim_args(proto)]


def parse_htsim(out: str) -> dict:
    """The driver's output: {"proto", "n_flows", "drops", "sim_s", …, "flows": [{"src", "dst", "fct_us"}],
    "queue_bytes": [...]}."""
    res: dict = {"flows": [], "queue_bytes": None}
    for line in out.splitlines():
        if not line.strip():
            continue
        word, *rest = line.split()
        if word == "htsim":
            summary = dict(kv.split("=") for kv in rest)
            res.update(proto=summary.pop("proto"), n_flows=int(summary.pop("flows")),
                       **{k: float(v) for k, v in summary.items()})
        elif word == "flow":
            kv = dict(x.split("=") for x in rest)
            fct = float(kv["fct_us"])
            res["flows"].append({"src": int(kv["src"]), "dst": int(kv["dst"]), "fct_us": fct if fct >= 0 else None})
        elif word == "queue_bytes":
            res["queue_bytes"] = [int(x) for x in rest]
    if "drops" not in res or res["queue_bytes"] is None:
        raise ValueError("not the output of htsim_diff: no summary or no queue_bytes line")
    return res


def percentile(xs: list[float], p: float) -> float:
    """Nearest rank: the ⌈p·n⌉-th smallest."""
    s = sorted(xs)
    return s[max(0, math.ceil(p * len(s)) - 1)]


def measures(fcts_us: list[float | None], queue_pkts: list[float] | None, queue_from: float = 0.0) -> dict:
    """The compared metrics from the flows' FCTs (None: unfinished) and the queue's samples (in
    packets, from time 0 every sample_us), the queue's over [queue_from · completion, completion]."""
    done = [f for f in fcts_us if f is not None]
    if len(done) < len(fcts_us):
        return {"unfinished": len(fcts_us) - len(done)}
    rates = [1 / f for f in done]
    m = {"fcts_us": done, "completion_us": max(done), "fct_median_us": statistics.median(done),
         "fct_jain": sum(rates) ** 2 / (len(rates) * sum(r * r for r in rates))}
    if queue_pkts is not None:
        end = int(m["completion_us"] / NET["sample_us"]) + 1
        window = queue_pkts[int(queue_from * end):end]
        m["queue_p50_pkts"] = percentile(window, 0.5)
        m["queue_p99_pkts"] = percentile(window, 0.99)
    return m


def agrees(metric: str, cnsim: float, htsim: float) -> bool:
    t = TOLERANCES[metric]
    return abs(cnsim - htsim) <= max(t["abs"], t["rel"] * abs(htsim))


def run_cnsim(proto: str, case: str, queue_from: float = 0.0) -> dict:
    import cnsim
    res = cnsim.run(cnsim_scenario(proto, case), figures=False, progress=False)
    fcts = [None if f.get("fct_s") is None else f["fct_s"] * 1e6 for f in res.stats["flows"]]
    queue = None
    if case == "incast":
        dst = SCENARIOS[case][0]
        port = f"E{dst // (NET['k'] // 2) + 1}>H{dst + 1}"
        queue = [float(x) * res.stats["frame_size_bytes"] / NET["packet_b"] for x in res.series(f"q_frames.{port}")]
    return measures(fcts, queue, queue_from)


def run_htsim(driver: Path, work: Path, proto: str, case: str, queue_from: float = 0.0) -> dict:
    flows = work / f"{proto}-{case}.flows"
    flows.write_text(htsim_flows(proto, case))
    out = sh(htsim_command(driver, proto, case, flows))
    (work / f"{proto}-{case}.htsim.out").write_text(out)
    r = parse_htsim(out)
    queue = [b / NET["packet_b"] for b in r["queue_bytes"]] if case == "incast" else None
    return measures([f["fct_us"] for f in r["flows"]], queue, queue_from)


def rows(proto: str, case: str, c: dict, h: dict) -> list[dict]:
    """One row per metric: both values and the verdict."""
    if "unfinished" in c or "unfinished" in h:
        return [{"protocol": proto, "case": case, "metric": "unfinished flows", "cnsim": c.get("unfinished", 0),
                 "htsim": h.get("unfinished", 0), "agree": False}]
    return [{"protocol": proto, "case": case, "metric": m, "cnsim": c[m], "htsim": h[m], "agree": agrees(m, c[m], h[m])}
            for m in TOLERANCES if m in c and m in h]


def flow_table(proto: str, case: str, c: dict, h: dict) -> str:
    """Markdown rows of every flow's FCT in both (the per-flow view behind the summary rows)."""
    if "fcts_us" not in c or "fcts_us" not in h:
        return ""
    return "".join(f"| {proto} | {case} | H{s + 1}→H{d + 1} | {fc:.4g} | {fh:.4g} |\n"
                   for (s, d), fc, fh in zip(flow_ends(case), c["fcts_us"], h["fcts_us"], strict=True))


def table(rs: list[dict]) -> str:
    """The markdown table of rows."""
    out = ["| protocol | case | metric | cnsim | htsim | tolerance | verdict |", "|---|---|---|---|---|---|---|"]
    for r in rs:
        t = TOLERANCES.get(r["metric"])
        tol = f"±max({t['abs']:g}, {t['rel']:.0%})" if t else "—"
        out.append(f"| {r['protocol']} | {r['case']} | {r['metric']} | {r['cnsim']:.4g} | {r['htsim']:.4g} | {tol} | "
                   f"{'agree' if r['agree'] else '**differ**'} |")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("htsim", type=Path)
    ap.add_argument("--protocols", nargs="+", choices=list(PROTOCOLS), default=list(PROTOCOLS))
    ap.add_argument("--cases", nargs="+", choices=list(SCENARIOS), default=list(SCENARIOS))
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "htsim-diff")
    ap.add_argument("--out", type=Path, default=None, help="write the markdown table here too")
    ap.add_argument("--flow-pkts", type=int, default=NET["flow_pkts"],
                    help="a diagnostic run with longer flows (the tolerances are the default scenario's)")
    ap.add_argument("--duration-us", type=int, default=NET["duration_us"])
    ap.add_argument("--per-flow", action="store_true", help="a table of every flow's FCT in both, too")
    ap.add_argument("--queue-from", type=float, default=0.0,
                    help="queue percentiles over [this fraction of the completion, the completion]")
    a = ap.parse_args()
    NET["flow_pkts"], NET["duration_us"] = a.flow_pkts, a.duration_us
    a.work.mkdir(parents=True, exist_ok=True)
    driver = link_driver(build_library(a.htsim.resolve()), "htsim_diff", a.work / "htsim_diff")
    print("network: " + ", ".join(f"{k}={v}" for k, v in NET.items()))
    for p in a.protocols:
        print(f"{p}: " + ", ".join(f"{k}={v}" for k, v in PROTOCOLS[p].items()))
    rs, per_flow = [], ""
    for p in a.protocols:
        for case in a.cases:
            c, h = run_cnsim(p, case, a.queue_from), run_htsim(driver, a.work, p, case, a.queue_from)
            rs += rows(p, case, c, h)
            per_flow += flow_table(p, case, c, h)
    text = table(rs)
    if a.per_flow:
        text += "\n| protocol | case | flow | cnsim fct_us | htsim fct_us |\n|---|---|---|---|---|\n" + per_flow
    print(text)
    if a.out:
        a.out.write_text(text)
    sys.exit(0 if all(r["agree"] for r in rs) else 1)


if __name__ == "__main__":
    main()
