"""`cnsim results` on a sweep or reproduction that did not finish (interrupted, or still running)
shows the finished runs and says how many are missing; rows of sweeps, runs and reproductions
read together all name their scenario."""

import json
from pathlib import Path

import pytest

from cnsim import query
from cnsim.reproduce import registry, runs
from test_cli_manners import cli

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
SHORT = ["--set", "simulation.duration=10ms", "--set", "simulation.measure_from=5ms"]


def interrupt(out: Path, drop_runs: int, tables=("sweep.parquet", "results.parquet", "verdicts.json", "report.md",
                                                  "summary.json")) -> None:
    """Make `out` look as a killed sweep or reproduction leaves it: no tables, some runs unfinished."""
    for name in tables:
        (out / name).unlink(missing_ok=True)
    stored = sorted((out / "runs").glob("*.json"))
    for path in stored[:drop_runs]:
        path.unlink()


def test_an_interrupted_sweep_shows_its_finished_runs(tmp_path):
    out = tmp_path / "s"
    assert cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B,30000B", "--seeds", 2, "--jobs", 1, "-o", out, "-q",
               *SHORT).returncode == 0
    full = query.load(out)
    interrupt(out, drop_runs=1)
    with pytest.warns(UserWarning, match=r"unfinished \(3 of 4 runs finished, 1 missing\)"):
        part = query.load(out)
    assert len(part) == 3 and set(part.seed) <= {1, 2}
    key = "q_mean_frames"
    merged = part.merge(full, on=["cp.qcn.qeq", "seed"], suffixes=("", "_full"))
    assert list(merged[key]) == list(merged[key + "_full"])          # the same values as the finished sweep
    r = cli("results", out)
    assert r.returncode == 0 and "3 of 4 runs finished" in r.stderr


def test_an_interrupted_reproduction_shows_its_finished_runs(tmp_path, monkeypatch):
    from test_reproduce_framework import TinyPaper

    paper = TinyPaper()
    monkeypatch.setattr(registry, "experiment", lambda name: paper)   # in-process runs (jobs=1) find it
    out = tmp_path / "tiny"
    runs.reproduce(paper, out, seeds=2, jobs=1, progress=False)
    whole = query.load(out)
    interrupt(out, drop_runs=2)
    with pytest.warns(UserWarning, match=r"2 of 4 runs finished, 2 missing"):
        part = query.load(out)
    assert len(part) == 2 and "q_mean_frames" in part.columns and part["q_mean_frames"].notna().all()
    assert set(part["q_mean_frames"]) <= set(whole["q_mean_frames"])


def test_sweep_rows_name_their_scenario_beside_a_runs(tmp_path):
    assert cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B", "--seeds", 1, "--jobs", 1, "-o", tmp_path / "s",
               "-q", *SHORT).returncode == 0
    assert cli("run", SCENARIO, *SHORT, "-o", tmp_path / "r", "-q", "--no-figures").returncode == 0
    df = query.load(tmp_path)
    assert df["scenario"].notna().all() and len(df) == 2
    assert json.loads((tmp_path / "s" / "sweep.json").read_text())["scenario"] in set(df["scenario"])


def test_an_interval_of_zero_over_seeds_is_explained(tmp_path):
    out = tmp_path / "s"
    assert cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B", "--seeds", 3, "--jobs", 1, "-o", out, "-q",
               *SHORT).returncode == 0
    table = query.aggregate(query.load(out), ["cp.qcn.qeq"])
    zero = [c.removesuffix("_ci95") for c in table.columns if c.endswith("_ci95") and (table[c] == 0).any()]
    moving = [c.removesuffix("_ci95") for c in table.columns if c.endswith("_ci95") and (table[c] > 0).all()]
    assert zero and moving             # this short run: no drop in any seed, yet a feedback rate that moves
    r = cli("results", out, "--agg")
    note = next(line for line in r.stderr.splitlines() if "a 95 % interval of 0 means" in line)
    assert all(m in note for m in zero) and not any(f" {m}," in note or f" {m}:" in note for m in moving)
