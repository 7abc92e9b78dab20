"""Traffic generators end to end (docs/protocols.md §9): Pareto on/off sources offer peak × on/(on+off)
on average and are burstier than CBR at the same mean rate."""

import pytest

import cnsim
from scenario_factory import star


def run(traffic: str, seed: int = 1):
    # One source behind a 2 Gb/s bottleneck, its limiter holding what the link cannot take.
    text = star("S", duration="4s", delay="1us", capacity="100000 frames", bottleneck='rate = "2Gbps"',
                traffic=traffic, flow="limiter = { buffer = 100000 }")
    return cnsim.run(text, seed=seed, progress=False, figures=False)


def throughput(res) -> float:
    return res.stats["flows"][0]["receivers"][0]["throughput_bps"]


@pytest.mark.parametrize("seed", [1, 2])
def test_pareto_on_off_offers_its_duty_cycle(seed):
    # Peak 5 Gb/s, mean burst 1 ms, mean idle 4 ms: 1 Gb/s on average (shape 2.5: light enough
    # tails for 4 s to converge within ±20 %).
    res = run('{ kind = "pareto", rate = "5Gbps", burst = "1ms", idle = "4ms", shape = 2.5 }', seed)
    assert throughput(res) == pytest.approx(1e9, rel=0.2)
    assert res.stats["frames"]["data_dropped"] == 0


def test_pareto_is_burstier_than_cbr_at_the_same_mean():
    pareto = run('{ kind = "pareto", rate = "5Gbps", burst = "1ms", idle = "4ms", shape = 2.5 }')
    cbr = run('{ kind = "cbr", rate = "1Gbps" }')
    q = lambda r: {x["name"]: x for x in r.stats["queues"]}["SW>D"]["q_max_frames"]
    assert q(cbr) <= 1 and q(pareto) > 50  # bursts at 5 Gb/s queue up in front of a 2 Gb/s link


def test_pareto_needs_its_parameters():
    with pytest.raises(ValueError, match="burst"):
        run('{ kind = "pareto", rate = "5Gbps" }')
    with pytest.raises(ValueError, match="shape"):
        run('{ kind = "pareto", rate = "5Gbps", burst = "1ms", idle = "1ms", shape = 1.0 }')
    with pytest.raises(ValueError, match="pareto"):
        run('{ kind = "cbr", rate = "1Gbps", burst = "1ms" }')
