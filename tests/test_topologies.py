"""The star (Mliki et al. 2016b Fig. 1) and multi-link (Mliki et al. 2016a Fig. 17 / Mliki et al. 2016b Fig. 13) scenarios carry
the traffic the reconstruction in docs/topologies.md says they do, checked from the engine's stats.
"""

from pathlib import Path

import pytest

import cnsim
from cnsim.topology import draw_topology, layout, load_topology

ROOT = Path(__file__).resolve().parents[1]
ML = ROOT / "scenarios" / "mliki2016"
SHORT = {"simulation.duration": "0.2s", "simulation.measure_from": "0s"}

# scenario -> its [[flow]] entries in file order: (sources, group members, switch queues the
# frames of every one of these sources must cross: exactly these, no others).


def six(prefix):
    return [f"{prefix}{i}" for i in range(1, 7)]


MULTILINK = [
    (six("A"), {"R5", "R6"}, {"Switch1>Switch2", "Switch2>Switch3", "Switch3>R5", "Switch3>R6"}),
    (six("B"), {"R1", "R2"}, {"Switch2>Switch3", "Switch3>R1", "Switch3>R2"}),
    (six("C"), {"R3", "R4"}, {"Switch3>R3", "Switch3>R4"}),
]
# The second reading (2016a §3.6: G2 and G3 "go through only one bottleneck"): G2 local to Switch2,
# G3 to Switch3, G1 alone on the chain.
MULTILINK2 = [
    (six("A"), {"R5", "R6"}, {"Switch1>Switch2", "Switch2>Switch3", "Switch3>R5", "Switch3>R6"}),
    (six("B"), {"R1", "R2"}, {"Switch2>R1", "Switch2>R2"}),
    (six("C"), {"R3", "R4"}, {"Switch3>R3", "Switch3>R4"}),
]
INTENDED = {
    "star-qcn.toml": [(six("S"), {"R1", "R2"}, {"Switch1>R1", "Switch1>R2"})],
    "multilink-multicast.toml": MULTILINK,
    "multilink-multiple-unicast.toml": MULTILINK,
    "multilink2-multicast.toml": MULTILINK2,
    "multilink2-multiple-unicast.toml": MULTILINK2,
}
SWITCHES = {"Switch1", "Switch2", "Switch3"}
NAMES = sorted(INTENDED)


def run(name, **sets):
    return cnsim.run(ML / name, set={**SHORT, **sets}, figures=False, progress=False).stats


def all_start_at_zero(name):
    return {f"flow.{i}.start": "0s" for i in range(len(INTENDED[name]))}


@pytest.mark.parametrize("name", NAMES)
def test_every_member_receives_every_source_of_its_group(name):
    stats = run(name, **all_start_at_zero(name))
    received: dict[str, set] = {}
    for flow in stats["flows"]:
        assert flow["frames_generated"] > 0, flow["name"]
        got = {r["host"] for r in flow["receivers"] if r["frames"] > 0}
        received.setdefault(flow["source"], set()).update(got)
    expected = {s: members for sources, members, _ in INTENDED[name] for s in sources}
    assert received == expected


@pytest.mark.parametrize("name", NAMES)
def test_each_source_crosses_exactly_its_intended_switch_queues(name):
    """One source at a time (the others start after the run): the switch queues with arrivals are
    that source's path or multicast tree, nothing else. Alone, a 200 Mb/s source congests nothing,
    so no CNM crosses a queue either."""
    entries = INTENDED[name]
    for i, (sources, _, path) in enumerate(entries):
        for k, source in enumerate(sources):
            sets = {"simulation.duration": "50ms"}
            for j, (other, _, _) in enumerate(entries):
                starts = ['"0s"' if (j, n) == (i, k) else '"1s"' for n in range(len(other))]
                sets[f"flow.{j}.start"] = "[" + ", ".join(starts) + "]"
            stats = run(name, **sets)
            assert stats["frames"]["cnm_sent"] == 0
            active = {f["source"] for f in stats["flows"] if f["frames_generated"] > 0}
            assert active == {source}
            used = {q["name"] for q in stats["queues"] if q["node"] in SWITCHES and q["arrivals"] > 0}
            assert used == path, (source, used ^ path)


