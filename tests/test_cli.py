"""The command line end to end: run writes its outputs; reproduce --quick writes a report."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


def cnsim(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "cnsim", *args], cwd=cwd, capture_output=True, text=True)


def test_run_writes_outputs(tmp_path):
    out = tmp_path / "mc"
    p = cnsim("run", "scenarios/mliki2016/dumbbell-multicast.toml", "-o", str(out), "-q",
              "--set", "simulation.duration=5.5s", "--set", "cp.qcn.qeq=50 frames")
    assert p.returncode == 0, p.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stats"]["queues"][0]["qeq_frames"] == 50
    series = pd.read_parquet(out / "series.parquet")
    assert {"rp_cr_bps.S1", "q_frames.Switch1>Switch2"} <= set(series["name"].astype(str))
    assert "50 frames" in (out / "scenario.toml").read_text()
    assert any((out / "figures").glob("*.png"))


def test_reproduce_quick_writes_report(tmp_path):
    out = tmp_path / "rep"
    p = cnsim("reproduce", "mliki2016-dumbbell", "--quick", "-o", str(out), "--jobs", "2")
    assert p.returncode == 0, p.stderr
    report = (out / "report.md").read_text()
    # one table row per (mode, Qeq) for each metric, with the paper's value beside cnsim's
    assert report.count("| multicast | 25 | 2.49 |") == 1
    assert report.count("| multiple-unicast | 75 |") >= 8
    assert "## The paper's claims" in report and "**3 seeds per configuration**" in report
    assert (out / "figures" / "dumbbell-every-frame.png").exists()
    assert (out / "figures" / "dumbbell-cr.png").exists()
    rows = pd.read_parquet(out / "results.parquet")
    assert {"defaults.link.overhead=0B", "rp=none"} <= set(rows.setting)
    assert (out / "verdicts.json").exists() and (out / "figures" / "dumbbell-queues.png").exists()


@pytest.mark.parametrize("name, topologies", [("mliki2016-legacy", ["dumbbell", "multilink", "multilink2"]),
                                               ("mliki2016-enhanced", ["star", "multilink", "multilink2"])])
def test_reproduce_quick_seed_papers(tmp_path, name, topologies):
    p = cnsim("reproduce", name, "--quick", "-o", str(tmp_path), "--jobs", "2")
    assert p.returncode == 0, p.stderr
    report = (tmp_path / "report.md").read_text()
    assert report.count("| **supported** |") + report.count("| **not supported** |") + report.count(
        "| **inconclusive** |") >= 8
    # every check carries a robustness label
    robust = report.split("## Robustness")[1].split("\n## ")[0]
    rows = [r for r in robust.splitlines() if r.startswith("| `")]
    assert rows and all(" under every choice |" in r or "| depends on " in r for r in rows)
    rows = pd.read_parquet(tmp_path / "results.parquet")
    assert sorted(set(rows.topology)) == sorted(topologies)
    # the multi-link topology is reported per group and per switch
    ml = rows[rows.topology == "multilink"]
    assert {"G1", "G2", "G3"} <= set(ml.part) and {"Switch1", "Switch2", "Switch3"} <= set(ml.part)
    for t in topologies:
        assert (tmp_path / "figures" / f"{t}-every-frame.png").exists()


def test_reproduce_list():
    p = cnsim("reproduce", "--list")
    assert p.returncode == 0 and "mliki2016-dumbbell" in p.stdout and "jiang2007-bcn" in p.stdout


def test_bench_runs():
    p = cnsim("bench", "--sources", "4", "--duration", "0.01", "--both", "--json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert [r["qcn"] for r in rows] == [False, True]
    assert all(r["delivered_frames"] > 0 and r["events"] > 0 for r in rows)


def test_bench_tcp_case():
    p = cnsim("bench", "--case", "tcp", "--sources", "4", "--duration", "0.002", "--json")
    assert p.returncode == 0, p.stderr
    (row,) = json.loads(p.stdout)
    assert row["case"] == "tcp" and row["sources"] == 4 and row["qcn"] is True
    assert row["delivered_frames"] > 1000 and row["events"] > 4 * row["delivered_frames"]  # data + ACK hops
    assert row["delivered_per_s"] > 0 and row["events_per_s"] > 0
    p = cnsim("bench", "--case", "tcp", "--sources", "2", "--duration", "0.001", "--no-qcn")
    assert p.returncode == 0 and p.stdout.split()[:3] == ["case", "sources", "qcn"] and "tcp" in p.stdout


def test_result_tables():
    import cnsim

    res = cnsim.run(ROOT / "scenarios/mliki2016/dumbbell-multicast.toml", set={"simulation.duration": "5.5s"},
                    figures=False, progress=False)
    assert list(res.table("rps").index) == ["S1", "S2", "S3", "S4", "S5", "S6"]
    q = res.table("queues")
    assert q.loc["Switch1>Switch2", "q_dev_from_qeq_frames"] == pytest.approx(q.loc["Switch1>Switch2", "q_mean_frames"] - 25)
    assert len(res.table()) == 1 and "feedback_rate_pct" in res.table().columns
