"""Results you can query: a sweep of 2 parameters × 3 seeds, queried,
aggregated and plotted with `cnsim results` and with `cnsim.query` / `Result.load` / pandas; grid
ranges, zipped keys and quoting; one dtype per sweep column from the CLI and the API."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cnsim
from cnsim import query
from cnsim.grid import expand, parse

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
SHORT = ["simulation.duration=10ms", "simulation.measure_from=5ms"]


def cli(*args, check=True):
    r = subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], capture_output=True, text=True)
    if check:
        assert r.returncode == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The same 2 × 2 grid × 3 seeds swept from the CLI (a range and a list) and from the API."""
    base = tmp_path_factory.mktemp("sweeps")
    sets = [a for s in SHORT for a in ("--set", s)]
    cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=25..50 step 25 frames", "--grid", "cp.qcn.w=1,2",
        "--seeds", 3, "--jobs", 1, "-o", base / "cli", *sets)
    api = cnsim.sweep(SCENARIO, {"cp.qcn.qeq": ["25 frames", "50 frames"], "cp.qcn.w": [1, 2]}, seeds=3, jobs=1,
                      out=base / "api", set=SHORT, progress=False)
    return base, api


def test_sweep_columns_have_one_dtype_from_cli_and_api(swept):
    base, api = swept
    from_cli = pd.read_parquet(base / "cli" / "sweep.parquet")
    from_api = pd.read_parquet(base / "api" / "sweep.parquet")
    assert list(from_cli.columns) == list(from_api.columns)
    assert (from_cli.dtypes == from_api.dtypes).all()
    assert from_cli["cp.qcn.w"].tolist() == from_api["cp.qcn.w"].tolist() == ["1"] * 3 + ["2"] * 3 + ["1"] * 3 + ["2"] * 3
    assert from_cli["cp.qcn.qeq [frames]"].dtype == np.float64
    assert from_cli["cp.qcn.qeq [frames]"].tolist() == [25.0] * 6 + [50.0] * 6
    assert from_api["cp.qcn.w [1]"].tolist() == [1.0] * 3 + [2.0] * 3 + [1.0] * 3 + [2.0] * 3
    metrics = [c for c in query.metric_columns(from_cli) if c != "first_cnm_s"]
    assert np.allclose(from_cli[metrics].to_numpy(float), from_api[metrics].to_numpy(float), equal_nan=True)
    assert len(api) == 12


def test_cnsim_results_lists_filters_aggregates_exports_and_plots(swept, tmp_path):
    base, _ = swept
    out = cli("results", base / "cli").stdout
    assert len(out.strip().splitlines()) == 1 + 12 and "feedback_rate_pct" in out
    agg = cli("results", base / "cli", "--agg", "--metrics", "feedback_rate_pct,cr_std_mbps",
              "--csv", tmp_path / "agg.csv").stderr
    assert "wrote" in agg
    table = pd.read_csv(tmp_path / "agg.csv")
    assert list(table.columns) == ["cp.qcn.qeq", "cp.qcn.w", "n", "feedback_rate_pct_mean", "feedback_rate_pct_ci95",
                                   "cr_std_mbps_mean", "cr_std_mbps_ci95"]
    assert table["n"].tolist() == [3, 3, 3, 3]
    runs = pd.read_parquet(base / "cli" / "sweep.parquet")
    first = runs[(runs["cp.qcn.qeq"] == "25 frames") & (runs["cp.qcn.w"] == "1")]["feedback_rate_pct"]
    assert table["feedback_rate_pct_mean"][0] == pytest.approx(first.mean())
    assert table["feedback_rate_pct_ci95"][0] == pytest.approx(4.302653 * first.std() / np.sqrt(3), rel=1e-5)
    cli("results", base / "cli", "--where", "`cp.qcn.qeq [frames]` > 30 and seed == 1", "--parquet", tmp_path / "w.parquet")
    kept = pd.read_parquet(tmp_path / "w.parquet")
    assert len(kept) == 2 and set(kept["cp.qcn.qeq"]) == {"50 frames"}
    r = cli("results", base / "cli", "--plot", "feedback_rate_pct", "--x", "cp.qcn.qeq", "--hue", "cp.qcn.w",
            "-o", tmp_path / "fb.png")
    assert (tmp_path / "fb.png").stat().st_size > 5000 and "wrote" in r.stdout
    bad = cli("results", base / "cli", "--where", "nonsense ==", check=False)
    assert bad.returncode == 2 and "--where" in bad.stderr


