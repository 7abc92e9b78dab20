"""TIMELY (protocols/timely) against its theory on the shipped dumbbell (scenarios/timely/dumbbell.toml):
N = 2 long-lived flows share a bottleneck of rate C, started at different rates. Every bound is computed
from the scenario (C, N, the window) and the engine's defaults (protocols/timely/spec.rs: δ, β', T_low
as RTT_ref, the segment per completion event, mss; Swift-free TIMELY headers; the link overhead).

- Zhu et al. (CoNEXT 2016 §4): between T_low and T_high TIMELY's law (Mittal et al. 2015, Algorithm 1)
  reacts to the RTT's gradient only, and below T_low adds δ: any split of the link whose sum holds the
  queue still is a fixed point, and nothing in the law pulls the rates toward equal. Each flow updates
  once per completion event (segment bytes acknowledged), so its additive steps (δ below T_low, where
  this scenario's RTT mostly is) come at a rate proportional to its own rate and keep the ratio of the
  two rates; its gradient cuts, also per event, favour the slower flow, and hyper-active increase,
  reached after five events, the faster. So where the flows end depends on where they started; the
  claim checked is the absence of a pull toward ½: the flow that starts faster ends with at least its
  starting share s0 = r_fast / (r_fast + r_slow), so Jain's index is at most
  J(s0) = 1 / (2·(s0² + (1 − s0)²)) (a one-sided claim: a unique fair fixed point, as the patch has,
  would fail it); and swapping the two starts swaps the two ends (within one completion event's bytes
  over the window).
- Zhu et al. §5: the patched law, rate ← δ·(1 − w) + rate·(1 − β'·w·e) with e = (RTT − RTT_ref)/RTT_ref,
  has one fixed point, the fair share R* = C·F/(F + overhead)/N (F = mss + headers: the paced rate
  counts the frame, the link also its preamble and gap). With the gradient about 0 (w = ½) the
  additive and multiplicative parts cancel: δ/2 = β'·½·e·R*, so e* = δ/(β'·R*) and the RTT is
  RTT* = RTT_ref·(1 + e*). Two flows paced to a sum of C keep the queue steady to within the frame in
  service, so every RTT sample is within one frame time T_f = (F + overhead)·8/C of RTT*. RTT* is above
  the path's base RTT, so the queue never empties: the goodputs sum to the link's payload capacity
  C·mss/(F + overhead) within the bytes in flight at the window's edges. Around the fixed point the
  rates' difference shrinks by β'·w·e* per completion event, R*/(8·segment) events per second: a rate
  k per second; Jain ≥ 0.99 (the shares within 0.05 of ½) holds once the difference is below a tenth
  of the sum, which the linear contraction reaches t_99 = ln(D0/(0.1·S))/k after the start; the
  scenario measures after that. In the window the difference never rises above its value at the
  window's start by more than one event's step of each flow (δ + β'·e·R* with the RTT within T_f of
  RTT*), and at the end it is at most its start value times e^(−k·window) plus those two steps."""

from importlib.resources import files
import math

import pytest

import cnsim
import engine_defaults

SCENARIO = str(files("cnsim").joinpath("scenarios", "timely", "dumbbell.toml"))
P = engine_defaults.protocol("timely")
OVERHEAD_B = engine_defaults.scenario()["overhead"]
F_B = P["mss"] + engine_defaults.header_bytes("timely")


def describe():
    desc = cnsim.describe(SCENARIO)
    route = desc["flows"][0]["path"]
    links = {frozenset((l["a"], l["b"])): l for l in desc["links"]}
    hops = [links[frozenset(p)] for p in zip(route, route[1:])]
    base_rtt = sum(2 * l["delay_s"] + (F_B + P["ack_size"] + 2 * OVERHEAD_B) * 8 / l["rate_bps"] for l in hops)
    return len(desc["flows"]), hops[-1]["rate_bps"], base_rtt


