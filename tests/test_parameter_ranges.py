"""Parameters the engine states a range for are checked at load against what they sit on, with
file:line: a rate floor against the line rate of its flow's link, a marking threshold against the
capacity of its queue; and a rate-control slot with no marking queue on its path is warned about,
naming the flow."""

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import cnsim
from cnsim import _core

ROOT = Path(__file__).resolve().parents[1]
N2 = ROOT / "python/cnsim/scenarios/dcqcn2015/fixed-point-n2.toml"
DCTCP = ROOT / "python/cnsim/scenarios/examples/dctcp-two-flows.toml"


def check(path: Path, **sets):
    return cnsim.check(path, set=sets)


def test_a_dcqcn_rate_floor_above_the_line_rate_is_refused_with_its_line():
    with pytest.raises(_core.ScenarioError, match=r"fixed-point-n2\.toml:\d+:\d+: .*min_rate = 100000000000 b/s is above "
                                                  r"the line rate of the flow's source link \(40000000000 b/s\)"):
        check(N2, **{"flow.0.rp": '{ dcqcn = { min_rate = "100Gbps" } }'})
    check(N2, **{"flow.0.rp": '{ dcqcn = { min_rate = "40Gbps" } }'})     # the line rate itself is in range


def test_a_marking_threshold_the_queue_cannot_reach_is_refused():
    with pytest.raises(_core.ScenarioError, match=r"kmin = 3000000 B is not below the queue's capacity of 2000000 B"):
        check(N2, **{"defaults.queue": '{ capacity = "2MB", discipline = "dcqcn", dcqcn = { kmin = "3MB", kmax = "4MB" } }'})
    with pytest.raises(_core.ScenarioError, match=r"threshold\.k = 500 frames is not below the queue's capacity of 100 frames"):
        check(DCTCP, **{"defaults.queue": '{ capacity = "100 frames", discipline = "threshold", threshold = { k = "500 frames" } }'})


def test_a_red_min_th_the_queue_cannot_reach_is_refused_with_its_line(tmp_path):
    red = '{ capacity = "20 frames", discipline = "red", red = { min_th = MIN, max_th = 40 } }'
    text = DCTCP.read_text() + f'\n[[port]]\nat = "SW>D"\nqueue = {red.replace("MIN", "25")}\n'
    (tmp_path / "red.toml").write_text(text)
    line = text.count("\n", 0, text.index("queue = { capacity = \"20 frames\"")) + 1
    with pytest.raises(_core.ScenarioError, match=rf"red\.toml:{line}:\d+: .*min_th = 25 packets is not below the "
                                                  r"queue's capacity of 20 frames"):
        check(tmp_path / "red.toml")
    (tmp_path / "red.toml").write_text(text.replace("min_th = 25", "min_th = 5"))
    check(tmp_path / "red.toml")                                        # below the capacity: accepted
    with pytest.raises(_core.ScenarioError, match=r"min_th = 100 packets is not below the queue's capacity of 100 frames"):
        check(DCTCP, **{"defaults.queue": '{ capacity = "100 frames", discipline = "red", red = { min_th = 100, max_th = 200 } }'})


def test_dcqcn_on_a_path_that_never_marks_is_warned_about():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cnsim.run(N2, set={"defaults.queue": '{ capacity = "2000 frames" }', "simulation.duration": "1ms",
                               "simulation.measure_from": "0.5ms"}, progress=False, figures=False)
    said = [str(w.message) for w in caught]
    # At the flow's line, naming its reaction point and the queues of its path.
    assert any(re.match(r".*fixed-point-n2\.toml:\d+:\d+: flow \S+: its reaction point \(rp = dcqcn\)", m)
               and re.search(r"no queue on its path \([^)]*>[^)]*\) marks", m) for m in said), said
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cnsim.run(N2, set={"simulation.duration": "1ms", "simulation.measure_from": "0.5ms"}, progress=False,
                  figures=False)
    assert not any(re.search(r"no queue on its path \(.*\) marks", str(w.message)) for w in caught)  # the shipped one marks


@pytest.mark.parametrize("ecn", ["dctcp", "classic"])
def test_tcp_with_ecn_on_a_path_that_never_marks_is_warned_about(ecn):
    # The shipped scenario's queues mark; drop-tail ones do not: its ECN falls back to losses.
    unmarked = {"defaults.queue": '{ capacity = "1000 frames" }', "flow.0.tcp.ecn": ecn}
    said = cnsim.check(DCTCP, set=unmarked).warnings
    assert any(re.match(rf".*dctcp-two-flows\.toml:\d+:\d+: flow \S+: its transport \(tcp\.ecn = \"{ecn}\"\) reacts "
                        r"to ECN marks, but no queue on its path \([^)]*SW>D[^)]*\) marks .*only losses cut its window", m)
               for m in said), said
    assert not any("reacts to ECN marks" in m for m in cnsim.check(DCTCP, set={"flow.0.tcp.ecn": ecn}).warnings)
    assert not any("reacts to ECN marks" in m for m in cnsim.check(DCTCP, set={**unmarked, "flow.0.tcp.ecn": "off"}).warnings)


