"""Sweeps beyond one machine: the resumable result store, `--status`, Dask, and the run guards
from the command line."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import cnsim
from cnsim.sweep import status

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios/mliki2016/dumbbell-multicast.toml"
SHORT = {"simulation.duration": "5.3s", "simulation.measure_from": "5s"}
SHORT_SETS = ["--set", "simulation.duration=5.3s", "--set", "simulation.measure_from=5s"]
GRID = {"cp.qcn.qeq": ["25 frames", "75 frames", "-1 frames"]}  # the last one fails
TIMING = ("wall", "elapsed", "finished_at")  # columns that may differ between identical runs


def cnsim_cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, **kw)


def untimed(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns=[c for c in df.columns if any(t in c for t in TIMING)])


def files(out: Path) -> dict[str, tuple[int, int]]:
    """{run file name: (inode, mtime_ns)} of the store."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (out / "runs").glob("*.json")}


# --- Dask -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


def test_dask_gives_the_local_pools_table(dask_client, tmp_path):
    local = cnsim.sweep(SCENARIO, GRID, seeds=2, jobs=2, progress=False, set=SHORT, out=tmp_path / "local")
    on_dask = cnsim.sweep(SCENARIO, GRID, seeds=2, progress=False, set=SHORT, client=dask_client,
                          out=tmp_path / "dask")
    pd.testing.assert_frame_equal(untimed(local), untimed(on_dask))
    assert on_dask["error"].notna().tolist() == [False, False, False, False, True, True]
    assert (on_dask["events"].dropna() > 0).all()
    # same runs, same store keys
    assert files(tmp_path / "local").keys() == files(tmp_path / "dask").keys()

    # the command line, through the scheduler's address
    p = cnsim_cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=25 frames,75 frames,-1 frames", *SHORT_SETS,
                  "--seeds", 2, "--dask", dask_client.scheduler.address, "-o", tmp_path / "cli")
    assert p.returncode == 1, p.stderr  # the -1 frames runs failed
    cli = pd.read_parquet(tmp_path / "cli" / "sweep.parquet")
    pd.testing.assert_frame_equal(untimed(cli), untimed(pd.read_parquet(tmp_path / "local" / "sweep.parquet")))


def test_dask_missing_is_a_clear_error(monkeypatch):
    from cnsim.execution import import_distributed

    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(ImportError, match=r"pip install -e '\.\[dask\]'"):
        import_distributed()


# --- the store: resuming, --status, --retry-failed -----------------------------------------------


