"""The memory estimate made before a build (nodes, links with their queues, flows, workloads, the
routing table, the series, the parsed scenario) bounds what loading and building then take: on fat
trees, the growth of the process's own peak (VmHWM, read in a child process: getrusage's ru_maxrss
keeps the parent's peak across exec) from just before the load stays under the estimate. (The routing
table's estimate against the build's: build/estimate.rs's tests.)"""

import json
import re
import subprocess
import sys

import pytest

from cnsim import _core
from cnsim.generators import fat_tree

CHILD = r"""
import json, sys
from cnsim import _core
from cnsim.generators import fat_tree
def status(field):
    for line in open('/proc/self/status'):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
text = fat_tree(int(sys.argv[1]), duration="1ms")
before = status('VmRSS:')
sim = _core.Simulation(text, "fat-tree", [], None)
print(json.dumps({"grown": status('VmHWM:') - before, "routing": json.loads(sim.describe_json())["routing_bytes"]}))
"""


def refusal(text: str) -> str:
    """The estimate's refusal under a 1 B budget: it names the total and the largest part."""
    with pytest.raises(_core.ScenarioError) as e:
        _core.check(text, "fat-tree.toml", [("simulation.max_memory", "1B")])
    return str(e.value)


def estimated_mb(text: str) -> float:
    return float(re.search(r"of the scenario's estimated ([\d.]+) MB", refusal(text)).group(1))


@pytest.mark.parametrize("k", [8, 16, 24])
def test_the_estimate_bounds_a_fat_tree_s_load_and_build(k):
    total = estimated_mb(fat_tree(k, duration="1ms"))
    p = subprocess.run([sys.executable, "-c", CHILD, str(k)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["grown"] / 1e6 <= total, (k, r, total)

