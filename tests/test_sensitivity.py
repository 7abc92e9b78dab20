"""Robustness labels of the reports (cnsim.reproduce.sensitivity) and the overrides of each open choice."""

from cnsim.reproduce.sensitivity import BY_NAME, label


def test_labels():
    assert label({"baseline": True, "cp.qcn.qold=every-sample": True}) == "holds under all choices"
    assert label({"baseline": False, "cp.qcn.qold=every-sample": False}) == "does not hold"
    lab = label({"baseline": True, "cp.qcn.qold=every-sample": False, "rp.gd=1/126": True})
    assert lab == "depends on cp.qcn.qold (holds in the baseline)"
    assert label({"baseline": None}) == "not testable"


def test_choices_apply_where_they_mean_something():
    mu, mc = "scenarios/mliki2016/dumbbell-multiple-unicast.toml", "scenarios/mliki2016/dumbbell-multicast.toml"
    assert BY_NAME["limiter.copy_rate=own"].overrides(mu, "qcn", False) == {"flow.0.limiter.copy_rate": "own"}
    assert BY_NAME["limiter.copy_rate=own"].overrides(mc, "qcn", False) is None       # multicast: one RP per source
    assert BY_NAME["rp.eqcn.fb_hat_reset=expire"].overrides(mc, "qcn", False) is None  # QCN has no F̂b
    assert BY_NAME["rp.gd=1/126"].overrides(mc, "eqcn", False) == {"flow.0.rp.eqcn.gd": 1 / 126}
    assert BY_NAME["simulation.measure_from=7s"].overrides(mc, "qcn", True) == {"simulation.measure_from": "5.3s"}
