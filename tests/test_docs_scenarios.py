"""Keep docs/scenarios.md honest.

Conventions of docs/scenarios.md (also stated at the top of that page):

- every ```toml block is a complete scenario and must pass `cnsim.check`, unless its first line is
  `# snippet`: then it is a fragment and must only parse as TOML;
- every `--set KEY=VALUE` written on the page (in ```sh blocks and in inline code) and every
  Python `set={...}` / `set=[...]` example must be accepted by the engine on at least one shipped
  scenario. Overrides shown because they fail are written without the `--set` prefix. Inline
  code counts when it starts with `--set` or `cnsim` (error messages that quote an override do
  not); placeholders (`--set KEY=VALUE`, a VALUE of `...`, no `=`) are skipped.
"""

import ast
import re
import shlex
import tomllib
from pathlib import Path

import pytest

import cnsim

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "scenarios.md"
SCENARIOS = sorted((ROOT / "python" / "cnsim" / "scenarios").glob("*/*.toml"))
TEXT = DOC.read_text(encoding="utf-8")


def _blocks(lang: str) -> list[tuple[int, str]]:
    """(line number, body) of every fenced block of `lang`."""
    out = []
    for m in re.finditer(rf"^```{lang}\n(.*?)^```$", TEXT, re.M | re.S):
        out.append((TEXT.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


TOML_BLOCKS = _blocks("toml")


def _overrides() -> list[tuple[str, str]]:
    """Every `--set KEY=VALUE` of the page, as the shell would pass it, and every Python example."""
    lines = [ln for _, body in _blocks("sh") for ln in body.splitlines()]
    lines += re.findall(r"`((?:--set|cnsim) [^`\n]*)`", TEXT)
    out = []
    for ln in lines:
        toks = shlex.split(ln, comments=True)
        for i, t in enumerate(toks[:-1]):
            if t == "--set":
                key, eq, value = toks[i + 1].partition("=")
                if eq and key != key.upper() and value != "...":  # not a placeholder
                    out.append((key, value))
    for m in re.finditer(r"\bset=(\{[^}]*\}|\[[^\]]*\])", TEXT):
        v = ast.literal_eval(m.group(1))
        items = v.items() if isinstance(v, dict) else (s.partition("=")[::2] for s in v)
        out.extend((k, str(x)) for k, x in items)
    return out


OVERRIDES = _overrides()


def test_the_page_has_examples():
    assert len([b for b in TOML_BLOCKS if not b[1].startswith("# snippet")]) >= 2
    assert len(OVERRIDES) >= 10
    assert SCENARIOS


@pytest.mark.parametrize("line,body", TOML_BLOCKS, ids=[f"line{n}" for n, _ in TOML_BLOCKS])
def test_toml_block(line, body):
    if body.startswith("# snippet"):
        tomllib.loads(body)  # a fragment: it must at least be TOML
        return
    try:
        cnsim.check(body)
    except cnsim.ScenarioError as exc:
        pytest.fail(f"docs/scenarios.md:{line}: scenario block rejected: {exc}")


@pytest.mark.parametrize("key,value", OVERRIDES, ids=[f"{k}={v}" for k, v in OVERRIDES])
def test_set_example(key, value):
    errors = []
    for path in SCENARIOS:
        try:
            cnsim.check(str(path), set=[f"{key}={value}"])
            return
        except cnsim.ScenarioError as exc:
            errors.append(f"{path.name}: {exc}")
    pytest.fail(f"--set {key}={value} is accepted by no shipped scenario:\n" + "\n".join(errors))
