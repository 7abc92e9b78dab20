"""Swift (protocols/swift) against Kumar et al. (SIGCOMM 2020) on the shipped scenarios: eight long-lived
flows through one router (scenarios/swift/incast.toml) or a chain of three (scenarios/swift/chain.toml).

- Algorithm 1 holds the fabric delay near the target: each flow's mean fabric delay over the
  measurement window is within [0.9, 1.25] of its mean target (AIMD oscillates around the target,
  decreasing at most once per RTT, so the delay sits a little above it on average).
- Fair sharing: Jain's index of the eight goodputs ≥ 0.95, together ≥ 90 % of the link's payload capacity.
- §3.5: the target is base_target + hops·h + fs(fcwnd), the hop count read from the TTL; through three
  routers it is 2·h higher than through one, and the held delay follows it (higher by 2·h ± 1 µs)."""

from importlib.resources import files
import math

import pytest

import cnsim

BASE_TARGET_S, HOP_S, FS_RANGE_S, FS_MIN, FS_MAX = 25e-6, 1e-6, 25e-6, 0.1, 100.0   # spec.rs defaults
PAYLOAD_CAPACITY_BPS = 10e9 * 1436 / (1500 + 20)   # 1436 B payload per 1500-B frame + 20 B preamble and gap


def flows(name):
    return cnsim.run(str(files("cnsim").joinpath("scenarios", "swift", f"{name}.toml"))).stats["flows"]


@pytest.fixture(scope="module")
def incast():
    return flows("incast")


@pytest.fixture(scope="module")
def chain():
    return flows("chain")


def fs(cwnd):
    alpha = FS_RANGE_S / (1 / math.sqrt(FS_MIN) - 1 / math.sqrt(FS_MAX))
    return min(max(alpha / math.sqrt(cwnd) - alpha / math.sqrt(FS_MAX), 0.0), FS_RANGE_S)


def test_swift_holds_the_fabric_delay_near_its_target(incast):
    for f in incast:
        assert 0.9 <= f["swift_delay_mean_s"] / f["swift_target_mean_s"] <= 1.25, f


def test_swift_shares_the_bottleneck_fairly(incast):
    good = [f["swift_goodput_bps"] for f in incast]
    assert len(good) == 8
    assert sum(good) ** 2 / (len(good) * sum(g * g for g in good)) >= 0.95, good
    assert sum(good) >= 0.9 * PAYLOAD_CAPACITY_BPS, good


def test_the_target_scales_with_the_hops_read_from_the_ttl(incast, chain):
    for fl, hops in ((incast, 1), (chain, 3)):
        for f in fl:
            assert f["swift_hops"] == hops
            # The target at the last ACK, computed at the window before that ACK's update (within one
            # additive step of the reported fabric window).
            want = BASE_TARGET_S + hops * HOP_S + fs(f["swift_fcwnd"])
            assert f["swift_target_s"] == pytest.approx(want, abs=0.5e-6), f
    mean = lambda fl, k: sum(f[k] for f in fl) / len(fl)
    assert mean(chain, "swift_delay_mean_s") - mean(incast, "swift_delay_mean_s") == pytest.approx(2 * HOP_S, abs=1e-6)