STAR = ROOT / "python/cnsim/scenarios/mliki2016/star-qcn.toml"


def test_a_qcn_qeq_the_queue_cannot_hold_is_refused_at_its_line(tmp_path):
    text = STAR.read_text().replace('qeq = "25 frames"', 'qeq = "100 frames"')
    (tmp_path / "s.toml").write_text(text)
    line = text.count("\n", 0, text.index('qeq = "100 frames"')) + 1
    with pytest.raises(_core.ScenarioError, match=rf"s\.toml:{line}:\d+: .*cp\.qcn\.qeq = 100 frames is not below the "
                                                  r"queue's capacity of 100 frames"):
        check(tmp_path / "s.toml")


def test_a_legal_but_mistaken_value_is_a_warning_at_its_line(tmp_path):
    (tmp_path / "s.toml").write_text(STAR.read_text() + '\n[[flow]]\nname = "fast"\nfrom = "S1"\nto = "R2"\n'
                                     'traffic = { kind = "cbr", rate = "1Tbps" }\n')
    _, said = cnsim.api.check_and_lint(tmp_path / "s.toml")      # what `cnsim check` prints
    assert any(re.match(r".*s\.toml:\d+:\d+: traffic\.rate = 1000000000000 b/s is above the line rate", m) for m in said), said


SC = ROOT / "python/cnsim/scenarios"


def refused(tmp_path, src: Path, old: str, new: str, *parts: str):
    """`src` with `old` replaced by `new` (once) is refused with a line of the file, and the message
    has each of `parts` (regular expressions: the key, the value, the range)."""
    text = src.read_text()
    assert old in text, old
    text = text.replace(old, new, 1)
    (tmp_path / src.name).write_text(text)
    with pytest.raises(_core.ScenarioError) as e:
        check(tmp_path / src.name)
    msg = str(e.value)
    assert re.match(rf".*{re.escape(src.name)}:\d+:\d+: ", msg), msg
    # Some line of the file (`refused_at` checks it is the key's own).
    assert 1 <= int(re.search(rf"{re.escape(src.name)}:(\d+):", msg).group(1)) <= text.count("\n") + 1, msg
    for p in parts:
        assert re.search(p, msg), (p, msg)
    return msg


def warned(tmp_path, src: Path, old: str, new: str, *parts: str):
    """`src` with `old` replaced by `new` runs, with a warning at a line of the file that has each
    of `parts`."""
    text = src.read_text()
    assert old in text, old
    (tmp_path / src.name).write_text(text.replace(old, new, 1))
    _, said = cnsim.api.check_and_lint(tmp_path / src.name)      # what `cnsim check` prints
    hits = [m for m in said if re.match(rf".*{re.escape(src.name)}:\d+:\d+: ", m) and all(re.search(p, m) for p in parts)]
    assert hits, said


def test_transport_ranges_name_key_value_and_range(tmp_path):
    refused(tmp_path, DCTCP, 'tcp = { ecn = "dctcp", rwnd = 10000 }', 'tcp = { ecn = "dctcp", rwnd = 10000, dctcp_g = 1.5 }',
            r"tcp\.dctcp_g", r"1\.5", r"\(0, 1\]")
    refused(tmp_path, DCTCP, 'tcp = { ecn = "dctcp", rwnd = 10000 }', 'tcp = { ecn = "dctcp", rwnd = 0 }',
            r"tcp\.rwnd", r"got 0", r"at least 1")
    refused(tmp_path, SC / "timely/dumbbell.toml", 'init_rate = "8Gbps"', 'init_rate = "8Gbps", min_rate = "20Gbps"',
            r"timely\.min_rate = 20000000000 b/s", r"\(0, line rate of the flow's source link \(10000000000 b/s\)\]")
    refused(tmp_path, SC / "swift/chain.toml", "transport = { swift = {} }", "transport = { swift = { init_cwnd = 5000.0 } }",
            r"swift\.init_cwnd", r"5000", r"\[0\.001, 1000\]")
    refused(tmp_path, SC / "examples/hpcc-dumbbell.toml", 'base_rtt = "4.2us"', 'base_rtt = "4.2us", eta = 0',
            r"hpcc\.eta", r"got 0", r"\(0, 1\]")


