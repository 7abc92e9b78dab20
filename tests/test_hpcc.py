"""HPCC end to end (protocols/hpcc, net/telemetry): checked against what its design promises
(Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019, §3.2–3.3), on the dumbbell
scenarios/examples/hpcc-dumbbell.toml (N long-lived flows into one link SW>D). Every number is computed
from the run's parameters: the bottleneck's rate B (the scenario's link), the base RTT T the flows ran
with (`hpcc_base_rtt_s`), η (protocols/hpcc/spec.rs), W_AI (the artifact's default B·T over the divisor in
`Params::artifact_w_ai`), the data frame's wire size F (mss + `DATA_HEADER_BYTES` + the link overhead).

- Steady state. The sender steers its estimate U of the bottleneck's normalised inflight,
  U = qlen/(B·T) + txRate/B, to η, and each window carries W_AI on top of the reference window:
  at the fixed point the link's transmit rate (wire bytes, as the busy time counts) is
  txRate/B = η + N·W_AI/(B·T) − q̄/(B·T), with q̄ the bottleneck's mean queue in bytes. U is built
  from whole frames (qlen and txBytes move by F at a time), so it resolves the utilisation to
  F/(B·T): the measured busy fraction lies within that of the fixed point, and each flow's last U
  within F/(B·T) + N·W_AI/(B·T) of η.
- "Near-zero" queue: with the sum of the paced rates below B (η < 1) no queue stands; it only
  holds frames that arrive together. At worst all N flows' frames arrive at once every pacing
  period (N·F/(η·B)), N·(N − 1)/2 frame-times of queueing per period: a mean of η·(N − 1)/2 frames.
  No drop.
- Fairness after a join: two flows run alone, a third joins at line rate. Multiplicative steps
  keep the windows' ratios and the additive steps (W_AI each) close the gaps, by a factor
  1 − N·W_AI/ΣW per RTT with ΣW ≈ η·B·T. From the join's shares (1/4, 1/4, 1/2) Jain's index reaches
  0.95 after n_95 = ln(gap at 0.95 / gap at the join)/ln(1 − N·W_AI/ΣW) RTTs (computed below); the
  test measures Jain over a 1-ms window that starts ⌈n_95⌉ rounded up to the next hundred base RTTs
  after the join, and asks for ≥ 0.95.
"""

import math

import pytest

import cnsim
import engine_defaults
from cnsim.reproduce.paper import scenario_file

SCENARIO = "scenarios/examples/hpcc-dumbbell.toml"
ETA = engine_defaults.protocol("hpcc")["eta"]
MSS_B = engine_defaults.protocol("hpcc")["mss"]
# W_AI's default is B·T / AI_DIVISOR (`Params::artifact_w_ai`).
AI_DIVISOR = engine_defaults.artifact_w_ai_divisor()
F_B = MSS_B + engine_defaults.constant("hpcc", "DATA_HEADER_BYTES") + engine_defaults.scenario()["overhead"]
B_BPS = next(l["rate_bps"] for l in cnsim.describe(scenario_file(SCENARIO))["links"] if "D" in (l["a"], l["b"]))


def run(**more):
    return cnsim.run(scenario_file(SCENARIO), set=more, progress=False, figures=False)


def bottleneck(res):
    return {q["name"]: q for q in res.stats["queues"]}["SW>D"]


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


def rates(res):
    return [sum(r["throughput_bps"] for r in f["receivers"]) for f in res.stats["flows"]]


def bdp_bytes(res):
    (t,) = {f["hpcc_base_rtt_s"] for f in res.stats["flows"]}
    return B_BPS / 8 * t, t


@pytest.mark.parametrize("n", [4, 16])
def test_the_bottleneck_runs_at_eta_with_a_queue_near_zero(n):
    more = {}
    if n != 4:
        hosts = [f"S{i}" for i in range(1, n + 1)]
        more = {"host.0.names": str(hosts + ["D"]), "link.0.between": str([hosts, "SW"]), "flow.0.from": str(hosts)}
    res = run(**more)
    bdp, _ = bdp_bytes(res)
    w_ai = bdp / AI_DIVISOR
    q = bottleneck(res)
    util = q["busy_s_window"] / res.stats["time"]["window_s"]
    q_bytes = q["q_mean_frames"] * F_B      # the queue holds HPCC's data frames only
    fixed_point = ETA + n * w_ai / bdp - q_bytes / bdp
    assert abs(util - fixed_point) <= F_B / bdp, f"N = {n}: utilisation {util:.4f}, fixed point {fixed_point:.4f}"
    assert q["q_mean_frames"] <= ETA * (n - 1) / 2, f"N = {n}: mean queue {q['q_mean_frames']:.2f} frames"
    assert q["drops"] == 0
    flows = res.stats["flows"]
    assert len(flows) == n
    assert all(f["hpcc_int_truncated"] == 0 and f["hpcc_reactions"] > 0 for f in flows)
    assert all(abs(f["hpcc_u"] - ETA) <= (F_B + n * w_ai) / bdp for f in flows), [f["hpcc_u"] for f in flows]


def rtts_to_jain_95(n=3):
    """RTTs for the gaps from the join's shares (1/4, 1/4, 1/2) to shrink to Jain 0.95."""
    shares = [0.25, 0.25, 0.5]
    mean = sum(shares) / n
    gap0 = max(abs(s - mean) for s in shares)
    # Jain of shares mean + g·(−1/2, −1/2, 1)-shaped gaps scales with g; solve Jain = 0.95 for g.
    shape = [(s - mean) / gap0 for s in shares]
    lo, hi = 0.0, gap0
    for _ in range(60):
        g = (lo + hi) / 2
        lo, hi = (g, hi) if jain([mean + g * x for x in shape]) >= 0.95 else (lo, g)
    factor = 1 - n * (1 / AI_DIVISOR) / ETA    # N·W_AI/ΣW with W_AI = B·T/AI_DIVISOR, ΣW = η·B·T
    return math.log(lo / gap0) / math.log(factor)


def test_a_joining_flow_gets_its_fair_share():
    t_s = bdp_bytes(run(**{"simulation.duration": "20us", "simulation.measure_from": "0s"}))[1]
    n_95 = rtts_to_jain_95()
    settle = math.ceil(n_95 / 100) * 100
    join_s, settle_s = 1e-3, settle * t_s
    res = run(**{
        "flow.0.from": '["S1", "S2", "S3"]',
        "flow.0.start": f'["0s", "0s", "{join_s * 1e3}ms"]',
        "simulation.measure_from": f"{(join_s + settle_s) * 1e6:.0f}us",
        "simulation.duration": f"{(join_s + settle_s + 1e-3) * 1e6:.0f}us",
    })
    xs = rates(res)
    assert len(xs) == 3
    assert jain(xs) >= 0.95, f"rates {[x / 1e9 for x in xs]} Gb/s, Jain {jain(xs):.3f} after {settle} RTTs (n_95 = {n_95:.0f})"


def test_every_ack_echoes_the_telemetry_and_the_reference_window_moves_once_per_rtt():
    """The sender reacts to every ACK but the first (which only records the path), and moves Wc
    about once per RTT (at least once per two base RTTs here, where queues stay short)."""
    res = run(**{"simulation.duration": "200us", "simulation.measure_from": "0s"})
    _, t_s = bdp_bytes(res)
    for f in res.stats["flows"]:
        acked_frames = f["hpcc_bytes_acked"] // MSS_B
        assert f["hpcc_reactions"] == acked_frames - 1
        assert f["hpcc_wc_updates"] >= 200e-6 / (2 * t_s)
