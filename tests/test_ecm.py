"""ECM end to end (Roeck 2007's backup-slide parameters; protocols/ecm/): on one 10 Gb/s hotspot
the regulators keep the queue far below the buffer with the link full and nothing lost, where the
same load without congestion management fills the buffer and drops; with one CP there can be no
false positive; RTT-triggered drops measure the RTT from the echoed send time and drop messages."""

import pytest

import cnsim

from scenario_factory import star

SCENARIO = star(
    duration="300ms", measure_from="100ms", capacity="200000B", cp="ecm",
    traffic='{ kind = "bernoulli", load = 0.5 }', rp="{ ecm = {} }",
)


def run(seed=1, **sets):
    return cnsim.run(SCENARIO, set=sets, seed=seed, progress=False, figures=False)


def hotspot(res):
    return {q["name"]: q for q in res.stats["queues"]}["SW>D"]


@pytest.mark.parametrize("seed", [1, 2])
def test_ecm_controls_the_hotspot(seed):
    res = run(seed)
    q = hotspot(res)
    # 4 × 5 Gb/s into 10 Gb/s, a 133-frame buffer: ECM holds the queue near Qeq = 24 000 B (16
    # frames) with the link full; only the first milliseconds (before the regulators exist) drop.
    assert 10 < q["q_mean_frames"] < 24
    assert q["busy_s_window"] / 0.2 > 0.97
    assert q["drops_window"] == 0
    rps = res.stats["rps"]
    assert all(r["protocol"] == "ecm" and r["limiters_created"] >= 1 for r in rps)
    assert all(r["ecm_negative"] > 0 and r["ecm_positive"] > 0 for r in rps)
    # One CP: every positive message comes from the associated CPID.
    assert all(r["false_positives"] == 0 for r in rps)
    assert hotspot(res)["feedback_sent"] == sum(r["feedback_received"] for r in rps)


def test_without_ecm_the_buffer_fills_and_drops():
    res = run(cp="none", **{"flow.0.rp": "none"})
    assert hotspot(res)["q_mean_frames"] > 100
    assert res.stats["frames"]["data_dropped"] > 0


def test_rtt_triggered_drops_measure_the_rtt():
    res = run(**{"flow.0.rp.ecm.rtt_drop": True})
    rps = res.stats["rps"]
    # The loop is source → CP → source: a 1500-B frame (1.216 µs with overhead) and a 64-B message
    # (0.067 µs) on two 0.5-µs links = 2.283 µs; the source's own queue can only add to it. Each
    # source hears about once per 100 of its frames (≈ 200 µs), far apart: nothing to drop.
    assert all(2.28e-6 < r["rtt_estimate_s"] < 200e-6 for r in rps)
    assert sum(r["ecm_rtt_dropped"] for r in rps) == 0
    # With a 1-ms RTT (Roeck 2007's largest), most messages fall within one RTT of the last one.
    slow = run(**{"flow.0.rp.ecm.rtt_drop": True, "flow.0.rp.ecm.rtt": "1ms"}).stats["rps"]
    dropped, got = sum(r["ecm_rtt_dropped"] for r in slow), sum(r["feedback_received"] for r in slow)
    assert 0.5 * got < dropped < got
    # Accepted: at most one per RTT per CPID → at most 300 ms / 1 ms + 1 per source.
    assert all(r["ecm_positive"] + r["ecm_negative"] <= 301 for r in slow)


def test_bad_ecm_parameters_name_the_key():
    with pytest.raises(cnsim.ScenarioError, match=r"cp\.ecm\.qsc must be above cp\.ecm\.qeq"):
        run(**{"cp.ecm.qsc": "1000B"})
    with pytest.raises(cnsim.ScenarioError, match="rp.ecm.td must be positive|rp.ecm.min_rate and rp.ecm.td"):
        run(**{"flow.0.rp.ecm.td": "0s"})
