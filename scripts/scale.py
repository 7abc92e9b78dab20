"""Scale measurements of docs/performance.md's "Scale" section (one process per call; nothing here
is a test).

  python scripts/scale.py check flows|group|fat [K ...]   # `check` time for growing inputs
  python scripts/scale.py size [MB ...]                    # `cnsim check` of a scenario of MB megabytes
  python scripts/scale.py run K [DURATION]                 # a k-ary fat tree: check, build, run
  python scripts/scale.py stats OUTDIR                     # every shipped scenario's results
  python scripts/scale.py same DIR_A DIR_B                 # are two `stats` outputs identical?
  python scripts/scale.py after OUTDIR [FLOWS]             # the steps after a run of FLOWS workload flows
  python scripts/scale.py hosts OUTDIR [HOSTS]             # the same for a star of HOSTS hosts, no traffic

`check` builds lines of 10 000 to 80 000 flows and multicast groups of 10 000 to 100 000 members
(tests/test_scale_inputs.py's generators) and fat trees (cnsim.generators.fat_tree: ECMP,
permutation traffic, here at 100 Mb/s per host). `stats` runs each shipped scenario at its full
duration with seed 1, and a few generated networks that exercise routing, and writes its stats
document, its network description, its resolved scenario and digests of its series and of its full
event trace (so a refactoring that reorders events shows); `same` compares two such outputs,
ignoring only `routing_bytes` (the tables' own size) and `build_s` of the description. `after`
builds a star of 16 hosts with one web-search workload making about FLOWS flows (default a
million), runs 100 000 events (the flows are all made, few end: the document holds every one) and
times each step `cnsim run` takes after the simulation, writing the run into OUTDIR; `hosts` does the
same for one switch and HOSTS hosts (default a million) without traffic, 1 ms.
"""

import glob
import hashlib
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from cnsim import _core  # noqa: E402
from cnsim.generators import fat_tree  # noqa: E402
from test_scale_inputs import line_of_flows, scenario_of_size, two_level_group  # noqa: E402


def check(kind: str, ks: list[int]) -> None:
    cases = {
        "flows": [(f"{n} flows", lambda n=n: line_of_flows(n)) for n in (10_000, 20_000, 40_000, 80_000)],
        "group": [(f"{100 * p} members", lambda p=p: two_level_group(100, p)) for p in (100, 500, 1000)],
        "fat": [(f"fat tree k = {k} ({k ** 3 // 4} hosts)", lambda k=k: fat_tree(k, traffic_rate="100Mbps"))
                for k in ks or (8, 16, 24, 32, 48)],
    }[kind]
    for label, make in cases:
        text = make()
        t = time.perf_counter(); started[t] = cpu()
        _core.check(text, "scale.toml", [])
        print(f"{label}: check {time.perf_counter() - t:.2f} s", flush=True)


def size(mbs: list[float]) -> None:
    """`cnsim check` of a scenario of each size (`scenario_of_size`), each in a fresh process: its CPU
    time (user and system: wall time on a shared machine says more about the other jobs) and peak RSS."""
    import subprocess
    import tempfile

    for mb in mbs or (5, 10, 25, 50):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"size-{mb}.toml"
            text = scenario_of_size(mb)
            path.write_text(text)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-m", "cnsim", "check", str(path)], check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)   # ru_maxrss: the largest child so far
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            print(f"{len(text) / 1e6:.1f} MB ({text.count('[[flow]]')} flows): check {cpu:.2f} s CPU, "
                  f"peak RSS {after.ru_maxrss / 1e6:.2f} GB", flush=True)


def run(k: int, duration: str) -> None:
    text = fat_tree(k, traffic_rate="100Mbps", duration=duration)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter(); _core.check(text, "fat.toml", []); chk = time.perf_counter() - t
    t = time.perf_counter(); sim = _core.Simulation(text, "fat.toml", [], 1); build = time.perf_counter() - t
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter(); sim.run_until(sim.duration_ps, 0); wall = time.perf_counter() - t
    st = json.loads(sim.stats_json())
    hosts = k ** 3 // 4
    print(json.dumps({
        "k": k, "hosts": hosts, "check_s": round(chk, 2), "build_s": round(build, 2), "run_s": round(wall, 2),
        "events": sim.events, "events_per_s": round(sim.events / wall), "delivered": st["frames"]["data_delivered"],
        "dropped": st["frames"]["data_dropped"], "routing_mb": json.loads(sim.describe_json())["routing_bytes"] / 1e6,
        "built_kb_per_host": round((rss1 - rss0) / hosts, 1),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}))


def generated() -> dict[str, str]:
    return {
        "fat8-ecmp": fat_tree(8, duration="2ms"),
        "fat8-single": fat_tree(8, duration="2ms", ecmp=False),
        "fat6-qcn-ecmp": fat_tree(6, duration="2ms", cc="qcn", traffic_rate="5Gbps"),
        "line-2000": line_of_flows(2000),
        "group-10x50": two_level_group(10, 50),
    }


def stats(out: str) -> None:
    os.makedirs(out, exist_ok=True)
    shipped = {p.split("scenarios/")[1].replace("/", "__"): (Path(p).read_text(), p)
               for p in sorted(glob.glob(str(ROOT / "python/cnsim/scenarios/**/*.toml"), recursive=True))}
    cases = shipped | {f"gen__{n}": (text, n + ".toml") for n, text in generated().items()}
    for name, (text, path) in cases.items():
        sim = _core.Simulation(text, path, [], 1)
        sim.enable_trace(0xFFFF)  # every event kind: the trace's digest pins the order of events too
        sim.run_until(sim.duration_ps, 0)
        doc = {"stats": json.loads(sim.stats_json()), "describe": json.loads(sim.describe_json()),
               "resolved": sim.resolved_toml(), "digests": digests(sim)}
        Path(out, name + ".json").write_text(json.dumps(doc, indent=1, sort_keys=True))
        print(name, flush=True)


