"""Units coherence (issue 14 item 7): the `rx.` series are rates in bit/s over each record interval,
and agree with the receivers' window throughput the engine reports."""

from pathlib import Path

import pytest

import cnsim

SCENARIO = Path(__file__).resolve().parents[1] / "python/cnsim/scenarios/examples/unicast-qcn.toml"


def test_rx_series_are_rates_that_average_to_the_window_throughput():
    r = cnsim.run(SCENARIO, set={"simulation.duration": "20ms", "simulation.measure_from": "10ms",
                                 "simulation.record_interval": "1ms"})
    flow = r.stats["flows"][0]
    receiver = flow["receivers"][0]
    rx = r.series(f"rx.{flow['name']}>{receiver['host']}")
    assert rx.iloc[0] == 0.0 and rx.max() <= 10e9 * 1.0001  # bit/s, never above the 10 Gb/s link
    window = rx[(rx.index > 0.010 + 1e-12) & (rx.index <= 0.020 + 1e-12)]
    assert len(window) == 10
    assert window.mean() == pytest.approx(receiver["throughput_bps"], rel=1e-9)
