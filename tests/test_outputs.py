"""Atomic writing of a run directory (`cnsim.outputs.write_run`) with a fake result."""

import hashlib
import json
import os
from types import SimpleNamespace

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cnsim.outputs import write_run


def fake_result(marker="new"):
    frame = pd.DataFrame(
        {
            "name": pd.Categorical(["rp_cr_bps.S1", "rp_cr_bps.S1", "q_frames.SW1>SW2"]),
            "t": [0.0, 0.1, 0.0],
            "value": [1e9, 9e8, 3.0],
        }
    )
    return SimpleNamespace(
        summary={"global": {"marker": marker}},
        stats={"events": 3},
        series_frame=frame,
        series_table=lambda: pa.Table.from_pandas(frame, preserve_index=False),
        scenario_toml=f"# {marker}\n",
    )


class Boom(Exception):
    pass


class FailingResult:
    """Fails while the series are being written, after summary.json was."""

    summary = {"global": {"marker": "failed"}}
    stats = {}
    scenario_toml = "# failed\n"

    def series_table(self):
        raise Boom


def siblings(path):
    return sorted(p.name for p in path.parent.iterdir())


def test_writes_every_file(tmp_path):
    out = write_run(fake_result(), tmp_path / "run", figures=False)
    assert out == tmp_path / "run"
    files = sorted(p.name for p in out.iterdir())
    assert files == [".cnsim-run.json", "scenario.toml", "series.parquet", "summary.json"]
    manifest = json.loads((out / ".cnsim-run.json").read_text())
    assert sorted(manifest["files"]) == ["scenario.toml", "series.parquet", "summary.json"]
    doc = json.loads((out / "summary.json").read_text())
    assert doc == {"summary": {"global": {"marker": "new"}}, "stats": {"events": 3}}
    frame = pq.read_table(out / "series.parquet").to_pandas()
    assert list(frame.columns) == ["name", "t", "value"]
    assert list(frame["name"].astype(str)) == ["rp_cr_bps.S1", "rp_cr_bps.S1", "q_frames.SW1>SW2"]
    assert (out / "scenario.toml").read_text() == "# new\n"
    assert siblings(out) == ["run"]


def test_creates_missing_parents(tmp_path):
    out = write_run(fake_result(), tmp_path / "a" / "b" / "run", figures=False)
    assert (out / "summary.json").is_file()


def test_existing_run_is_replaced_whole(tmp_path):
    target = tmp_path / "run"
    write_run(fake_result("old"), target, figures=False)
    # a file of the old run that the new one does not write goes (it is listed in the manifest)
    (target / "stale.txt").write_text("from the old run")
    manifest = json.loads((target / ".cnsim-run.json").read_text())
    manifest["files"]["stale.txt"] = hashlib.sha256(b"from the old run").hexdigest()
    (target / ".cnsim-run.json").write_text(json.dumps(manifest))
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


# --- never lose a file cnsim did not write ----------------------------------------------------


def tree(path):
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_run_output_keeps_user_files(tmp_path):
    target = tmp_path / "run"
    write_run(fake_result("old"), target, figures=False)
    (target / "notes.txt").write_text("mine")  # a user's file added to a run directory
    before = tree(target)
    with pytest.raises(FileExistsError, match="notes.txt.*--force"):
        write_run(fake_result("new"), target, figures=False)
    assert tree(target) == before
    # a changed cnsim file is the user's too
    write_run(fake_result("x"), tmp_path / "run2", figures=False)
    (tmp_path / "run2" / "summary.json").write_text("{}")
    with pytest.raises(FileExistsError, match="summary.json"):
        write_run(fake_result("new"), tmp_path / "run2", figures=False)
    assert (tmp_path / "run2" / "summary.json").read_text() == "{}"


def test_reproduce_or_old_output_is_not_a_run_directory(tmp_path):
    (tmp_path / "summary.json").write_text('{"experiment": "x"}')  # e.g. a `cnsim reproduce` output
    (tmp_path / "report.md").write_text("report")
    before = tree(tmp_path)
    with pytest.raises(FileExistsError):
        write_run(fake_result(), tmp_path, figures=False)
    with pytest.raises(FileExistsError, match="summary.json.*not overwr"):  # --force never overwrites it
        write_run(fake_result(), tmp_path, figures=False, force=True)
    assert tree(tmp_path) == before


