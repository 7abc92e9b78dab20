"""cnsim.analysis against hand-computed allocations (docs/analysis.md). Jiang & Jain 2007's analytic model
of BCN, which lives with its paper's reproduction, is tested in tests/test_bcn_fluid_model.py."""

import pytest

from cnsim import analysis as an

C = 10e9

# Jiang & Jain 2007 §VI.D, Fig. 9 (parking lot), as the text describes it: "Sources ST1 through ST4
# communicate with a common destination DT0, ST5 communicates with DT1, and ST6 communicates with
# DT2 ... The link between switch SW1 and SW2 is shared by five sources SR1 through SR5. The link
# between Switch SW2 and SW3 is shared by SR1 through SR4 and SR6. We assume that both links have
# capacity C." CHOICE (the figure is not in the text): ST1..ST5 attach to SW1, ST6 and DT1 to SW2,
# DT0 and DT2 to SW3; every link 10 Gb/s (§VI.A: "Link speeds are 10 Gbps"); sources saturating
# (cbr at the line rate: the paper's sources are bulk TCP).
PARKING_LOT = """
[simulation]
duration = "10ms"
[defaults]
link = { rate = "10Gbps", delay = "0.5us" }
queue = { capacity = "100 frames" }
[cp.bcn]
[[switch]]
names = ["SW1", "SW2", "SW3"]
[[host]]
names = ["ST1..ST6", "DT0..DT2"]
[[link]]
between = ["ST1..ST5", "SW1"]
[[link]]
between = ["SW1", "SW2"]
[[link]]
between = ["SW2", "SW3"]
[[link]]
between = [["ST6", "DT1"], "SW2"]
[[link]]
between = ["SW3", ["DT0", "DT2"]]
[[flow]]
from = "ST1..ST4"
to = "DT0"
traffic = { kind = "cbr", rate = "10Gbps" }
rp = { bcn = {} }
[[flow]]
from = "ST5"
to = "DT1"
traffic = { kind = "cbr", rate = "10Gbps" }
rp = { bcn = {} }
[[flow]]
from = "ST6"
to = "DT2"
traffic = { kind = "cbr", rate = "10Gbps" }
rp = { bcn = {} }
"""


def one_bottleneck(n, rates=None):
    """n hosts H1..Hn into one 10 Gb/s switch port to D; `rates` gives a second [[flow]] block."""
    flows = f"""
[[flow]]
from = "H1..H{n}"
to = "D"
traffic = {{ kind = "cbr", rate = "10Gbps" }}
"""
    if rates:
        flows = f"""
[[flow]]
from = "H1..H{n - 1}"
to = "D"
traffic = {{ kind = "poisson", rate = "10Gbps" }}
[[flow]]
from = "H{n}"
to = "D"
traffic = {{ kind = "cbr", rate = "{rates}" }}
"""
    return f"""
[defaults]
link = {{ rate = "10Gbps" }}
[[switch]]
names = "SW"
[[host]]
names = ["H1..H{n}", "D"]
[[link]]
between = ["H1..H{n}", "SW"]
[[link]]
between = ["SW", "D"]
""" + flows


def approx(x, rel=1e-5):
    return pytest.approx(x, rel=rel)


# --- fair allocations ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 3, 4, 7])
def test_one_bottleneck_gives_c_over_n(n):
    # both fairness notions: C/n each on the shared port SW>D
    for alloc in (an.max_min_fair, an.proportional_fair):
        x = alloc(one_bottleneck(n))
        assert list(x.index) == [f"H{i}" for i in range(1, n + 1)]
        assert x.to_list() == approx([C / n] * n)


def test_demand_caps_a_flow_and_the_others_share_the_rest():
    # H4 is cbr 1 Gb/s: it gets 1 Gb/s and H1..H3 share the remaining 9 Gb/s (3 Gb/s each) under
    # both notions (single link: max-min = proportional fair); the block of each flow is found
    # through the engine.
    net = an.network(one_bottleneck(4, rates="1Gbps"))
    assert net.demand.to_dict() == {"H1": C, "H2": C, "H3": C, "H4": 1e9}
    for alloc in (an.max_min_fair, an.proportional_fair):
        assert alloc(net).to_list() == approx([3e9, 3e9, 3e9, 1e9])


