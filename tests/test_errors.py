"""A malformed scenario gives a one-line `ScenarioError` naming the file and the line, never a panic
or a traceback; the CLI prints it as `error: <message>` and exits 2 (docs/scenarios.md, Errors)."""

import json
import subprocess
import sys

import pytest

_core = pytest.importorskip("cnsim._core")
ScenarioError = _core.ScenarioError

PATH = "x.toml"

# A small valid scenario: two sources, one switch, a group of two receivers.
BASE = """\
[simulation]
duration = "10ms"

[[switch]]
names = "SW"
[[host]]
names = ["S1..S2", "R1", "R2"]
[[link]]
between = ["S1..S2", "SW"]
[[link]]
between = ["SW", ["R1", "R2"]]

[[group]]
name = "G"
members = ["R1", "R2"]

[[flow]]
from = "S1"
to = "G"
traffic = { kind = "cbr", rate = "100Mbps" }
"""


def edit(old: str, new: str, text: str = BASE) -> str:
    """`text` with the one occurrence of `old` replaced by `new`."""
    assert text.count(old) == 1, f"{old!r} must occur once"
    return text.replace(old, new)


def line_of(text: str, fragment: str) -> int:
    """1-based number of the only line of `text` that contains `fragment`."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(hits) == 1, f"{fragment!r} is on lines {hits}"
    return hits[0]


def check_error(text: str, overrides=()) -> str:
    """The ScenarioError message of checking `text`, asserted to be one line starting `x.toml:`."""
    with pytest.raises(ScenarioError) as info:
        _core.check(text, PATH, list(overrides))
    msg = str(info.value)
    assert "\n" not in msg and "\r" not in msg, msg
    assert msg.startswith(PATH + ":"), msg
    assert "panicked" not in msg, msg
    return msg


def assert_at_line(msg: str, line: int) -> None:
    assert msg.startswith(f"{PATH}:{line}:"), f"expected line {line}: {msg}"


def test_base_is_valid():
    _core.check(BASE, PATH, [])


# (id, scenario text, the text on the line the error must name, words the message must contain)
PLACED = [
    (
        "bad-rate-unit",
        edit('rate = "100Mbps"', 'rate = "1Gbit"'),
        'rate = "1Gbit"',
        ["1Gbit", "unit"],
    ),
    (
        "negative-rate",
        edit('rate = "100Mbps"', 'rate = "-1Gbps"'),
        'rate = "-1Gbps"',
        ["negative"],
    ),
    (
        "unknown-key-in-table",
        edit('duration = "10ms"', 'duration = "10ms"\nmeasure_form = "1ms"'),
        "measure_form",
        ["measure_form", "measure_from"],  # names the typo and suggests the right key
    ),
    (
        "unknown-key-in-inline-table",
        edit('kind = "cbr"', 'knd = "cbr"'),
        'knd = "cbr"',
        ["knd"],
    ),
    (
        "unknown-node-in-link",
        edit('between = ["SW", ["R1", "R2"]]', 'between = ["SW", ["R1", "R3"]]'),
        '"R3"',
        ["unknown node", "R3"],
    ),
    (
        "flow-to-unknown-group",
        edit('to = "G"', 'to = "G2"'),
        'to = "G2"',
        ["G2"],
    ),
    (
        "flow-to-unknown-host",
        edit('to = "G"', 'to = "R9"'),
        'to = "R9"',
        ["R9"],
    ),
    (
        "disconnected-group-member",
        # R3 is a host and a member of G, but has no link: no path from S1.
        edit('members = ["R1", "R2"]', 'members = ["R1", "R2", "R3"]', edit('"R1", "R2"]\n[[link]]', '"R1", "R2", "R3"]\n[[link]]')),
        'to = "G"',
        ["R3", "not reachable", "S1"],
    ),
    (
        "range-with-different-prefixes",
        edit('names = ["S1..S2"', 'names = ["S1..T2"'),
        '"S1..T2"',
        ["S1..T2"],
    ),
    (
        "measure-from-not-before-duration",
        edit('duration = "10ms"', 'duration = "10ms"\nmeasure_from = "10ms"'),
        "measure_from",
        ["measure_from", "duration"],
    ),
]


@pytest.mark.parametrize("text, fragment, words", [c[1:] for c in PLACED], ids=[c[0] for c in PLACED])
def test_error_names_the_line(text, fragment, words):
    msg = check_error(text)
    for w in words:
        assert w in msg, f"{w!r} not in: {msg}"
    assert_at_line(msg, line_of(text, fragment))


BAD_SETS = [
    ("flow.5.traffic.rate", "1Gbps", ["flow.5", "out of range"]),
    ("flow.x.traffic.rate", "1Gbps", ["flow", "index"]),
    ("flow.0", "1", ["cannot replace a whole table"]),
    ("simulation.duration.x", "1", ["duration.x", "not a table"]),
    ("simulation..duration", "1s", ["empty key segment"]),
]


@pytest.mark.parametrize("key, value, words", BAD_SETS, ids=[k for k, _, _ in BAD_SETS])
def test_bad_set_path(key, value, words):
    msg = check_error(BASE, [(key, value)])
    assert msg.startswith(f"{PATH}: --set {key}={value}: "), msg
    for w in words:
        assert w in msg, f"{w!r} not in: {msg}"


def test_bad_set_value_names_the_key_line():
    # The key exists in the file, so the error is on its line.
    msg = check_error(BASE, [("simulation.duration", "1Gbps")])
    assert "1Gbps" in msg
    assert_at_line(msg, line_of(BASE, "duration ="))


def test_set_that_adds_a_key_keeps_line_numbers():
    # `simulation.seed` is not in the file: setting it must not move the error in the flow.
    text = edit('rate = "100Mbps"', 'rate = "1Gbit"')
    msg = check_error(text, [("simulation.seed", "3")])
    assert_at_line(msg, line_of(text, 'rate = "1Gbit"'))


def test_seed_keeps_line_numbers():
    # --seed sets simulation.seed, which the file does not have.
    text = edit('to = "G"', 'to = "G2"')
    with pytest.raises(ScenarioError) as info:
        _core.Simulation(text, PATH, [], 5)
    assert_at_line(str(info.value), line_of(text, 'to = "G2"'))


def test_public_check_raises_scenario_error(tmp_path):
    import cnsim

    path = tmp_path / "x.toml"
    path.write_text(edit('rate = "100Mbps"', 'rate = "-1Gbps"'))
    with pytest.raises(cnsim.ScenarioError) as info:
        cnsim.check(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}:{line_of(BASE, 'rate =')}:") and "\n" not in msg, msg


# --- the command line -------------------------------------------------------------------------


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def assert_clean_failure(proc, usage_error=False):
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, out
    assert "panicked" not in out, out
    assert proc.returncode == 2, (proc.returncode, out)
    if not usage_error:
        assert proc.stderr.startswith("error: "), proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


CLI_CASES = [
    ("bad-rate-unit", edit('rate = "100Mbps"', 'rate = "1Gbit"'), [], 'rate = "1Gbit"'),
    ("unknown-node-in-link", edit('between = ["SW", ["R1", "R2"]]', 'between = ["SW", ["R1", "R3"]]'), [], '"R3"'),
    ("bad-set-path", BASE, ["--set", "flow.5.traffic.rate=1Gbps"], None),
]


@pytest.mark.parametrize("text, args, fragment", [c[1:] for c in CLI_CASES], ids=[c[0] for c in CLI_CASES])
def test_cli_reports_one_line_error(tmp_path, text, args, fragment):
    (tmp_path / "x.toml").write_text(text)
    proc = run_cli("check", "x.toml", *args, cwd=tmp_path)
    assert_clean_failure(proc)
    if fragment is None:
        assert proc.stderr.startswith("error: x.toml: --set "), proc.stderr
    else:
        assert proc.stderr.startswith(f"error: x.toml:{line_of(text, fragment)}:"), proc.stderr


def test_cli_set_without_equals(tmp_path):
    (tmp_path / "x.toml").write_text(BASE)
    proc = run_cli("check", "x.toml", "--set", "simulation.duration", cwd=tmp_path)
    assert_clean_failure(proc)
    assert "expected key=value" in proc.stderr


def test_cli_file_not_utf8(tmp_path):
    (tmp_path / "x.toml").write_bytes(b'[simulation]\nduration = "\xff"\n')
    proc = run_cli("check", "x.toml", cwd=tmp_path)
    assert_clean_failure(proc)
    assert "x.toml" in proc.stderr


def test_cli_negative_seed(tmp_path):
    (tmp_path / "x.toml").write_text(BASE)
    proc = run_cli("run", "x.toml", "--seed", "-1", "-q", "--no-figures", "-o", tmp_path / "out", cwd=tmp_path)
    assert_clean_failure(proc, usage_error=True)


def test_port_ranges_and_parallel_links():
    from cnsim import _core

    base = '[[switch]]\nnames = "SW"\n[[host]]\nnames = ["R1", "R2"]\n[[link]]\nbetween = ["SW", "R1..R2"]\n'
    sim = _core.Simulation(base + '[[port]]\nat = "SW>R1..R2"\nqueue = { capacity = "10 frames" }\n', "x.toml", [])
    caps = {q["name"]: q["capacity"] for q in json.loads(sim.stats_json())["queues"]}
    assert caps == {"SW>R1": "10 frames", "SW>R2": "10 frames"}
    with pytest.raises(_core.ScenarioError, match="x.toml:8:11: a second link between R1 and SW"):
        _core.check(base + '[[link]]\nbetween = ["R1", "SW"]\n', "x.toml", [])


@pytest.mark.parametrize("text", [
    edit("[simulation]\n", "[simulation]\nseed = 1e308\n"),  # serde's message writes the float
    edit("[simulation]\n", "[cp]\nqcn = { w = -1e308 }\n[simulation]\n"),  # a range check's
])
def test_a_huge_number_is_written_with_an_exponent(text):
    msg = check_error(text)
    said = msg.split(" (at: ")[0]
    assert "e308" in said and len(said) < 200, msg


def test_cli_count_beyond_the_engine_s_u64_is_a_usage_error(tmp_path):
    (tmp_path / "x.toml").write_text(BASE)
    proc = run_cli("run", "x.toml", "--max-events", "1e308", "-q", "--no-figures", "-o", tmp_path / "out", cwd=tmp_path)
    assert_clean_failure(proc, usage_error=True)
    assert "not a whole number in [1, 18446744073709551615]" in proc.stderr and len(proc.stderr) < 400


@pytest.mark.parametrize("old, new, code", [
    ('"S1..S2", "R1", "R2"]', '"S1..S2", "R1", "R\u202e2"]', "U+202E"),  # a right-to-left override, as written
    ('"S1..S2", "R1", "R2"]', '"S1..S2", "R1", "R\\u202E2"]', "U+202E"),  # ... as an escape
    ('name = "G"', 'name = "G\\u001b[31m"', "U+001B"),  # a terminal's escape character
    ('duration = "10ms"', 'duration = "10ms" # \u2066 isolate', "U+2066"),  # in a comment
])
def test_invisible_characters_are_refused_at_their_line(old, new, code):
    text = edit(old, new)
    msg = check_error(text)
    assert_at_line(msg, line_of(text, new))
    assert code in msg
    assert not any(c in msg for c in "\u202e\u2066\x1b"), msg  # the echoed line shows them escaped


def test_an_override_with_an_invisible_character_is_refused():
    msg = check_error(BASE, [("flow.0.name", '"F\\u202e"')])
    assert "U+202E" in msg and "\u202e" not in msg


def test_visible_unicode_and_escaped_quotes_are_fine():
    text = edit('name = "G"', 'name = "Gé名\\"x"')
    _core.check(edit('to = "G"', 'to = "Gé名\\"x"', text), PATH, [])
