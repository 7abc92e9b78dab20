"""One source of truth for metrics: every number of the engine's stats document is declared
(name, unit, kind) by the engine or the protocol that reports it, under the scope it lives in, so a
new statistic cannot be added without its declaration (docs/internals/core-api.md)."""

from collections import Counter
from pathlib import Path

import pytest

import cnsim
from cnsim.results import stat_rows

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.toml"))
SHORT = {"simulation.duration": "20ms", "simulation.measure_from": "10ms"}
KINDS = {"counter", "counter-window", "gauge", "time-average", "time", "series", "parameter"}


def test_declarations_are_well_formed_and_unique():
    decl = cnsim.metric_declarations()
    assert decl and all(set(d) == {"scope", "name", "unit", "kind", "doc"} for d in decl)
    assert all(d["kind"] in KINDS and d["unit"] and d["doc"] for d in decl)
    twice = [k for k, n in Counter((d["scope"], d["name"]) for d in decl).items() if n > 1]
    assert not twice, f"declared more than once: {twice}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_stat_is_declared(path):
    declared = {(d["scope"], d["name"]) for d in cnsim.metric_declarations()}
    stats = cnsim.run(path, set=SHORT, figures=False, progress=False).stats
    found = {(r["scope"], r["metric"]) for r in stat_rows(stats)}
    assert found - declared == set(), f"{path.name}: stats without a declaration"


def test_pause_ports_are_declared_and_flattened():
    res = cnsim.run(ROOT / "scenarios/examples/incast-pause.toml", set=SHORT, figures=False, progress=False)
    frame = res.stats_frame
    ports = frame[frame.scope == "ports"]
    assert not ports.empty and ports["unit"].notna().all()
    assert set(ports[ports.metric == "paused_s"].element) == set(range(8))  # one row per priority
    assert frame["unit"].notna().all()


# Protocol variants no shipped scenario uses on its own (the reproductions reach them by overrides).
VARIANTS = [
    ("roeck2007/symmetric-latency.toml", {"cp": "{ ecm = {} }", "flow.0.rp": "{ ecm = { rtt_drop = true } }"}),
    ("roeck2007/oscillating-hotspot.toml", {"flow.0.rp": '{ eqcn = { probe = "cp" } }', "simulation.duration": "30ms"}),
]
SECTIONS = {"time", "frames", "window"}
LISTS = {"rps", "sessions", "queues", "ports", "flows", "endpoints", "groups"}


def emitted(stats: dict, series_names) -> set:
    """(scope, name) of every field of the stats document, and the series' name patterns."""
    out = set()
    for key, value in stats.items():
        if key in SECTIONS and isinstance(value, dict):
            out |= {(key, k) for k in value}
        elif key in LISTS and isinstance(value, list):
            for item in value:
                out |= {(key, k) for k in item}
                out |= {("receivers", k) for r in item.get("receivers", []) for k in r}
        else:
            out.add(("run", key))
    out |= {("series", name.split(".", 1)[0]) for name in series_names}
    return out


def test_every_declared_metric_is_emitted_somewhere():
    """The other direction: a declaration that no shipped scenario (or protocol variant) emits is a
    metric that does not exist, and fails here. Series are declared by name pattern (PREFIX.ENTITY)."""
    runs = [(p, {}) for p in SCENARIOS] + [(ROOT / "scenarios" / rel, over) for rel, over in VARIANTS]
    found = set()
    for path, over in runs:
        res = cnsim.run(path, set={**SHORT, **over}, figures=False, progress=False)
        found |= emitted(res.stats, res.series_frame["name"].cat.categories)
    declared = {(d["scope"], d["name"].split(".", 1)[0] if d["scope"] == "series" else d["name"])
                for d in cnsim.metric_declarations()}
    assert declared - found == set(), "declared but never emitted"
