"""CLI manners on every command: -q silences everything but errors (sweep and results included),
-vv says more than -v, progress bars keep to one 80-column line with a percentage or ETA, a wrong
--grid key is refused before any run and named as --grid, a sweep that would not fit is refused
before anything is expanded, and scenario errors use the scenario's words."""

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cnsim import _args, api
from cnsim.sweep import count_runs
from cnsim.execution import RunProgress

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
SHORT = ["--set", "simulation.duration=10ms", "--set", "simulation.measure_from=5ms"]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "80"})


def test_quiet_sweep_prints_nothing(tmp_path):
    r = cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B,30000B", "--seeds", 1, "--jobs", 1, "-o", tmp_path / "s",
            "-q", *SHORT)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "" and r.stderr == ""
    assert (tmp_path / "s" / "sweep.parquet").exists()


def test_quiet_results_print_only_what_was_asked_for(tmp_path):
    assert cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B,30000B", "--seeds", 2, "--jobs", 1, "-o", tmp_path / "s",
               "-q", *SHORT).returncode == 0
    plot = cli("results", tmp_path / "s", "--plot", "q_mean_frames", "-o", tmp_path / "q.png", "-q")
    csv = cli("results", tmp_path / "s", "--csv", tmp_path / "t.csv", "-q")
    assert plot.returncode == csv.returncode == 0, plot.stderr + csv.stderr
    assert plot.stdout == plot.stderr == "" and csv.stderr == ""          # no "wrote …" under -q
    assert (tmp_path / "q.png").exists() and (tmp_path / "t.csv").exists()
    loud = cli("results", tmp_path / "s", "--csv", tmp_path / "u.csv")
    assert f"wrote {tmp_path / 'u.csv'}" in loud.stderr


def test_very_verbose_says_more_than_verbose(tmp_path):
    v = cli("run", SCENARIO, "-v", *SHORT, "-o", tmp_path / "a")
    vv = cli("run", SCENARIO, "-vv", *SHORT, "-o", tmp_path / "b")
    assert v.returncode == vv.returncode == 0
    assert "events/s" in v.stderr and "overrides" not in v.stderr
    assert "overrides simulation.duration=10ms" in vv.stderr and len(vv.stderr) > len(v.stderr)


def test_verbose_sweep_names_each_run(tmp_path):
    r = cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B", "--seeds", 2, "--jobs", 1, "-o", tmp_path / "s", "-v",
            *SHORT)
    assert r.returncode == 0 and r.stderr.count("done") >= 2


def _rendered(progress) -> str:
    from rich.console import Console

    console = Console(width=80, file=io.StringIO(), force_terminal=False)
    console.print(progress.get_renderable())
    return console.file.getvalue()


def test_the_sweep_bar_fits_eighty_columns():
    p = RunProgress("sweep a-scenario-with-a-very-long-name-indeed", 123456, show=True, slots=2)
    p.start()
    for _ in range(3):
        p.advance()
    p.advance(ok=False)
    text = _rendered(p._bar)
    p.stop()
    assert len(text.splitlines()) == 1 and max(map(len, text.splitlines())) <= 80
    assert "eta" in text and "4/123456" in text


def test_the_run_bar_has_a_percentage_and_an_eta_and_fits(monkeypatch):
    from rich import progress as rich_progress

    seen = {}

    class Spy(rich_progress.Progress):
        def update(self, *a, **kw):
            super().update(*a, **kw)
            seen["text"] = _rendered(self)

    monkeypatch.setattr(rich_progress, "Progress", Spy)
    from cnsim import _core

    sim = _core.Simulation(SCENARIO.read_text(), "a-scenario-with-a-very-long-name-indeed.toml",
                           [("simulation.duration", "10ms"), ("simulation.measure_from", "5ms")], None)
    api._drive_with_progress(sim, "a-scenario-with-a-very-long-name-indeed.toml")
    line = seen["text"].rstrip("\n")
    assert "\n" not in line and len(line) <= 80
    assert "100%" in line and "eta" in line


def test_a_misspelled_grid_key_is_refused_before_any_run(tmp_path):
    r = cli("sweep", SCENARIO, "--grid", "cp.qcn.qqeq=20000B,30000B", "--seeds", 1, "-o", tmp_path / "s", *SHORT)
    assert r.returncode == 2
    assert "--grid cp.qcn.qqeq" in r.stderr and "with --grid" in r.stderr and "with --set" not in r.stderr
    assert not (tmp_path / "s").exists()


def test_a_bad_grid_value_is_named_as_a_grid_value(tmp_path):
    r = cli("sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B,-5B", "--seeds", 1, "--jobs", 1, "-o", tmp_path / "s",
            *SHORT)
    assert r.returncode == 1 and "with --grid" in r.stderr + r.stdout and "with --set" not in r.stderr + r.stdout


@pytest.mark.parametrize("args", [["--seeds", 1_000_000_000],
                                  ["--grid", "cp.qcn.qeq=1..200 step 1 frames", "--grid", "cp.qcn.w=1..200 step 1",
                                   "--seeds", 1000]])
def test_a_sweep_too_large_is_refused_at_once(tmp_path, args):
    t0 = time.monotonic()
    r = cli("sweep", SCENARIO, *args, "-o", tmp_path / "s", *SHORT)
    assert r.returncode == 2 and str(_args.MAX_RUNS) in r.stderr
    assert time.monotonic() - t0 < 30 and not (tmp_path / "s").exists()


def test_count_runs_refuses_before_expanding():
    with pytest.raises(ValueError, match="40000000 runs"):
        count_runs([list(range(200)), list(range(200))], 1, 1000)
    assert count_runs([[1, 2], [3, 4, 5]], 2, 3) == 36


def test_scenario_errors_name_tables_not_rust_types(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(SCENARIO.read_text().replace("[cp.qcn]\n", "[cp]\nqcn = true\n"))
    r = cli("check", bad)
    assert r.returncode == 2 and "expected a table" in r.stderr and "QcnCpSpec" not in r.stderr
