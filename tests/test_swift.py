"""Swift (protocols/swift) against Kumar et al. (SIGCOMM 2020) on the shipped scenarios: N long-lived
flows through one router (scenarios/swift/incast.toml) or a chain of three (scenarios/swift/chain.toml).
Every bound below is computed from the scenario (N, the bottleneck's rate C, the path) and the engine's
defaults (protocols/swift/spec.rs: ai, β, max_mdf, base_target, h, fs_*; mss; the link overhead).

Notation: S = the frame's wire size (mss + Swift's headers + the link's preamble and gap), T_f = S/C
the time one frame takes at the bottleneck. While the bottleneck is busy the RTT is the bytes in flight
over C, so the N windows (packets) sum to RTT·C/S.

- Held target (§3.5): target = base_target + hops·h + fs(cwnd). At the fair share each window is
  w = t·C/(N·S), so the target the flows hold is the fixed point t* = base_target + hops·h +
  fs(t*·C/(N·S)), computed below.
- Delay above the target (Algorithm 1): while the delay is below the target each flow adds ai/cwnd
  per ACK, ai packets per RTT, and the N flows ai·N; the first ACK that reports the delay above the
  target comes back one RTT after the queue crossed it (by one frame): the queue grows by at most
  E = (N·⌈ai⌉ + 1)·T_f of delay past the target before the flows cut. The excess is a sawtooth that
  peaks about there (the recorded samples reach t* + E within a fraction of a frame: a flow's next
  packet after the crossing may wait up to its own gap, so E bounds the peak only to within that) and
  the mean excess is below the peak: at most E.
- Delay below the target: a decrease on a fresh sample d cuts every window by β·(d − t)/d, the bytes
  in flight with them, so the delay lands at t + (1 − β)(d − t), still above t. Only a cut on a stale
  sample (one RTT old, the one before the last cut) undershoots: from the peak t* + E, cuts that each
  act on the sample before the last, while it is above t*, bring the delay to the floor d_min
  (computed by iterating the law, max_mdf cap included). The mean lies in [d_min, t* + E].
- The hop scaling: the queue settles where the delay meets the target, so the path's base RTT does
  not move the held delay; what the chain adds is the targets' difference t*(3 hops) − t*(1 hop)
  (2·h less the flow-scaling change of the larger windows); the sawtooth above it is the same in
  packets (same N, ai, β, C), so the held delays differ by that within one frame time T_f.
- Work conservation: the delay never falls below d_min, which is above the path's base RTT, so the
  bottleneck's queue never empties in the window and the goodputs sum to the link's payload
  capacity C·mss/S, less the windows in flight at the window's edges (N·w_max·mss over the window).
- Fair sharing: Jain's index of the N goodputs ≥ 0.95, the issue's requirement (AIMD: equal
  increases, proportional cuts; not a derived bound)."""

from importlib.resources import files
import math

import pytest

import cnsim
import engine_defaults

P = engine_defaults.protocol("swift")
OVERHEAD_B = engine_defaults.scenario()["overhead"]
FRAME_B = P["mss"] + engine_defaults.header_bytes("swift") + OVERHEAD_B


def path(name):
    return str(files("cnsim").joinpath("scenarios", "swift", f"{name}.toml"))


class Case:
    """One scenario's run and the quantities its bounds are computed from."""

    def __init__(self, name):
        res = cnsim.run(path(name))
        desc = cnsim.describe(path(name))
        self.flows, self.series = res.stats["flows"], res.series_frame
        self.window_s = res.stats["time"]["window_s"]
        self.n = len(desc["flows"])
        route = desc["flows"][0]["path"]
        self.hops = len(route) - 2                                  # the routers between source and receiver
        links = {frozenset((l["a"], l["b"])): l for l in desc["links"]}
        hops = [links[frozenset(p)] for p in zip(route, route[1:])]
        self.c = hops[-1]["rate_bps"]                               # the bottleneck: into the receiver
        self.tf = FRAME_B * 8 / self.c
        ack_b = P["ack_size"] + OVERHEAD_B
        self.base_rtt = sum(2 * l["delay_s"] + (FRAME_B + ack_b) * 8 / l["rate_bps"] for l in hops)
        self.t = fixed_point_target(self.hops, self.c, self.n)
        self.e = (self.n * math.ceil(P["ai"]) + 1) * self.tf
        self.d_min = floor_after_stale_cuts(self.t, self.t + self.e)