def test_a_start_rate_outside_the_rate_bounds_is_a_warning_at_its_flow(tmp_path):
    warned(tmp_path, SC / "timely/dumbbell.toml", 'init_rate = "8Gbps"', 'init_rate = "80Gbps"',
           r"timely\.init_rate = 80000000000 b/s", r"\[10000000, 10000000000\] b/s")


def test_dcqcn_gains_and_marking_against_a_capacity_in_frames(tmp_path):
    with pytest.raises(_core.ScenarioError, match=r"fixed-point-n2\.toml:\d+:\d+: .*rp\.dcqcn\.g must be in \(0, 1\], got 2"):
        check(N2, **{"flow.0.rp": "{ dcqcn = { g = 2.0 } }"})
    with pytest.raises(_core.ScenarioError, match=r"rp\.dcqcn\.timer must be positive .*got 0"):
        check(N2, **{"flow.0.rp": '{ dcqcn = { timer = "0s" } }'})
    # Kmin in bytes against a capacity in frames: the frames counted at simulation.frame_size.
    refused(tmp_path, N2, 'capacity = "2000 frames"', 'capacity = "4 frames"',
            r"queue\.dcqcn\.kmin = 5000 B is not below the queue's capacity of 4 frames \(4000 B at simulation\.frame_size = 1000 B\)")


def test_pause_xoff_the_queue_cannot_reach(tmp_path):
    # Egress trigger, a capacity in bytes: the queue surely drops before it holds XOFF.
    in_bytes = tmp_path / "n2-bytes.toml"
    in_bytes.write_text(N2.read_text().replace('capacity = "2000 frames"', 'capacity = "2000000B"', 1))
    refused(tmp_path, in_bytes, 'xoff = "400 frames"', 'trigger = "egress"\nxoff = "2000 frames"',
            r"flow_control\.pfc\.xoff = 2000 frames is not below the queue's capacity of 2000000 ?B")
    # A capacity in frames holds frames of any size: larger frames than frame_size reach XOFF.
    warned(tmp_path, N2, 'xoff = "400 frames"', 'trigger = "egress"\nxoff = "2000 frames"',
           r"flow_control\.pfc\.xoff = 2000 frames is not below the queue's capacity of 2000 frames",
           r"frame_size = 1000 B")
    warned(tmp_path, N2, 'xoff = "400 frames"', 'xoff = "2000 frames"',
           r"flow_control\.pfc\.xoff = 2000 frames is not below the queue's capacity of 2000 frames")
    warned(tmp_path, N2, 'xon = "380 frames"', 'xon = "400 frames"', r"flow_control\.pfc\.xon = 400 frames equals flow_control\.pfc\.xoff")


def test_ecm_and_multicast_receiver_ranges(tmp_path):
    refused(tmp_path, SC / "nakauchi2006/emcast-cbr.toml", 'cc = { emcast = { rtt = "60ms" } }', 'cc = { emcast = { rtt = "60ms", ratio = 20.0 } }',
            r"emcast\.ratio", r"\[1, 16\]", r"got 20")
    refused(tmp_path, SC / "nakauchi2006/rlm-cbr.toml", "loss_threshold = 0.1 }", "loss_threshold = 0.1, alpha = 0.5 }",
            r"rlm\.alpha", r"\[1, 100\]", r"got 0\.5")


def test_a_workload_that_may_create_no_flow_is_refused_at_max_flows(tmp_path):
    fat = SC / "examples/websearch-fattree.toml"
    refused(tmp_path, fat, "[[workload]]\n", "[[workload]]\nmax_flows = 0\n", r"max_flows must be at least 1, got 0")


def test_an_incast_outside_its_ranges_is_refused(tmp_path):
    fat = SC / "examples/websearch-fattree.toml"
    sized = 'sizes = "web-search"\nload = 0.5\n'
    incast = 'incast = {{ receiver = "H1", senders = {}, size = "{}", period = "{}" }}\n'
    refused(tmp_path, fat, sized, incast.format(16, "10KB", "1ms"), r"incast\.senders must be in 1\.\.=15", r"got 16")
    refused(tmp_path, fat, sized, incast.format(4, "0B", "1ms"), r"incast\.size must be positive, got 0 ?B")
    refused(tmp_path, fat, sized, incast.format(4, "10KB", "0s"), r"incast\.period must be positive, got 0")


def line_of(text: str, what: str) -> int:
    return text.count("\n", 0, text.index(what)) + 1


