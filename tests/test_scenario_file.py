"""A scenario file is read only if it is a regular file under its size cap: a FIFO, a device or a
huge file is refused at once with one line naming it, never read until memory runs out or waited
on forever. Each case runs `cnsim check` in a child with a deadline."""

import subprocess
import sys
from pathlib import Path

import pytest

import odd_files

from cnsim.scenario import MAX_SCENARIO_BYTES

ROOT = Path(__file__).resolve().parents[1]
DEADLINE_S = 30


def check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cnsim", "check", str(path)], capture_output=True, text=True,
                          timeout=DEADLINE_S)


@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
def test_a_scenario_that_is_not_a_small_regular_file_is_refused_at_once(tmp_path, kind):
    target = tmp_path / "s.toml"
    odd_files.make(target, kind, MAX_SCENARIO_BYTES + 1)
    r = check(target)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and str(target) in r.stderr, r.stderr[:500]
    said = "not a regular file" if kind != "huge" else f"{MAX_SCENARIO_BYTES + 1} bytes, more than the {MAX_SCENARIO_BYTES}"
    assert said in r.stderr, r.stderr[:500]


def test_a_scenario_is_read_as_before(tmp_path):
    # CRLF line ends read as read_text read them, and a byte that is not UTF-8 named by its offset.
    text = (ROOT / "scenarios/examples/unicast-qcn.toml").read_text()
    (tmp_path / "crlf.toml").write_bytes(text.replace("\n", "\r\n").encode())
    assert check(tmp_path / "crlf.toml").returncode == 0
    (tmp_path / "latin.toml").write_bytes(b"# caf\xe9\n" + text.encode())
    r = check(tmp_path / "latin.toml")
    assert r.returncode == 2 and "not UTF-8 text (byte 5)" in r.stderr, r.stderr
