"""A non-editable install (the wheel) carries the scenarios, and an installed
cnsim reproduces and runs them from any directory. Builds the wheel (the engine in release mode;
the cargo target dir is shared with the editable build) and installs it in a fresh venv: ~1-2 min."""

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args, **kw):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)
    assert p.returncode == 0, f"{args}\n{p.stdout}\n{p.stderr}"
    return p


def test_installed_wheel_reproduces_from_any_directory(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # conftest points it at the tree
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    run(sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "-q", "-w", tmp_path / "dist", env=env)
    wheel = next((tmp_path / "dist").glob("cnsim-*.whl"))

    venv.create(tmp_path / "venv", with_pip=True)
    bin_ = tmp_path / "venv" / "bin"
    run(bin_ / "python", "-m", "pip", "install", "-q", wheel, env=env)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env["PYTHONSAFEPATH"] = "1"
    shipped = run(bin_ / "python", "-c", "from importlib.resources import files; import cnsim; "
                  "print(files('cnsim') / 'scenarios' / 'examples' / 'unicast-qcn.toml')", cwd=elsewhere, env=env)
    scenario = Path(shipped.stdout.strip())
    assert scenario.is_file() and (tmp_path / "venv") in scenario.parents  # the installed copy, not the tree

    run(bin_ / "cnsim", "reproduce", "mliki2016-dumbbell", "--quick", "-o", "tmpout", "--jobs", 2,
        cwd=elsewhere, env=env)
    assert (elsewhere / "tmpout" / "report.md").is_file()
    assert (elsewhere / "tmpout" / "figures" / "dumbbell-every-frame.png").is_file()
    run(bin_ / "cnsim", "run", scenario, "-q", "-o", "run", cwd=elsewhere, env=env)
    assert (elsewhere / "run" / "summary.json").is_file() and (elsewhere / "run" / ".cnsim-run.json").is_file()
