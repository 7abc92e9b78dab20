"""Never lose a user's files or results: the command line and the Python API end to end.
The installed wheel is tested in test_wheel.py."""

import importlib
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
from cnsim.sweep import Store, status

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios/examples/unicast-qcn.toml"  # 0.2 s simulated: fast
SCENARIO = ROOT / "scenarios/mliki2016/dumbbell-multicast.toml"
FAST = ["--set", "simulation.duration=20ms", "--set", "simulation.measure_from=10ms"]
SHORT = {"simulation.measure_from": "10ms", "simulation.duration": "20ms"}


def cli(*args, cwd=ROOT, **kw):
    return subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          **kw)


def tree(path: Path) -> dict:
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def one_line_error(p) -> str:
    out = p.stdout + p.stderr
    assert p.returncode == 2 and "Traceback" not in out, out
    assert p.stderr.startswith("error: ") and len(p.stderr.strip().splitlines()) == 1, p.stderr
    return p.stderr




def test_cli_run_keeps_a_users_file_every_time(tmp_path):
    out = tmp_path / "mine"
    assert cli("run", EXAMPLE, *FAST, "-q", "-o", out).returncode == 0
    (out / "notes.txt").write_bytes(b"my notes\x00\xff")
    before = tree(out)
    err = one_line_error(cli("run", EXAMPLE, *FAST, "-q", "-o", out))
    assert "notes.txt" in err and "--force" in err
    assert tree(out) == before
    for seed in (2, 3):  # --force, again and again: cnsim's files are replaced, the user's kept
        p = cli("run", EXAMPLE, *FAST, "-q", "--force", "--seed", seed, "-o", out)
        assert p.returncode == 0, p.stderr
        assert (out / "notes.txt").read_bytes() == b"my notes\x00\xff"
        assert json.loads((out / "summary.json").read_text())["stats"]["seed"] == seed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_cli_run_refuses_a_reproduce_output(tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "summary.json").write_text('{"experiment": "mliki2016-dumbbell"}')
    (out / "report.md").write_text("# report")
    before = tree(out)
    one_line_error(cli("run", EXAMPLE, *FAST, "-q", "-o", out))
    assert "not overwr" in one_line_error(cli("run", EXAMPLE, *FAST, "-q", "--force", "-o", out))
    assert tree(out) == before


def test_previous_run_is_replaced(tmp_path):
    out = tmp_path / "r"
    for seed in (1, 2):
        assert cli("run", EXAMPLE, *FAST, "-q", "--seed", seed, "-o", out).returncode == 0
    assert json.loads((out / "summary.json").read_text())["stats"]["seed"] == 2




def test_output_locations_are_checked_before_the_run(tmp_path):
    (tmp_path / "file").write_text("x")
    bad = tmp_path / "file" / "out"
    slow = ["--set", "simulation.duration=100s"]  # would take minutes if it ran
    t0 = time.monotonic()
    assert "not a directory" in one_line_error(cli("run", EXAMPLE, *slow, "-q", "-o", bad))
    assert "not a directory" in one_line_error(cli("sweep", EXAMPLE, *slow, "--grid", "cp.qcn.w=2,4",
                                                   "--seeds", 1, "-o", bad))
    assert "not a directory" in one_line_error(cli("reproduce", "mliki2016-dumbbell", "--quick", "-o", bad))
    assert "longer than 255" in one_line_error(cli("run", EXAMPLE, *slow, "-q", "-o", tmp_path / ("x" * 300)))
    assert time.monotonic() - t0 < 60
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
    with pytest.raises(NotADirectoryError):
        cnsim.run(EXAMPLE, set={"simulation.duration": "100s"}, out=bad)