N, C_BPS, BASE_RTT_S = describe()
T_F_S = (F_B + OVERHEAD_B) * 8 / C_BPS
PAYLOAD_CAPACITY_BPS = C_BPS * P["mss"] / (F_B + OVERHEAD_B)
R_STAR = C_BPS * F_B / (F_B + OVERHEAD_B) / N
E_STAR = P["delta"] / (P["patched_beta"] * R_STAR)
RTT_STAR = P["t_low"] * (1 + E_STAR)          # RTT_ref defaults to T_low
K_PER_S = P["patched_beta"] * 0.5 * E_STAR * R_STAR / (8 * P["segment"])
# The most one completion event moves a rate near the fixed point (RTT within T_f of RTT*).
STEP_BPS = P["delta"] + P["patched_beta"] * (RTT_STAR + T_F_S - P["t_low"]) / P["t_low"] * R_STAR


def run(variant, first, second):
    sets = {f"flow.{i}.transport.timely.variant": variant for i in range(2)}
    sets |= {"flow.0.transport.timely.init_rate": f"{first}Gbps", "flow.1.transport.timely.init_rate": f"{second}Gbps"}
    return cnsim.run(SCENARIO, set=sets)


def goodputs(res):
    return [f["timely_goodput_bps"] for f in res.stats["flows"]]


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


def edge_bps(res):
    """The bytes the flows hold in flight at the window's edges, over the window."""
    return RTT_STAR * C_BPS * P["mss"] / (F_B + OVERHEAD_B) / res.stats["time"]["window_s"]


STARTS = [(8, 2), (2, 8), (6, 4), (9, 1)]


@pytest.mark.parametrize("first,second", STARTS)
def test_timely_ends_where_it_started(first, second):
    res = run("timely", first, second)
    good = goodputs(res)
    fast, slow = (good[0], good[1]) if first > second else (good[1], good[0])
    s0 = max(first, second) / (first + second)
    assert fast / (fast + slow) >= s0, good
    assert jain(good) <= 1 / (2 * (s0**2 + (1 - s0) ** 2)), good
    mirror = goodputs(run("timely", second, first))
    event_bps = P["segment"] * 8 / res.stats["time"]["window_s"]
    assert mirror[::-1] == pytest.approx(good, abs=event_bps), (good, mirror)


@pytest.mark.parametrize("first,second", [(8, 2), (2, 8), (9, 1)])
def test_patched_timely_converges_to_the_fair_share(first, second):
    assert BASE_RTT_S < RTT_STAR
    res = run("patched", first, second)
    good = goodputs(res)
    assert abs(sum(good) - PAYLOAD_CAPACITY_BPS) <= edge_bps(res), (sum(good), PAYLOAD_CAPACITY_BPS)
    for f in res.stats["flows"]:
        assert f["timely_rtt_s"] == pytest.approx(RTT_STAR, abs=T_F_S), f
    frame = res.series_frame
    start = res.stats["time"]["measure_from_s"]
    rtts = frame[frame.name.str.startswith("timely_rtt_s.")]
    rates = {n: frame[frame.name == n] for n in frame.name.unique() if n.startswith("timely_rate_bps.")}
    (a, b) = rates.values()
    rtts = rtts[rtts.t >= start]
    assert (abs(rtts.value - RTT_STAR) <= T_F_S).all(), (rtts.value.min(), rtts.value.max(), RTT_STAR)
    d0 = abs(first - second) * 1e9
    t_99 = math.log(d0 / (0.1 * PAYLOAD_CAPACITY_BPS)) / K_PER_S
    assert t_99 < start
    diff = (a.set_index("t").value - b.set_index("t").value).abs()
    d_start, d_end = diff[diff.index <= start].iloc[-1], diff.iloc[-1]
    assert d_start < d0
    assert diff[diff.index >= start].max() <= d_start + 2 * STEP_BPS
    assert d_end <= d_start * math.exp(-K_PER_S * (diff.index[-1] - start)) + 2 * STEP_BPS, (d_start, d_end)
    assert jain(good) >= 0.99, good
