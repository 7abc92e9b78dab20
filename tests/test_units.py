"""Units coherence: a queue length in frames is queued bytes ÷
simulation.frame_size, as the thresholds in frames are; series names carry their unit; the `rx_bps.`
and `mrx_bps.` series are rates in bit/s over each record interval, and agree with the window
throughput the engine reports."""

import re
from pathlib import Path

import pytest

import cnsim

SCENARIO = Path(__file__).resolve().parents[1] / "python/cnsim/scenarios/examples/unicast-qcn.toml"


def test_rx_series_are_rates_that_average_to_the_window_throughput():
    r = cnsim.run(SCENARIO, set={"simulation.duration": "20ms", "simulation.measure_from": "10ms",
                                 "simulation.record_interval": "1ms"})
    flow = r.stats["flows"][0]
    receiver = flow["receivers"][0]
    rx = r.series(f"rx_bps.{flow['name']}>{receiver['host']}")
    assert rx.iloc[0] == 0.0 and rx.max() <= 10e9 * 1.0001  # bit/s, never above the 10 Gb/s link
    window = rx[(rx.index > 0.010 + 1e-12) & (rx.index <= 0.020 + 1e-12)]
    assert len(window) == 10
    assert window.mean() == pytest.approx(receiver["throughput_bps"], rel=1e-9)


# One sender at 10 Gb/s into a 1 Gb/s port: the queue fills to its capacity. Frames are 1500 B, but
# a "frame" of a queue length or threshold is simulation.frame_size = 1000 B; the capacity in frames
# is the one physical count.
OVERLOAD = """
[simulation]
duration = "2ms"
measure_from = "0s"
record_interval = "10us"
frame_size = "1000B"

[defaults]
link = { rate = "10Gbps", delay = "1us" }
queue = { capacity = "CAPACITY frames" }

[flow_control.pause]
trigger = "egress"
xoff = "30 frames"
xon = "10 frames"

[[switch]]
names = "SW"
[[host]]
names = ["S", "D"]
[[link]]
between = ["S", "SW"]
[[link]]
between = ["SW", "D"]
rate = "1Gbps"
[[port]]
at = "S>SW"
queue = { capacity = "1000 frames" }

[[flow]]
from = "S"
to = "D"
traffic = { kind = "cbr", rate = "5Gbps", frame = "1500B" }
"""


def test_queue_frames_are_bytes_over_frame_size_and_agree_with_the_thresholds():
    # Capacity 20 (physical) frames of 1500 B = 30 000 B = 30 frames of 1000 B: the queue fills
    # up to XOFF = 30 frames but never above it, so the switch never pauses and drops instead.
    r = cnsim.run(OVERLOAD.replace("CAPACITY", "20"), figures=False, progress=False)
    q = {x["name"]: x for x in r.stats["queues"]}["SW>D"]
    assert r.stats["frame_size_bytes"] == 1000
    assert q["peak_frames"] == 20 and q["peak_bytes"] == 30_000  # the capacity counts frames physically
    assert q["q_max_frames"] == 30.0  # 20 frames of 1500 B, in frames of 1000 B
    series = r.series("q_frames.SW>D")
    assert series.max() == 30.0
    assert ((series / 1.5) % 1 == 0).all()  # whole 1500-B frames, counted in 1000-B frames
    assert 0 < q["q_mean_frames"] < 30
    assert r.stats["frames"]["pause_sent"] == 0 and q["drops"] > 0
    # Room for 30 physical frames: the 21st (31 500 B, 31.5 frames) crosses XOFF = 30 frames and
    # the switch pauses the sender; the headroom keeps the queue below its capacity.
    r = cnsim.run(OVERLOAD.replace("CAPACITY", "30"), figures=False, progress=False)
    q = {x["name"]: x for x in r.stats["queues"]}["SW>D"]
    assert r.stats["frames"]["pause_sent"] > 0 and q["drops"] == 0
    assert 21 <= q["peak_frames"] < 30 and q["q_max_frames"] == q["peak_frames"] * 1.5
    series = r.series("q_frames.SW>D")
    assert series.max() > 30 and ((series / 1.5) % 1 == 0).all()


def test_mrx_series_are_rates_that_average_to_the_window_throughput():
    r = cnsim.run(SCENARIO.parents[1] / "nakauchi2006/emcast-cbr.toml",
                  set={"simulation.duration": "3s", "simulation.measure_from": "1s",
                       "simulation.record_interval": "100ms"}, figures=False, progress=False)
    ep = r.stats["endpoints"][0]
    mrx = r.series(f"mrx_bps.{ep['name']}")
    assert mrx.iloc[0] == 0.0 and mrx.max() > 0
    window = mrx[(mrx.index > 1.0 + 1e-9) & (mrx.index <= 3.0 + 1e-9)]
    assert len(window) == 20
    assert window.mean() == pytest.approx(ep["throughput_bps"], rel=1e-9)
    lost = r.series(f"mlost_frames.{ep['name']}")
    assert lost.is_monotonic_increasing  # a cumulative count, not a rate


SERIES_NAME = re.compile(r"^([a-z_]+_(bps|frames|s|segments|bytes|packets|ratio)|level)\.")


def test_every_declared_series_name_carries_its_unit():
    series = [m for m in cnsim.metric_declarations() if m["scope"] == "series"]
    assert len(series) >= 10  # the engine's own and every registered protocol's
    for m in series:
        assert SERIES_NAME.match(m["name"]), m["name"]
        unit = m["name"].split(".")[0].rsplit("_", 1)[-1]
        assert {"bps": "bit/s", "frames": "frames", "s": "s", "segments": "segments", "bytes": "B", "packets": "packets", "ratio": "1", "level": "level"}[unit] == m["unit"], m


def test_recorded_series_names_carry_their_unit():
    r = cnsim.run(SCENARIO.parents[0] / "tcp-bcn.toml", set={"simulation.duration": "2ms", "simulation.measure_from": "1ms"}, figures=False, progress=False)
    names = r.names()
    assert any(n.startswith("tcp_cwnd_segments.") for n in names) and any(n.startswith("q_frames.") for n in names)
    assert all(SERIES_NAME.match(n) for n in names), names
    with pytest.raises(KeyError, match="series names now carry their unit: 'q_frames.SW1>SW2'"):
        r.series("q.SW1>SW2")
    # Mixed sizes (1500-B segments, a transaction's 1280-B last segment, 64-B BCN messages): the
    # queue statistics are whole bytes ÷ frame_size, not frame counts.
    queued = [q["q_max_frames"] * r.stats["frame_size_bytes"] for q in r.stats["queues"]]
    assert all(b == pytest.approx(round(b)) and b <= q["peak_bytes"] for b, q in zip(queued, r.stats["queues"]))
    assert any(round(b) % 1500 for b in queued)
