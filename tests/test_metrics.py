"""`cnsim.metrics.summarize` on hand-made stats documents, against hand-computed values."""

import json
from pathlib import Path

import pytest

import cnsim
from cnsim.metrics import DEFINITIONS, jain, seed_metrics, summarize
from factories import flow, port, queue, rp, stats


def test_jain_index():
    assert jain([1, 1, 1, 1]) == 1
    assert jain([1, 0, 0, 0]) == 0.25
    assert jain([1, 3]) == pytest.approx(16 / 20)
    assert jain([]) is None
    assert jain([0, 0]) is None


def test_feedback_and_loss_rates_are_over_the_window():
    s = stats(window={"data_injected": 2000, "feedback_sent": 50, "data_dropped": 30, "data_replicated": 0,
                      "data_generated": 1000, "data_source_dropped": 10})  # fmt: skip
    s["frames"] |= {"data_injected": 1, "feedback_sent": 1000, "data_dropped": 1000}  # ignored
    g = summarize(s)["global"]
    assert g["feedback_rate_pct"] == pytest.approx(2.5)
    assert g["loss_rate_pct"] == pytest.approx(1.5)
    assert g["source_loss_pct"] == pytest.approx(1.0)


def test_loss_counts_copies_made_at_branching_points():
    # 1000 frames sent, each replicated once at a branching point, every copy dropped after it:
    # 2000 copies lost out of 2000, i.e. 100 % (not 200 % of the frames sent).
    s = stats(window={"data_injected": 1000, "data_replicated": 1000, "data_dropped": 2000, "feedback_sent": 0,
                      "data_generated": 1000, "data_source_dropped": 0})  # fmt: skip
    assert summarize(s)["global"]["loss_rate_pct"] == pytest.approx(100.0)


def test_rates_without_traffic_are_null():
    g = summarize(stats())["global"]
    assert g["feedback_rate_pct"] is None and g["loss_rate_pct"] is None
    assert g["jain_cr"] is None and g["cr_mean_mbps"] is None and g["first_cnm_s"] is None
    assert g["main_cp"] is None


def test_rate_metrics_over_rps():
    s = stats(rps=[rp("S1", 100, 10, 4.5), rp("S2", 300, 30, 3.25), rp("S3", 200, 20)])
    summary = summarize(s)
    g = summary["global"]
    assert g["cr_mean_mbps"] == pytest.approx(200)
    assert g["cr_std_mbps"] == pytest.approx(20)
    assert g["cr_spread_mbps"] == pytest.approx((20000 / 3) ** 0.5)  # population std of 100,300,200
    assert g["jain_cr"] == pytest.approx(600**2 / (3 * (100**2 + 300**2 + 200**2)))
    assert g["first_cnm_s"] == 3.25
    assert summary["rps"]["S1"] == {
        "first_cnm_s": 4.5, "cr_mean_mbps": pytest.approx(100), "cr_std_mbps": pytest.approx(10),
        "feedback_received": 5, "limiters_created": 1,
    }  # fmt: skip


def test_queue_metrics_and_main_cp():
    s = stats(
        queues=[
            queue("SW1>SW2", True, q_mean=31.5, qeq=25.0, arrivals=900, busy_s=4.0),
            queue("SW2>R1", True, q_mean=2.0, qeq=25.0, arrivals=100),
            queue("S1>SW1", False, q_mean=0.5, arrivals=5000),
        ]
    )
    summary = summarize(s)
    q = summary["queues"]
    assert q["SW1>SW2"]["q_dev_from_qeq_frames"] == pytest.approx(6.5)
    assert q["SW2>R1"]["q_dev_from_qeq_frames"] == pytest.approx(-23.0)
    assert "q_dev_from_qeq_frames" not in q["S1>SW1"]
    assert q["SW1>SW2"]["utilisation"] == pytest.approx(0.8)
    assert q["SW1>SW2"]["drops"] == 2 and q["SW1>SW2"]["arrivals"] == 450
    assert summary["global"]["main_cp"] == "SW1>SW2"  # the non-CP queue does not count
    row = seed_metrics(summary)
    assert row["q_mean_frames"] == 31.5
    assert row["q_dev_from_qeq_frames"] == pytest.approx(6.5)


