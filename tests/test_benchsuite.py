"""`cnsim bench --suite` in its smoke size: the output's shape and sanity, never a time."""

import json
import subprocess
import sys

import pytest

from cnsim import benchsuite


def cli(*args):
    """The real command line, in its own process (as a user runs it)."""
    return subprocess.run([sys.executable, "-m", "cnsim", *args], capture_output=True, text=True, timeout=600)

FAST = ["dumbbell-n10-qcn-on", "tcp-bulk-n10", "pause-incast-n8", "fat-tree-k8-qcn", "seed000-multicast-dumbbell"]


def test_every_case_runs_and_delivers():
    rows = benchsuite.run(size="smoke", reps=1)
    assert [r["case"] for r in rows] == benchsuite.case_names()
    for r in rows:
        assert r["stopped_by"] is None, r
        assert r["delivered_frames"] > 0 and r["events"] > r["delivered_frames"], r
        assert r["wall_min_s"] <= r["wall_s"] <= r["wall_max_s"]
        assert r["ns_per_frame"] == pytest.approx(r["wall_s"] * 1e9 / r["delivered_frames"])
        assert r["peak_rss_mb"] >= r["rss_before_mb"] > 0


def test_compare_interleaves_two_builds_on_the_same_text():
    rows = benchsuite.run(size="smoke", reps=2, cases=FAST[:2], compare=sys.executable)
    assert [(r["case"], r["build"]) for r in rows] == [(c, b) for c in FAST[:2] for b in ("this", "other")]
    by = {(r["case"], r["build"]): r for r in rows}
    for c in FAST[:2]:
        # Same build, same text: the same simulation, event for event.
        assert by[(c, "this")]["events"] == by[(c, "other")]["events"]
        assert by[(c, "this")]["speedup_vs_other"] > 0


def test_bad_requests_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown case"):
        benchsuite.run(size="smoke", cases=["nope"])
    with pytest.raises(FileNotFoundError, match="interpreter"):
        benchsuite.interpreter(tmp_path)
    mine = tmp_path / "mine.json"
    mine.write_text("keep me")
    res = cli("bench", "--suite", "--size", "smoke", "--reps", "1", "--only", FAST[0], "--out", str(mine))
    assert res.returncode != 0 and "exists" in res.stderr
    assert mine.read_text() == "keep me"


def test_cli_writes_json(tmp_path):
    out = tmp_path / "suite.json"
    res = cli("bench", "--suite", "--size", "smoke", "--reps", "1", "--only", FAST[0], "--out", str(out))
    assert res.returncode == 0, res.stderr
    rows = json.loads(out.read_text())
    assert rows[0]["case"] == FAST[0] and rows[0]["delivered_per_s"] > 0
    assert FAST[0] in res.stdout  # the table