def test_network_reads_routes_from_the_engine():
    net = an.network(PARKING_LOT)
    m = net.matrix
    assert m.loc["SW1>SW2"].to_dict() == {"ST1": 1, "ST2": 1, "ST3": 1, "ST4": 1, "ST5": 1, "ST6": 0}
    assert m.loc["SW2>SW3"].to_dict() == {"ST1": 1, "ST2": 1, "ST3": 1, "ST4": 1, "ST5": 0, "ST6": 1}
    assert set(m.index[m["ST5"] > 0]) == {"ST5>SW1", "SW1>SW2", "SW2>DT1"}
    assert set(net.capacity) == {C}
    assert (net.demand == C).all()


def test_parking_lot_seed002_fig9():
    # Jiang & Jain 2007 §VI.D: max-min r1..r6 = C/5 (r5/r1 = 1); proportional fair r1..r4 = C/6,
    # r5 = r6 = C/3 (r5/r1 = 2)
    mm = an.max_min_fair(PARKING_LOT)
    assert mm.to_list() == approx([C / 5] * 6)
    pf = an.proportional_fair(PARKING_LOT)
    assert pf[["ST1", "ST2", "ST3", "ST4"]].to_list() == approx([C / 6] * 4, rel=1e-4)
    assert pf[["ST5", "ST6"]].to_list() == approx([C / 3] * 2, rel=1e-4)
    assert pf["ST5"] / pf["ST1"] == approx(2.0, rel=1e-4)


def test_linear_network_max_min_and_proportional_fair_differ():
    # one long flow over links a and b, one short flow on each: max-min C/2 each; proportional
    # fair maximises log x + 2 log(C - x): x = C/3 for the long flow, 2C/3 for the short ones
    net = an.Network.from_routes({"long": ["a", "b"], "s1": ["a"], "s2": ["b"]}, C)
    assert an.max_min_fair(net).to_list() == approx([C / 2] * 3)
    assert an.proportional_fair(net).to_list() == approx([C / 3, 2 * C / 3, 2 * C / 3], rel=1e-4)


def test_multicast_tree_uses_each_edge_once():
    # S1 multicasts to R1, R2 through SW (tree SW>R1, SW>R2); S2 sends to R1. The multicast flow
    # crosses SW>R1 once (one copy), so it and S2 share that port: C/2 each (both notions).
    text = """
[defaults]
link = { rate = "10Gbps" }
[[switch]]
names = "SW"
[[host]]
names = ["S1", "S2", "R1", "R2"]
[[link]]
between = [["S1", "S2", "R1", "R2"], "SW"]
[[group]]
name = "G"
members = ["R1", "R2"]
[[flow]]
from = "S1"
to = "G"
traffic = { kind = "cbr", rate = "10Gbps" }
[[flow]]
from = "S2"
to = "R1"
traffic = { kind = "cbr", rate = "10Gbps" }
"""
    net = an.network(text)
    assert set(net.matrix.index[net.matrix["S1"] > 0]) == {"S1>SW", "SW>R1", "SW>R2"}
    for alloc in (an.max_min_fair, an.proportional_fair):
        assert alloc(net).to_list() == approx([C / 2, C / 2], rel=1e-4)


def test_unbounded_flow_is_an_error():
    net = an.Network.from_routes({"x": []}, C)
    with pytest.raises(ValueError, match="unbounded"):
        an.max_min_fair(net)


def test_parse_rate():
    assert an.parse_rate("5Gbps") == 5e9
    assert an.parse_rate("200 Mb/s") == 2e8
    with pytest.raises(ValueError):
        an.parse_rate("1Gbit")


def test_max_log_utility_weights_and_offsets_by_hand():
    # one link of capacity C, two flows: weights w give x_f = w_f C / Σ w; offsets k give equal
    # x_f + k_f, so x1 = (C + k2 − k1) / 2
    net = an.Network.from_routes({"a": ["L"], "b": ["L"]}, C)
    assert an.max_log_utility(net).to_list() == approx([C / 2, C / 2], rel=1e-4)
    assert an.max_log_utility(net, weight=[1.0, 2.0]).to_list() == approx([C / 3, 2 * C / 3], rel=1e-4)
    k = [0.0, 2e9]
    assert an.max_log_utility(net, offset=k).to_list() == approx([6e9, 4e9], rel=1e-4)
    assert an.proportional_fair(net).to_list() == an.max_log_utility(net).to_list()
