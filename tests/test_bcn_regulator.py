"""A source's TCP connections behind one regulator (Jiang & Jain 2007 §II: BCN regulates per
source): `limiter.regulate = "per-source"` (the default) gives one reaction point per source whose
rate limiter the connections share, taking turns; "per-connection" one per connection."""

import cnsim

TWO_SOURCES = """
[simulation]
duration = "50ms"
measure_from = "10ms"
[defaults]
link = { rate = "10Gbps", delay = "1us" }
queue = { capacity = "100 frames" }
[cp.bcn]
pm = 0.01
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
traffic = { kind = "tcp-bulk", connections = 4 }
rp = { bcn = {} }
"""


def _run(regulate=None):
    sets = {} if regulate is None else {"flow.0.limiter.regulate": f'"{regulate}"'}
    return cnsim.run(TWO_SOURCES, set=sets, figures=False, progress=False)


def _by_source(res):
    out = {}
    for f in res.stats["flows"]:
        out.setdefault(f["source"], []).append(f)
    return out


def test_per_source_is_the_default_one_rp_per_source_and_the_connections_take_turns():
    res = _run()
    assert sorted(rp["source"] for rp in res.stats["rps"]) == ["A", "B"]
    for conns in _by_source(res).values():
        assert len(conns) == 4
        sent = [f["injected"] for f in conns]
        # Round robin through one limiter: every connection sends, and no more than a few frames
        # apart from the others (a connection skips its turn only while its window is full).
        assert min(sent) > 0 and max(sent) - min(sent) <= 0.01 * max(sent), sent
    assert _run("per-source").stats["flows"] == res.stats["flows"]


def test_per_connection_gives_each_connection_its_own_rp():
    res = _run("per-connection")
    assert sorted(rp["source"] for rp in res.stats["rps"]) == ["A"] * 4 + ["B"] * 4


def test_one_regulator_paces_the_sum_of_its_connections():
    # One rate limiter: what the four connections deliver together stays within the RP's
    # time-averaged rate (per connection, BCN would allow each of them that rate).
    res = _run()
    by_source = _by_source(res)
    for rp in res.stats["rps"]:
        delivered = sum(r["throughput_bps"] for f in by_source[rp["source"]] for r in f["receivers"])
        assert 0 < delivered <= rp["cr_mean_bps"] * 1.01
