"""DCTCP and ECN end to end (protocols/tcp with `tcp.ecn`, protocols/threshold): N long-lived DCTCP
flows through one step-marking bottleneck follow the sawtooth of the DCTCP analysis; classic ECN
reacts without losses; a Not-ECT flow through the same queue sees drops at K instead of marks."""

import math

import numpy as np
import pytest

import cnsim

C_BPS = 10e9
FRAME_WIRE_B = 1500 + 20          # 1460 B payload + 40 B IP/TCP + 20 B preamble and gap
RTT_S = 100e-6                    # propagation: 4 × 25 µs (host → switch → receiver and back)
K = 65                            # Alizadeh et al. 2010 §3.5: K = 65 packets at 10 Gb/s
DURATION_S, MEASURE_FROM_S = 0.06, 0.02


def dumbbell(n, ecn="dctcp", queue='discipline = "threshold", threshold = { k = "65 frames" }'):
    """n bulk TCP flows S1..Sn → SW → D, every link 10 Gb/s with 25 µs delay; the bottleneck is
    SW>D, whose 1000-frame buffer never fills under DCTCP. rwnd never limits."""
    hosts = f"S1..S{n}"
    return f"""
[simulation]
duration = "{DURATION_S * 1e3:g}ms"
measure_from = "{MEASURE_FROM_S * 1e3:g}ms"
record_interval = "10us"
[defaults]
link = {{ rate = "10Gbps", delay = "25us" }}
queue = {{ capacity = "1000 frames", {queue} }}
[[switch]]
names = ["SW"]
[[host]]
names = ["{hosts}", "D"]
[[link]]
between = ["{hosts}", "SW"]
[[link]]
between = ["SW", "D"]
[[flow]]
from = ["{hosts}"]
to = "D"
traffic = {{ kind = "tcp-bulk" }}
tcp = {{ ecn = "{ecn}", rwnd = 10000 }}
"""


def bottleneck(res):
    q = {x["name"]: x for x in res.stats["queues"]}["SW>D"]
    s = res.series("q_frames.SW>D")
    return q, s[s.index >= MEASURE_FROM_S].to_numpy()


@pytest.mark.parametrize("n", [2, 10])
def test_dctcp_queue_follows_the_analysis(n):
    """The DCTCP analysis (Alizadeh et al., "Data Center TCP", SIGCOMM 2010, §3.3; Alizadeh, Javadi
    & Prabhakar, "Analysis of DCTCP", SIGMETRICS 2011) for N synchronised long-lived flows, capacity
    C and round-trip time RTT, marking threshold K (packets): the queue is a sawtooth with maximum
    Q_max = K + N and amplitude A = ½·sqrt(2N(C·RTT + K)), C·RTT in packets (here C·RTT = 82.2
    packets of 1520 B on the wire, so A = 12.1 for N = 2 and 27.1 for N = 10); it thus stays
    around K, and the link stays busy.

    Measured over 20–60 ms on 10-µs samples of the bottleneck queue (frames waiting), with
    tolerances fixed before the runs (not tuned to the result):
    * time-average queue within ±15 % of K;
    * Q_max (the largest sample) within ±3 packets of K + N;
    * amplitude, the 99th − 1st percentile of the samples, within ±35 % of A;
    * the bottleneck busy > 90 % of the window and the flows' goodput > 90 % of the payload rate.
    Measured when written: N = 2: mean 61.4, max 68, p99 − p1 = 12 (A = 12.1); N = 10: mean 63.4,
    max 76, p99 − p1 = 24 (A = 27.1); busy 100 % in both."""
    res = cnsim.run(dumbbell(n), progress=False, figures=False)
    q, v = bottleneck(res)
    c_rtt = C_BPS / (FRAME_WIRE_B * 8) * RTT_S
    a = 0.5 * math.sqrt(2 * n * (c_rtt + K))
    amplitude = np.percentile(v, 99) - np.percentile(v, 1)
    detail = dict(n=n, mean=v.mean(), q_max=v.max(), amplitude=amplitude, predicted_a=a, predicted_q_max=K + n)
    assert abs(v.mean() - K) <= 0.15 * K, detail
    assert abs(v.max() - (K + n)) <= 3, detail
    assert abs(amplitude - a) <= 0.35 * a, detail
    window = DURATION_S - MEASURE_FROM_S
    assert q["busy_s_window"] / window > 0.9, q["busy_s_window"]
    goodput = sum(f["tcp_goodput_bps"] for f in res.stats["flows"])
    assert goodput > 0.9 * C_BPS * 1460 / FRAME_WIRE_B, goodput
    # Marks, not losses: no drops, no retransmissions, α well inside (0, 1).
    assert q["drops"] == 0 and q["threshold_marks"] > 0
    for f in res.stats["flows"]:
        assert f["tcp_retransmissions"] == 0 and f["tcp_ecn_reductions"] > 0
        assert 0 < f["tcp_dctcp_alpha"] < 1


def test_dctcp_queue_is_far_below_drop_tail_reno():
    """The same bottleneck with Reno/SACK (ECN off) and a plain drop-tail 1000-frame FIFO: Reno fills
    the buffer until it loses, so its mean queue is several times DCTCP's (≈ K)."""
    dctcp = bottleneck(cnsim.run(dumbbell(2), progress=False, figures=False))[1]
    reno = bottleneck(cnsim.run(dumbbell(2, ecn="off", queue='discipline = "fifo"'), progress=False, figures=False))[1]
    assert reno.mean() > 2.5 * dctcp.mean(), (reno.mean(), dctcp.mean())


def test_classic_ecn_and_not_ect_through_step_marking():
    """Classic ECN (RFC 3168) reacts to the marks without any loss; ECN off, the same queue drops the
    frames it would mark (RFC 3168 §7), and TCP recovers them."""
    short = lambda text: text.replace('duration = "60ms"', 'duration = "30ms"')
    res = cnsim.run(short(dumbbell(2, ecn="classic")), progress=False, figures=False)
    q, _ = bottleneck(res)
    assert q["drops"] == 0 and q["threshold_marks"] > 0 and q["threshold_drops"] == 0
    assert all(f["tcp_retransmissions"] == 0 and f["tcp_ecn_reductions"] > 0 and f["tcp_dctcp_alpha"] is None
               for f in res.stats["flows"])
    res = cnsim.run(short(dumbbell(2, ecn="off")), progress=False, figures=False)
    q, _ = bottleneck(res)
    assert q["threshold_marks"] == 0 and q["threshold_drops"] > 0
    assert all(f["tcp_ecn_reductions"] == 0 for f in res.stats["flows"])
    assert sum(f["tcp_retransmissions"] for f in res.stats["flows"]) > 0
