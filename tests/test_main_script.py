"""The main command talks and installs nothing outside the project: scripts/setup.sh prints a line per
step with the elapsed time (and a line every 30 s while the engine builds), installs only into
.venv, says how to get the optional tshark; scripts/main.sh runs the set-up then the reproduction,
which ends by printing the verdict counts, the three most important findings and the report's path
(tests/test_reproduce_findings.py)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_WIDE = re.compile(r"\b(sudo|apt-get|apt|dnf|yum|brew|pacman|zypper|snap)\s+(install|-y|add)|\bpip\s+install\b.*--user|\bsudo\b")


def commands(path: Path) -> list[str]:
    """The script's lines without comments and echoed messages (what it runs)."""
    out = []
    for line in path.read_text().splitlines():
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        code = re.sub(r'echo "[^"]*"', "", code)
        if code.strip():
            out.append(code)
    return out


def test_the_scripts_install_nothing_outside_the_project():
    for script in ("setup.sh", "main.sh"):
        ran = commands(ROOT / "scripts" / script)
        assert ran, script
        assert not [c for c in ran if SYSTEM_WIDE.search(c)], script
    pip = [c for c in commands(ROOT / "scripts/setup.sh") if "pip install" in c]
    assert pip and all(c.lstrip().startswith(".venv/bin/python -m pip") for c in pip), pip


def test_setup_says_each_step_with_its_elapsed_time_and_how_to_get_tshark():
    text = (ROOT / "scripts/setup.sh").read_text()
    assert 'step "' in text and "$(date +%s) - start" in text
    assert re.search(r"while sleep 30\b.*step", text)            # the build is not silent
    assert re.search(r'tshark not found: .*optional', text)       # a word, not an installation


def test_setup_steps_print_elapsed_seconds():
    # The `step` function itself, run in a shell: "setup: WHAT (N s)".
    body = next(line for line in (ROOT / "scripts/setup.sh").read_text().splitlines() if line.startswith("step()"))
    r = subprocess.run(["bash", "-c", f"{body}\nstart=$(date +%s)\nstep 'pip ready'"], capture_output=True, text=True)
    assert re.fullmatch(r"setup: pip ready \(\d+ s\)\n", r.stderr), r.stderr


def test_main_runs_the_setup_then_the_reproduction():
    ran = commands(ROOT / "scripts/main.sh")
    assert any("scripts/setup.sh" in c for c in ran)
    assert any(re.search(r"cnsim reproduce \S+", c) for c in ran)
