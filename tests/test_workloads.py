"""Finite transfers, flow-completion times and [[workload]] tables from real runs
(docs/scenarios.md, workloads): the ideal FCT on an empty path, the offered load and the size
distribution of generated flows, slowdown ≥ 1, incast, determinism and CDF file errors."""

import math
from pathlib import Path

import pytest

import cnsim

ROOT = Path(__file__).resolve().parents[1]
WEBSEARCH = ROOT / "scenarios/examples/websearch-fattree.toml"
CDF = ROOT / "python/cnsim/workloads/web-search.cdf"

STAR = """
[simulation]
duration = "{duration}"
seed = {seed}

[defaults]
link = {{ rate = "1Gbps", delay = "1us" }}
queue = {{ capacity = "1000 frames" }}

[[switch]]
names = ["SW"]
[[host]]
names = ["H1..H{n}"]
[[link]]
between = ["SW", "H1..H{n}"]
"""


def run(tmp_path, text, name="s.toml", **sets):
    path = tmp_path / name
    path.write_text(text)
    return cnsim.run(path, set=sets, progress=False, figures=False)


def cdf_points(path=CDF):
    return [tuple(map(float, line.split())) for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def cdf_at(points, x):
    """The piecewise-linear CDF of the file at x."""
    if x < points[0][0]:
        return 0.0
    for (s0, p0), (s1, p1) in zip(points, points[1:]):
        if x < s1:
            return p0 + (x - s0) / (s1 - s0) * (p1 - p0) if s1 > s0 else p0
    return 1.0


def test_a_transfer_alone_takes_its_ideal_fct(tmp_path):
    text = """
[simulation]
duration = "5ms"
[defaults]
link = { rate = "10Gbps", delay = "1us" }
[[switch]]
names = ["SW"]
[[host]]
names = ["A", "B"]
[[link]]
between = ["A", "SW"]
[[link]]
between = ["SW", "B"]
rate = "1Gbps"
[[flow]]
from = "A"
to = "B"
traffic = { kind = "transfer", size = "150000B" }
start = "100us"
"""
    f = run(tmp_path, text).stats["flows"][0]
    # 100 frames of 1500 B + 20 B overhead = 1520 B on the wire: 1.216 us at 10 Gb/s, 12.16 us at
    # 1 Gb/s; A sends them back to back. Ideal = (1.216 + 1) + (12.16 + 1) + 99 · 12.16 = 1219.216 us.
    assert f["size_bytes"] == 150_000
    assert f["fct_ideal_s"] == pytest.approx(1219.216e-6, rel=1e-12)
    assert f["fct_s"] == pytest.approx(1219.216e-6, rel=1e-12)  # alone: exactly the ideal


def test_tcp_transfer_completes_no_faster_than_its_ideal(tmp_path):
    text = STAR.format(duration="20ms", seed=1, n=2) + """
[[flow]]
from = "H1"
to = "H2"
traffic = { kind = "tcp-transfer", size = "100kB" }
"""
    f = run(tmp_path, text).stats["flows"][0]
    assert f["fct_s"] is not None and f["tcp_bytes_acked"] == 100_000
    assert f["fct_s"] >= f["fct_ideal_s"] > 0


def workload_flows(tmp_path, seed=1, stop="200s", load=0.5, n=4):
    # The run is 1 us long: the flows are made (and reported) but not simulated.
    text = STAR.format(duration="1us", seed=seed, n=n) + f"""
[[workload]]
hosts = ["H1..H{n}"]
sizes = "web-search"
load = {load}
stop = "{stop}"
"""
    return run(tmp_path, text).stats["flows"]


def test_offered_load_and_size_distribution(tmp_path):
    n_hosts, load, span_s, rate = 4, 0.5, 200.0, 1e9
    flows = workload_flows(tmp_path, stop=f"{span_s:g}s", load=load, n=n_hosts)
    pts = cdf_points()
    mean = sum((p1 - p0) * (s0 + s1) / 2 for (s0, p0), (s1, p1) in zip(pts, pts[1:]))
    # E[S²] of the piecewise-linear CDF: per segment Δp · (s0² + s0·s1 + s1²)/3.
    second = sum((p1 - p0) * (s0 * s0 + s0 * s1 + s1 * s1) / 3 for (s0, p0), (s1, p1) in zip(pts, pts[1:]))
    expected_flows = n_hosts * load * rate * span_s / (8 * mean)
    # Offered bytes are a compound Poisson sum: relative std-dev sqrt(E[S²] / (N·E[S]²)). Tolerance:
    # 4 of them (a false failure about once in 16 000 seeds), plus the whole-byte rounding (nil).
    rel_sd = math.sqrt(second / (expected_flows * mean * mean))
    offered = sum(f["size_bytes"] for f in flows) * 8 / (n_hosts * rate * span_s)
    assert abs(offered - load) / load < 4 * rel_sd, (offered, rel_sd)
    assert all(f["source"] != f["receivers"][0]["host"] for f in flows)
    # Sizes follow the CDF: Kolmogorov–Smirnov distance below 1.95/sqrt(n) (the 0.1 % critical value).
    sizes = sorted(f["size_bytes"] for f in flows)
    n = len(sizes)
    d = max(max(abs((i + 1) / n - cdf_at(pts, x)), abs(i / n - cdf_at(pts, x))) for i, x in enumerate(sizes))
    assert d < 1.95 / math.sqrt(n), (d, n)


def test_same_seed_same_flows(tmp_path):
    key = lambda flows: [(f["name"], f["source"], f["receivers"][0]["host"], f["size_bytes"]) for f in flows]
    a = key(workload_flows(tmp_path, seed=7, stop="1s"))
    assert a and a == key(workload_flows(tmp_path, seed=7, stop="1s"))
    assert a != key(workload_flows(tmp_path, seed=8, stop="1s"))


def test_slowdown_is_at_least_one():
    res = cnsim.run(WEBSEARCH, progress=False, figures=False)
    done = [f for f in res.stats["flows"] if f["fct_s"] is not None]
    assert len(done) >= 10
    # FCT and its ideal are whole picoseconds: the ratio may lose only float rounding.
    assert all(f["fct_s"] >= f["fct_ideal_s"] * (1 - 1e-12) for f in done)
    assert all(res.summary["flows"][f["name"]]["slowdown"] >= 1 - 1e-12 for f in done)
    fct = res.summary["fct"]
    assert sum(b["flows"] for b in fct.values()) == len(res.stats["flows"])
    assert all(b["slowdown_median"] is None or 1 - 1e-12 <= b["slowdown_median"] <= b["slowdown_p99"] for b in fct.values())


def test_incast_delivers_every_byte(tmp_path):
    # A round is 8 · 43 frames · 12.16 us = 4.18 ms at H1's 1 Gb/s link: one round per 5 ms.
    text = STAR.format(duration="20ms", seed=3, n=12) + """
[[workload]]
hosts = ["H1..H12"]
stop = "15ms"
incast = { receiver = "H1", senders = 8, size = "64KB", period = "5ms" }
"""
    flows = run(tmp_path, text).stats["flows"]
    assert len(flows) == 3 * 8  # rounds at 0, 5 and 10 ms
    frames = math.ceil(64_000 / 1500)  # whole 1500-B frames per transfer
    assert all(f["receivers"][0]["host"] == "H1" and f["source"] != "H1" for f in flows)
    assert sum(f["receivers"][0]["frames"] for f in flows) == 24 * frames
    assert all(f["fct_s"] is not None for f in flows)
    for r in range(3):  # each round's senders are distinct
        assert len({f["source"] for f in flows[8 * r: 8 * r + 8]}) == 8


def test_bad_cdf_file_names_its_line(tmp_path):
    (tmp_path / "bad.cdf").write_text("# sizes\n100 0.1\n50 0.5\n1000 1\n")
    text = STAR.format(duration="1us", seed=1, n=2) + """
[[workload]]
hosts = ["H1", "H2"]
sizes = "bad.cdf"
load = 0.5
stop = "1ms"
"""
    with pytest.raises(Exception, match=r"bad\.cdf:3: not monotone"):
        run(tmp_path, text)


def test_too_many_flows_is_an_error(tmp_path):
    text = STAR.format(duration="1us", seed=1, n=2) + """
[[workload]]
hosts = ["H1", "H2"]
sizes = "web-search"
load = 0.5
stop = "1000s"
max_flows = 100
"""
    with pytest.raises(Exception, match="max_flows = 100"):
        run(tmp_path, text)


INCAST = """
[[workload]]
name = "{name}"
hosts = ["H1..H4"]
incast = {{ receiver = "H1", senders = 2, size = "10KB", period = "1ms" }}
stop = "2ms"
"""


@pytest.mark.parametrize("tables, clash", [
    (INCAST.format(name="w") + INCAST.format(name="w"), "w#0"),          # two workloads of one name
    ('[[flow]]\nname = "w#3"\nfrom = "H2"\nto = "H3"\ntraffic = { kind = "cbr", rate = "1Mbps" }\n'
     + INCAST.format(name="w"), "w#3"),                                   # a [[flow]] took a workload's name
])
def test_a_workload_s_flow_names_are_unique_against_every_other_flow(tables, clash):
    text = STAR.format(duration="3ms", seed=1, n=4) + tables
    with pytest.raises(cnsim.ScenarioError, match=f'duplicate flow name "{clash}"'):
        cnsim.check(text)


def test_workloads_of_different_names_make_flows_of_different_names(tmp_path):
    text = STAR.format(duration="3ms", seed=1, n=4) + INCAST.format(name="w") + INCAST.format(name="v")
    flows = {f["name"] for f in cnsim.describe(text)["flows"]}
    assert {"w#0", "w#3", "v#0", "v#3"} <= flows and len(flows) == 8
