"""The summary catalogue (`cnsim.metrics.CATALOGUE`) against the engine's declarations
(`cnsim.metric_declarations()`): every statistic a summary metric is computed from is declared,
and its window and unit agree with the declared kind and unit."""

import pytest

import cnsim
from cnsim.metrics import CATALOGUE, DEFINITIONS, FORMULAS, MECHANISMS, protocol_summary, ran, summarize, summary_declarations

# Kinds of engine statistics counted in the measurement window, and over the whole run.
WINDOWED = {"counter-window", "time-average"}
WHOLE_RUN = {"counter", "time", "parameter"}
# Summary scope → the engine's scope of the statistic of the same name.
ENGINE_SCOPE = {"rp": "rps", "queue": "queues", "flow": "flows", "port": "ports", "receiver": "receivers"}
# Units the summary shows in place of the engine's (metrics.py converts).
CONVERTED = {"bit/s": "Mb/s"}
# Summary metrics named like an engine statistic of their scope but not the same number: renaming
# them would change summary.json's keys. (scope, metric) → what differs.
HOMONYMS = {
    ("rp", "feedback_received"): "window",
    ("rp", "limiters_created"): "unit",
    ("queue", "arrivals"): "window",
    ("queue", "drops"): "window",
    ("queue", "feedback_sent"): "window",
    ("port", "paused_s"): "window",
}


@pytest.fixture(scope="module")
def declared() -> dict[tuple[str, str], dict]:
    return {(d["scope"], d["name"]): d for d in cnsim.metric_declarations()}


def declaration(declared: dict, path: str) -> dict | None:
    """The declaration of a stats-document path; "window.X" is the frames counter X counted in the window."""
    section, _, name = path.partition(".")
    d = declared.get(("frames" if section == "window" else section, name))
    return {**d, "kind": "counter-window"} if d is not None and section == "window" else d


def test_definitions_are_the_catalogue():
    assert DEFINITIONS == [m.row() for m in CATALOGUE]
    assert len({(m.scope, m.metric) for m in CATALOGUE}) == len(CATALOGUE)
    assert all(m.engine for m in CATALOGUE)


def test_every_formula_has_a_declaration_and_every_declaration_a_formula():
    """The engine declares the summary metrics; Python computes its own ("formula": "python"), each
    protocol's folder its own ("engine"): neither may lack one the other declares, nor hold a
    metric twice."""
    declarations = [(d["scope"], d["name"]) for d in summary_declarations()]
    assert len(set(declarations)) == len(declarations)
    python = [(d["scope"], d["name"]) for d in summary_declarations() if d["formula"] == "python"]
    assert sorted(set(FORMULAS) - set(python)) == []  # formulas without a declaration
    assert sorted(set(python) - set(FORMULAS)) == []  # declarations without a formula
    assert [(m.scope, m.metric) for m in CATALOGUE] == declarations


def test_the_protocols_formulas_fill_every_entity_of_their_scope():
    """Each "engine" metric is computed by the engine, for the run as a whole ("global") or for
    every entity of its scope, and placed after the metric it follows in the definitions."""
    stats = cnsim.run("scenarios/examples/incast-pause.toml", figures=False, progress=False).stats
    values = protocol_summary(stats)["values"]
    section = {"rp": "rps", "queue": "queues", "flow": "flows", "port": "ports"}
    engine = [d for d in summary_declarations() if d["formula"] == "engine"]
    assert engine
    order = [(d["scope"], d["name"]) for d in summary_declarations()]
    for d in engine:
        if d["scope"] == "global":
            assert d["name"] in values["global"]
        else:
            entries = stats.get(section[d["scope"]], [])
            assert len(values[d["scope"]][d["name"]]) == len(entries), d["name"]  # a value per entry, in order
        assert order.index(tuple(d["follows"])) < order.index((d["scope"], d["name"]))
    assert stats["ports"] and values["port"]
    # the columns follow the entries' order: each port's own counters, and in the summary too
    assert values["port"]["pause_sent"] == [p["pause_sent"] for p in stats["ports"]]
    assert any(values["port"]["pause_sent"]) and len(set(values["port"]["pause_sent"])) > 1
    summary = summarize(stats)
    assert [summary["ports"][p["name"]]["pause_sent"] for p in stats["ports"]] == values["port"]["pause_sent"]


def test_the_engine_is_handed_only_the_part_of_the_stats_its_formulas_read(monkeypatch):
    """`protocol_summary` passes the engine the keys `_core.protocol_summary_reads` names, not the
    whole document, and gets the summary the whole document gives."""
    import json

    from cnsim import _core

    stats = cnsim.run("scenarios/examples/unicast-qcn.toml", figures=False, progress=False).stats
    whole = json.loads(_core.protocol_summary(json.dumps(stats)))
    reads = json.loads(_core.protocol_summary_reads())
    handed = []
    real = _core.protocol_summary
    monkeypatch.setattr(_core, "protocol_summary", lambda text: handed.append(json.loads(text)) or real(text))
    assert protocol_summary(stats) == whole
    (part,) = handed
    assert set(part) == set(reads) & set(stats) and "time" not in part
    for section, value in part.items():
        for entry in value if isinstance(value, list) else [value]:
            assert set(entry) <= set(reads[section]), section
    assert len(part["queues"]) == len(stats["queues"]) and part["queues"][0]
    assert whole["values"]["global"]["fb_negative_samples_pct"] is not None


