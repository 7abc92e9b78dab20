"""A reproduction's seed count is bounded before its runs are listed: `--seeds 10^11` is one line
naming the runs it would make, at once, not a list expanded until memory runs out."""

import subprocess
import sys
from pathlib import Path

import pytest

from cnsim import _args
from cnsim.reproduce import experiment
from cnsim.reproduce.runs import count_runs

ROOT = Path(__file__).resolve().parents[1]


def test_a_huge_seed_count_is_refused_before_any_run_is_listed(tmp_path):
    r = subprocess.run([sys.executable, "-m", "cnsim", "reproduce", "mliki2016-dumbbell", "--seeds", str(10**11),
                        "-o", str(tmp_path / "rep")], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert f"more than the {_args.MAX_RUNS} one reproduction may hold" in r.stderr, r.stderr
    assert not (tmp_path / "rep").exists()


def test_the_count_is_seeds_times_configurations():
    paper = experiment("mliki2016-dumbbell")
    per_seed = len(paper.tasks(1, False))
    assert per_seed > 1 and count_runs(paper, 5, False) == 5 * per_seed == len(paper.tasks(5, False))
    with pytest.raises(ValueError, match="configurations is"):
        count_runs(paper, _args.MAX_RUNS // per_seed + 1, False)
