"""Ctrl-C on a sweep: the first one hands out no new runs and keeps those that were running (they
are in the store, and running the command again resumes); a second one stops them at once."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"


def start(out: Path, duration_s: int) -> subprocess.Popen:
    """A sweep of 8 runs on 2 workers, each run about `duration_s` / 13 s of wall time on this
    machine, in its own process group (as a terminal's job is)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cnsim", "sweep", SCENARIO, "--grid", "cp.qcn.qeq=20000B,25000B,30000B,35000B",
         "--seeds", "2", "--jobs", "2", "-o", str(out), "--set", f"simulation.duration={duration_s}s",
         "--set", f"simulation.measure_from={duration_s - 1}s", "--keep", "none"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_terminal_ctrl_c)


def _terminal_ctrl_c() -> None:
    """Ctrl-C as in a terminal: a test run started in the background (`cmd &` in a script, nohup)
    ignores SIGINT, and its children would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stored(out: Path) -> int:
    return sum(1 for p in (out / "runs").glob("*.json")
               if json.loads(p.read_text()).get("status") == "ok") if (out / "runs").exists() else 0


def wait_running(out: Path, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while not (out / "sweep.json").exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    time.sleep(1.0)  # the workers have started their first runs


def test_first_ctrl_c_keeps_the_running_runs_and_stops(tmp_path):
    out = tmp_path / "s"
    proc = start(out, 30)
    wait_running(out, proc)
    before = stored(out)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode != 0 and "interrupted" in err
    kept = stored(out)
    assert kept > before and kept < 8, (before, kept, err)   # the running ones finished and were stored
    status = subprocess.run([sys.executable, "-m", "cnsim", "sweep", "--status", str(out)], capture_output=True,
                            text=True)
    assert f"done: {kept}" in status.stdout


def test_second_ctrl_c_stops_at_once(tmp_path):
    out = tmp_path / "s"
    proc = start(out, 300)   # runs of tens of seconds
    wait_running(out, proc)
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.5)
    t0 = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    proc.communicate(timeout=60)
    assert time.monotonic() - t0 < 10 and proc.returncode != 0
    assert stored(out) == 0