def test_query_api_and_pandas(swept, tmp_path):
    base, _ = swept
    both = query.load([base])  # a folder holding the two sweeps
    assert len(both) == 24 and both["source"].nunique() == 2
    df = query.load(base / "api")
    agg = query.aggregate(df, ["cp.qcn.qeq [frames]"], ["loss_rate_pct"])
    assert agg["n"].tolist() == [6, 6]
    fig = query.plot(df, "cr_std_mbps", x="cp.qcn.qeq", hue="cp.qcn.w", path=tmp_path / "p.png")
    assert len(fig.axes[0].lines) >= 2 and (tmp_path / "p.png").exists()


def test_result_load_reopens_a_run_directory(tmp_path):
    r = cnsim.run(SCENARIO, set=SHORT, out=tmp_path / "run", figures=False, trace="all")
    back = cnsim.Result.load(tmp_path / "run")
    assert back.summary == r.summary and back.stats == r.stats
    assert back.names() == r.names()
    for name in r.names()[:3]:
        pd.testing.assert_series_equal(back.series(name), r.series(name))
    pd.testing.assert_frame_equal(back.trace, r.trace, check_categorical=False)
    assert back.cr_figure() is not None and back.queue_figure() is not None
    rows = query.load(tmp_path / "run")
    assert len(rows) == 1 and rows["feedback_rate_pct"][0] == r.summary["global"]["feedback_rate_pct"]
    with pytest.raises(FileNotFoundError, match="not a cnsim run directory"):
        cnsim.Result.load(tmp_path)


def test_grid_ranges_zip_and_quoting():
    assert expand("16..64 step 16 frames") == ["16 frames", "32 frames", "48 frames", "64 frames"]
    assert expand("1us..3us step 1us") == ["1 us", "2 us", "3 us"]
    assert expand("0.1..0.3 step 0.1") == ["0.1", "0.2", "0.3"]
    assert expand("'a,b',c,[1, 2]") == ["a,b", "c", "[1, 2]"]
    with pytest.raises(ValueError, match="step must be > 0"):
        expand("1..3 step 0")
    with pytest.raises(ValueError, match="one unit"):
        expand("1us..3ms step 1us")
    with pytest.raises(ValueError, match=r"--grid 'x': expected KEY="):
        parse(["x"], "--grid")
    r = cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=50..10 step 10 frames", check=False)
    assert r.returncode == 2 and "--grid" in r.stderr and "STOP is below START" in r.stderr


def test_zipped_keys_vary_together(tmp_path):
    df = cnsim.sweep(SCENARIO, {"cp.qcn.w": [2]}, zip={"cp.qcn.qeq": ["25 frames", "50 frames"],
                                                       "cp.qcn.sample_base": ["150000B", "75000B"]},
                     seeds=1, jobs=1, set=SHORT, progress=False)
    assert list(zip(df["cp.qcn.qeq"], df["cp.qcn.sample_base"])) == [("25 frames", "150000B"), ("50 frames", "75000B")]
    with pytest.raises(ValueError, match="same number of values"):
        cnsim.sweep(SCENARIO, {}, zip={"cp.qcn.qeq": ["25 frames"], "cp.qcn.w": [1, 2]}, seeds=1, jobs=1, set=SHORT)


def test_sweep_keeps_tables_by_default_and_series_on_request(tmp_path, swept):
    base, _ = swept
    from cnsim.sweep import run_files

    files = run_files(base / "cli")  # the CLI sweep kept its tables (the default)
    assert set(files["file"]) == {"flows", "queues", "rps"} and len(files) == 12 * 3
    cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=25 frames", "--seeds", 1, "--jobs", 1, "--keep", "tables",
        "--keep", "series", "-o", tmp_path / "s", *[a for s in SHORT for a in ("--set", s)])
    kept = run_files(tmp_path / "s")
    assert set(kept["file"]) == {"flows", "queues", "rps", "series"}
    series = pd.read_parquet(kept[kept["file"] == "series"]["path"].iloc[0])
    assert {"name", "t", "value"} <= set(series.columns) and len(series) > 100
    rps = pd.read_parquet(kept[kept["file"] == "rps"]["path"].iloc[0])
    assert len(rps) == 4 and "name" in rps.columns
    none = cnsim.sweep(SCENARIO, {"cp.qcn.qeq": ["25 frames"]}, seeds=1, jobs=1, out=tmp_path / "n", set=SHORT,
                       keep=(), progress=False)
    assert len(none) == 1 and run_files(tmp_path / "n").empty
