"""Jiang & Jain 2007's parking lot (Fig. 9): BCN shares the two bottlenecks roughly proportionally fairly
(r5/r1 near the 2.0 that `cnsim.analysis.proportional_fair` computes for the same network; the
paper measures 2.06), while PAUSE alone shows its known unfairness: the source that enters last,
closest to the second bottleneck, takes most of it."""

import pytest

import cnsim
from cnsim import analysis

PARKING = "scenarios/jiang2007/parking-lot.toml"
PAUSE_ONLY = {"cp": "none", **{f"flow.{i}.rp": "none" for i in range(3)},
              "flow_control": '{ pause = { trigger = "egress", xoff = "80 frames", xon = "60 frames" } }'}


def rates(res):
    return {f["name"]: f["receivers"][0]["throughput_bps"] for f in res.stats["flows"]}


def test_bcn_is_close_to_proportional_fairness():
    pf = analysis.proportional_fair(PARKING)
    assert pf["ST5"] / pf["ST1"] == pytest.approx(2.0, rel=1e-3)  # computed, not typed in
    r = rates(cnsim.run(PARKING, progress=False, figures=False))
    ratio = r["ST5"] / r["ST1"]
    print(f"r5/r1: cnsim {ratio:.2f}, proportional fairness {pf['ST5'] / pf['ST1']:.2f}, paper 2.06")
    assert 1.5 < ratio < 3.0  # far from max-min's 1.0; the fluid model's own fixed point is 2.89
    assert sum(r[f"ST{i}"] for i in range(1, 6)) > 0.9 * 10e9  # the first bottleneck stays full


def test_pause_alone_is_unfair_on_the_parking_lot():
    res = cnsim.run(PARKING, set=PAUSE_ONLY, progress=False, figures=False)
    r = rates(res)
    assert res.stats["frames"]["data_dropped"] == 0  # lossless …
    assert r["ST6"] > 3 * r["ST5"]  # … but ST6, paused least, takes most of SW2>SW3
