"""A long build talks and stops on Ctrl-C: `cnsim run` prints a line on stderr while the
workloads' flows are made (flows made of the total, elapsed) once the build has taken
CNSIM_PROGRESS_AFTER seconds (here 0, so a short build talks at once), none under -q; Ctrl-C during
the build ends the command at the next step of flows, writing nothing. `cnsim check` of the same
scenario prints no such line."""

import os
import re
import signal
import subprocess
import sys
import time

STAR = """
[simulation]
duration = "1us"

[defaults]
link = { rate = "10Gbps", delay = "1us" }

[[switch]]
names = ["SW"]
[[host]]
names = ["H1..H4"]
[[link]]
between = ["SW", "H1..H4"]

[[workload]]
hosts = ["H1..H4"]
sizes = "web-search"
load = 0.9
stop = "STOP"
"""
LINE = re.compile(r"cnsim: s\.toml building: [\d,]+ of [\d,]+ flows made \(\d+%\), [\d.]+ s")


def cnsim(tmp_path, stop: str, *args) -> subprocess.CompletedProcess:
    (tmp_path / "s.toml").write_text(STAR.replace("STOP", stop))
    return subprocess.run([sys.executable, "-m", "cnsim", *args], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "CNSIM_PROGRESS_AFTER": "0"}, timeout=120)


def test_the_build_says_how_many_flows_are_made_and_is_quiet_under_q(tmp_path):
    loud = cnsim(tmp_path, "10ms", "run", "s.toml", "-o", "a", "--no-figures")
    assert loud.returncode == 0, loud.stderr
    assert LINE.search(loud.stderr), loud.stderr
    quiet = cnsim(tmp_path, "10ms", "run", "s.toml", "-o", "b", "--no-figures", "-q")
    assert quiet.returncode == 0 and "building" not in quiet.stderr, quiet.stderr
    checked = cnsim(tmp_path, "10ms", "check", "s.toml")
    assert checked.returncode == 0 and "building" not in checked.stderr, checked.stderr


def test_ctrl_c_during_the_build_stops_it_and_writes_nothing(tmp_path):
    # ≈ 300 000 flows: a build of seconds, stopped at its first step of flows.
    (tmp_path / "s.toml").write_text(STAR.replace("STOP", "12s").replace('stop = "12s"', 'stop = "12s"\nmax_flows = 1000000'))
    proc = subprocess.Popen([sys.executable, "-m", "cnsim", "run", "s.toml", "-o", "out", "--no-figures"],
                            cwd=tmp_path, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "CNSIM_PROGRESS_AFTER": "0"}, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = proc.stderr.readline()    # the build's first line: it has started making flows
    assert LINE.search(first), first
    t0 = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and time.monotonic() - t0 < 10, err
    assert "Traceback" not in err and not LINE.search(err), err   # stopped at the next step, quietly
    assert not (tmp_path / "out").exists()


STEP = re.compile(r"cnsim: s\.toml: (collecting the statistics|reading the statistics|writing the summary, series to a), "
                  r"[\d.]+ s after the run")


def test_the_steps_after_the_run_are_named_and_quiet_under_q(tmp_path):
    # CNSIM_PROGRESS_AFTER = 0: every step is named as it starts, however short
    loud = cnsim(tmp_path, "1ms", "run", "s.toml", "-o", "a", "--no-figures")
    assert loud.returncode == 0, loud.stderr
    said = [m.group(1) for m in STEP.finditer(loud.stderr)]
    assert said[0] == "collecting the statistics" and said[-1] == "writing the summary, series to a", loud.stderr
    assert "reading the statistics" in said
    quiet = cnsim(tmp_path, "1ms", "run", "s.toml", "-o", "b", "--no-figures", "-q")
    assert quiet.returncode == 0 and "after the run" not in quiet.stderr, quiet.stderr