def test_resume_after_kill_runs_only_the_missing_runs(tmp_path):
    out = tmp_path / "sw"
    args = ["sweep", SCENARIO, "--grid", "cp.qcn.qeq=25 frames,50 frames,75 frames", *SHORT_SETS,
            "--seeds", 8, "-o", out]
    proc = subprocess.Popen([sys.executable, "-m", "cnsim", *map(str, args), "--jobs", "1"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while len(list((out / "runs").glob("*.json"))) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, "the sweep finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    before = files(out)
    counts = status(out)
    assert counts["total"] == 24 and counts["done"] == len(before) >= 3 and counts["missing"] == 24 - len(before)
    assert not (out / "sweep.parquet").exists()
    p = cnsim_cli("sweep", "--status", out)
    assert p.returncode == 0 and f"missing: {24 - len(before)}" in p.stdout

    p = cnsim_cli(*args, "--jobs", 2)
    assert p.returncode == 0, p.stderr
    assert f"{len(before)} run(s) already in the store, {24 - len(before)} run now" in p.stdout
    after = files(out)
    assert len(after) == 24  # every run exactly once …
    assert {k: after[k] for k in before} == before  # … and those finished before the kill not re-run
    pids = {json.loads((out / "runs" / k).read_text())["pid"] for k in before}
    assert pids == {proc.pid}
    df = pd.read_parquet(out / "sweep.parquet")
    assert len(df) == 24 and not df.duplicated(["cp.qcn.qeq", "seed"]).any()
    assert list(zip(df["cp.qcn.qeq"], df["seed"])) == [(q, s) for q in ("25 frames", "50 frames", "75 frames")
                                                   for s in range(1, 9)]
    assert df["error"].isna().all() and (df["events"] > 0).all()
    assert status(out) == {"total": 24, "done": 24, "stopped": 0, "failed": 0, "missing": 0}


def test_status_counts_and_retry_failed(tmp_path):
    out = tmp_path / "sw"
    grid = {"cp.qcn.w": [2, -1, 5]}
    first = cnsim.sweep(SCENARIO, grid, seeds=2, jobs=1, progress=False, set=SHORT, out=out)
    assert status(out) == {"total": 6, "done": 4, "stopped": 0, "failed": 2, "missing": 0}
    records = [json.loads(p.read_text()) for p in (out / "runs").glob("*.json")]
    failed = [r for r in records if r["status"] == "failed"]
    assert len(failed) == 2 and all("cp.qcn.w" in r["error"] and r["row"]["error"] == r["error"] for r in failed)
    assert sorted(r["point"]["cp.qcn.w"] for r in failed) == ["-1", "-1"]

    ok_file = next(p for p in (out / "runs").glob("*.json") if json.loads(p.read_text())["status"] == "ok")
    ok_file.unlink()
    p = cnsim_cli("sweep", "--status", out)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["done: 3", "failed: 2", "missing: 1", "total: 6"]

    # re-running: only the missing run; failed runs are kept unless --retry-failed
    before = files(out)
    again = cnsim.sweep(SCENARIO, grid, seeds=2, jobs=1, progress=False, set=SHORT, out=out)
    pd.testing.assert_frame_equal(first, again)
    after = files(out)
    assert {k: after[k] for k in before} == before and len(after) == 6
    cnsim.sweep(SCENARIO, grid, seeds=2, jobs=1, progress=False, set=SHORT, out=out, retry_failed=True)
    retried = files(out)
    changed = {k for k in retried if retried[k] != after[k]}
    assert changed == {r["key"] + ".json" for r in failed}

    p = cnsim_cli("sweep", "--status", tmp_path)
    assert p.returncode == 2 and "no sweep" in p.stderr


# --- guards from the command line ---------------------------------------------------------------


def test_run_guard_from_the_cli(tmp_path):
    p = cnsim_cli("run", SCENARIO, "--max-events", 1000, "--no-figures", "-o", tmp_path / "r")
    assert p.returncode == 0, p.stderr
    assert "stopped early: max_events" in p.stdout
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["stats"]["stopped_by"].startswith("max_events") and summary["stats"]["events"] == 1000
    assert (tmp_path / "r" / "series.parquet").exists() and (tmp_path / "r" / "scenario.toml").exists()
    assert "max_events = 1000" in (tmp_path / "r" / "scenario.toml").read_text()

    p = cnsim_cli("run", SCENARIO, "--max-series-mb", 0.2, "--max-wall", 600, "--no-figures", "-q",
                  "-o", tmp_path / "m")
    assert p.returncode == 0, p.stderr
    assert "stopped early: max_series_memory" in p.stderr


def test_sweep_guard_stopped_runs_count_as_done(tmp_path):
    out = tmp_path / "sw"
    p = cnsim_cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=25 frames,75 frames", "--seeds", 1, "--jobs", 1,
                  "--max-events", 100000, "-o", out)
    assert p.returncode == 0, p.stderr
    assert "2 run(s) stopped early: max_events" in p.stdout
    df = pd.read_parquet(out / "sweep.parquet")
    assert df["stopped_by"].str.startswith("max_events").all() and df["error"].isna().all()
    assert (df["events"] == 100000).all()
    assert status(out) == {"total": 2, "done": 2, "stopped": 2, "failed": 0, "missing": 0}