@pytest.mark.parametrize("name", ["multilink-multicast.toml", "multilink-multiple-unicast.toml"])
def test_multilink_potential_bottlenecks(name):
    """Switch2>Switch3 (G1 + G2) and Switch3>R3, R4 (G3) congest with every source on; Switch1>Switch2
    congests when G1 is alone on it; the other receiver ports are fed through one 1 Gb/s link and
    never hold more than a frame."""
    stats = run(name, **all_start_at_zero(name))
    queues = {q["name"]: q for q in stats["queues"]}
    for port in ["Switch2>Switch3", "Switch3>R3", "Switch3>R4"]:
        assert queues[port]["feedback_sent"] > 0, port
    for port in ["Switch3>R1", "Switch3>R2", "Switch3>R5", "Switch3>R6"]:
        assert queues[port]["arrivals"] > 0 and queues[port]["q_max_frames"] <= 1, port
    off = "[" + ", ".join(['"1s"'] * 6) + "]"
    stats = run(name, **{"flow.0.start": "0s", "flow.1.start": off, "flow.2.start": off})
    queues = {q["name"]: q for q in stats["queues"]}
    assert queues["Switch1>Switch2"]["feedback_sent"] > 0


@pytest.mark.parametrize("name", ["multilink2-multicast.toml", "multilink2-multiple-unicast.toml"])
def test_multilink_second_reading_has_one_real_bottleneck_per_switch(name):
    """With every source on, Switch1>Switch2 (G1), Switch2>R1, R2 (G2) and Switch3>R3, R4 (G3)
    congest; G1's queues after Switch1 are fed through one 1 Gb/s link and never hold more than a
    frame, so Switch1 is G1's bottleneck."""
    stats = run(name, **all_start_at_zero(name))
    queues = {q["name"]: q for q in stats["queues"]}
    for port in ["Switch1>Switch2", "Switch2>R1", "Switch2>R2", "Switch3>R3", "Switch3>R4"]:
        assert queues[port]["feedback_sent"] > 0, port
    for port in ["Switch2>Switch3", "Switch3>R5", "Switch3>R6"]:
        assert queues[port]["arrivals"] > 0 and queues[port]["q_max_frames"] <= 1, port


def test_star_both_receiver_queues_congest():
    stats = run("star-qcn.toml", **all_start_at_zero("star-qcn.toml"))
    queues = {q["name"]: q for q in stats["queues"]}
    assert queues["Switch1>R1"]["feedback_sent"] > 0 and queues["Switch1>R2"]["feedback_sent"] > 0


def test_load_topology_expands_the_multilink():
    topo = load_topology(ML / "multilink-multicast.toml")
    assert topo.switches == ["Switch1", "Switch2", "Switch3"]
    assert len(topo.hosts) == 24 and len(topo.links) == 6 * 3 + 2 + 6
    assert topo.groups == {"G1": ["R5", "R6"], "G2": ["R1", "R2"], "G3": ["R3", "R4"]}
    assert len(topo.flows) == 18
    assert topo.flows == cnsim.describe(ML / "multilink-multicast.toml")["flows"]  # the engine's, as is


# Two equal-cost routes from H1 to H2 (via SWB or via SWC); the engine takes the next hop with the
# smallest name (SWB), although SWC's links come first in the file.
DIAMOND = """
[simulation]
duration = "1ms"
[[switch]]
names = ["SWA", "SWC", "SWB", "SWD"]
[[host]]
names = ["H1", "H2"]
[[link]]
between = ["H1", "SWA"]
[[link]]
between = ["SWA", "SWC"]
[[link]]
between = ["SWC", "SWD"]
[[link]]
between = ["SWA", "SWB"]
[[link]]
between = ["SWB", "SWD"]
[[link]]
between = ["SWD", "H2"]
[[flow]]
from = "H1"
to = "H2"
traffic = { kind = "cbr", rate = "1Gbps" }
"""


def test_drawing_follows_the_engines_route_tie_break():
    (flow,) = cnsim.describe(DIAMOND)["flows"]
    assert flow["path"] == ["H1", "SWA", "SWB", "SWD", "H2"]
    topo = load_topology(DIAMOND)
    assert topo.hops() == set(zip(flow["path"], flow["path"][1:]))  # SWC's links are drawn unused
    pos = layout(topo)
    assert pos["SWA"][0] < pos["SWB"][0] < pos["SWD"][0]  # columns in the order the route crosses


@pytest.mark.parametrize("name", NAMES + ["dumbbell-multicast.toml"])
def test_draw_topology_writes_a_png(name, tmp_path):
    out = draw_topology(ML / name, tmp_path / "img" / "t.png")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert 1000 < len(data) < 100_000
