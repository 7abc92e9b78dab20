"""Scale: a fat tree with more than 10 000 hosts builds and runs 1 ms simulated in well under
2 GB. Run in a child process so that its peak memory is its own (VmHWM: getrusage's ru_maxrss
would keep the parent's peak across exec). Times are printed for
the record, never asserted (speed is measured by the benchmark harness)."""

import json
import subprocess
import sys

CHILD = r"""
import json, sys, time
from cnsim import _core
from cnsim.generators import fat_tree
text = fat_tree(36, duration="1ms")
t0 = time.perf_counter()
sim = _core.Simulation(text, "fat-tree-k36", [], None)
t1 = time.perf_counter()
sim.run_until(sim.duration_ps, 0)
t2 = time.perf_counter()
d, st = json.loads(sim.describe_json()), json.loads(sim.stats_json())
print(json.dumps({"hosts": sum(n["kind"] == "host" for n in d["nodes"]), "build_s": t1 - t0, "run_s": t2 - t1,
                  "end_s": st["time"]["end_s"], "stopped_by": st["stopped_by"], "delivered": st["frames"]["data_delivered"],
                  "routing_mb": d["routing_bytes"] / 1e6, "peak_rss_mb": next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024}))
"""


def test_ten_thousand_host_fat_tree_builds_and_runs_in_bounded_memory():
    p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout.strip().splitlines()[-1])
    print(r)
    assert r["hosts"] == 11664
    assert r["stopped_by"] is None and r["end_s"] == 0.001 and r["delivered"] > 0
    assert r["routing_mb"] < 100  # one column per edge switch, not nodes²
    assert r["peak_rss_mb"] < 2048


def test_fat_tree_generator_checks_k():
    import pytest

    from cnsim.generators import fat_tree

    for bad in (3, 0, 2.0):
        with pytest.raises(ValueError):
            fat_tree(bad)
