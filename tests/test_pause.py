"""802.3x PAUSE and 802.1Qbb PFC end to end (docs/protocols.md §6): an incast is lossless with PAUSE
and lossy without; PFC keeps an uncongested priority flowing where plain PAUSE blocks it."""

import numpy as np
import pytest

import cnsim

INCAST = "scenarios/examples/incast-pause.toml"
PFC = "scenarios/examples/pfc-isolation.toml"
PLAIN_PAUSE = '{ pause = { xoff = "20 frames", xon = "10 frames" } }'


def run(path, **sets):
    return cnsim.run(path, set=sets, progress=False, figures=False)


def ports(res):
    return {p["name"]: p for p in res.stats["ports"]}


@pytest.mark.parametrize("trigger", ["ingress", "egress"])
def test_incast_with_pause_loses_nothing(trigger):
    res = run(INCAST, **{"flow_control.pause.trigger": trigger})
    f = res.stats["frames"]
    assert f["data_generated"] == 1666
    assert f["data_dropped"] == 0 and f["data_source_dropped"] == 0
    assert f["data_delivered"] == f["data_generated"]  # drained by the end
    assert f["pause_sent"] == f["pause_delivered"] > 0
    p = ports(res)
    for h in ("H1", "H2", "H3", "H4"):
        paused = p[f"{h}>SW"]["paused_s"]
        assert paused == [paused[0]] * 8  # 802.3x pauses every priority
        assert 0.5e-3 < paused[0] < 2e-3  # the hosts were held back for a good part of the burst
        assert p[f"SW>{h}"]["xoff_sent"] >= 1 and p[f"SW>{h}"]["xon_sent"] >= 1
    # The switch never holds more than its buffer, and the buffer was used.
    q = {x["name"]: x for x in res.stats["queues"]}["SW>D"]
    assert 10 < q["peak_frames"] <= 64


def test_incast_without_pause_drops():
    res = run(INCAST, flow_control="none")
    f = res.stats["frames"]
    assert f["data_dropped"] > 0.3 * f["data_generated"]
    assert "ports" not in res.stats and "pause_sent" not in f  # nothing of PAUSE when it is off


def empty_bins(res, flow="cold", host="R2"):
    rx = res.series(f"rx_bps.{flow}>{host}")  # bit/s over each record interval
    rx = rx[rx.index >= 0.005]
    return int((rx.values[1:] == 0).sum()), len(rx) - 1


def test_pfc_keeps_the_uncongested_priority_flowing():
    res = run(PFC)
    p = ports(res)["SW1>SW2"]["paused_s_window"]
    assert p[3] > 1e-3  # the congested class was paused …
    assert p[5] == 0.0  # … the other never
    thr = {f["name"]: f["receivers"][0]["throughput_bps"] for f in res.stats["flows"]}
    assert thr["cold"] == pytest.approx(3e9, rel=0.01)
    assert empty_bins(res)[0] == 0  # a cold frame reached R2 in every 10-us interval


def test_plain_pause_blocks_the_uncongested_flow_too():
    res = run(PFC, flow_control=PLAIN_PAUSE)
    p = ports(res)["SW1>SW2"]["paused_s_window"]
    assert p[5] == p[3] > 1e-3  # the whole link stops
    empty, bins = empty_bins(res)
    assert empty > 0.05 * bins  # "cold" stops with "hot" (head-of-line blocking)


def test_pfc_only_pauses_lossless_priorities():
    res = run(PFC, **{"flow_control.pfc.priorities": "[5]"})
    p = ports(res)
    assert all(sum(x["paused_s"]) == 0 for x in p.values())  # priority 3 is not flow-controlled
    assert res.stats["frames"]["data_dropped"] > 0  # so it is lossy
