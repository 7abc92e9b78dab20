"""Docs that run: every shell command and Python block of README.md and docs/ is executed, so that a
wrong flag, series name or metric in the docs fails here.

Conventions (docs/index.md states them for writers):

- every ```sh and ```python block runs, in order per page, in one scratch directory per page that
  has the shipped `scenarios/` (and `scripts/`); the commands of a ```sh block are `cnsim …` and
  `python …` lines (`source .venv/bin/activate` is a no-op: the tests already run in it);
- a block preceded by `<!-- not run: REASON -->` is skipped with that reason (a command that needs
  a cluster, a benchmark that takes minutes, the README's own set-up commands);
- `<!-- run with: SUBCOMMAND ARGS -->` before a block appends ARGS to every `cnsim SUBCOMMAND` line
  of the block (short durations: the page shows the real command, the test runs it short);
- output shown to the reader is in ```text blocks, which are not run.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^```(sh|python)\n(.*?)^```$", re.M | re.S)
NOT_RUN = re.compile(r"<!-- not run: (.+?) -->\s*$")
RUN_WITH = re.compile(r"<!-- run with: (\w+) (.+?) -->\s*$")
TIMEOUT_S = 300


def blocks(page: Path) -> list[tuple[int, str, str, str | None, dict[str, str]]]:
    """(line, language, body, reason not run, {subcommand: appended args}) of every block of a page."""
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").splitlines()
        notes = []
        while before and before[-1].startswith("<!--"):
            notes.append(before.pop())
        reason = next((NOT_RUN.match(n).group(1) for n in notes if NOT_RUN.match(n)), None)
        extra = {RUN_WITH.match(n).group(1): RUN_WITH.match(n).group(2) for n in notes if RUN_WITH.match(n)}
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2), reason, extra))
    return out


def commands(body: str) -> list[str]:
    """The commands of a shell block: continuations joined, a quoted string over several lines kept
    whole, comments and blank lines dropped."""
    out, pending = [], ""
    for line in re.sub(r"\\\n\s*", " ", body).splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending, comments=True)
        except ValueError:   # an open quote: the command goes on
            continue
        out.append(pending)
        pending = ""
    assert not pending, f"an unclosed quote in: {pending}"
    return out


def run_shell(line: str, extra: dict[str, str], cwd: Path, where: str) -> None:
    args = shlex.split(line, comments=True)
    if args[:1] == ["source"]:
        return
    if args[:1] == ["cnsim"]:
        argv = [sys.executable, "-m", "cnsim", *args[1:]]
        if len(args) > 1 and args[1] in extra:
            argv += shlex.split(extra[args[1]])
    elif args[:1] in (["python"], ["python3"], [".venv/bin/python"]):
        argv = [sys.executable, *args[1:]]
    else:
        pytest.fail(f"{where}: `{line}` is neither a cnsim nor a python command: mark the block "
                    "<!-- not run: REASON --> or show it as text")
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT / "python")}
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
    assert p.returncode == 0, f"{where}: `{line}` exited {p.returncode}:\n{p.stderr[-3000:]}"


def run_python(body: str, cwd: Path, where: str, namespace: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    old = Path.cwd()
    os.chdir(cwd)
    try:
        exec(compile(body, where, "exec"), namespace)
    except Exception as exc:  # the block's error, named by page and line
        pytest.fail(f"{where}: {type(exc).__name__}: {exc}")
    finally:
        os.chdir(old)
        import matplotlib.pyplot as plt

        plt.close("all")


def scratch(tmp: Path) -> Path:
    for name in ("scenarios", "scripts"):
        (tmp / name).symlink_to(ROOT / ("python/cnsim/scenarios" if name == "scenarios" else name))
    (tmp / "docs" / "img").mkdir(parents=True)
    (tmp / "tests").symlink_to(ROOT / "tests")
    return tmp


PAGES_WITH_CODE = [p for p in PAGES if blocks(p)]


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=[p.relative_to(ROOT).as_posix() for p in PAGES_WITH_CODE])
def test_every_block_of_the_page_runs(page, tmp_path):
    cwd = scratch(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    ran = 0
    for line, lang, body, reason, extra in blocks(page):
        if reason:
            continue
        where = f"{page.relative_to(ROOT)}:{line}"
        if lang == "python":
            run_python(body, cwd, where, namespace)
        else:
            for cmd in commands(body):
                run_shell(cmd, extra, cwd, where)
        ran += 1
    if not ran:
        pytest.skip("every block of the page is marked not run")


def test_a_quoted_string_over_several_lines_is_one_command():
    assert commands('python -c "a\nb"\n# note\ncnsim --version \\\n  -q\n') == ['python -c "a\nb"', "cnsim --version  -q"]


def test_every_skipped_block_says_why():
    for page in PAGES:
        for line, _, _, reason, _ in blocks(page):
            assert reason is None or len(reason.split()) >= 3, f"{page.relative_to(ROOT)}:{line}: say why it is not run"


SHOWN = {"text", "toml", "json", "rust", "lua", "yaml", "csv"}


def test_every_block_names_a_language_the_test_knows():
    """A block without a language, or in one the runner does not run (```bash), would escape it:
    every block is run (sh, python) or shown (text, a file's format)."""
    for page in PAGES:
        inside = False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if not line.lstrip().startswith("```"):
                continue
            if not inside:
                lang = line.lstrip()[3:].strip()
                assert lang in SHOWN | {"sh", "python"}, f"{page.relative_to(ROOT)}:{n}: a block in {lang or 'no language'!r}"
            inside = not inside


def test_the_conventions_are_stated_for_writers():
    assert "<!-- not run:" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")


def test_a_wrong_flag_in_a_block_fails(tmp_path):
    with pytest.raises(AssertionError, match="exited 2"):
        run_shell("cnsim run scenarios/examples/unicast-qcn.toml --no-such-flag", {}, scratch(tmp_path), "x.md:1")
