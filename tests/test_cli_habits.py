"""CLI habits: --version, -h, -v/-q on every command, plain progress lines
off a terminal, warnings for likely mistakes, source-side loss in the summary, shell completion;
and the API's ScenarioWarning / lint / progress in notebooks."""

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import cnsim
from cnsim.cli import cli

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
SHORT = ["--set", "simulation.duration=10ms", "--set", "simulation.measure_from=5ms"]
NO_RP = ["--set", 'flow.0.rp="none"']


def cnsim_cli(*args, env=None, check=True):
    r = subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], capture_output=True, text=True,
                       env={**os.environ, **(env or {})})
    if check:
        assert r.returncode == 0, r.stderr
    return r


def test_version_names_the_engine_build_and_source_revision():
    from cnsim import _core
    from cnsim.identity import build_id

    out = cnsim_cli("--version").stdout.strip()
    assert out == f"cnsim {_core.version()} (engine build {build_id()}, source revision {_core.source_revision()})"
    assert re.fullmatch(r"[0-9a-f]{12}(-dirty)?|unknown", _core.source_revision())


def test_h_and_v_q_on_every_command():
    assert "Usage:" in cnsim_cli("-h").stdout
    for name, command in cli.commands.items():
        opts = {o for p in command.params for o in getattr(p, "opts", [])}
        assert {"-v", "-q"} <= opts, name
        assert "Usage:" in cnsim_cli(name, "-h").stdout


def test_verbose_and_quiet_on_run(tmp_path):
    loud = cnsim_cli("run", SCENARIO, *SHORT, "-o", tmp_path / "a", "--no-figures", "-v")
    assert re.search(r"unicast-qcn.toml: seed \d+, [\d,]+ events in [\d.]+ s wall", loud.stderr)
    quiet = cnsim_cli("-q", "run", SCENARIO, *SHORT, *NO_RP, "-o", tmp_path / "b", "--no-figures")
    assert quiet.stdout == "" and quiet.stderr == ""  # not even the warning


def test_plain_progress_lines_off_a_terminal(tmp_path):
    r = cnsim_cli("run", SCENARIO, *SHORT, "-o", tmp_path / "a", "--no-figures")
    lines = [line for line in r.stderr.splitlines() if line.startswith("cnsim: unicast-qcn.toml")]
    assert len(lines) >= 5 and "100%" in lines[-1] and "\x1b" not in r.stderr and "\r" not in r.stderr
    assert re.search(r"\(0\.01/0\.01 s simulated, [\d,]+ events/s\)$", lines[-1])


def test_summary_shows_source_loss_next_to_network_loss(tmp_path):
    out = cnsim_cli("run", SCENARIO, *SHORT, "-o", tmp_path / "a", "--no-figures").stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert "loss_rate_pct" in names and "source_loss_pct" in names
    assert abs(names.index("loss_rate_pct") - names.index("source_loss_pct")) == 1


def test_warnings_for_likely_mistakes(tmp_path):
    r = cnsim_cli("check", SCENARIO, *NO_RP)
    assert "warning: congestion point at SW>D has no reaction point to notify" in r.stderr
    # (Qeq lowered with the capacity: a Qeq the queue cannot hold is an error of its own.)
    r = cnsim_cli("check", SCENARIO, "--set", "defaults.queue.capacity=1000B", "--set", "cp.qcn.qeq=500B")
    assert "warning: queue SW>D holds less than one frame (1000 B < the largest frame, 1500 B)" in r.stderr
    assert "warning" not in cnsim_cli("check", SCENARIO).stderr
    with pytest.warns(cnsim.ScenarioWarning, match="no reaction point"):
        cnsim.run(SCENARIO, set={"simulation.duration": "1ms", "simulation.measure_from": "0s", "flow.0.rp": '"none"'})
    assert cnsim.lint(SCENARIO) == []


def test_python_check_returns_the_warnings_the_cli_prints():
    r = cnsim_cli("check", SCENARIO, *NO_RP)
    printed = [line.removeprefix("warning: ") for line in r.stderr.splitlines() if line.startswith("warning: ")]
    checked = cnsim.check(SCENARIO, set={"flow.0.rp": '"none"'})
    assert printed and checked.warnings == printed
    assert isinstance(checked, str) and 'rp = "none"' in checked   # still the resolved TOML
    assert cnsim.check(SCENARIO).warnings == []


def test_shell_completion_script():
    exe = Path(sys.executable).with_name("cnsim")
    if not exe.exists():
        pytest.skip("the cnsim console script is not installed in this environment")
    r = subprocess.run([exe], capture_output=True, text=True, env={**os.environ, "_CNSIM_COMPLETE": "bash_source"})
    assert "_cnsim_completion" in r.stdout and "complete " in r.stdout


def test_progress_in_notebooks_is_plain_lines(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ipykernel", sys)  # what a Jupyter kernel has loaded
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # 4 ms: the last flow starts at 3 ms (a start at or after the end is warned about)
        cnsim.run(SCENARIO, set={"simulation.duration": "4ms", "simulation.measure_from": "0s"})
    err = capsys.readouterr().err
    assert "cnsim: unicast-qcn.toml 100%" in err