def test_what_ran_is_counted_from_the_part_the_tallies_read(monkeypatch):
    import json

    from cnsim import _core

    stats = cnsim.run("scenarios/examples/dctcp-two-flows.toml", figures=False, progress=False).stats
    counted = dict(protocol_summary(stats)["ran"])
    assert counted["DCTCP flows"] > 0
    handed = []
    real = _core.protocol_summary
    monkeypatch.setattr(_core, "protocol_summary", lambda text: handed.append(json.loads(text)) or real(text))
    assert f"DCTCP flows ×{counted['DCTCP flows']}" in ran(stats)
    (part,) = handed
    tallies = json.loads(_core.protocol_tally_reads())
    assert set(part) == set(tallies) and all(set(e) <= set(tallies["flows"]) for e in part["flows"])


def test_the_protocols_tallies_count_what_ran():
    stats = {"flows": [{"name": "a", "tcp_goodput_bps": 1.0, "tcp_dctcp_alpha": 0.5},
                       {"name": "b", "tcp_goodput_bps": 2.0, "tcp_dctcp_alpha": None}, {"name": "c"}]}
    assert dict(protocol_summary(stats)["ran"]) == {"DCTCP flows": 1, "TCP flows": 1}
    assert ran(stats) == "DCTCP flows ×1, TCP flows ×1"


def test_every_needed_mechanism_is_known():
    assert sorted({d["needs"] for d in summary_declarations()} - set(MECHANISMS) - {None}) == []


def test_every_source_is_declared_by_the_engine(declared):
    missing = [f"{m.scope}.{m.metric}: {p}" for m in CATALOGUE for p in m.engine if declaration(declared, p) is None]
    assert missing == []


def test_windows_agree_with_the_sources_kinds(declared):
    """A metric computed only from windowed statistics is over the window; one computed only from
    whole-run statistics is over the run."""
    wrong = []
    for m in CATALOGUE:
        kinds = {d["kind"] for p in m.engine if (d := declaration(declared, p))}
        expected = "measure" if kinds <= WINDOWED else "run" if kinds <= WHOLE_RUN else m.window
        if m.window != expected:
            wrong.append(f"{m.scope}.{m.metric}: {m.window}, from {sorted(kinds)}")
    assert wrong == []


def test_units_agree_with_the_sources_units(declared):
    """A metric with a dimension (not a ratio: %, 1) has its sources' one unit, or its converted form."""
    wrong = []
    for m in CATALOGUE:
        units = {d["unit"] for p in m.engine if (d := declaration(declared, p))}
        if m.unit in ("%", "1", "name") or len(units) != 1:
            continue
        (unit,) = units
        if m.unit not in (unit, CONVERTED.get(unit)):
            wrong.append(f"{m.scope}.{m.metric}: {m.unit}, from {unit}")
    assert wrong == []


def test_metrics_named_like_an_engine_statistic_agree_with_it(declared):
    """Where the engine declares a statistic of the same scope and name, the summary metric has its
    unit and window — but for the known homonyms, which must stay as they are listed."""
    differs = {}
    for m in CATALOGUE:
        d = declared.get((ENGINE_SCOPE.get(m.scope, ""), m.metric))
        if d is None:
            continue
        window = "measure" if d["kind"] in WINDOWED else "run" if d["kind"] in WHOLE_RUN else m.window
        if window != m.window:
            differs[m.scope, m.metric] = "window"
        elif d["unit"] != m.unit:
            differs[m.scope, m.metric] = "unit"
    assert differs == HOMONYMS


def test_a_real_run_reads_only_declared_statistics(declared):
    """Every statistic the summary of a real run reads is one the catalogue names: removing the
    others from the stats document changes nothing."""
    named: dict[str, set[str]] = {}
    for m in CATALOGUE:
        for p in m.engine:
            section, _, name = p.partition(".")
            named.setdefault(section, set()).add(name)
    identity = {"name", "host", "node", "cp", "group", "flows", "receivers"}  # names and links, not metrics
    for path in ("scenarios/examples/unicast-qcn.toml", "scenarios/examples/tcp-bcn.toml",
                 "scenarios/examples/websearch-fattree.toml", "scenarios/examples/incast-pause.toml"):
        stats = cnsim.run(path, figures=False, progress=False).stats

        def keep(items: list[dict], section: str) -> list[dict]:
            out = []
            for item in items:
                kept = {k: v for k, v in item.items() if k in named.get(section, set()) | identity}
                if "receivers" in item:
                    kept["receivers"] = keep(item["receivers"], "receivers")
                out.append(kept)
            return out

        pruned = {
            "time": {k: v for k, v in stats["time"].items() if k in named["time"] | {"measure_from_s", "end_s"}},
            "window": {k: v for k, v in stats["window"].items() if k in named["window"]},
            **{s: keep(stats[s], s) for s in ("rps", "queues", "flows", "sessions", "ports") if s in stats},
        }
        assert summarize(pruned) == summarize(stats), path
