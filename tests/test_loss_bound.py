"""Loss is a share of frame copies: a multicast flow that loses every copy after its branching point
reports 100 % loss, not 200 %."""

import cnsim

SCENARIO = """
[simulation]
duration = "20ms"
record_interval = "0s"
[defaults]
link = { rate = "1Gbps", delay = "1us" }
[[switch]]
names = ["SW1", "SW2"]
[[host]]
names = ["S", "R1", "R2"]
[[link]]
between = ["S", "SW1"]
rate = "10Gbps"
[[link]]
between = ["SW1", "SW2"]
rate = "10Gbps"
[[link]]
between = ["SW2", ["R1", "R2"]]
[[group]]
name = "G"
members = ["R1", "R2"]
[[flow]]
from = "S"
to = "G"
traffic = { kind = "cbr", rate = "9Gbps" }
"""


def test_loss_rate_never_exceeds_100_percent_with_replication():
    s = cnsim.run(SCENARIO, figures=False, progress=False)
    f = s.stats["window"]
    assert f["data_replicated"] > 0 and f["data_dropped"] > f["data_injected"] // 2
    loss = s.summary["global"]["loss_rate_pct"]
    # 9 Gb/s into two 1 Gb/s receiver links: about 8/9 of every copy is lost.
    assert 80 < loss <= 100
    (grp,) = cnsim.metrics.group_metrics(s.stats).values()
    assert grp["loss_rate_pct"] == loss_rate_of_flow(s.stats)


def loss_rate_of_flow(stats):
    (f,) = stats["flows"]
    return 100 * f["dropped_window"] / (f["injected_window"] + f["replicated_window"])
