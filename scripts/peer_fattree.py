"""cnsim against htsim on a fat tree: a DCTCP permutation on k = 8 and k = 16, and an N-to-1 incast
with PFC on k = 8, alone and with rate control; and on cnsim's benchmark dumbbell; both simulators on
the same network, interleaved (docs/performance.md, "Against htsim").

    python scripts/peer_fattree.py HTSIM [--cases permutation incast incast-rate dumbbell] [--k 8 16]
                                         [--incast-k 8] [--dumbbell-n 10 100] [--reps 5]
                                         [--duration-us 2000] [--callgrind-us 500]
                                         [--tolerance 0.05] [--work DIR]

HTSIM is a checkout of csg-htsim (https://github.com/Broadcom/csg-htsim, or a snapshot of it): this
script fetches nothing. It builds htsim's library (`make` in HTSIM/sim) and the fat-tree objects it
needs (in HTSIM/sim/datacenter), then links cnsim's own drivers, `scripts/peer/htsim_fattree.cpp`
`scripts/peer/htsim_incast.cpp` and `scripts/peer/htsim_dumbbell.cpp`, against them; and it builds cnsim's engine-alone runner (`cargo build --release -p cnsim-engine
--example run_file`). Neither simulator's start-up is timed: each times its event loop alone.

The network is `cnsim.generators.fat_tree(k, flow=..., queue=..., overhead="0B")` plus host
ports without marking (htsim's host queues do not mark), and htsim's `FatTreeTopology` with ECN
queues; every flow takes in htsim the very path cnsim's ECMP hash gives it (`cnsim.describe`), its
ACKs the mirror of that path (cnsim hashes them on their own). PARAMS below is the whole list.

The incast (INCAST below): the last `senders` hosts send to the first, each paced at `overload` times
its fair share of the destination's link, with PFC at every switch ingress (pause above
`pfc_high_pkts` frames held, resume at `pfc_low_pkts`). htsim's closest model is RoCE (RoceSrc,
LOSSLESS_INPUT queues, ECMP in the switches' FIB): it has no rate control, so both sides run PFC
alone — cnsim's senders are CBR at the same pace, without DCQCN. What differs: RoceSrc acknowledges
every packet (64-B ACKs on the reverse paths) and cnsim's CBR has no ACKs; each simulator's ECMP
hashes the flows on its own (every path has the same six hops, and the destination's link is the
bottleneck of all). The case `incast-rate` adds rate control, each simulator its own, every
sender starting at the link's rate: htsim's HPCC (HPCCSrc, a window from in-band telemetry) and
cnsim's DCQCN (its marking at every queue, its RP on every flow) — different algorithms, which
both keep the destination's link full.

The dumbbell (`dumbbell`): the engine's benchmark scenario (`cnsim._core.bench_scenario`, CBR
sources, QCN off; docs/performance.md, "Measuring") without wire overhead, and htsim's CbrSrc /
Queue / Pipe / CbrSink on the same links, queues, rates and start times, read from that scenario's
text; neither has acknowledgements, so a delivered packet is two frame-hops in both.

Each repetition runs cnsim then htsim (htsim first on odd repetitions). Reported per case and k: the median
wall time of each, the median over repetitions of cnsim's delivered packets per wall-second ÷
htsim's, and each one's delivered packets per simulated second; when these differ by more than
`--tolerance` the comparison is void and the script says so (exit status 1). With `--callgrind-us`
(when valgrind is installed) each runs once more under callgrind for that simulated time, counting
the event loop alone, and the instructions per delivered packet are reported. Use `nice`.
"""

import argparse
import json
import re
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "scripts"))
from peer.htsim_build import build_library, link_driver, sh  # noqa: E402  (scripts/peer/)

# Every parameter of the comparison, as both simulators take it.
PARAMS = {
    "rate_gbps": 10,            # every link, both directions
    "delay_ns": 1000,           # every link's propagation delay; no switching latency
    "queue_pkts": 100,          # every switch output queue, drop-tail, in 1500-B packets
    "host_queue_pkts": 1000,    # host NIC queues (htsim's FEEDER_BUFFER), no marking
    "mark_k_pkts": 15,          # htsim's FatTreeTopology ECN queue: memFromPkt(15), fixed
    "packet_b": 1500,           # data packet on the wire (htsim: mss 1500 B, no headers; cnsim: mss 1460 + 40)
    "ack_b": 40,                # htsim's TcpAck::ACKSIZE
    "overhead_b": 0,            # no preamble or inter-frame gap (htsim has none)
    "init_cwnd_pkts": 10,       # htsim's TcpSrc
    "seed": 1,
}
CNSIM_TCP = {"ecn": "dctcp", "mss": "1460B", "ack_size": f"{PARAMS['ack_b']}B", "init_cwnd": PARAMS["init_cwnd_pkts"],
             "rwnd": 10_000, "sack": False, "variant": "newreno", "initial_rto": "10ms", "min_rto": "250ms"}
