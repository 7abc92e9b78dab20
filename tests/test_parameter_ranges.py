"""Parameters the engine states a range for are checked at load against what they sit on, with
file:line: a rate floor against the line rate of its flow's link, a marking threshold against the
capacity of its queue; and a rate-control slot with no marking queue on its path is warned about,
naming the flow."""

import re
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
    with pytest.raises(_core.ScenarioError, match=rf"red\.toml:{line - 1}:\d+: .*min_th = 25 packets is not below the "
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
    assert any("rp = dcqcn" in m and "no queue on its path marks" in m for m in said), said
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cnsim.run(N2, set={"simulation.duration": "1ms", "simulation.measure_from": "0.5ms"}, progress=False,
                  figures=False)
    assert not any("no queue on its path marks" in str(w.message) for w in caught)   # the shipped one marks


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
