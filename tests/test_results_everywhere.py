"""`cnsim results` on every directory cnsim writes (a run, a sweep, a reproduction, trees of them),
skipping with a warning what is not a result; every option checked before any work, and no user
file replaced without --force. Inputs are real outputs of cnsim."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cnsim
from cnsim import query
from cnsim.reproduce import registry, runs
from test_reproduce_framework import TinyPaper

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
SHORT = {"simulation.duration": "10ms", "simulation.measure_from": "5ms"}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """out/run, out/sweep and out/repro (a reproduction), as cnsim writes them."""
    out = tmp_path_factory.mktemp("out")
    cnsim.run(SCENARIO, set=SHORT, out=out / "run", figures=False)
    cnsim.sweep(SCENARIO, {"cp.qcn.qeq": ["20000B", "30000B"]}, seeds=2, jobs=1, out=out / "sweep", set=SHORT,
                progress=False)
    paper = TinyPaper()
    with pytest.MonkeyPatch.context() as mp:  # the worker finds the paper by name
        mp.setattr(registry, "experiment", lambda name: paper)
        runs.reproduce(paper, out / "repro", seeds=2, jobs=1, progress=False)
    return out


class Done:
    def __init__(self, p: subprocess.CompletedProcess):
        self.exit_code, self.stdout, self.stderr, self.output = p.returncode, p.stdout, p.stderr, p.stdout + p.stderr


def results(*args) -> Done:
    return Done(subprocess.run([sys.executable, "-m", "cnsim", "results", *map(str, args)], capture_output=True,
                               text=True))


def test_a_reproduction_directory_is_one_row_per_run(tree):
    df = query.load(tree / "repro")
    assert len(df) == 4 and {"variant", "seed", "q_mean_frames"} <= set(df.columns)
    r = results(tree / "repro")
    assert r.exit_code == 0, r.output
    assert "q_mean_frames" in r.stdout


def test_a_tree_of_every_kind_loads_with_a_source_column(tree):
    df = query.load(tree)
    assert set(df["source"].map(lambda s: Path(s).name)) == {"run", "sweep", "repro"}
    assert results(tree).exit_code == 0


def test_what_is_not_a_result_is_skipped_with_a_warning(tree, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "summary.json").write_text('{"mine": 1}')
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "summary.json").write_text("{")
    with pytest.warns(UserWarning, match="skipped"):
        df = query.load([tmp_path, tree / "sweep"])
    assert len(df) == 4
    r = results(tmp_path, tree / "sweep")
    assert r.exit_code == 0 and "broken/summary.json" in r.stderr and "notes/summary.json" in r.stderr
    r = results(tmp_path)
    assert r.exit_code != 0 and "no cnsim results" in r.output


def test_each_damaged_run_summary_is_named_and_the_rest_are_listed(tree, tmp_path):
    """Copies of a real run whose summary.json is cut short, lacks its summary, or lacks the
    summary's global metrics: one warning line naming each file, and the intact run's row."""
    real = (tree / "run" / "summary.json").read_text()
    doc = json.loads(real)
    no_global = {**doc, "summary": {k: v for k, v in doc["summary"].items() if k != "global"}}
    damaged = {"cut": real[: len(real) // 2], "no_summary": json.dumps({"stats": doc["stats"]}),
               "no_global": json.dumps(no_global)}
    for name, text in damaged.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "summary.json").write_text(text)
    (tmp_path / "intact").mkdir()
    (tmp_path / "intact" / "summary.json").write_text(real)
    r = results(tmp_path)
    assert r.exit_code == 0, r.output
    skipped = [line for line in r.stderr.splitlines() if "skipped" in line]
    assert len(skipped) == 3, r.stderr
    for name in damaged:
        assert sum(f"{name}/summary.json" in line for line in skipped) == 1, (name, r.stderr)
    with pytest.warns(UserWarning, match="skipped") as caught:
        df = query.load(tmp_path)
    assert len(df) == 1 and df["seed"].tolist() == [doc["stats"]["seed"]]
    assert sorted(Path(str(w.message).split(": ")[1]).parent.name for w in caught) == sorted(damaged)


def test_an_unknown_metric_is_a_usage_error_naming_the_choices(tree):
    r = results(tree / "sweep", "--metrics", "bogus")
    assert r.exit_code == 2 and "--metrics" in r.output and "feedback_rate_pct" in r.output


def test_repeated_metrics_give_one_column_also_over_mixed_folders(tree):
    r = results(tree / "sweep", tree / "run", "--metrics", "feedback_rate_pct,feedback_rate_pct", "--csv",
                tree.parent / "mixed.csv")
    assert r.exit_code == 0, r.output
    header = (tree.parent / "mixed.csv").read_text().splitlines()[0].split(",")
    assert header.count("feedback_rate_pct") == 1 and "loss_rate_pct" not in header


def test_plotting_a_column_that_is_not_a_metric_is_refused(tree, tmp_path):
    r = results(tree / "sweep", "--plot", "main_cp", "--x", "cp.qcn.qeq", "-o", tmp_path / "p.png")
    assert r.exit_code == 2 and "not a metric" in r.output and not (tmp_path / "p.png").exists()


def test_plotting_a_metric_without_values_is_refused(tree, tmp_path):
    r = results(tree / "sweep", "--plot", "first_cnm_s", "--where", "seed > 99", "--x", "cp.qcn.qeq",
                "-o", tmp_path / "p.png")
    assert r.exit_code == 2 and "no value" in r.output and not (tmp_path / "p.png").exists()


@pytest.mark.parametrize("option, name", [("--csv", "t.csv"), ("--parquet", "t.parquet"), ("-o", "f.png")])
def test_an_existing_user_file_is_not_replaced_without_force(tree, tmp_path, option, name):
    mine = tmp_path / name
    mine.write_text("my data")
    extra = ["--plot", "feedback_rate_pct"] if option == "-o" else []
    r = results(tree / "sweep", *extra, option, mine)
    assert r.exit_code == 2 and "exists" in r.output and mine.read_text() == "my data"
    r = results(tree / "sweep", *extra, option, mine, "--force")
    assert r.exit_code == 0 and mine.read_bytes() != b"my data"


def test_help_shows_percent_signs_once():
    r = results("--help")
    assert "95 % CI" in r.output and "%%" not in r.output


def test_quiet_silences_the_skip_warnings(tree, tmp_path):
    (tmp_path / "junk").mkdir()
    r = results("-q", tmp_path, tree / "sweep")
    assert r.exit_code == 0 and "warning" not in r.stderr


def test_verdicts_json_sits_beside_the_reproduction_results(tree):
    doc = json.loads((tree / "repro" / "verdicts.json").read_text())
    assert doc["seeds"] == 2 and set(doc["states"].values()) <= {"supported", "not supported", "inconclusive",
                                                                 "holds by construction"}


def test_a_search_through_too_many_folders_stops_and_says_where_to_point(tmp_path, monkeypatch):
    from cnsim import query

    for i in range(30):
        (tmp_path / f"d{i}" / "sub").mkdir(parents=True)
    monkeypatch.setattr(query, "MAX_FOLDERS", 25)
    with pytest.raises(ValueError, match=f"{tmp_path}: looked into 25 folders"):
        query.load([tmp_path])
    (tmp_path / "d0" / "sub" / "up").symlink_to(tmp_path)  # a loop: each folder is searched once
    monkeypatch.setattr(query, "MAX_FOLDERS", 100)  # 61 folders: searched to the end
    with pytest.warns(UserWarning, match="no cnsim run"), pytest.raises(FileNotFoundError, match="no cnsim results"):
        query.load([tmp_path])
