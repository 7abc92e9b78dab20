"""Samples with Fb < 0 against CNMs sent (docs/modelling.md, "when a CNM is sent"): under 802.1Qau a
sample whose Fb is negative by less than one quantum sends nothing; with
`cp.qcn.cnm_on_any_negative_fb` (the wording of Mliki et al. 2016a/b §2.1) every such sample
sends a CNM. Runs the dumbbell of Mliki et al. 2016a, shortened."""

import pytest

import cnsim

DUMBBELL = "scenarios/mliki2016/dumbbell-multiple-unicast.toml"
SHORT = {"simulation.duration": "5s", "simulation.measure_from": "4s", "cp.qcn.qeq": "25 frames"}


def _run(**sets):
    return cnsim.run(DUMBBELL, set={**SHORT, **sets}, figures=False, progress=False)


def _cps(res):
    return [q for q in res.stats["queues"] if q["cp"] and q["arrivals_window"]]


@pytest.fixture(scope="module")
def standard():
    return _run()


def test_samples_with_negative_fb_outnumber_cnms_under_the_standard(standard):
    cps = _cps(standard)
    assert cps
    for q in cps:
        assert q["feedback_sent_window"] <= q["cp_fb_negative_window"] <= q["cp_samples_window"]
    # Every frame is sampled (every-frame sampling) and some samples below one quantum send nothing.
    assert sum(q["cp_samples_window"] for q in cps) == sum(q["arrivals_window"] for q in cps)
    assert sum(q["cp_fb_negative_window"] for q in cps) > sum(q["feedback_sent_window"] for q in cps)
    g = standard.summary["global"]
    assert g["fb_negative_samples_pct"] > g["feedback_rate_pct"] > 0


def test_every_negative_fb_sends_a_cnm_when_asked():
    res = _run(**{"cp.qcn.cnm_on_any_negative_fb": "true"})
    cps = _cps(res)
    assert cps and sum(q["feedback_sent_window"] for q in cps) > 0
    for q in cps:
        assert q["feedback_sent_window"] == q["cp_fb_negative_window"]
    g = res.summary["global"]
    assert g["fb_negative_samples_pct"] == pytest.approx(g["feedback_rate_pct"])


def test_no_qcn_cp_no_negative_fb_metric():
    res = cnsim.run("scenarios/examples/incast-pause.toml", set={"simulation.duration": "5ms",
                    "simulation.measure_from": "1ms"}, figures=False, progress=False)
    assert res.summary["global"]["fb_negative_samples_pct"] is None