def test_flow_metrics():
    s = stats(flows=[flow("S1", {"R1": 100, "R2": 100}, 1000, 20), flow("S2", {"R1": 0, "R2": 0})])
    summary = summarize(s)
    assert summary["flows"]["S1"]["source_loss_pct"] == pytest.approx(2.0)
    assert summary["flows"]["S1"]["receivers"]["R2"] == {"throughput_mbps": pytest.approx(100)}
    assert summary["global"]["jain_throughput"] == pytest.approx(0.5)


def test_window_is_stated():
    w = summarize(stats(window_s=4.0))["window"]
    assert w["measure"] == {"from_s": 6.0, "to_s": 10.0, "length_s": 4.0}
    assert w["run"] == {"from_s": 0.0, "to_s": 10.0, "length_s": 10.0}


def test_every_metric_is_defined_with_a_window():
    s = stats(
        rps=[rp("S1", 100)],
        queues=[queue("SW1>SW2", True, 30.0, 25.0, 10)],
        flows=[flow("S1", {"R1": 1})],
    )
    s["ports"] = [port("SW1>SW2")]
    summary = summarize(s)
    defined = {(d["scope"], d["metric"]) for d in DEFINITIONS}
    assert all(d["window"] in summary["window"] for d in DEFINITIONS)
    produced = {("global", k) for k in summary["global"]}
    produced |= {("rp", k) for r in summary["rps"].values() for k in r}
    produced |= {("queue", k) for q in summary["queues"].values() for k in q}
    produced |= {("port", k) for p in summary["ports"].values() for k in p}
    # Transfers' metrics, from a real run with a workload (the factories make no transfers).
    transfers = cnsim.run("scenarios/examples/websearch-fattree.toml", set={"simulation.duration": "3ms"},
                          figures=False, progress=False).summary
    produced |= {("fct bucket", k) for b in transfers["fct"].values() for k in b}
    for f in [*summary["flows"].values(), *transfers["flows"].values()]:
        produced |= {("flow", k) for k in f if k != "receivers"}
        produced |= {("receiver", k) for r in f["receivers"].values() for k in r}
    assert produced == defined
    json.dumps(summary, allow_nan=False)


def test_seed_metrics_row():
    s = stats(rps=[rp("S1", 100, 5, 4.0), rp("S2", 100, 15)], window={"data_injected": 100})
    row = seed_metrics(summarize(s))
    # every global metric (metrics.py's table order), the main CP's queue metrics among them
    assert list(row) == [d["metric"] for d in DEFINITIONS if d["scope"] == "global"]
    assert list(row)[-3:] == ["q_mean_frames", "q_std_frames", "q_dev_from_qeq_frames"]
    assert row["jain_cr"] == 1 and row["cr_std_mbps"] == pytest.approx(10)
    assert row["feedback_rate_pct"] == 0 and row["q_mean_frames"] is None


def test_total_loss_and_feedback_variants():
    # 1000 copies generated, 100 lost in the limiter, 900 sent, 900 replicated, 180 dropped in switches
    s = stats(window={"data_generated": 1000, "data_source_dropped": 100, "data_injected": 900,
                      "data_replicated": 900, "data_dropped": 180, "data_delivered": 1600, "feedback_sent": 40},
              queues=[queue("SW1>SW2", True, 30.0, 25.0, arrivals=1800), queue("SW2>R1", True, 5.0, 25.0, arrivals=200)],
              flows=[flow("S1", {"R1": 100, "R2": 50})], rps=[rp("S1", 100)])  # fmt: skip
    g = summarize(s)["global"]
    assert g["loss_rate_pct"] == pytest.approx(10.0)             # 180 / 1800
    assert g["total_loss_pct"] == pytest.approx(280 / 1900 * 100)  # (100 + 180) / (1000 + 900)
    assert g["feedback_per_cp_frame_pct"] == pytest.approx(8 / 1000 * 100)  # 4 + 4 CNMs over 900 + 100 arrivals
    assert g["feedback_busiest_cp_pct"] == pytest.approx(4.0)    # SW2>R1: 4 / 100
    assert g["feedback_per_delivered_pct"] == pytest.approx(2.5)
    assert g["throughput_mean_mbps"] == pytest.approx(75.0)
    assert g["cr_min_mbps"] == 0.0