def test_force_keeps_every_other_file(tmp_path):
    target = tmp_path / "run"
    write_run(fake_result("old"), target, figures=False)
    (target / "notes.txt").write_text("mine")
    (target / "sub").mkdir()
    (target / "sub" / "data.bin").write_bytes(os.urandom(64))
    users = {k: v for k, v in tree(target).items() if k in ("notes.txt", "sub/data.bin")}
    for marker in ("new", "newer"):  # again and again: --force is needed each time, files stay
        write_run(fake_result(marker), target, figures=False, force=True)
        after = tree(target)
        assert {k: after[k] for k in users} == users
        assert (target / "scenario.toml").read_text() == f"# {marker}\n"
        manifest = json.loads((target / ".cnsim-run.json").read_text())
        assert sorted(manifest["files"]) == ["scenario.toml", "series.parquet", "summary.json"]
        with pytest.raises(FileExistsError):
            write_run(fake_result(), target, figures=False)
    assert siblings(target) == ["run"]


def test_replacement_never_deletes_first(tmp_path, monkeypatch):
    """The new run is written aside; a failure at the swap leaves the old run as it was."""
    import cnsim.outputs as outputs

    target = tmp_path / "run"
    write_run(fake_result("old"), target, figures=False)
    before = tree(target)
    real_rename = os.rename

    def failing_rename(src, dst):
        if str(src).endswith(".tmp"):
            raise OSError("disk full")
        return real_rename(src, dst)

    monkeypatch.setattr(outputs.os, "rename", failing_rename)
    with pytest.raises(OSError, match="disk full"):
        write_run(fake_result("new"), target, figures=False)
    assert tree(target) == before and siblings(target) == ["run"]


# --- output locations are checked before anything runs ----------------------------------------


def test_unwritable_output_is_refused_before_writing(tmp_path):
    from cnsim.outputs import check_output

    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError, match="not a directory"):
        check_output(tmp_path / "file" / "run")
    with pytest.raises(OSError, match="longer than 255"):
        check_output(tmp_path / ("x" * 300))
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        with pytest.raises(PermissionError, match="not writable"):
            check_output(locked / "run")
    finally:
        locked.chmod(0o700)


# --- long names make short file names ---------------------------------------------------------


def test_long_names_make_valid_file_names(tmp_path):
    from cnsim.outputs import file_name

    a, b = file_name("q" * 500 + "a"), file_name("q" * 500 + "b")
    assert len(a) <= 100 and a != b and file_name("SW1>SW2") == "SW1-SW2"
    write_run(fake_result(), tmp_path / ("r" * 250), figures=False)  # its temporary sibling stays short
    assert (tmp_path / ("r" * 250) / "summary.json").is_file()


def test_a_manifest_never_reaches_outside_its_directory(tmp_path):
    # A manifest edited to list a file beside the run directory (with that file's own digest)
    # must not make a replacement delete it.
    victim = tmp_path / "victim.txt"
    victim.write_text("a user's file\n")
    out = tmp_path / "run"
    write_run(fake_result("old"), out, figures=False)
    manifest = out / ".cnsim-run.json"
    doc = json.loads(manifest.read_text())
    doc["files"]["../victim.txt"] = hashlib.sha256(victim.read_bytes()).hexdigest()
    doc["dirs"].append("..")
    manifest.write_text(json.dumps(doc))
    try:
        write_run(fake_result("new"), out, figures=False)
    except FileExistsError:
        pass  # refusing is fine too; deleting is not
    assert victim.read_text() == "a user's file\n"


def test_the_series_table_is_the_series_frame_as_pandas_would_write_it():
    """series.parquet is written from the engine's arrays (`Result.series_table`), not from pandas:
    same columns, values, dictionary index type and frame read back as through `series_frame`."""
    from cnsim import run

    result = run("scenarios/roeck2007/no-hotspot.toml", set={"simulation.duration": "5ms"}, figures=False)
    table, through_pandas = result.series_table(), pa.Table.from_pandas(result.series_frame, preserve_index=False)
    assert len(result.names()) > 1 and table.num_rows > 100
    assert table.schema.remove_metadata() == through_pandas.schema.remove_metadata()
    pd.testing.assert_frame_equal(table.to_pandas(), result.series_frame)
