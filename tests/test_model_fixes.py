"""Model fixes of the Mliki et al. 2016a/b reproductions (the Rust unit tests
`protocols::tests::suppressed_cnm_leaves_qold` and `eqcn::tests::lock_out_options_clear_fb_hat`
hold items 1 and 2 at the state-machine level)."""

import cnsim
from cnsim.reproduce.mliki2016.spec import with_rp
from scenario_factory import star

MU = "scenarios/mliki2016/dumbbell-multiple-unicast.toml"
MULTILINK = "scenarios/mliki2016/multilink-multicast.toml"
SHORT = {"simulation.duration": "6s", "simulation.measure_from": "5.5s"}


def test_copies_paced_alone_still_form_one_session_per_source():
    res = cnsim.run(MU, set={**SHORT, "flow.0.limiter.copy_rate": "own"}, progress=False, figures=False)
    sessions = res.stats["sessions"]
    assert len(res.stats["rps"]) == 12  # one RP per copy …
    assert len(sessions) == 6 and all(len(s["flows"]) == 2 for s in sessions)  # … one session per source
    # The session rate is min over its copies' RPs (Mliki et al. 2016a §3).
    rps = {r["name"]: r for r in res.stats["rps"]}
    for s in sessions:
        assert s["cr_final_bps"] == min(rps[f]["cr_final_bps"] for f in s["flows"])


def test_fb_hat_reset_options_are_scenario_keys():
    sets = with_rp(MULTILINK, "eqcn")
    runs = {}
    for reset in ("at-63", "on-release", "expire"):
        extra = {f"flow.{i}.rp.eqcn.fb_hat_reset": reset for i in range(3)}
        res = cnsim.run(MULTILINK, set={**sets, **extra, **SHORT}, progress=False, figures=False)
        runs[reset] = res.stats["frames"]["cnm_sent"]
    assert len(set(runs.values())) > 1  # the options change what the CPs send


IDENTICAL = star(duration="1s", measure_from="0.2s", rate="1Gbps", delay="1us", capacity=None,
                 traffic='{ kind = "cbr", rate = "400Mbps" }')


def throughputs(res):
    return [f["receivers"][0]["throughput_bps"] for f in res.stats["flows"]]


def test_identical_sources_get_the_same_share():
    # Four identical 400 Mb/s sources start together on a 1 Gb/s drop-tail bottleneck: every
    # frame arrives at the switch at the same instant as three others. With a neutral tie order
    # they share the link evenly, whatever the seed.
    for seed in (1, 2, 3):
        t = throughputs(cnsim.run(IDENTICAL, seed=seed, progress=False, figures=False))
        assert max(t) / min(t) < 1.05, t
        assert sum(t) > 0.97e9


def test_fifo_ties_favour_the_first_declared_source():
    # The old order (`simulation.tie_order = "fifo"`) serves simultaneous arrivals in file order:
    # the last source loses every tie.
    t = throughputs(cnsim.run(IDENTICAL, set={"simulation.tie_order": "fifo"}, progress=False, figures=False))
    assert t[3] < 0.5 * t[0]
