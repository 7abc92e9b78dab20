"""Local parameter sweeps: `cnsim.sweep` (rows, determinism across jobs, failing runs) and `cnsim sweep`."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import cnsim
from cnsim.metrics import DEFINITIONS

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios/mliki2016/dumbbell-multicast.toml"
SHORT = {"simulation.duration": "5.3s", "simulation.measure_from": "5s"}
GRID = {"cp.qcn.qeq": ["25 frames", "75 frames"]}


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    return cnsim.sweep(SCENARIO, GRID, seeds=2, jobs=1, progress=False, out=out, set=SHORT), out


def test_rows_and_columns(serial):
    df, out = serial
    assert len(df) == 2 * 2
    globals_ = [d["metric"] for d in DEFINITIONS if d["scope"] == "global"]
    # the grid key as text, then its numeric column with the unit in its name
    assert list(df.columns[:3]) == ["cp.qcn.qeq", "cp.qcn.qeq [frames]", "seed"]
    assert set(globals_) <= set(df.columns)
    assert list(df.columns[-6:]) == ["q_mean_frames", "q_std_frames", "q_dev_from_qeq_frames", "events", "stopped_by", "error"]
    # (grid order, seed) order
    order = [("25 frames", 1), ("25 frames", 2), ("75 frames", 1), ("75 frames", 2)]
    assert list(zip(df["cp.qcn.qeq"], df["seed"])) == order
    assert df["error"].isna().all() and (df["events"] > 0).all()
    assert df["feedback_rate_pct"].notna().all() and (df["main_cp"] == "Switch1>Switch2").all()
    # the grid value reached the engine: the mean queue follows Qeq
    q = df.groupby("cp.qcn.qeq", sort=False)["q_mean_frames"].mean()
    assert q["25 frames"] < q["75 frames"]
    # the parquet holds the same table
    stored = pd.read_parquet(out / "sweep.parquet")
    assert list(stored.columns) == list(df.columns) and len(stored) == len(df)
    assert stored["feedback_rate_pct"].tolist() == df["feedback_rate_pct"].tolist()
    assert not list(out.glob(".*tmp*"))


def test_same_seeds_same_frame_whatever_jobs(serial):
    df, _ = serial
    parallel = cnsim.sweep(str(SCENARIO), GRID, seeds=[1, 2], jobs=2, progress=False, set=SHORT)
    pd.testing.assert_frame_equal(df, parallel)


def test_failing_run_does_not_stop_the_sweep():
    df = cnsim.sweep(SCENARIO, {"cp.qcn.w": [2, -1, 5]}, seeds=1, jobs=2, progress=False, set=SHORT)
    assert df["cp.qcn.w"].tolist() == ["2", "-1", "5"]  # as text, as from the CLI
    assert df["cp.qcn.w [1]"].tolist() == [2.0, -1.0, 5.0]
    failed = df[df["error"].notna()]
    assert failed["cp.qcn.w"].tolist() == ["-1"]
    assert "cp.qcn.w" in failed["error"].iloc[0]
    assert failed["feedback_rate_pct"].isna().all() and failed["events"].isna().all()
    ok = df[df["error"].isna()]
    assert len(ok) == 2 and ok["feedback_rate_pct"].notna().all() and (ok["events"] > 0).all()
    assert ok["error"].map(lambda e: e is None).all()


def test_invalid_scenario_or_grid_fails_fast():
    with pytest.raises(cnsim.ScenarioError, match="durtion"):
        cnsim.sweep(SCENARIO, GRID, seeds=1, progress=False, set={"simulation.durtion": "1s"})
    with pytest.raises(ValueError, match="cp.qcn.qeq"):
        cnsim.sweep(SCENARIO, {"cp.qcn.qeq": "25 frames"}, seeds=1, progress=False)
    with pytest.raises(ValueError, match="seed"):
        cnsim.sweep(SCENARIO, GRID, seeds=0, progress=False)


def test_cli_writes_parquet(tmp_path):
    out = tmp_path / "sw"
    p = subprocess.run(
        [sys.executable, "-m", "cnsim", "sweep", "scenarios/mliki2016/dumbbell-multicast.toml",
         "--grid", "cp.qcn.qeq=25 frames,75 frames", "--set", "simulation.duration=5.3s",
         "--set", "simulation.measure_from=5s", "--seeds", "1", "--jobs", "2", "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(out / "sweep.parquet")
    assert df["cp.qcn.qeq"].tolist() == ["25 frames", "75 frames"] and df["error"].isna().all()
    assert "feedback_rate_pct" in p.stdout and "75 frames" in p.stdout and "sweep.parquet" in p.stdout


def test_cli_failed_runs_exit_1(tmp_path):
    p = subprocess.run(
        [sys.executable, "-m", "cnsim", "sweep", "scenarios/mliki2016/dumbbell-multicast.toml",
         "--grid", "cp.qcn.qeq=25 frames,-1 frames", "--set", "simulation.duration=5.2s",
         "--seeds", "1", "--jobs", "1", "-o", str(tmp_path / "sw")],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert p.returncode == 1, p.stderr
    assert "1 run(s) failed" in p.stdout
    df = pd.read_parquet(tmp_path / "sw" / "sweep.parquet")
    assert df["error"].notna().tolist() == [False, True]


@pytest.mark.parametrize("how", ["grid", "zip", "set"])
def test_a_seed_given_as_a_scenario_key_is_refused_not_silently_replaced(how):
    # Each run's seed comes from `seeds` and is written over simulation.seed: a grid over that key
    # would run the same runs again under other labels, a --set value would be ignored.
    kwargs = {"grid": GRID, "seeds": 1, "progress": False, "set": dict(SHORT)}
    if how == "grid":
        kwargs["grid"] = {**GRID, "simulation.seed": ["1", "2"]}
    elif how == "zip":
        kwargs["zip"] = {"simulation.seed": ["1", "2"]}
    else:
        kwargs["set"]["simulation.seed"] = "7"
    with pytest.raises(ValueError, match=r"simulation\.seed: a sweep gives each run its seed from --seeds"):
        cnsim.sweep(SCENARIO, **kwargs)


def test_the_cli_refuses_a_grid_over_the_seed_in_one_line(tmp_path):
    p = subprocess.run([sys.executable, "-m", "cnsim", "sweep", str(SCENARIO), "--grid", "simulation.seed=1,2",
                        "--seeds", "2", "-o", str(tmp_path / "sw")], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "use --seeds" in p.stderr, p.stderr
    assert not (tmp_path / "sw").exists()                  # refused before any run or store
