"""TIMELY (protocols/timely) against its theory on the shipped dumbbell (scenarios/timely/dumbbell.toml):
two long-lived flows share a 10 Gb/s bottleneck, one starting at 8 Gb/s, the other at 2 Gb/s.

- Zhu et al. (CoNEXT 2016 §4): TIMELY's rate law (Mittal et al. 2015, Algorithm 1) has no unique fixed
  point, so where the flows end depends on where they started: the flow that starts faster stays
  faster, whichever it is.
- Zhu et al. §5: the patched law has one fixed point, the fair share. There, with the gradient about 0
  (w = 1/2), each update's additive and multiplicative parts cancel: δ/2 = β'·(1/2)·e·R, so the RTT
  error is e = δ/(β'·R) = 10 Mb/s / (0.008 · 5 Gb/s) = 0.25 and the RTT is RTT_ref·(1 + e) = 62.5 µs.

Tolerances (fixed from the theory above): patched — Jain's index of the two goodputs ≥ 0.99 whatever
the start, together ≥ 90 % of the link's payload capacity, last RTT within 10 % of 62.5 µs; original —
the faster starter's goodput exceeds the other's by ≥ 2 Gb/s in both orders, Jain's index < 0.8."""

from importlib.resources import files

import pytest

import cnsim

SCENARIO = str(files("cnsim").joinpath("scenarios", "timely", "dumbbell.toml"))
PAYLOAD_CAPACITY_BPS = 10e9 * 1448 / (1500 + 20)   # 1448 B payload per 1500-B frame + 20 B preamble and gap


def run(variant, first, second):
    sets = {f"flow.{i}.transport.timely.variant": variant for i in range(2)}
    sets |= {"flow.0.transport.timely.init_rate": first, "flow.1.transport.timely.init_rate": second}
    flows = cnsim.run(SCENARIO, set=sets).stats["flows"]
    return [f["timely_goodput_bps"] for f in flows], [f["timely_rtt_s"] for f in flows]


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


@pytest.mark.parametrize("first,second", [("8Gbps", "2Gbps"), ("2Gbps", "8Gbps")])
def test_timely_ends_where_it_started(first, second):
    good, _ = run("timely", first, second)
    fast, slow = (good[0], good[1]) if first == "8Gbps" else (good[1], good[0])
    assert fast - slow >= 2e9, good
    assert jain(good) < 0.8, good


@pytest.mark.parametrize("first,second", [("8Gbps", "2Gbps"), ("2Gbps", "8Gbps")])
def test_patched_timely_converges_to_the_fair_share(first, second):
    good, rtts = run("patched", first, second)
    assert jain(good) >= 0.99, good
    assert sum(good) >= 0.9 * PAYLOAD_CAPACITY_BPS, good
    for rtt in rtts:
        assert rtt == pytest.approx(62.5e-6, rel=0.10)
