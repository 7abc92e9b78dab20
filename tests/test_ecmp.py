"""ECMP (`[routing] ecmp`, docs/scenarios.md): off by default, so shipped scenarios are unchanged;
on, permutation traffic on a fat tree spreads over the uplinks and the core (seen in the run's
per-port statistics, stats["queues"]), while each flow keeps one path."""

import re
from collections import defaultdict

import pytest

import cnsim
from cnsim import _core
from cnsim.generators import fat_tree

SHORT = {"simulation.duration": "1ms"}


def _uplink_use(stats: dict) -> dict[str, list[float]]:
    """Per edge or aggregation switch: the busy time of each of its uplinks (to A… and C…)."""
    up = {"E": "A", "A": "C"}
    out = defaultdict(list)
    for q in stats["queues"]:
        if q["node"][0] in up and q["peer"][0] == up[q["node"][0]]:
            out[q["node"]].append(q["busy_s_window"])
    return out


def _cores_used(stats: dict) -> set[str]:
    return {q["node"] for q in stats["queues"] if q["node"].startswith("C") and q["arrivals"] > 0}


@pytest.fixture(scope="module")
def fat8():
    """k = 8 (128 hosts, 16 core switches), permutation traffic at 1 Gb/s per host, 1 ms."""
    return {ecmp: cnsim.run(fat_tree(8, ecmp=ecmp), set=SHORT, figures=False).stats for ecmp in (True, False)}


def test_without_ecmp_each_switch_sends_up_one_link(fat8):
    use = _uplink_use(fat8[False])
    assert len(use) == 64  # 32 edge + 32 aggregation switches, 4 uplinks each
    assert all(sum(b > 0 for b in busy) <= 1 for busy in use.values())


def test_with_ecmp_traffic_spreads_over_uplinks_and_core(fat8):
    use = _uplink_use(fat8[True])
    spread = sum(sum(b > 0 for b in busy) > 1 for busy in use.values())
    assert spread >= 0.9 * len(use), f"only {spread} of {len(use)} switches use more than one uplink"
    assert len(_cores_used(fat8[True])) == 16
    assert len(_cores_used(fat8[True])) > len(_cores_used(fat8[False]))
    # The busiest uplink is less loaded than without ECMP's (the same traffic over more links).
    busiest = {e: max(b for busy in _uplink_use(fat8[e]).values() for b in busy) for e in (True, False)}
    assert busiest[True] < busiest[False]


def test_concentration_without_ecmp_drops_what_ecmp_carries(fat8):
    on, off = fat8[True], fat8[False]
    # 1 Gb/s per host into 10 Gb/s links: spread, the fabric carries it all; piled onto one uplink
    # per switch, some of those links are offered more than their rate and drop.
    assert on["frames"]["data_dropped"] == 0
    assert off["frames"]["data_dropped"] > 0
    assert on["frames"]["data_delivered"] > off["frames"]["data_delivered"]


DIAMOND = """
[simulation]
duration = "2ms"
record_interval = "0s"
[routing]
ecmp = true
[[switch]]
names = "S1..S4"
[[host]]
names = ["H1", "H3"]
[[link]]
between = ["S1", ["H1", "S2", "S3"]]
[[link]]
between = ["S4", ["H3", "S2", "S3"]]
[[flow]]
from = "H1"
to = "H3"
traffic = { kind = "cbr", rate = "100Mbps" }
"""


def test_a_flow_keeps_one_path_and_the_description_names_it():
    via = set()
    for seed in range(1, 9):
        st = cnsim.run(DIAMOND, seed=seed, figures=False).stats
        arrivals = {q["name"]: q["arrivals"] for q in st["queues"] if q["node"] == "S1" and q["peer"] != "H1"}
        used = [name for name, n in arrivals.items() if n > 0]
        assert len(used) == 1, arrivals  # every frame of the flow on one branch: no reordering
        assert arrivals[used[0]] == st["flows"][0]["injected"]
        path = cnsim.describe(DIAMOND, set={"simulation.seed": seed})["flows"][0]["path"]
        assert used[0] == f"S1>{path[2]}"
        via.add(path[2])
    assert via == {"S2", "S3"}  # the seed picks the spread


def test_described_paths_follow_the_hash_and_use_every_core():
    d = cnsim.describe(fat_tree(4))
    paths = [f["path"] for f in d["flows"]]
    assert all(len(p) == 7 for p in paths)  # host, edge, agg, core, agg, edge, host
    assert len({p[3] for p in paths}) > 1
    off = cnsim.describe(fat_tree(4, ecmp=False))
    assert len({f["path"][3] for f in off["flows"]}) < len({p[3] for p in paths})


def test_another_seed_gives_another_spread():
    paths = {s: [f["path"] for f in cnsim.describe(fat_tree(8), set={"simulation.seed": s})["flows"]] for s in (1, 2)}
    assert paths[1] != paths[2]
    assert paths[1] == [f["path"] for f in cnsim.describe(fat_tree(8), set={"simulation.seed": 1})["flows"]]


def test_generator_writes_the_setting():
    assert "[routing]\necmp = true\n" in fat_tree(4)
    assert "[routing]\necmp = false\n" in fat_tree(4, ecmp=False)


SHIPPED = "scenarios/roeck2007/no-hotspot.toml"


def test_unset_and_false_give_identical_stats():
    """The default is off: `routing.ecmp` unset and explicitly false run the same."""
    short = {"simulation.duration": "5ms"}
    a = cnsim.run(SHIPPED, set=short, figures=False).stats
    b = cnsim.run(SHIPPED, set={**short, "routing.ecmp": "false"}, figures=False).stats
    assert a == b


def test_a_bad_value_names_its_line():
    text = fat_tree(2).replace("ecmp = true", 'ecmp = "yes"')
    with pytest.raises(_core.ScenarioError) as info:
        _core.check(text, "x.toml", [])
    line = text.splitlines().index('ecmp = "yes"') + 1
    assert re.match(rf'x\.toml:{line}:\d+: invalid type: string "yes", expected a boolean', str(info.value)), str(info.value)


def test_an_unknown_routing_key_is_an_error():
    with pytest.raises(_core.ScenarioError, match=r"unknown field `emcp`, expected `ecmp`"):
        _core.check(fat_tree(2).replace("ecmp = true", "emcp = true"), "x.toml", [])