# The incast's own parameters; the links, queues and packet size are PARAMS'.
INCAST = {
    "senders": 16,              # hosts n-16 .. n-1 (the last pod at k = 8) to host 0
    "overload": 2,              # each sender's pace ÷ its fair share of the destination's link
    "pfc_high_pkts": 15,        # htsim's LosslessInputQueue high threshold (main_roce's default)
    "pfc_low_pkts": 12,         # and its low one
    "sender_queue_pkts": 100_000,  # cnsim's host NIC queue: a paused sender keeps its backlog (htsim's RoceSrc waits)
}


def build(htsim: Path, work: Path) -> tuple[dict[str, Path], Path]:
    """The htsim drivers (by case) and cnsim's run_file, built."""
    sim = build_library(htsim)
    drivers = {case: link_driver(sim, name, work / name)
               for case, name in (("permutation", "htsim_fattree"), ("incast", "htsim_incast"),
                                  ("dumbbell", "htsim_dumbbell"))}
    sh(["cargo", "build", "--release", "-q", "-p", "cnsim-engine", "--example", "run_file"], cwd=ROOT)
    return drivers, ROOT / "target" / "release" / "examples" / "run_file"


def cnsim_scenario(k: int, duration_us: float) -> str:
    from cnsim.generators import fat_tree
    p = PARAMS
    text = fat_tree(k, rate=f"{p['rate_gbps']}Gbps", delay=f"{p['delay_ns']}ns", duration=f"{duration_us:g}us",
                    capacity=f"{p['queue_pkts']} frames", flow={"traffic": {"kind": "tcp-bulk"}, "tcp": CNSIM_TCP},
                    queue={"discipline": "threshold", "threshold": {"k": f"{p['mark_k_pkts']} frames"}},
                    overhead=f"{p['overhead_b']}B")
    half = k // 2
    hosts = [f"H{h + 1}>E{h // half + 1}" for h in range(k * half * half)]
    return text + f'\n[[port]]\nat = {json.dumps(hosts)}\nqueue = {{ capacity = "{p["host_queue_pkts"]} frames" }}\n'


def incast_ends(k: int) -> tuple[int, list[int]]:
    """The incast's destination and senders, numbered from 0 (cnsim's H(i + 1) is htsim's host i)."""
    n, pod = k ** 3 // 4, k * k // 4
    if INCAST["senders"] > n - pod:
        raise ValueError(f"k={k}: {INCAST['senders']} senders do not fit outside the destination's pod "
                         f"({n - pod} hosts)")
    return 0, list(range(n - INCAST["senders"], n))


def incast_pace_mbps(rate_control: bool = False) -> float:
    """Each sender's pace: `overload` times its fair share of the destination's link; with rate
    control, the link's rate (where DCQCN and HPCC start)."""
    if rate_control:
        return PARAMS["rate_gbps"] * 1e3
    return PARAMS["rate_gbps"] * 1e3 * INCAST["overload"] / INCAST["senders"]


def cnsim_incast_scenario(k: int, duration_us: float, rate_control: bool = False) -> str:
    """The fat tree of the permutation, its flows replaced by the incast's, PFC at every switch; with
    `rate_control`, DCQCN too (its marking at every queue, its RP on every flow)."""
    import tomllib
    from cnsim.generators import fat_tree
    from cnsim.scenario import to_toml
    p = PARAMS
    i, frame = INCAST, {"kind": "cbr", "rate": f"{incast_pace_mbps(rate_control):g}Mbps", "frame": f"{p['packet_b']}B"}
    doc = tomllib.loads(fat_tree(k, rate=f"{p['rate_gbps']}Gbps", delay=f"{p['delay_ns']}ns",
                                 duration=f"{duration_us:g}us", capacity=f"{p['queue_pkts']} frames",
                                 flow={"traffic": frame}, overhead=f"{p['overhead_b']}B"))
    dst, srcs = incast_ends(k)
    rp = {"rp": {"dcqcn": {}}} if rate_control else {}
    doc["flow"] = [{"from": f"H{s + 1}", "to": f"H{dst + 1}", "traffic": frame, **rp} for s in srcs]
    if rate_control:
        doc["defaults"]["queue"]["discipline"] = "dcqcn"
    doc["flow_control"] = {"pfc": {"trigger": "ingress", "xoff": f"{i['pfc_high_pkts']} frames",
                                   "xon": f"{i['pfc_low_pkts']} frames"}}
    half = k // 2
    doc["port"] = [{"at": [f"H{s + 1}>E{s // half + 1}" for s in srcs],
                    "queue": {"capacity": f"{i['sender_queue_pkts']} frames"}}]
    return to_toml(doc)


