"""`Result` built from engine-shaped series bytes, and the figures drawn from it (no engine)."""

import re

import numpy as np
import pytest
from factories import flow, queue, rp, stats

from cnsim.outputs import draw_run_figures
from cnsim.results import Result

NAMES = ["rp_cr_bps.S1", "rp_cr_bps.S2", "q_frames.SW1>SW2", "rx_bps.S1>R1"]


def series_bytes(samples):
    """The `sim.series()` dict for [(name, t, value), ...]."""
    return {
        "names": NAMES,
        "index": np.array([NAMES.index(n) for n, _, _ in samples], dtype="<u4").tobytes(),
        "t": np.array([t for _, t, _ in samples], dtype="<f8").tobytes(),
        "value": np.array([v for _, _, v in samples], dtype="<f8").tobytes(),
    }


@pytest.fixture
def result():
    samples = []
    for i in range(11):
        t = i * 0.1
        samples += [
            ("rp_cr_bps.S1", t, 1e9 - i * 5e7),
            ("rp_cr_bps.S2", t, 5e8),
            ("q_frames.SW1>SW2", t, float(i % 4) * 10),
            ("rx_bps.S1>R1", t, 1e8 if i else 0.0),  # 100 Mb/s over each 0.1-s interval (a rate, bit/s)
        ]
    doc = stats(
        rps=[rp("S1", 750), rp("S2", 500)],
        queues=[queue("SW1>SW2", True, 15.0, 25.0, 100)],
        flows=[flow("S1", {"R1": 100})],
    )
    return Result(doc, series_bytes(samples), "[simulation]\n")


def test_series_frame_is_long_and_categorical(result):
    frame = result.series_frame
    assert list(frame.columns) == ["name", "t", "value"]
    assert frame["name"].dtype == "category"
    assert len(frame) == 44
    assert frame["value"].iloc[0] == 1e9


def test_series_by_name(result):
    s = result.series("rp_cr_bps.S1")
    assert s.index.name == "t" and s.name == "rp_cr_bps.S1"
    assert s.index.tolist() == pytest.approx([i * 0.1 for i in range(11)])
    assert s.iloc[-1] == pytest.approx(5e8)
    assert result.names() == NAMES
    with pytest.raises(KeyError):
        result.series("rp_cr_bps.S9")


@pytest.mark.parametrize("old, new", [("rp.S1.cr", "rp_cr_bps.S1"), ("q.SW1>SW2", "q_frames.SW1>SW2"),
                                      ("rx.S1>R1", "rx_bps.S1>R1"), ("mrx.R1", "mrx_bps.R1"),
                                      ("tcp.a.b.srtt", "tcp_srtt_s.a.b")])
def test_an_old_series_name_gets_the_new_name_in_the_error(result, old, new):
    with pytest.raises(KeyError, match=f"series names now carry their unit: '{re.escape(new)}'"):
        result.series(old)


def test_mismatched_series_lengths_are_refused():
    bad = series_bytes([("rp_cr_bps.S1", 0.0, 1.0)]) | {"t": b""}
    with pytest.raises(ValueError):
        Result(stats(), bad, "")


def test_summary_is_computed_from_stats(result):
    assert result.summary["global"]["cr_mean_mbps"] == pytest.approx(625)


def test_figures_are_drawn(result, tmp_path):
    paths = draw_run_figures(result, tmp_path / "figures")
    assert sorted(p.name for p in paths) == ["cr.png", "queue_SW1-SW2.png", "throughput.png"]
    assert all(p.stat().st_size > 1000 for p in paths)


def test_write_with_figures(result, tmp_path):
    out = result.write(tmp_path / "run")
    assert sorted(p.name for p in (out / "figures").iterdir()) == [
        "cr.png", "queue_SW1-SW2.png", "throughput.png",
    ]  # fmt: skip
