"""What a run holds at once: the simulation (its network, a third of a large fabric's peak
memory) is let go before the stats document is parsed, and what its taps recorded is kept."""

import json
import types
import weakref

import cnsim
from cnsim import _core, api

SCENARIO = "scenarios/examples/unicast-qcn.toml"


def test_a_run_lets_the_simulation_go_before_it_parses_the_stats(monkeypatch):
    built = []
    real = _core.Simulation

    class Watched:
        """The engine's simulation, seen through a weak reference."""

        def __init__(self, *args):
            self._sim = real(*args)
            built.append(weakref.ref(self))

        def __getattr__(self, name):
            return getattr(self._sim, name)

    alive_at_parse = []

    def loads(text):
        alive_at_parse.append([ref() is not None for ref in built])
        return json.loads(text)

    monkeypatch.setattr(_core, "Simulation", Watched)
    monkeypatch.setattr(api, "json", types.SimpleNamespace(loads=loads))
    result = cnsim.run(SCENARIO, figures=False, progress=False)
    assert alive_at_parse == [[False]]
    assert result.stats["frames"]["data_delivered"] > 0 and result.summary["global"]["cr_mean_mbps"] > 0


def test_the_taps_records_outlive_the_simulation():
    result = cnsim.run(SCENARIO, figures=False, progress=False, pcap="kind=cnm", trace="cnm_sent")
    assert result.capture is not None and result.trace is not None and len(result.trace) > 0