def test_summary_of_a_bcn_run():
    """BCN reaction points name their stats first_message_s / regulators_created: the summary (and
    so `cnsim run`) reads them instead of failing on QCN's names."""
    import cnsim

    res = cnsim.run("scenarios/jiang2007/parking-lot.toml", set={"simulation.duration": "20ms",
                    "simulation.measure_from": "10ms"}, progress=False, figures=False)
    rps = res.summary["rps"]
    assert rps and all(rp["limiters_created"] == 1 for rp in rps.values())
    assert 0 < res.summary["global"]["first_cnm_s"] < 0.01


def test_stored_results_with_the_old_feedback_counters_are_read_with_the_new_names(tmp_path):
    from cnsim.results import Result, upgrade_stats

    old = {"frames": {"cnm_sent": 7, "cnm_delivered": 6, "cnm_dropped": 1, "cnm_in_flight": 0},
           "window": {"cnm_sent": 3, "data_injected": 100}}
    new = upgrade_stats(old)
    assert new["frames"] == {"feedback_sent": 7, "feedback_delivered": 6, "feedback_dropped": 1, "feedback_in_flight": 0}
    assert new["window"] == {"feedback_sent": 3, "data_injected": 100}
    # A current document keeps its protocol counters (QCN's cnm_sent beside feedback_sent).
    current = {"frames": {"feedback_sent": 5, "cnm_sent": 4}}
    assert upgrade_stats(current)["frames"] == {"feedback_sent": 5, "cnm_sent": 4}
    # A run directory written before the renaming reopens with the new names.
    res = cnsim.run(Path(__file__).resolve().parents[1] / "scenarios/examples/unicast-qcn.toml", progress=False, figures=False,
                    set={"simulation.duration": "5ms", "simulation.measure_from": "1ms"}, out=tmp_path / "run")
    # QCN's own frames keep their name: without probes, every feedback frame is a CNM.
    assert res.stats["frames"]["cnm_sent"] == res.stats["frames"]["feedback_sent"] > 0
    assert res.stats["frames"]["cnm_received"] == res.stats["frames"]["feedback_delivered"]
    doc = json.loads((tmp_path / "run/summary.json").read_text())
    for section in ("frames", "window"):
        c = doc["stats"][section]
        c.pop("cnm_sent"), c.pop("cnm_received")
        for old_name, new_name in (("cnm_sent", "feedback_sent"), ("cnm_delivered", "feedback_delivered"), ("cnm_dropped", "feedback_dropped")):
            c[old_name] = c.pop(new_name)
    (tmp_path / "run/summary.json").write_text(json.dumps(doc))
    loaded = Result.load(tmp_path / "run")
    assert loaded.stats["window"]["feedback_sent"] == res.stats["window"]["feedback_sent"]
    assert loaded.summary["global"]["feedback_rate_pct"] == res.summary["global"]["feedback_rate_pct"]


def test_the_pure_python_parts_import_without_the_engine():
    """cnsim's package docstring: metrics, outputs, figures and results import without a built
    engine; the catalogue is read from it on first use only."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['cnsim._core'] = None\n"
            "import cnsim.metrics, cnsim.outputs, cnsim.figures, cnsim.results\n"
            "try:\n    cnsim.metrics.CATALOGUE\nexcept ImportError:\n    print('lazy')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "lazy"
