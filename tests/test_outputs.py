"""Atomic writing of a run directory (`cnsim.outputs.write_run`) with a fake result."""

import json
from types import SimpleNamespace

import pandas as pd
import pyarrow.parquet as pq
import pytest

from cnsim.outputs import write_run


def fake_result(marker="new"):
    frame = pd.DataFrame(
        {
            "name": pd.Categorical(["rp.S1.cr", "rp.S1.cr", "q.SW1>SW2"]),
            "t": [0.0, 0.1, 0.0],
            "value": [1e9, 9e8, 3.0],
        }
    )
    return SimpleNamespace(
        summary={"global": {"marker": marker}},
        stats={"events": 3},
        series_frame=frame,
        scenario_toml=f"# {marker}\n",
    )


class Boom(Exception):
    pass


class FailingResult:
    """Fails while the series are being written, after summary.json was."""

    summary = {"global": {"marker": "failed"}}
    stats = {}
    scenario_toml = "# failed\n"

    @property
    def series_frame(self):
        raise Boom


def siblings(path):
    return sorted(p.name for p in path.parent.iterdir())


def test_writes_every_file(tmp_path):
    out = write_run(fake_result(), tmp_path / "run", figures=False)
    assert out == tmp_path / "run"
    files = sorted(p.name for p in out.iterdir())
    assert files == ["scenario.toml", "series.parquet", "summary.json"]
    doc = json.loads((out / "summary.json").read_text())
    assert doc == {"summary": {"global": {"marker": "new"}}, "stats": {"events": 3}}
    frame = pq.read_table(out / "series.parquet").to_pandas()
    assert list(frame.columns) == ["name", "t", "value"]
    assert list(frame["name"].astype(str)) == ["rp.S1.cr", "rp.S1.cr", "q.SW1>SW2"]
    assert (out / "scenario.toml").read_text() == "# new\n"
    assert siblings(out) == ["run"]


def test_creates_missing_parents(tmp_path):
    out = write_run(fake_result(), tmp_path / "a" / "b" / "run", figures=False)
    assert (out / "summary.json").is_file()


def test_existing_run_is_replaced_whole(tmp_path):
    target = tmp_path / "run"
    write_run(fake_result("old"), target, figures=False)
    (target / "stale.txt").write_text("from the old run")
    write_run(fake_result("new"), target, figures=False)
    assert not (target / "stale.txt").exists()
    assert (target / "scenario.toml").read_text() == "# new\n"
    assert siblings(target) == ["run"]


def test_failure_leaves_the_old_directory_intact(tmp_path):
    target = tmp_path / "run"
    write_run(fake_result("old"), target, figures=False)
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    with pytest.raises(Boom):
        write_run(FailingResult(), target, figures=False)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    assert siblings(target) == ["run"]


def test_failure_without_old_directory_leaves_nothing(tmp_path):
    with pytest.raises(Boom):
        write_run(FailingResult(), tmp_path / "run", figures=False)
    assert list(tmp_path.iterdir()) == []


def test_refuses_to_replace_a_foreign_directory(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        write_run(fake_result(), tmp_path, figures=False)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_refuses_to_replace_a_file(tmp_path):
    (tmp_path / "run").write_text("mine")
    with pytest.raises(FileExistsError):
        write_run(fake_result(), tmp_path / "run", figures=False)
    assert (tmp_path / "run").read_text() == "mine"


def test_empty_directory_is_replaced(tmp_path):
    (tmp_path / "run").mkdir()
    write_run(fake_result(), tmp_path / "run", figures=False)
    assert (tmp_path / "run" / "summary.json").is_file()
