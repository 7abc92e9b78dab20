"""`cnsim reproduce jiang2007-bcn` (Jiang & Jain 2007): the quick pipeline end to end on the sweep
store, the stable-state rule against hand-computed traces, and the report's fixed defects: paper
values as the paper states them (Table III's r5/r1 = 3.08/1.46, derived), three-state verdicts, the
message-count check labelled by construction, the PAUSE finding among the project's findings."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cnsim.reproduce import default_seeds, experiment
from cnsim.reproduce.jiang2007.experiment import configs, settling_time
from cnsim.reproduce.jiang2007.tables import R5_R1

ROOT = Path(__file__).resolve().parents[1]


def cnsim(*args):
    return subprocess.run([sys.executable, "-m", "cnsim", *args], cwd=ROOT, capture_output=True, text=True)


def test_settling_time_by_hand():
    t = np.arange(0, 0.010, 50e-6)             # 10 ms at 50 µs
    q = np.full_like(t, 16.0)
    assert settling_time(t, q, 0.010) == 0.0  # always in [12, 20]
    q[(t >= 0.003) & (t < 0.004)] = 30.0      # block 3 (3–4 ms) averages 30
    assert settling_time(t, q, 0.010) == pytest.approx(0.004)
    q[t >= 0.009] = 25.0                      # the last block leaves the band: never settles
    assert settling_time(t, q, 0.010) is None
    q = np.where(t < 0.002, 40.0, 16.0)
    q[(t >= 0.005) & (t < 0.0055)] = 22.0     # half a block at 22: its mean 19 stays inside
    assert settling_time(t, q, 0.010) == pytest.approx(0.002)


def test_bcn_feedback_statistics_match_the_event_trace():
    """The CP's e statistics (§VI.E's input) are those of the messages the event trace records in the
    window, on a real run of the symmetric topology at 1 Gb/s."""
    import cnsim

    r = cnsim.run(ROOT / "scenarios/jiang2007/symmetric.toml", seed=1, figures=False, progress=False, trace="bcn_sent",
                  set={"simulation.duration": "30ms", "simulation.measure_from": "10ms", "link.5.rate": "1Gbps"})
    q = next(q for q in r.stats["queues"] if q["name"] == "CS>ES5")
    e = r.trace[(r.trace.t_s >= 0.010) & (r.trace.port == "CS>ES5")].e
    assert len(e) == q["cnms_sent_window"] > 10
    assert (q["bcn_e_mean"], q["bcn_e_abs_mean"]) == pytest.approx((e.mean(), e.abs().mean()))
    assert (q["bcn_e_min"], q["bcn_e_max"]) == (e.min(), e.max())
    idle = next(q for q in r.stats["queues"] if q["name"] == "ES5>DT")   # no congestion: no message, no statistic
    assert idle["cnms_sent_window"] == 0 and "bcn_e_mean" not in idle


def test_configurations_cover_the_papers_experiments():
    cfgs = configs()
    exps = {c.experiment for c in cfgs}
    assert exps == {"table1-2", "fig7", "fig8", "vie-e", "table3", "table3-udp", "table4", "table5", "table6", "fig14"}
    one = next(c for c in cfgs if c.experiment == "vie-e")   # §VI.E's one source: Fig. 7's best setting, ST1 alone
    four = next(c for c in cfgs if c.experiment == "fig7" and c.variant == "1G-ru0.8-pm0.1")
    assert {k: v for k, v in one.sets.items() if k != "flow.0.from"} == four.sets and one.sets["flow.0.from"] == '"ST1"'
    assert {c.variant for c in cfgs if c.experiment == "table3"} == {"bcn", "none", "pause"}
    assert sum(c.experiment in ("fig7", "fig8") for c in cfgs) == 8   # 2² at two capacities
    assert default_seeds("jiang2007-bcn") == 5 and default_seeds("mliki2016-dumbbell") == 10
    assert experiment("jiang2007-bcn").name == "jiang2007-bcn"


def test_reproduce_quick(tmp_path):
    out = tmp_path / "j"
    p = cnsim("reproduce", "jiang2007-bcn", "--quick", "-o", str(out), "--jobs", "2")
    assert p.returncode == 0, p.stderr
    report = (out / "report.md").read_text()
    for heading in ("### Table I", "### Table II", "Figs. 7 and 8", "## Parking lot", "### Table IV", "Table V",
                    "Table VI", "Fig. 14", "## The paper's claims", "## Why cnsim's numbers differ"):
        assert heading in report
    # the parking lot: the paper's 2.06 and the proportional-fair ratio computed by cnsim.analysis
    assert "| 2.11 (derived: 3.08 ÷ 1.46) |" in report and "2.06" not in report
    assert R5_R1.value == pytest.approx(3.08 / 1.46) and R5_R1.derived
    pf = next(r for r in report.splitlines() if r.startswith("| proportional fair | 1.67"))
    assert "| 2 | 2 |" in pf
    verdicts = json.loads((out / "verdicts.json").read_text())
    assert len(verdicts["states"]) >= 20 and set(verdicts["states"].values()) <= {
        "supported", "not supported", "inconclusive", "holds by construction"}
    assert verdicts["states"]["vic.larger-pm-more-messages"] == "holds by construction"
    claims = report.split("## The paper's claims")[1].split("## Project findings")[0]
    findings = report.split("## Project findings")[1].split("\n## ")[0]
    assert "PAUSE without BCN is unfair" not in claims and "PAUSE without BCN is unfair" in findings
    rows = pd.read_parquet(out / "results.parquet")
    assert set(rows.experiment) >= {"table1-2", "fig7", "fig8", "table3", "table4", "table5", "table6", "fig14"}
    sr1 = rows[(rows.experiment == "table1-2") & (rows.part == "SR1") & (rows.metric == "tps")]
    assert len(sr1) == 3 * 3 and (sr1.value > 0).all()          # three variants × three seeds
    t4 = rows[(rows.experiment == "table4") & (rows.part == "ST6")]
    assert (t4[t4.metric == "thr_gbps_0.05s"].value == 0).all()     # ST6 idle in the first (scaled) second
    assert t4[t4.metric == "thr_gbps_0.15s"].value.iloc[0] > 1
    # Table IV's utilisation, by hand from the stored rows: the first bottleneck carries ST1..ST5,
    # at 10 Gb/s, over the last two (scaled) seconds
    from cnsim.reproduce.jiang2007.claims import table4_utilisation
    from cnsim.reproduce.jiang2007.measure import View
    late = rows[(rows.experiment == "table4") & rows.part.isin([f"ST{i}" for i in range(1, 6)])
                & rows.metric.isin(["thr_gbps_0.1s", "thr_gbps_0.15s"])]
    by_hand = late.groupby("seed").value.sum().to_numpy() / 2 / 10 * 100
    assert table4_utilisation(View(rows))[0] == pytest.approx(by_hand)
    assert verdicts["states"]["table4.utilisation"] in {"supported", "not supported", "inconclusive"}
    # the three claims of §VI.C–E added to the table, each with its verdict and its rule
    claim_rows = {k: next(r for r in claims.splitlines() if r.startswith("| ") and needle in r)
                  for k, needle in (("fig8.stable-after", "stable after"), ("fig11.oscillations-at-sw2", "SW2"),
                                    ("vie.e-one-source", "e_i(t) ≈ 1"), ("vie.e-four-sources", "±6, or ±7"))}
    for key, row in claim_rows.items():
        assert verdicts["states"][key] in {"supported", "not supported", "inconclusive"}
        assert f"**{verdicts['states'][key]}**" in row
    assert "Qeq ± 4 frames" in claim_rows["fig8.stable-after"] and "6.9 ms" in claim_rows["fig8.stable-after"]
    assert "SW1 is either" in claim_rows["fig11.oscillations-at-sw2"]
    assert "1 ± 0.5 frame" in claim_rows["vie.e-one-source"]
    # their inputs, from the stored rows: the settling times of Fig. 8's runs, the e statistics of the
    # one- and four-source runs, the queue std-devs of the asymmetric run
    from cnsim.reproduce.jiang2007.claims import E_FOUR_SRC, E_ONE_SRC, NEVER_MS, SW1_READINGS, SW2, settle_ms
    best = rows[(rows.experiment == "fig8") & (rows.variant == "10G-ru8-pm0.05") & (rows.part == "CS>ES5")]
    by_hand = np.nan_to_num(best[best.metric == "settle_s"].value.to_numpy() * 1e3, nan=NEVER_MS)
    assert np.array_equal(np.sort(settle_ms(View(rows), "fig8", "10G-ru8-pm0.05")),
                          np.sort(np.concatenate([by_hand, np.full(3 - len(by_hand), NEVER_MS)])))
    for exp, var in (E_ONE_SRC, E_FOUR_SRC):
        e = rows[(rows.experiment == exp) & (rows.variant == var) & (rows.part == "CS>ES5")].pivot_table(
            index="seed", columns="metric", values="value")
        assert len(e) == 3 and ((e.e_min <= e.e_mean) & (e.e_mean <= e.e_max) & (e.e_abs_mean >= e.e_mean.abs())).all()
    ones = rows[(rows.experiment == E_ONE_SRC[0]) & (rows.metric == "thr_gbps")]
    assert set(ones.part) == {"ST1"}                                  # one source only
    asym = rows[(rows.experiment == "table5") & (rows.variant == "bcn") & (rows.metric == "q_std")]
    assert {SW2, *SW1_READINGS} <= set(asym.part)
    assert len(list((out / "figures").glob("*.png"))) == 7
    # the store: a second run finds every run done and recomputes nothing
    summary = json.loads((out / "summary.json").read_text())
    p = cnsim("reproduce", "jiang2007-bcn", "--quick", "-o", str(out), "--jobs", "1")
    assert p.returncode == 0, p.stderr
    again = json.loads((out / "summary.json").read_text())
    assert again["runs"] == summary["runs"] == 3 * len(configs()) and again["ran"] == 0
