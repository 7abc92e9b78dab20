"""Run guards (docs/architecture.md §8): each stops the run cleanly, keeps what was recorded, and says which
guard stopped it."""

import pytest

import cnsim

DUMBBELL = "scenarios/mliki2016/dumbbell-multicast.toml"


def run(**sets):
    return cnsim.run(DUMBBELL, set=sets, figures=False, progress=False)


def balanced(stats):
    f = stats["frames"]
    return f["data_injected"] + f["data_replicated"] == f["data_delivered"] + f["data_dropped"] + f["data_in_flight"]


@pytest.mark.parametrize(
    "sets, guard",
    [
        ({"simulation.max_events": "200000"}, "max_events"),
        ({"simulation.max_series_memory": "200kB"}, "max_series_memory"),
        # 1 ns of wall time: the guard trips at its first check
        ({"simulation.max_wall_time": "1ns"}, "max_wall_time"),
    ],
)
def test_guard_stops_cleanly_with_partial_results(sets, guard):
    res = run(**sets)
    s = res.stats
    assert s["stopped_by"].startswith(guard)
    assert s["time"]["end_s"] < s["time"]["duration_s"]  # stopped early …
    assert balanced(s)  # … with consistent books
    if guard == "max_events":
        assert s["events"] == 200000
        assert s["frames"]["data_delivered"] > 0 and len(res.series_frame) > 0
    if guard == "max_series_memory":
        assert len(res.series_frame) * 20 <= 200_000
        assert len(res.series_frame) > 0
    assert res.summary["global"] is not None


def test_no_guard_runs_to_the_end():
    s = run(**{"simulation.duration": "1s", "simulation.measure_from": "0s"}).stats
    assert s["stopped_by"] is None and s["time"]["end_s"] == 1.0
