"""The documentation site: `mkdocs build --strict` (warnings are errors) over
docs/ with the API reference generated from the docstrings, and the tutorial's commands run."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"


def test_site_builds_without_warnings(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]'; scripts/setup.sh does)")
    pytest.importorskip("mkdocstrings")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert r.returncode == 0, r.stdout + r.stderr
    reference = (tmp_path / "site" / "reference" / "results" / "index.html").read_text()
    assert "Reopen a run directory" in reference  # Result.load's docstring, generated
    assert (tmp_path / "site" / "tutorial" / "index.html").exists()


def tutorial_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", TUTORIAL.read_text(), flags=re.S)
    return [line.split("  #")[0].strip() for b in blocks for line in b.splitlines() if line.startswith("cnsim ")]


def test_tutorial_commands_run(tmp_path):
    commands = tutorial_commands()
    assert len(commands) >= 7 and any(c.startswith("cnsim sweep") for c in commands)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    for command in commands:
        args = shlex.split(command)
        r = subprocess.run([sys.executable, "-m", "cnsim", *args[1:]], cwd=tmp_path, capture_output=True, text=True)
        assert r.returncode == 0, f"{command}\n{r.stderr}"
    assert (tmp_path / "out/tutorial/q_mean.png").stat().st_size > 5000
    assert (tmp_path / "out/tutorial/observed/capture.pcapng").exists()
    assert (tmp_path / "out/tutorial/observed/trace.parquet").exists()