def refused_at(tmp_path, src: Path, old: str, new: str, key_line: str, *parts: str):
    """As `refused`, and the error names the line of `key_line` (the offending key's own line)."""
    msg = refused(tmp_path, src, old, new, *parts)
    text = (tmp_path / src.name).read_text()
    assert re.match(rf".*{re.escape(src.name)}:{line_of(text, key_line)}:\d+: ", msg), (line_of(text, key_line), msg)


def test_a_range_error_in_a_flow_s_inline_transport_names_the_key_s_line(tmp_path):
    refused_at(tmp_path, DCTCP, 'tcp = { ecn = "dctcp", rwnd = 10000 }', 'tcp = {\n  ecn = "dctcp",\n  rwnd = 0,\n}',
               "rwnd = 0", r"tcp\.rwnd", r"got 0")


def test_a_range_error_in_a_flow_s_inline_reaction_point_names_the_key_s_line(tmp_path):
    refused_at(tmp_path, N2, 'rp = { dcqcn = { cnp_pacing = "window" } }',
               'rp = { dcqcn = {\n  cnp_pacing = "window",\n  min_rate = "100Gbps",\n} }',
               'min_rate = "100Gbps"', r"rp\.dcqcn\.min_rate = 100000000000 b/s is above the line rate")


def test_a_range_error_in_a_workload_s_inline_table_names_the_key_s_line(tmp_path):
    fat = SC / "examples/websearch-fattree.toml"
    refused_at(tmp_path, fat, 'traffic = "transfer"\n', 'traffic = "transfer"\nrp = { dcqcn = { g = 2.0 } }\n',
               "g = 2.0", r"rp\.dcqcn\.g must be in \(0, 1\], got 2")


def test_a_range_error_in_a_queue_discipline_s_table_names_the_key_s_line(tmp_path):
    red = 'queue = { capacity = "20 frames", discipline = "red", red = {\n  max_th = 40,\n  min_th = 25,\n} }'
    # A port's queue, a link's queue, and the `[defaults]` queue a link takes.
    refused_at(tmp_path, DCTCP, "[[flow]]", f'[[port]]\nat = "SW>D"\n{red}\n\n[[flow]]', "min_th = 25",
               r"queue\.red\.min_th = 25 packets is not below the queue's capacity of 20 frames")
    refused_at(tmp_path, N2, 'between = ["SW", "R"]', f'between = ["SW", "R"]\n{red}', "min_th = 25", r"min_th = 25 packets")
    refused_at(tmp_path, N2, 'queue = { capacity = "2000 frames", discipline = "dcqcn", dcqcn = { kmin = "5KB", kmax = "200KB", pmax = 0.01 } }',
               'queue = { capacity = "2000 frames", discipline = "dcqcn", dcqcn = {\n  kmin = "5KB",\n  kmax = "200KB",\n  pmax = 2.0,\n} }',
               "pmax = 2.0", r"queue\.dcqcn\.pmax must be in \[0, 1\], got 2")


def test_a_range_error_in_a_port_s_congestion_point_names_the_key_s_line(tmp_path):
    refused_at(tmp_path, STAR, "[cp.qcn]", '[[port]]\nat = "Switch1>R2"\ncp = { qcn = {\n  w = 2.0,\n  qeq = "500 frames",\n} }\n\n[cp.qcn]',
               'qeq = "500 frames"', r"cp\.qcn\.qeq = 500 frames is not below the queue's capacity")


@pytest.mark.parametrize("scenario, key", [("scenarios/mliki2016/dumbbell-multiple-unicast.toml", "qcn"),
                                           ("scenarios/jiang2007/symmetric.toml", "bcn")])
def test_a_reaction_point_on_a_path_with_no_congestion_point_is_warned_about(scenario, key):
    # QCN's and BCN's rates are cut only by a CP's messages: with `cp = "none"` nothing ever cuts them.
    def check_cli(*sets):
        return subprocess.run([sys.executable, "-m", "cnsim", "check", scenario, *sets], cwd=ROOT,
                              capture_output=True, text=True)

    r = check_cli("--set", 'cp="none"')
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stderr.splitlines() if "congestion point's feedback" in line]
    assert said and all(re.match(rf"warning: {re.escape(scenario)}:\d+:\d+: flow \S+: its reaction point "
                                 rf"\(rp = {key}\) is cut only by a congestion point's feedback, but no port on "
                                 r"its path \([^)]*>[^)]*\) has a congestion point", line) for line in said), r.stderr
    assert "congestion point's feedback" not in check_cli().stderr     # the shipped one has its CPs