def test_sweep_and_reproduce_refuse_a_foreign_directory(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    err = one_line_error(cli("sweep", EXAMPLE, *FAST, "--grid", "cp.qcn.w=2,4", "--seeds", 1, "-o", tmp_path))
    assert "not a cnsim sweep" in err
    assert "not a cnsim reproduce" in one_line_error(cli("reproduce", "mliki2016-dumbbell", "--quick", "-o", tmp_path))
    assert tree(tmp_path) == {"notes.txt": b"mine"}




def test_build_id_names_the_engine_sources():
    import re

    from cnsim import _core
    from cnsim.identity import build_id

    assert re.fullmatch(r"0\.1\.0\+[0-9a-f]{12}", _core.build_id())
    assert re.fullmatch(r"0\.1\.0\+[0-9a-f]{12}\+py[0-9a-f]{12}", build_id())


def test_python_hash_follows_the_package_sources(tmp_path, monkeypatch):
    import shutil

    from cnsim import identity

    copy = tmp_path / "cnsim"
    shutil.copytree(identity.PACKAGE, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__", "scenarios"))
    monkeypatch.setattr(identity, "PACKAGE", copy)
    identity.python_hash.cache_clear()
    first = identity.python_hash()
    (copy / "metrics.py").write_text((copy / "metrics.py").read_text() + "\n# changed\n")
    identity.python_hash.cache_clear()
    assert identity.python_hash() != first
    identity.python_hash.cache_clear()


def test_resumed_sweep_after_a_code_change_recomputes(tmp_path, monkeypatch):
    from cnsim import identity

    out = tmp_path / "sw"
    grid = {"simulation.duration": ["20ms", "30ms"]}
    first = cnsim.sweep(EXAMPLE, grid, seeds=1, jobs=1, progress=False, out=out, set=SHORT)
    before = {p.name for p in (out / "runs").glob("*.json")}
    assert status(out)["done"] == 2

    # "other code" (a new commit): the stored results are not reused, --status says so
    monkeypatch.setattr(identity, "build_id", lambda: "0.1.0+000000000000+py000000000000")
    assert status(out) == {"total": 2, "done": 0, "stopped": 0, "failed": 0, "missing": 2}
    again = cnsim.sweep(EXAMPLE, grid, seeds=1, jobs=1, progress=False, out=out, set=SHORT)
    after = {p.name for p in (out / "runs").glob("*.json")}
    assert len(after - before) == 2  # both recomputed, under new keys
    pd.testing.assert_frame_equal(first, again)  # (same engine, so same numbers)
    monkeypatch.undo()

    # from the command line: the sweep in `out` was last run by the fake build
    p = cli("sweep", "--status", out)
    assert p.returncode == 0, p.stderr
    assert "code changed" in p.stdout and "0.1.0+000000000000" in p.stdout and "missing: 2" in p.stdout


def test_a_result_from_other_code_is_never_used(tmp_path):
    from cnsim.sweep import execute_stored, run_key, run_one

    store = Store(tmp_path)
    task = (EXAMPLE.read_text(), str(EXAMPLE), list(SHORT.items()), 1)
    fake = ("0.1.0+000000000000+py000000000000", {"error": None})  # what a worker of other code returns
    sweep_mod = importlib.import_module("cnsim.sweep")  # (cnsim.sweep is also the function)
    real = sweep_mod._identified
    sweep_mod._identified = lambda call: fake
    try:
        results, _ = execute_stored(run_one, [task], store, [run_key(*task)], labels=[({}, 1)], jobs=1, progress=False)
    finally:
        sweep_mod._identified = real
    assert isinstance(results[0], RuntimeError) and "other code" in str(results[0])
    assert not list((tmp_path / "runs").glob("*.json")) if (tmp_path / "runs").exists() else True




def test_second_sweep_into_a_directory_is_refused(tmp_path):
    out = tmp_path / "sw"
    with Store(out).lock():
        p = cli("sweep", EXAMPLE, *FAST, "--grid", "cp.qcn.w=2,4", "--seeds", 1, "-o", out)
        assert "in use by another cnsim sweep" in one_line_error(p) and f"pid {os.getpid()}" in p.stderr
        with pytest.raises(OSError, match="in use"):
            cnsim.sweep(EXAMPLE, {"cp.qcn.w": [2]}, seeds=1, progress=False, out=out)
    assert not (out / "runs").exists()
    p = cli("sweep", EXAMPLE, *FAST, "--grid", "cp.qcn.w=2,4", "--seeds", 1, "--jobs", 1, "-o", out)
    assert p.returncode == 0, p.stderr  # released with its holder


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killing_the_sweep_stops_its_workers(tmp_path):
    args = ["sweep", SCENARIO, "--grid", "simulation.duration=60s,61s", "--seeds", 2, "--jobs", 2, "-o", tmp_path / "sw"]
    proc = subprocess.Popen([sys.executable, "-m", "cnsim", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while len(workers := descendants(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2 and proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, "workers outlived the killed sweep"




def test_every_grid_value_is_checked_before_any_run(tmp_path, monkeypatch, capfd):
    sweep_mod = importlib.import_module("cnsim.sweep")
    ran = []
    real = sweep_mod.run_one
    monkeypatch.setattr(sweep_mod, "run_one", lambda task: ran.append(task[2]) or real(task))
    grid = {"simulation.duration": ["20ms", "-1ms", "forever"], "simulation.record_interval": ["1ms", "-2ms"]}
    df = cnsim.sweep(EXAMPLE, grid, seeds=1, jobs=1, progress=False, out=tmp_path / "sw", set=SHORT)
    report = capfd.readouterr().err
    for bad in ("simulation.duration=-1ms", "simulation.duration=forever", "simulation.record_interval=-2ms"):
        assert bad in report
    assert "simulation.duration=20ms" not in report
    # the report came before any run, and no invalid point reached a worker
    assert ran == [[*SHORT.items(), ("simulation.duration", "20ms"), ("simulation.record_interval", "1ms")]]
    assert df["error"].notna().sum() == 5 and df["error"].isna().sum() == 1


def test_status_on_a_damaged_sweep_json(tmp_path):
    out = tmp_path / "sw"
    cnsim.sweep(EXAMPLE, {"simulation.duration": ["20ms"]}, seeds=1, jobs=1, progress=False, out=out, set=SHORT)
    text = (out / "sweep.json").read_text()
    for damaged in (text[: len(text) // 2], "", '{"runs": 3}', "[]"):
        (out / "sweep.json").write_text(damaged)
        err = one_line_error(cli("sweep", "--status", out))
        assert "sweep.json" in err and "damaged" in err
        with pytest.raises(ValueError, match="damaged"):
            status(out)


def test_guard_values_take_every_number_form(tmp_path):
    for i, events in enumerate(("1e6", "1e+06", "1000000")):
        p = cli("run", EXAMPLE, "--max-events", events, "--max-wall", "1e+06", "--max-series-mb", "1e+03",
                "--no-figures", "-q", "-o", tmp_path / f"r{i}")
        assert p.returncode == 0, p.stderr
        resolved = (tmp_path / f"r{i}" / "scenario.toml").read_text()
        assert "max_events = 1000000" in resolved
    p = cli("sweep", EXAMPLE, *FAST, "--grid", "cp.qcn.w=2", "--seeds", 1, "--jobs", 1,
            "--max-events", "1e+06", "--max-wall", "1e6", "-o", tmp_path / "sw")
    assert p.returncode == 0, p.stderr



BAD_CALLS = [
    ("run-negative-seed", lambda: cnsim.run(EXAMPLE, seed=-1), ValueError),
    ("run-seed-2**63", lambda: cnsim.run(EXAMPLE, seed=2**63), ValueError),
    ("run-seed-str", lambda: cnsim.run(EXAMPLE, seed="1"), TypeError),
    ("run-missing-file", lambda: cnsim.run("no/such/scenario.toml"), FileNotFoundError),
    ("run-not-a-path", lambda: cnsim.run(42), TypeError),
    ("run-set-not-mapping", lambda: cnsim.run(EXAMPLE, set=5), TypeError),
    ("run-out-not-a-path", lambda: cnsim.run(EXAMPLE, out=3.5), TypeError),
    ("check-missing-file", lambda: cnsim.check(ROOT / "nope.toml"), FileNotFoundError),
    ("check-set-items", lambda: cnsim.check(EXAMPLE, set=[1, 2]), TypeError),
    ("sweep-grid-list", lambda: cnsim.sweep(EXAMPLE, ["simulation.seed"]), TypeError),
    ("sweep-grid-str-key", lambda: cnsim.sweep(EXAMPLE, {3: [1]}), TypeError),
    ("sweep-jobs-0", lambda: cnsim.sweep(EXAMPLE, {"cp.qcn.w": [2]}, jobs=0), ValueError),
    ("sweep-jobs-negative", lambda: cnsim.sweep(EXAMPLE, {"cp.qcn.w": [2]}, jobs=-2), ValueError),
    ("sweep-seed-huge", lambda: cnsim.sweep(EXAMPLE, {"cp.qcn.w": [2]}, seeds=[2**64]), ValueError),
    ("sweep-seeds-negative", lambda: cnsim.sweep(EXAMPLE, {"cp.qcn.w": [2]}, seeds=[-1]), ValueError),
    ("sweep-missing-file", lambda: cnsim.sweep("nope.toml", {"cp.qcn.w": [2]}), FileNotFoundError),
    ("status-missing-store", lambda: status("/nonexistent/sweep"), FileNotFoundError),
    ("reproduce-unknown", lambda: __import__("cnsim.reproduce").reproduce.reproduce("nope", "x"), ValueError),
    ("reproduce-seeds-0", lambda: __import__("cnsim.reproduce").reproduce.reproduce("mliki2016-dumbbell", "x", seeds=0),
     ValueError),
    ("reproduce-jobs-0", lambda: __import__("cnsim.reproduce").reproduce.reproduce("mliki2016-dumbbell", "x", jobs=0),
     ValueError),
]


@pytest.mark.parametrize("call, error", [c[1:] for c in BAD_CALLS], ids=[c[0] for c in BAD_CALLS])
def test_public_functions_reject_bad_arguments(call, error, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error) as info:
        call()
    assert type(info.value) not in (AttributeError, OverflowError) and str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_result_methods_reject_bad_arguments():
    res = cnsim.run(EXAMPLE, set=SHORT, progress=False)
    with pytest.raises(TypeError):
        res.series(3)
    with pytest.raises(ValueError):
        res.table(["rps"])
    with pytest.raises(TypeError):
        res.write(None)


def test_long_names_do_not_break_figures(tmp_path):
    long = "S" + "w" * 300
    text = EXAMPLE.read_text().replace('names = "SW"', f'names = "{long}"').replace('"SW"', f'"{long}"')
    res = cnsim.run(text, set=SHORT, progress=False, out=tmp_path / ("o" * 240))
    pngs = sorted(p.name for p in (tmp_path / ("o" * 240) / "figures").glob("*.png"))
    assert any(n.startswith("queue_S") and len(n) <= 110 for n in pngs), pngs
    assert res.stats["queues"]




def test_reproduce_resumes_and_skips_finished_runs(tmp_path):
    out = tmp_path / "rep"
    p = cli("reproduce", "mliki2016-dumbbell", "--quick", "--jobs", 2, "-o", out)
    assert p.returncode == 0, p.stderr
    summary = json.loads((out / "summary.json").read_text())
    n = summary["runs"]  # the baseline's 6 runs and the quick re-runs of some open choices
    assert summary["ran"] == n and n >= 6
    p = cli("sweep", "--status", out)  # a reproduction is a sweep: same store
    assert p.returncode == 0 and f"done: {n}" in p.stdout and "missing: 0" in p.stdout, p.stdout + p.stderr
    kept = tree(out / "runs")
    results = pd.read_parquet(out / "results.parquet")

    # a killed reproduction: one run lost; re-running runs only that one
    lost = sorted((out / "runs").glob("*.json"))[0]
    lost.unlink()
    p = cli("reproduce", "mliki2016-dumbbell", "--quick", "--jobs", 2, "-o", out)
    assert p.returncode == 0, p.stderr
    assert json.loads((out / "summary.json").read_text())["ran"] == 1
    p = cli("reproduce", "mliki2016-dumbbell", "--quick", "-o", out)
    assert p.returncode == 0, p.stderr
    assert json.loads((out / "summary.json").read_text())["ran"] == 0
    now = tree(out / "runs")
    same = [k for k in kept if k != lost.name and not k.startswith("dumbbell-")]
    assert {k: now[k] for k in same} == {k: kept[k] for k in same}  # finished runs untouched
    pd.testing.assert_frame_equal(pd.read_parquet(out / "results.parquet"), results)
    assert "--dask" in cli("reproduce", "--help").stdout


def test_reproduce_on_dask(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        p = cli("reproduce", "mliki2016-dumbbell", "--quick", "--dask", cluster.scheduler_address, "-o", tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "report.md").is_file() and (tmp_path / "figures" / "dumbbell-cr.png").is_file()
    records = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*.json")]
    n = json.loads((tmp_path / "summary.json").read_text())["runs"]
    assert len(records) == n and all(r["status"] == "ok" for r in records)
