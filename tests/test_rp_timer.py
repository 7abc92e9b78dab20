"""The RP timer runs as a real event whether or not the flow sends (docs/protocols.md §3): after its
source stops, a throttled RP keeps recovering on timer cycles alone."""

import cnsim

SCENARIO = """
[simulation]
duration = "400ms"
record_interval = "1ms"
[defaults]
link = { rate = "1Gbps", delay = "1us" }
[cp.qcn]
[[switch]]
names = "SW"
[[host]]
names = ["A", "B", "D"]
[[link]]
between = [["A", "B"], "SW"]
[[link]]
between = ["SW", "D"]
[[flow]]
from = ["A", "B"]
to = "D"
traffic = { kind = "cbr", rate = "800Mbps" }
stop = "50ms"
rp = { qcn = { jitter = false } }
"""


def test_timer_recovers_cr_after_the_source_stops():
    res = cnsim.run(SCENARIO, figures=False, progress=False)
    cr = res.series("rp_cr_bps.A")
    assert cr[cr.index <= 0.05].iloc[-1] < 0.9e9  # throttled while both sources overloaded the link
    # Frames still queued at 50 ms bring the last CNMs just after; from 60 ms on the source is
    # silent, so the byte counter is frozen and every increase comes from a timer expiry.
    after = cr[cr.index >= 0.06]
    assert after.is_monotonic_increasing
    assert (after.diff().fillna(0) > 0).sum() >= 20  # many distinct timer cycles
    # Once the timer count passes 5, cycles last T/2 = 5 ms (no jitter here) and each adds
    # R_AI = 5 Mb/s to TR; CR = (CR + TR)/2 then follows TR at the same slope: 1 Mb/s per ms.
    # (HAI needs the byte counter past 5 cycles too, which a silent source never reaches.)
    slope = (cr.loc[0.39] - cr.loc[0.2]) / (0.39 - 0.2)
    assert abs(slope - 5e6 / 5e-3) < 0.02 * 5e6 / 5e-3