def cnsim_dumbbell_scenario(n: int, duration_us: float) -> str:
    """The engine's benchmark dumbbell with N sources, QCN off, without wire overhead (htsim has none)."""
    from cnsim import _core
    text = _core.bench_scenario("cbr", n, False, duration_us / 1e6)
    link = 'link = { rate = "10Gbps", delay = "1us" }'
    if link not in text:
        raise ValueError("the benchmark's [defaults] link changed: update cnsim_dumbbell_scenario")
    return text.replace(link, link[:-2] + ', overhead = "0B" }')


def parse_duration(text: str) -> float:
    """"1us" or "100000ps" -> seconds (the units the benchmark's scenario writes)."""
    m = re.fullmatch(r"([0-9]*\.?[0-9]+)(ps|ns|us|ms|s)", text)
    if not m:
        raise ValueError(f"not a duration: {text!r}")
    return float(m.group(1)) * {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[m.group(2)]


def htsim_dumbbell_args(text: str) -> list[str]:
    """htsim_dumbbell's arguments after N and the duration, read from the dumbbell's scenario text."""
    import tomllib
    from cnsim.analysis import parse_rate
    doc = tomllib.loads(text)
    link = doc["defaults"]["link"]
    access, bottleneck = (int(l["queue"]["capacity"].split()[0]) for l in doc["link"])
    flow = doc["flow"][0]
    n = len(flow["start"])
    if flow["traffic"]["frame"] != "1500B":
        raise ValueError("htsim's CbrSrc sends 1 500-B packets: the dumbbell's frames must be too")
    stagger = parse_duration(flow["start"][-1]) * n / (n - 1) if n > 1 else 0.0
    return [f"{parse_rate(link['rate']) / 1e9:g}", f"{parse_duration(link['delay']) * 1e9:g}", str(access),
            str(bottleneck), f"{parse_rate(flow['traffic']['rate']) * n / 1e9:g}", f"{stagger * 1e6:g}"]


def htsim_paths(k: int, text: str) -> str:
    """One line per flow, `src agg core` in htsim's numbering, from the path cnsim's ECMP gives it.
    cnsim's aggregation switch a (0-based) at pod position i = a mod k/2 reaches cores i·k/2 .. i·k/2 + k/2 − 1;
    htsim's reaches cores i, i + k/2, …: cnsim's core c is htsim's (c div k/2) + k/2 · (c mod k/2)."""
    import cnsim
    half = k // 2
    lines = []
    for f in cnsim.describe(text)["flows"]:
        h, _e, a, c, *_ = f["path"]
        a, c = int(a[1:]) - 1, int(c[1:]) - 1
        lines.append(f"{int(h[1:]) - 1} {a} {c // half + half * (c % half)}")
    return "\n".join(lines) + "\n"


def parse(out: str) -> dict:
    line = [l for l in out.splitlines() if l.startswith(("cnsim ", "htsim "))][-1]
    return {kv.split("=")[0]: float(kv.split("=")[1]) for kv in line.split()[1:]}


def commands(case: str, k: int, duration_us: float, work: Path, driver: Path, runner: Path) -> dict[str, list[str]]:
    if case in ("incast", "incast-rate"):
        return incast_commands(k, duration_us, work, driver, runner, case == "incast-rate")
    if case == "dumbbell":
        text = cnsim_dumbbell_scenario(k, duration_us)
        toml = work / f"dumbbell-n{k}-{duration_us:g}us.toml"
        toml.write_text(text)
        return {"cnsim": [str(runner), str(toml)],
                "htsim": [str(driver), str(k), f"{duration_us:g}", *htsim_dumbbell_args(text)]}
    text = cnsim_scenario(k, duration_us)
    toml = work / f"fattree-k{k}-{duration_us:g}us.toml"
    toml.write_text(text)
    paths = work / f"fattree-k{k}.paths"
    paths.write_text(htsim_paths(k, text))
    p = PARAMS
    return {"cnsim": [str(runner), str(toml)],
            "htsim": [str(driver), str(k), f"{duration_us:g}", str(p["rate_gbps"]), str(p["delay_ns"]),
                      str(p["queue_pkts"]), str(p["seed"]), "dctcp", str(paths)]}


def incast_commands(k: int, duration_us: float, work: Path, driver: Path, runner: Path,
                    rate_control: bool = False) -> dict[str, list[str]]:
    name = "incast-rate" if rate_control else "incast"
    toml = work / f"{name}-k{k}-{duration_us:g}us.toml"
    toml.write_text(cnsim_incast_scenario(k, duration_us, rate_control))
    p, i = PARAMS, INCAST
    dst, srcs = incast_ends(k)
    return {"cnsim": [str(runner), str(toml)],
            "htsim": [str(driver), "hpcc" if rate_control else "roce", str(k), f"{duration_us:g}",
                      str(p["rate_gbps"]), str(p["delay_ns"]), str(p["packet_b"]), str(p["queue_pkts"]),
                      str(i["pfc_high_pkts"]), str(i["pfc_low_pkts"]), f"{incast_pace_mbps(rate_control):g}", str(dst),
                      *map(str, srcs)]}


def callgrind(cmd: list[str], out: Path) -> tuple[float, dict]:
    """Instructions of the event loop alone, and the run's own report."""
    run = sh(["valgrind", "--tool=callgrind", "--toggle-collect=*run_events*", f"--callgrind-out-file={out}", *cmd])
    m = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
    return float(m.group(1)), parse(run)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("htsim", type=Path)
    ap.add_argument("--cases", nargs="+", choices=["permutation", "incast", "incast-rate", "dumbbell"],
                    default=["permutation", "incast", "incast-rate"])
    ap.add_argument("--k", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--incast-k", type=int, nargs="+", default=[8])
    ap.add_argument("--dumbbell-n", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--duration-us", type=float, default=2000)
    ap.add_argument("--callgrind-us", type=float, default=0)
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "peer")
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    drivers, runner = build(a.htsim.resolve(), a.work)
    print("parameters: " + ", ".join(f"{k}={v}" for k, v in PARAMS.items())
          + f", duration={a.duration_us:g}us, cnsim tcp {CNSIM_TCP}, incast {INCAST}")
    void = False
    sizes = {"permutation": a.k, "incast": a.incast_k, "incast-rate": a.incast_k, "dumbbell": a.dumbbell_n}
    for case, k in [(c, k) for c in a.cases for k in sizes[c]]:
        driver = drivers["incast" if case == "incast-rate" else case]
        cmds = commands(case, k, a.duration_us, a.work, driver, runner)
        runs: dict[str, list[dict]] = {"cnsim": [], "htsim": []}
        for r in range(a.reps):
            for name in (("cnsim", "htsim") if r % 2 == 0 else ("htsim", "cnsim")):
                runs[name].append(parse(sh(cmds[name])))
        per_sim_s = {n: statistics.median(x["delivered"] / x["sim_s"] for x in rs) for n, rs in runs.items()}
        ratio = statistics.median((c["delivered"] / c["wall_s"]) / (h["delivered"] / h["wall_s"])
                                  for c, h in zip(runs["cnsim"], runs["htsim"]))
        agree = abs(per_sim_s["cnsim"] / per_sim_s["htsim"] - 1)
        void |= agree > a.tolerance
        size = f"n={k}" if case == "dumbbell" else f"k={k}"
        print(f"{case} {size}: wall s cnsim {statistics.median(x['wall_s'] for x in runs['cnsim']):.3f}, "
              f"htsim {statistics.median(x['wall_s'] for x in runs['htsim']):.3f}; delivered packets per wall-second "
              f"cnsim/htsim {ratio:.2f}x (median of {a.reps}); delivered per simulated s cnsim "
              f"{per_sim_s['cnsim'] / 1e6:.2f} M, htsim {per_sim_s['htsim'] / 1e6:.2f} M ({agree:.1%} apart"
              f"{', VOID: more than ' + format(a.tolerance, '.0%') if agree > a.tolerance else ''}); "
              f"drops cnsim {runs['cnsim'][0]['drops']:.0f}, htsim {runs['htsim'][0]['drops']:.0f}")
        if a.callgrind_us:
            if not shutil.which("valgrind"):
                print("valgrind is not installed: no instruction counts")
                continue
            cmds = commands(case, k, a.callgrind_us, a.work, driver, runner)
            ipp = {}
            for name, cmd in cmds.items():
                ir, run = callgrind(cmd, a.work / f"callgrind.{name}.{case}.k{k}")
                ipp[name] = ir / run["delivered"]
            print(f"{case} {size}: instructions per delivered packet ({a.callgrind_us:g} us, event loop alone): cnsim "
                  f"{ipp['cnsim']:.0f}, htsim {ipp['htsim']:.0f}, htsim/cnsim {ipp['htsim'] / ipp['cnsim']:.2f}x")
    sys.exit(1 if void else 0)


if __name__ == "__main__":
    main()
