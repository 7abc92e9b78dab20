"""Model fixes of the seed 000/001 reproductions (issue 10 items 1-3; the Rust unit tests
`protocols::tests::suppressed_cnm_leaves_qold` and `eqcn::tests::lock_out_options_clear_fb_hat`
hold items 1 and 2 at the state-machine level)."""

import cnsim
from cnsim.reproduce.common import with_rp

MU = "scenarios/mliki2016/dumbbell-multiple-unicast.toml"
MULTILINK = "scenarios/mliki2016/multilink-multicast.toml"
SHORT = {"simulation.duration": "6s", "simulation.measure_from": "5.5s"}


def test_item3_copies_paced_alone_still_form_one_session_per_source():
    res = cnsim.run(MU, set={**SHORT, "flow.0.limiter.copy_rate": "own"}, progress=False, figures=False)
    sessions = res.stats["sessions"]
    assert len(res.stats["rps"]) == 12  # one RP per copy …
    assert len(sessions) == 6 and all(len(s["flows"]) == 2 for s in sessions)  # … one session per source
    # The session rate is min over its copies' RPs (seed 000 §3).
    rps = {r["name"]: r for r in res.stats["rps"]}
    for s in sessions:
        assert s["cr_final_bps"] == min(rps[f]["cr_final_bps"] for f in s["flows"])


def test_item2_fb_hat_reset_options_are_scenario_keys():
    sets = with_rp(MULTILINK, "eqcn")
    runs = {}
    for reset in ("at-63", "on-release", "expire"):
        extra = {f"flow.{i}.rp.eqcn.fb_hat_reset": reset for i in range(3)}
        res = cnsim.run(MULTILINK, set={**sets, **extra, **SHORT}, progress=False, figures=False)
        runs[reset] = res.stats["frames"]["cnm_sent"]
    assert len(set(runs.values())) > 1  # the options change what the CPs send
