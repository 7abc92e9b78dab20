"""Outputs that are bounded and never lost: two cnsim runs writing one directory at the same time
(the second is refused), temporary siblings left by a killed run (removed by the next run of the
same directory), a figure that fails (the results are written all the same), figures of very many
entities or very long names (drawn in seconds, capped), lines of millions of samples (drawn thinned,
with their extremes), and a sweep's kept tables after a failed
write (no empty folder in the store)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import cnsim
import scenario_factory
from cnsim import figures, outputs
from cnsim.sweep import Store
from scenario_factory import hosts

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
SHORT = {"simulation.duration": "10ms", "simulation.measure_from": "5ms"}


def many_flows(n: int, long_name: int = 0) -> str:
    """A star: n hosts each sending one CBR flow to D (and one flow with a very long name)."""
    extra = (f'\n[[flow]]\nname = "F{"x" * long_name}"\nfrom = "H1"\nto = "D"\n'
             'traffic = { kind = "cbr", rate = "1Mbps" }\n') if long_name else ""
    return scenario_factory.star(hosts(n), duration="2ms", measure_from="1ms", record_interval=None, delay="1us",
                                 capacity=None, traffic='{ kind = "cbr", rate = "1Mbps" }', extra=extra)


def test_a_second_run_into_the_same_directory_is_refused_while_the_first_writes(tmp_path):
    out = tmp_path / "same"
    cmd = [sys.executable, "-m", "cnsim", "run", str(SCENARIO), "-o", str(out), "--no-figures", "-q",
           "--set", "simulation.duration=30s", "--set", "simulation.measure_from=29s"]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not (out / outputs.LOCK).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    second = subprocess.run(cmd, capture_output=True, text=True)
    first.communicate(timeout=120)
    assert first.returncode == 0
    assert second.returncode == 2 and "being written by another cnsim run" in second.stderr
    assert (out / "summary.json").exists() and not (out / outputs.LOCK).exists()


def test_stale_temporary_siblings_of_a_killed_run_are_removed_by_the_next_run(tmp_path):
    out = tmp_path / "run"
    cnsim.run(SCENARIO, set=SHORT, out=out, figures=False)
    stale = outputs._sibling(out, "tmp")
    stale.mkdir()
    (stale / "series.parquet").write_bytes(b"x" * 1000)   # what a SIGKILLed writer leaves
    mine = tmp_path / ".run.notes.tmp"                     # not a name cnsim makes: kept
    mine.mkdir()
    cnsim.run(SCENARIO, set=SHORT, out=out, figures=False)
    assert not stale.exists() and mine.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".run.notes.tmp", "run"])


def test_a_refused_location_leaves_nothing_behind(tmp_path):
    out = tmp_path / "foreign"
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    with pytest.raises(FileExistsError):
        cnsim.run(SCENARIO, set=SHORT, out=out)
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]


def test_a_failing_figure_never_loses_the_results(tmp_path, monkeypatch):
    def broken(*a, **kw):
        raise RuntimeError("no room for this label")

    monkeypatch.setattr(outputs, "draw_run_figures", broken)
    with pytest.warns(UserWarning, match="figures not drawn"):
        cnsim.run(SCENARIO, set=SHORT, out=tmp_path / "o")
    assert (tmp_path / "o" / "summary.json").exists() and (tmp_path / "o" / "series.parquet").exists()


def test_figures_of_many_entities_are_capped_and_fast(tmp_path):
    result = cnsim.run(many_flows(20000))
    t0 = time.monotonic()
    paths = result.draw_figures(tmp_path / "figs")
    assert time.monotonic() - t0 < 5
    names, total = result.busiest("rx_bps.", figures.MAX_LINES)
    assert total == 20000 and len(names) == figures.MAX_LINES
    fig = figures.throughput_figure(result)
    assert len(fig.axes[0].get_lines()) - 1 == figures.MAX_LINES   # minus the window marker
    assert "12 of 20000" in fig.axes[0].get_title() and paths


def test_a_long_line_is_drawn_thinned_with_every_run_s_extremes():
    rng = np.random.default_rng(7)
    n = 10 * figures.MAX_POINTS + 3  # not a multiple of the runs: the last one is short
    t, v = np.arange(n) * 1e-6, rng.normal(size=n)
    v[12_345], v[n - 1] = 50.0, -50.0  # a spike, and a trough as the very last sample
    tt, vv = figures.envelope(t, v)
    assert len(tt) <= figures.MAX_POINTS and np.all(np.diff(tt) > 0)
    assert vv.max() == 50.0 and vv.min() == -50.0 and tt[-1] == t[-1]
    runs = figures.MAX_POINTS // 2
    size = -(-n // runs)
    for r in (0, 7, runs // 2):  # a run's lowest and highest sample are both kept, at their times
        run = slice(r * size, (r + 1) * size)
        for x in (v[run].min(), v[run].max()):
            assert x in vv and tt[list(vv).index(x)] == t[run][list(v[run]).index(x)]
    short_t, short_v = figures.envelope(t[:100], v[:100])
    assert np.array_equal(short_t, t[:100]) and np.array_equal(short_v, v[:100])


def test_a_very_long_flow_name_keeps_the_run_and_its_figures(tmp_path):
    result = cnsim.run(many_flows(3, long_name=1_000_000), out=tmp_path / "o")
    assert (tmp_path / "o" / "summary.json").exists() and (tmp_path / "o" / "figures" / "throughput.png").exists()
    labels = [t.get_text() for t in figures.throughput_figure(result).axes[0].get_legend().get_texts()]
    assert max(map(len, labels)) <= figures.MAX_LABEL


def test_a_failed_write_of_kept_tables_leaves_no_folder_in_the_store(tmp_path, monkeypatch):
    import pandas as pd

    store = Store(tmp_path)

    def full_disk(*a, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", full_disk)
    with pytest.raises(OSError):
        store.keep_files("abc", {"flows": pd.DataFrame({"x": [1]})})
    assert not (tmp_path / "runs" / "abc").exists()
    assert [p.name for p in (tmp_path / "runs").iterdir()] == []


def test_busiest_finds_a_family_as_a_search_of_every_name_does():
    """`busiest` looks a family ("q_frames.") up in an index made once; any other prefix is searched for."""
    from cnsim import run

    result = run("scenarios/roeck2007/no-hotspot.toml", set={"simulation.duration": "2ms"}, figures=False)
    names = result.names()
    assert sum(n.startswith("q_frames.") for n in names) > 10 and sum(n.startswith("rp_cr_bps.") for n in names) > 10
    for prefix in ("q_frames.", "rp_cr_bps.", "no_such.", "", "q_", "q_frames.SW"):
        got, total = result.busiest(prefix, 3)
        matching = [n for n in names if n.startswith(prefix)]
        assert total == len(matching)
        assert len(got) == min(3, total) and set(got) <= set(matching)
    assert result.busiest("q_frames.", 10**6)[0] == sorted(n for n in names if n.startswith("q_frames."))
