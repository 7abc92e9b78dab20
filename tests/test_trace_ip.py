"""The event trace names the IP layer's drops: a router that decrements a
TTL to 0 and RED's early drops are `drop` rows with reasons `ttl` and `aqm`, one per counted drop."""

import cnsim

ROUTERS = """
[simulation]
duration = "50ms"
record_interval = "0s"
[defaults]
link = { rate = "100Mbps", delay = "1us" }
[[router]]
names = ["R1", "R2", "R3"]
[[host]]
names = ["H1", "H2"]
[[link]]
between = ["H1", "R1"]
[[link]]
between = ["R1", "R2"]
[[link]]
between = ["R2", "R3"]
rate = "50Mbps"
queue = { capacity = "100 frames", discipline = "red", red = { min_th = 5, max_th = 15 } }
[[link]]
between = ["R3", "H2"]
[[flow]]
from = "H1"
to = "H2"
traffic = { kind = "poisson", rate = "60Mbps" }
sirens = { init_ttl = TTL }
"""


def drops(ttl: int):
    res = cnsim.run(ROUTERS.replace("TTL", str(ttl)), trace="drop")
    rows = res.trace[res.trace["kind"] == "drop"]
    return res.stats, rows["reason"].value_counts()


def test_ttl_expiry_is_traced_once_per_dropped_frame():
    stats, reasons = drops(3)  # dies at the third router
    assert stats["frames"]["ttl_expired"] > 0
    assert reasons.get("ttl", 0) == stats["frames"]["ttl_expired"]


def test_red_early_drops_are_traced_as_aqm():
    stats, reasons = drops(64)
    q = next(q for q in stats["queues"] if q["name"] == "R2>R3")
    assert q["red_early_drops"] + q["red_forced_drops"] > 0
    assert reasons.get("aqm", 0) == q["red_early_drops"] + q["red_forced_drops"]
    assert reasons.get("ttl", 0) == 0
