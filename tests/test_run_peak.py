"""What a run holds at once: the simulation (its network, a third of a large fabric's peak
memory) is let go before the stats document is parsed, and what its taps recorded is kept."""

import types
import weakref

import cnsim
from cnsim import _core, api, jsonio

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

    def loads_tables(text, cuts):
        alive_at_parse.append([ref() is not None for ref in built])
        return jsonio.loads_tables(text, cuts)

    monkeypatch.setattr(_core, "Simulation", Watched)
    monkeypatch.setattr(api, "jsonio", types.SimpleNamespace(loads_tables=loads_tables, ROWS=jsonio.ROWS))
    result = cnsim.run(SCENARIO, figures=False, progress=False)
    assert alive_at_parse == [[False]]
    assert result.stats["frames"]["data_delivered"] > 0 and result.summary["global"]["cr_mean_mbps"] > 0


def test_the_taps_records_outlive_the_simulation():
    result = cnsim.run(SCENARIO, figures=False, progress=False, pcap="kind=cnm", trace="cnm_sent")
    assert result.capture is not None and result.trace is not None and len(result.trace) > 0


def test_take_series_moves_the_series_out():
    text = open(SCENARIO).read()
    sim = _core.Simulation(text, SCENARIO)
    api.drive(sim, lambda: None)
    copied = sim.series()
    taken = sim.take_series()
    assert copied == taken and len(taken["t"]) > 0
    assert sim.take_series() == {"names": [], "index": b"", "t": b"", "value": b""}


# A child that runs with record_interval = 1 ps, so that the series reach their guard, and prints its
# peak RSS (kB) before and after the run's outputs are written.
PEAK_CHILD = """
import resource, sys, cnsim
sets = {"simulation.record_interval": sys.argv[1], "simulation.max_series_memory": sys.argv[2]}
res = cnsim.run(sys.argv[3], set=sets, out=sys.argv[4], figures=True, progress=False)
print(str(res.stats["stopped_by"]).split()[0], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_series_at_their_guard_cost_little_more_than_the_guard(tmp_path):
    """Series that fill `max_series_memory` are copied out of the engine a column at a time and drawn
    thinned: the run's peak stays within the guard and a half of a run that records little, where
    copying every column whole, then a frame of them, once took 2.4 times the guard."""
    import subprocess
    import sys

    def peak(interval, guard, out):
        p = subprocess.run([sys.executable, "-c", PEAK_CHILD, interval, guard, "scenarios/mliki2016/dumbbell-multicast.toml",
                            str(tmp_path / out)], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        stopped, kb = p.stdout.split()[-2:]
        return stopped, int(kb) * 1024

    guard = 200_000_000
    stopped, base = peak("1ms", f"{guard}B", "base")
    assert stopped == "None"
    stopped, full = peak("1ps", f"{guard}B", "full")
    assert stopped == "max_series_memory"
    assert full - base < 1.5 * guard, (base, full)
    assert (tmp_path / "full" / "figures" / "throughput.png").exists()
