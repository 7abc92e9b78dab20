"""The hand-made stats documents of tests/factories.py have the engine's real shape: every key a
factory writes exists, at the same place, in the stats document of a real run (so a unit test
built on them cannot pass on a field the engine does not have)."""

import pytest

import cnsim
import factories

SCENARIO = "scenarios/mliki2016/dumbbell-multicast.toml"
SHORT = {"simulation.duration": "200ms", "simulation.measure_from": "100ms"}


@pytest.fixture(scope="module")
def real():
    return cnsim.run(SCENARIO, set=SHORT).stats


def _missing(made: dict, real: dict, where: str) -> list[str]:
    out = []
    for key, value in made.items():
        if key not in real:
            out.append(f"{where}.{key}")
        elif isinstance(value, dict) and isinstance(real[key], dict):
            out += _missing(value, real[key], f"{where}.{key}")
    return out


def test_port_entries_exist():
    real = cnsim.run("scenarios/examples/incast-pause.toml").stats
    assert _missing(factories.port("SW>H1"), real["ports"][0], "ports") == []


def test_top_level_time_and_counters_exist(real):
    made = factories.stats(window={"feedback_sent": 3})
    assert _missing(made, real, "stats") == []


@pytest.mark.parametrize("kind, made", [
    ("rps", factories.rp("S1", 100.0, first_cnm_s=1.0)),
    ("queues", factories.queue("Switch1>Switch2", True, 10.0, qeq=25)),
    ("flows", factories.flow("S1", {"R1": 100.0})),
])
def test_entity_entries_exist(real, kind, made):
    assert real[kind], f"the real run has no {kind}"
    entry = real[kind][0]
    assert _missing({k: v for k, v in made.items() if k != "receivers"}, entry, kind) == []
    if kind == "flows":
        assert _missing(made["receivers"][0], entry["receivers"][0], "flows.receivers") == []