def digests(sim) -> dict:
    """sha256 of the recorded series and of the whole event trace, column by column."""
    series, trace = sim.series(), sim.trace()
    return {"series": hashlib.sha256(b"".join(series[k] for k in ("index", "t", "value"))).hexdigest(),
            "trace": hashlib.sha256(b"".join(k.encode() + trace[k] for k in sorted(trace))).hexdigest()}


def same(a: str, b: str) -> int:
    names = sorted(os.listdir(a))
    if names != sorted(os.listdir(b)):
        print("different sets of files")
        return 1
    bad = 0
    for n in names:
        x, y = (json.loads(Path(d, n).read_text()) for d in (a, b))
        for doc in (x, y):
            doc["describe"].pop("routing_bytes", None)
            doc["describe"].pop("build_s", None)
        bad += x != y
        print(f"{'same' if x == y else 'DIFFERENT'}  {n}")
    print(f"{len(names)} files, {bad} different")
    return int(bad > 0)


def workload_star(flows: int) -> str:
    """A star of 16 hosts at 10 Gb/s with a web-search workload at load 0.9 whose arrivals make about
    `flows` flows (11 000 a simulated second)."""
    stop = flows / 10_520  # flows a second, measured: 936 244 in 89 s
    return f"""[simulation]
duration = "{stop + 1:.3f}s"
record_interval = "0s"
measure_from = "0s"

[defaults]
link = {{ rate = "10Gbps", delay = "1us" }}
queue = {{ capacity = "100 frames" }}

[[switch]]
names = "S1"
[[host]]
names = "H1..H16"
[[link]]
between = ["S1", "H1..H16"]

[[workload]]
name = "ws"
hosts = ["H1..H16"]
sizes = "web-search"
load = 0.9
start = "0s"
stop = "{stop:.3f}s"
traffic = "transfer"
max_flows = {max(2 * flows, 100):d}
"""


def host_star(hosts: int) -> str:
    """One switch and `hosts` hosts at 10 Gb/s, no traffic, 1 ms: every per-entity table of the
    outputs (queues, series) at its largest for the fewest events."""
    ranges = ", ".join(f'"H{i + 1}..H{min(i + 100_000, hosts)}"' for i in range(0, hosts, 100_000))
    return f"""[simulation]
duration = "1ms"

[defaults]
link = {{ rate = "10Gbps", delay = "1us" }}

[[switch]]
names = ["SW"]

[[host]]
names = [{ranges}]

[[link]]
between = ["SW", [{ranges}]]
"""


def after(out: str, text: str, name: str, overrides: list, what: str) -> None:
    """The steps of `api._run` after the simulation, each timed (wall and CPU) with the peak RSS after it."""
    from cnsim import jsonio
    from cnsim.api import drive, gc_paused
    from cnsim.results import Result

    cpu = lambda: (lambda u: u.ru_utime + u.ru_stime)(resource.getrusage(resource.RUSAGE_SELF))  # noqa: E731
    started = {}

    def step(name: str, t: float) -> None:  # CPU time too: wall time on a shared machine says more about the others
        print(f"{name}: {time.perf_counter() - t:.2f} s wall, {cpu() - started[t]:.2f} s CPU, peak RSS "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.2f} GB", flush=True)

    t = time.perf_counter(); started[t] = cpu()
    sim = _core.Simulation(text, name, overrides, 1)
    step("build", t)
    t = time.perf_counter(); started[t] = cpu()
    drive(sim, lambda: None)
    step(what, t)
    with gc_paused():  # as in `api._run`
        t0 = t = time.perf_counter(); started[t] = cpu()
        (stats_text, cuts), series, toml = sim.stats_json_cut(jsonio.ROWS), sim.take_series(), sim.resolved_toml()
        del sim
        step("collecting the statistics", t)
        t = time.perf_counter(); started[t] = cpu()
        result = Result(jsonio.loads_tables(stats_text, cuts), series, toml)
        del stats_text
        step(f"reading the statistics ({len(result.stats['flows'])} flows, {len(result.stats['queues'])} queues)", t)
        t = time.perf_counter(); started[t] = cpu()
        result.summary
        step("the summary", t)
        t = time.perf_counter(); started[t] = cpu()
        result.write(out, figures=False)
        step("writing summary.json, series.parquet, scenario.toml", t)
        step("after the simulation, in all", t0)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "check":
        check(args[0], [int(k) for k in args[1:]])
    elif cmd == "size":
        size([float(mb) for mb in args])
    elif cmd == "run":
        run(int(args[0]), args[1] if len(args) > 1 else "1ms")
    elif cmd == "stats":
        stats(args[0])
    elif cmd == "after":
        after(args[0], workload_star(int(args[1]) if len(args) > 1 else 1_000_000), "flows.toml",
              [("simulation.max_events", "100000")], "100 000 events")
    elif cmd == "hosts":
        after(args[0], host_star(int(args[1]) if len(args) > 1 else 1_000_000), "hosts.toml", [], "1 ms")
    elif cmd == "same":
        sys.exit(same(args[0], args[1]))
    else:
        sys.exit(__doc__)
