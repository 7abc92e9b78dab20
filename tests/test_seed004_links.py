"""Roeck 2007's links: a port whose service rate oscillates, per-hop switch processing latency, and
Bernoulli sources at a given load (the seed's traffic)."""

import pytest

import cnsim

BASE = """
[simulation]
duration = "20ms"
record_interval = "0s"
[defaults]
link = { rate = "10Gbps", delay = "0.5us" }
queue = { capacity = "200000B" }
[[switch]]
names = "SW"
[[host]]
names = ["S", "D"]
[[link]]
between = ["S", "SW"]
[[link]]
between = ["SW", "D"]
[[flow]]
from = "S"
to = "D"
traffic = { kind = "bernoulli", load = 0.9 }
"""


def run(extra="", **sets):
    return cnsim.run(BASE + extra, set=sets, progress=False, figures=False)


def test_oscillating_port_serves_at_the_low_rate_only_during_on_phases():
    # SW>D at 1 Gb/s for 2 ms, 10 Gb/s for 2 ms, from 4 ms to 16 ms: three on-phases of 2 ms.
    res = run('[[port]]\nat = "SW>D"\noscillate = { rate = "1Gbps", on = "2ms", off = "2ms", from = "4ms", until = "16ms" }\n')
    frames = res.stats["frames"]
    d = res.stats["flows"][0]["receivers"][0]["bytes_window"] * 8
    plain = run()
    full = plain.stats["flows"][0]["receivers"][0]["bytes_window"] * 8
    assert frames["data_dropped"] > 0 and plain.stats["frames"]["data_dropped"] == 0
    # Each 2-ms on-phase: 9 Gb/s offered (8.88 Gb/s of frame bytes: 1500 of every 1520 B on the
    # wire) against 1 Gb/s served (0.987 Gb/s of frame bytes); the 200-kB buffer, empty at the
    # start of each phase (the 2-ms off-phase drains 1.6 Mbit at 10 − 9 Gb/s), absorbs 1.6 Mbit.
    per_phase = 2e-3 * (8.88e9 - 1e9 * 1500 / 1520) - 1.6e6
    assert full - d == pytest.approx(3 * per_phase, rel=0.03)


def test_bad_oscillation_names_the_port():
    with pytest.raises(cnsim.ScenarioError, match="SW>D.*oscillate.from"):
        run('[[port]]\nat = "SW>D"\noscillate = { rate = "1Gbps", on = "2ms", off = "2ms", from = "5ms", until = "4ms" }\n')


def test_switch_latency_adds_to_every_hop_into_a_switch():
    # Two switches in a row, a 40 Gb/s link between them: the congestion is at SW2>D (ECM). Everything that reaches SW2 comes 2 µs later with 1 µs
    # per switch, so the first CM message (SW2 → S1, into SW1 on the way back: +1 µs) reaches S1
    # 3 µs later.
    sc = """
[simulation]
duration = "5ms"
record_interval = "0s"
[defaults]
link = { rate = "10Gbps", delay = "0.5us" }
queue = { capacity = "200000B" }
[cp.ecm]
[[switch]]
names = ["SW1", "SW2"]
[[host]]
names = ["S1..S4", "D"]
[[link]]
between = ["S1..S4", "SW1"]
[[link]]
between = ["SW1", "SW2"]
rate = "40Gbps"
[[link]]
between = ["SW2", "D"]
[[flow]]
from = "S1..S4"
to = "D"
traffic = { kind = "cbr", rate = "5Gbps" }
rp = { ecm = {} }
"""
    def first(latency):
        res = cnsim.run(sc.replace('names = ["SW1", "SW2"]', f'names = ["SW1", "SW2"]\nlatency = "{latency}"'), progress=False, figures=False)
        return min(r["first_message_s"] for r in res.stats["rps"])
    assert first("1us") - first("0s") == pytest.approx(3e-6, abs=1e-12)
    with pytest.raises(cnsim.ScenarioError, match="hosts have none"):
        cnsim.run(BASE.replace('names = ["S", "D"]', 'names = ["S", "D"]\nlatency = "1us"'), progress=False, figures=False)


def test_bernoulli_offers_the_seed_load():
    # Roeck 2007: "Bernoulli distribution, load: 1Gbps .. 9.5 Gb/s" at 10 Gb/s — load = rate / line rate.
    for load in (0.1, 0.5, 0.95):
        res = run(**{"flow.0.traffic.load": load, "simulation.duration": "50ms"})
        thr = res.stats["flows"][0]["receivers"][0]["throughput_bps"]
        # A slot is one frame time with overhead (1520 B): frame bytes are 1500/1520 of the load.
        assert thr == pytest.approx(load * 10e9 * 1500 / 1520, rel=0.03)