def fs(cwnd):
    alpha = P["fs_range"] / (1 / math.sqrt(P["fs_min_cwnd"]) - 1 / math.sqrt(P["fs_max_cwnd"]))
    return min(max(alpha / math.sqrt(cwnd) - alpha / math.sqrt(P["fs_max_cwnd"]), 0.0), P["fs_range"])


def target(hops, cwnd):
    return P["base_target"] + hops * P["hop_scale"] + fs(cwnd)


def fixed_point_target(hops, c, n):
    t = P["base_target"]
    for _ in range(100):
        t = target(hops, t * c / (n * FRAME_B * 8))
    return t


def cut(d_now, sample, t):
    """Algorithm 1's decrease on a sample `sample` applied to the bytes in flight that give delay `d_now`."""
    return d_now * max(1 - P["beta"] * (sample - t) / sample, 1 - P["max_mdf"])


def floor_after_stale_cuts(t, peak):
    """The lowest delay reached from `peak` when each cut acts on the sample before the last cut."""
    states = [peak, cut(peak, peak, t)]                             # the first cut acts on the peak itself
    while states[-2] > t:
        states.append(cut(states[-1], states[-2], t))
    return states[-1]


@pytest.fixture(scope="module")
def incast():
    return Case("incast")


@pytest.fixture(scope="module")
def chain():
    return Case("chain")


def test_swift_holds_the_fabric_delay_near_its_target(incast):
    c = incast
    assert c.base_rtt < c.d_min < c.t < c.t + c.e
    for f in c.flows:
        d = f["swift_delay_mean_s"]
        assert c.d_min <= d <= f["swift_target_mean_s"] + c.e, (f, c.d_min, c.e)
    for name in (n for n in c.series.name.unique() if n.startswith("swift_delay_s.")):
        s = c.series[c.series.name == name].value.dropna()
        assert s.min() >= c.d_min, (name, s.min(), c.d_min)


def test_the_held_target_is_the_fair_share_fixed_point(incast, chain):
    """The targets the flows held: t* at the fair-share window, within the flow-scaling change over the
    windows the delay's range [d_min, t* + E] allows."""
    for c in (incast, chain):
        w = lambda d: d * c.c / (c.n * FRAME_B * 8)
        lo, hi = target(c.hops, w(c.t + c.e)), target(c.hops, w(c.d_min))
        for f in c.flows:
            assert lo <= f["swift_target_mean_s"] <= hi, (f, lo, hi)


def test_swift_shares_the_bottleneck_fairly_and_keeps_it_busy(incast):
    c = incast
    good = [f["swift_goodput_bps"] for f in c.flows]
    assert len(good) == c.n
    assert sum(good) ** 2 / (len(good) * sum(g * g for g in good)) >= 0.95, good
    capacity = c.c * P["mss"] / FRAME_B
    w_max = (c.t + c.e) * c.c / (FRAME_B * 8)                      # packets in flight at the peak, all flows
    edge_bps = w_max * P["mss"] * 8 / c.window_s
    assert capacity - edge_bps <= sum(good) <= capacity + edge_bps, (sum(good), capacity, edge_bps)


def test_the_target_scales_with_the_hops_read_from_the_ttl(incast, chain):
    for c, hops in ((incast, 1), (chain, 3)):
        assert c.hops == hops
        for f in c.flows:
            assert f["swift_hops"] == hops
            # The target at the last ACK was computed at the window before that ACK's update: at most an
            # additive step ai/w below, or a cut (≥ 1 − max_mdf) above, the reported fabric window.
            w = f["swift_fcwnd"]
            before = [max(w - P["ai"] / w, P["min_cwnd"]), w, w / (1 - P["max_mdf"])]
            lo, hi = min(target(hops, b) for b in before), max(target(hops, b) for b in before)
            assert lo - 1e-12 <= f["swift_target_s"] <= hi + 1e-12, (f, lo, hi)
    mean = lambda c, k: sum(f[k] for f in c.flows) / len(c.flows)
    d_target = chain.t - incast.t
    assert 0 < d_target <= 2 * P["hop_scale"]
    assert mean(chain, "swift_delay_mean_s") - mean(incast, "swift_delay_mean_s") == pytest.approx(d_target, abs=incast.tf)
