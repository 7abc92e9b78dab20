"""Scenarios from a dict, a builder, TOML text or a path — explicitly."""

import tomllib
from pathlib import Path

import pytest

import cnsim
from cnsim.scenario import to_toml

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
SHORT = {"simulation.duration": "5ms", "simulation.measure_from": "1ms"}

DOC = {
    "simulation": {"duration": "5ms", "measure_from": "1ms"},
    "defaults": {"link": {"rate": "10Gbps", "delay": "0.5us"}, "queue": {"capacity": "100 frames"}},
    "cp": {"qcn": {}},
    "switch": [{"names": "SW"}],
    "host": [{"names": ["H1..H4", "D"]}],
    "link": [{"between": ["H1..H4", "SW"]}, {"between": ["SW", "D"]}],
    "flow": [{"from": "H1..H4", "to": "D", "traffic": {"kind": "cbr", "rate": "5Gbps"},
              "start": ["0s", "1ms", "2ms", "3ms"], "rp": {"qcn": {}}}],
}


def test_dict_builder_text_and_path_give_the_same_run():
    by_path = cnsim.run(cnsim.Scenario.from_path(PATH), set=SHORT)
    by_dict = cnsim.run(DOC)
    by_text = cnsim.run(cnsim.Scenario.from_toml(to_toml(DOC)))
    built = (cnsim.Builder(duration="5ms", measure_from="1ms")
             .defaults(link={"rate": "10Gbps", "delay": "0.5us"}, queue={"capacity": "100 frames"})
             .table("cp", qcn={})
             .switches("SW").hosts("H1..H4", "D")
             .link("H1..H4", "SW").link("SW", "D")
             .flow("H1..H4", "D", traffic={"kind": "cbr", "rate": "5Gbps"}, start=["0s", "1ms", "2ms", "3ms"],
                   rp={"qcn": {}})
             .build())
    by_builder = cnsim.run(built)
    for r in (by_dict, by_text, by_builder):
        assert r.summary["global"] == by_path.summary["global"]


def test_explicit_forms_and_errors_name_their_source():
    assert cnsim.Scenario.from_toml("[simulation]\n").label == "<string>"
    with pytest.raises(cnsim.ScenarioError, match="<dict>"):
        cnsim.check({**DOC, "simulation": {"duration": "-1s"}})
    with pytest.raises(TypeError, match="no TOML form"):
        cnsim.Scenario.from_dict({"simulation": {"duration": object()}})
    with pytest.raises(FileNotFoundError):
        cnsim.Scenario.from_path("no-such.toml")
    # A str without newline is a path, never TOML text.
    with pytest.raises(FileNotFoundError):
        cnsim.check('simulation.duration = "1s"')


SHIPPED = sorted((ROOT / "python/cnsim/scenarios").rglob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "python/cnsim/scenarios")))
def test_every_shipped_scenario_survives_writing_as_toml(path):
    """A shipped scenario read as a dict and written back (`to_toml`) is the same document, and the
    engine resolves it to the same scenario.toml a run writes."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    text = to_toml(doc)
    assert tomllib.loads(text) == doc
    assert cnsim.check(cnsim.Scenario.from_toml(text)) == cnsim.check(path)


def test_values_without_a_toml_form_name_their_key():
    with pytest.raises(ValueError, match=r"simulation\.seed: nan"):
        to_toml({"simulation": {"seed": float("nan")}})
    with pytest.raises(TypeError, match=r"flow\[\]\.start: .* no TOML form"):
        to_toml({"flow": [{"start": {1, 2}}]})


def test_generated_fat_tree_is_the_network_it_describes():
    """`fat_tree` builds its document as data: k = 4 is 20 switches, 16 hosts and 16 permutation
    flows, each crossing the core (5 links: host, edge, aggregation, core and back)."""
    from cnsim.generators import fat_tree

    d = cnsim.describe(fat_tree(4, cc="qcn"))
    kinds = [n["kind"] for n in d["nodes"]]
    assert kinds.count("host") == 16 and len(kinds) - kinds.count("host") == 20
    assert len(d["flows"]) == 16 and all(len(f["path"]) == 7 for f in d["flows"])
    assert len(d["cps"]) > 0


def test_generated_fat_tree_with_tcp_and_step_marking():
    """`fat_tree(queue=..., flow=..., overhead=...)`: every permutation flow is a bulk TCP
    connection with those keys, every queue marks at K, the links carry that overhead; DCTCP's
    marks reach the senders. The options that do not go together are refused."""
    from cnsim.generators import fat_tree

    text = fat_tree(4, flow={"traffic": {"kind": "tcp-bulk"}, "tcp": {"ecn": "dctcp", "init_cwnd": 10}},
                    queue={"discipline": "threshold", "threshold": {"k": "2 frames"}}, overhead="0B", duration="200us")
    d = cnsim.describe(text)
    assert len(d["flows"]) == 16 and all(len(f["path"]) == 7 for f in d["flows"])
    assert 'overhead = "0B"' in text and 'discipline = "threshold"' in text and 'kind = "tcp-bulk"' in text
    st = cnsim.run(text, figures=False).stats
    assert st["frames"]["data_delivered"] > 0 and st["frames"]["ack_delivered"] > 0
    assert sum(q.get("threshold_marks", 0) for q in st["queues"]) > 0
    with pytest.raises(ValueError, match="choose one"):
        fat_tree(4, cc="dcqcn", queue={"discipline": "red"})
    with pytest.raises(ValueError, match="not with workload"):
        fat_tree(4, flow={}, cc="qcn")
