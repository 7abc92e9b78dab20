"""`cnsim reproduce roeck2007-qau` (seed 004): the quick pipeline runs every scenario and variant
through the sweep store (and resumes), its report gives a verdict for each finding of the seed,
and its derived metrics are computed as documented."""

import json
import math

import pandas as pd
import pytest

from cnsim.reproduce import TITLES, reproduce, roeck2007


def test_every_point_of_the_grid_is_a_valid_scenario():
    from cnsim.sweep import validate_points

    labels, tasks = roeck2007._runs(quick=False, seeds=1)
    assert {lab["scenario"] for lab in labels} == {s.key for s in roeck2007.SCENARIOS}
    seen = {}
    for text, label, overrides, _, _ in tasks:
        seen.setdefault(label, (text, []))[1].append(overrides)
    for label, (text, points) in seen.items():
        assert validate_points(text, label, points)[1] == "", label


def test_bandwidth_loss_by_hand():
    # Ideal = 20·8.5·k − f·7.5·k (k = 1500/1520, f the on-share of the window); loss = ideal − total.
    df = pd.DataFrame([
        {"scenario": "oscillating", "param": "t_on_ms", "point": "10", "variant": "ECM", "seed": 1,
         "metric": "total_throughput_gbps", "value": 160.0},
        {"scenario": "oscillating", "param": "t_on_ms", "point": "10", "variant": "ECM", "seed": 1,
         "metric": "on_fraction", "value": 0.4},
    ])
    k = 1500 / 1520
    out = roeck2007.with_bandwidth_loss(df)
    loss = out[out.metric == "bandwidth_loss_gbps"].value.item()
    assert loss == pytest.approx(170 * k - 0.4 * 7.5 * k - 160.0)


def test_metrics_of_a_stats_document():
    stats = {
        "frame_size_bytes": 1500,
        "time": {"duration_s": 1.0, "window_s": 0.5},
        "frames": {"cnm_sent": 40, "probe_sent": 7, "pause_sent": 3, "window": {"data_dropped": 2}},
        "rps": [{"limiters_created": 2, "false_positives": 1, "ecm_positive": 4},
                {"regulators_created": 1, "probe_positive": 2}],
        "flows": [{"receivers": [{"host": "D", "throughput_bps": 3e9}]},
                  {"receivers": [{"host": "E", "throughput_bps": 1e9}]}],
        "queues": [{"name": "SW>D", "q_mean_frames": 10, "q_std_frames": 2, "q_max_frames": 30},
                   {"name": "SW1>SW2", "busy_s_window": 0.25, "rate_bps": 10e9},
                   {"name": "SW2>SW3", "busy_s_window": 0.5, "rate_bps": 10e9}],
    }
    m = roeck2007.metrics(stats, "SW>D")
    assert m["cm_messages_per_s"] == 40 and m["limiters_created"] == 3 and m["false_positives"] == 1
    assert m["positive_feedback"] == 6 and m["probes_sent"] == 7 and m["drops_window"] == 2
    assert m["total_throughput_gbps"] == 4 and m["hotspot_throughput_gbps"] == 3
    assert m["flow_throughput_cov"] == pytest.approx(0.5)  # std 1e9 / mean 2e9
    assert m["jain_throughput"] == pytest.approx(16 / 20)
    assert (m["hotspot_q_mean_kb"], m["hotspot_q_std_kb"], m["hotspot_q_max_kb"]) == (15, 3, 45)
    assert (m["switch_throughput_mean_gbps"], m["switch_throughput_std_gbps"], m["switch2_throughput_gbps"]) == (7.5, 2.5, 10)


def test_quick_reproduction_runs_resumes_and_reports(tmp_path):
    assert "roeck2007-qau" in TITLES
    out = tmp_path / "r"
    report = reproduce("roeck2007-qau", out, quick=True, jobs=2, progress=False)
    text = report.read_text()
    df = pd.read_parquet(out / "results.parquet")
    assert set(df.scenario) == {"no-hotspot", "oscillating", "latency", "psample", "twenty-stage", "fbhat"}
    assert set(df.variant) == set(roeck2007.VARIANTS)
    for line in [x for x in text.splitlines() if x.startswith("- **")]:
        assert any(v in line for v in ("— supported.", "— not supported.", "— not tested.")), line
    assert text.count("- **") >= 12 and "QUICK" in text
    # ECM and the probes reach the engine: ECM sends positive feedback, QCN-P sends probes.
    pos = df[(df.metric == "positive_feedback") & (df.variant == "ECM")].value
    probes = df[(df.metric == "probes_sent") & (df.variant == "QCN-P")].value
    assert pos.sum() > 0 and probes.sum() > 0
    assert (df[(df.metric == "probes_sent") & (df.variant == "QCN")].value == 0).all()
    # A second run finds every run in the store.
    reproduce("roeck2007-qau", out, quick=True, jobs=2, progress=False)
    assert json.loads((out / "summary.json").read_text())["ran"] == 0


def test_reaction_time_and_cpid_effect_by_hand():
    # Qeq = 16 frames: the queue exceeds it at 22 ms and is back at or below it at 25 ms → 5 ms after onset 20 ms.
    q = pd.Series([0, 0, 40, 30, 20, 10, 50], index=[0.019, 0.021, 0.022, 0.023, 0.024, 0.025, 0.026])
    assert roeck2007.reaction_ms(q, 0.020) == pytest.approx(5.0)
    assert math.isnan(roeck2007.reaction_ms(pd.Series([1.0, 2.0], index=[0.02, 0.03]), 0.020))  # never above Qeq
    # Six flows: throughput falls as cpid_changes rise → ρ = −1; top third (2 flows) ÷ bottom third.
    rps = [{"flow": f"F{i}", "cpid_changes": i} for i in range(6)]
    flows = [{"name": f"F{i}", "receivers": [{"throughput_bps": 6 - i}]} for i in range(6)]
    e = roeck2007.cpid_effect(rps, flows)
    assert e["cpid_throughput_rho"] == pytest.approx(-1.0)
    assert e["cpid_top_bottom_ratio"] == pytest.approx((2 + 1) / (6 + 5))
