"""HPCC end to end (protocols/hpcc, net/telemetry): checked against what its design promises
(Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019, §3.2–3.3).

Tolerances, fixed before the runs:

- Steady state on a dumbbell (4 and 16 long-lived flows into one 100 Gb/s link): the sender steers
  the bottleneck's normalised inflight to η = 0.95, so the link is busy a fraction η ± 0.03 of the
  measurement window (busy time counts the frames' headers and overhead, as the telemetry's byte
  counts do), and the queue is "near zero": its time average at most 0.1·B·T bytes (a tenth of
  the bandwidth-delay product, 5.25 kB here), with no drop.
- Fairness after a join: two flows run alone, a third joins at line rate. Multiplicative steps
  keep the windows' ratios and the additive steps (W_AI each) close the gaps, by a factor
  1 − N·W_AI/ΣW per RTT with ΣW ≈ η·B·T: 1 − 3/(2500·0.95) ≈ 0.99874. From the join's shares
  (1/4, 1/4, 1/2: Jain 0.889) Jain's index reaches 0.95 after ln(0.649)/ln(0.99874) ≈ 342 RTTs;
  the test asks for Jain ≥ 0.95 over a 1-ms window that starts 500 base RTTs (2.1 ms) after the
  join.
"""

import pytest

import cnsim
from cnsim.reproduce.paper import scenario_file

SCENARIO = "scenarios/examples/hpcc-dumbbell.toml"
ETA = 0.95
B_BPS = 100e9
T_S = 4.2e-6  # the scenario's base_rtt
BDP_BYTES = B_BPS / 8 * T_S


def run(**more):
    return cnsim.run(scenario_file(SCENARIO), set=more, progress=False, figures=False)


def bottleneck(res):
    return {q["name"]: q for q in res.stats["queues"]}["SW>D"]


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


def rates(res):
    return [sum(r["throughput_bps"] for r in f["receivers"]) for f in res.stats["flows"]]


@pytest.mark.parametrize("n", [4, 16])
def test_the_bottleneck_runs_at_eta_with_a_queue_near_zero(n):
    more = {}
    if n != 4:
        hosts = [f"S{i}" for i in range(1, n + 1)]
        more = {"host.0.names": str(hosts + ["D"]), "link.0.between": str([hosts, "SW"]), "flow.0.from": str(hosts)}
    res = run(**more)
    q = bottleneck(res)
    window_s = res.stats["time"]["window_s"]
    util = q["busy_s_window"] / window_s
    q_bytes = q["q_mean_frames"] * res.stats["frame_size_bytes"]
    assert abs(util - ETA) <= 0.03, f"N = {n}: utilisation {util:.4f}"
    assert q_bytes <= 0.1 * BDP_BYTES, f"N = {n}: mean queue {q_bytes:.0f} B"
    assert q["drops"] == 0
    flows = res.stats["flows"]
    assert len(flows) == n
    assert all(f["hpcc_int_truncated"] == 0 and f["hpcc_reactions"] > 0 for f in flows)
    assert all(abs(f["hpcc_u"] - ETA) < 0.05 for f in flows), [f["hpcc_u"] for f in flows]


def test_a_joining_flow_gets_its_fair_share_within_500_rtts():
    join_s, settle_s = 1e-3, 500 * T_S
    res = run(**{
        "flow.0.from": '["S1", "S2", "S3"]',
        "flow.0.start": f'["0s", "0s", "{join_s * 1e3}ms"]',
        "simulation.measure_from": f"{(join_s + settle_s) * 1e6:.0f}us",
        "simulation.duration": f"{(join_s + settle_s + 1e-3) * 1e6:.0f}us",
    })
    xs = rates(res)
    assert len(xs) == 3
    assert jain(xs) >= 0.95, f"rates {[x / 1e9 for x in xs]} Gb/s, Jain {jain(xs):.3f}"


def test_every_ack_echoes_the_telemetry_and_the_reference_window_moves_once_per_rtt():
    """The sender reacts to every ACK but the first (which only records the path), and moves Wc
    about once per RTT (at least once per two base RTTs here, where queues stay short)."""
    res = run(**{"simulation.duration": "200us", "simulation.measure_from": "0s"})
    for f in res.stats["flows"]:
        acked_frames = f["hpcc_bytes_acked"] // 1000
        assert f["hpcc_reactions"] == acked_frames - 1
        assert f["hpcc_wc_updates"] >= 200e-6 / (2 * T_S)
