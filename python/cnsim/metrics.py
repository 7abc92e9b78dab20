"""Summary metrics of a run, computed from the engine's stats document (`sim.stats_json()`).

The engine declares every metric of `summary.json` — scope, window, unit, definition, the
statistics it is computed from, the mechanism it needs — beside its raw statistics, in the
summary's order (`_core.summary_declarations()`: the engine's own, and each protocol's placed after
the metric it follows). A protocol's metrics are computed by their formulas in the protocol's
folder (`_core.protocol_summary`, "formula": "engine"); this module holds the formulas of the
engine's own, which no protocol owns, keyed by (scope, name) in `FORMULAS`, and builds `CATALOGUE`
from the declarations; `summarize` copies it into `summary["definitions"]`, so each number states
its window. Windows: `measure` is
[simulation.measure_from, end of run], `run` is [0, end of run]. Rates are over frame *copies*
(one per wire, as the engine counts them). A metric whose denominator is zero is `null`.

The engine declares the raw statistics (`metric_declarations()`); each entry here names
the declared statistics it is computed from (`Metric.engine`, as paths into the stats document),
so a renamed or dropped engine statistic is caught by tests/test_metrics.py, not by a reader.
"""

import functools
import math
import operator
from collections import Counter
from statistics import fmean, pstdev
from typing import NamedTuple

MBPS = 1e6
MAIN_CP_METRICS = ["q_mean_frames", "q_std_frames", "q_dev_from_qeq_frames"]


class Metric(NamedTuple):
    """One summary metric, as the engine declares it: where it is in the summary (`scope`), its window, unit and definition;
    `engine`, the stats-document paths ("window.feedback_sent", "queues.arrivals_window",
    "receivers.throughput_bps") of the engine statistics it is computed from; `needs`, what a run
    must have for the metric to be shown (a feedback rate is 0 in a run without congestion points,
    but says nothing there)."""

    metric: str
    scope: str
    window: str
    unit: str
    definition: str
    engine: tuple[str, ...]
    needs: str | None = None  # the mechanism (`MECHANISMS`) without which the metric means nothing

    def row(self) -> dict:
        """The entry of `summary["definitions"]` (without `engine`)."""
        return {"metric": self.metric, "scope": self.scope, "window": self.window, "unit": self.unit,
                "definition": self.definition}


# What a metric can need (`Metric.needs`): the mechanisms the engine declares, its own and each
# protocol's (`_core.mechanisms()`), read on first use (`__getattr__`): `MECHANISMS` (name → what it
# is and what marks it in the stats document), `IMPLIED` (name → the mechanisms whose presence implies
# it), `MARKERS` (name → the global metric that is null exactly when a run lacks it: how a run's flat
# row, a sweep's or a reproduction's, tells what ran).


@functools.cache
def _mechanisms() -> tuple[dict, ...]:
    import json

    from . import _core

    return tuple(json.loads(_core.mechanisms()))


def _marked(stats: dict, marks: str) -> bool:
    """Whether `marks` ("rps": the section has an entry; "queues.cp": an entry has the key, neither
    null nor false) holds in the stats document."""
    section, _, key = marks.partition(".")
    entries = stats.get(section) or []
    if not key:
        return bool(entries)
    return any(e.get(key) is not None and e.get(key) is not False for e in entries)


def mechanisms(stats: dict) -> set[str]:
    """The `MECHANISMS` a run had, from its stats document."""
    return _with_implied({m["name"] for m in _mechanisms() if m["marks"] and _marked(stats, m["marks"])})


def _with_implied(present: set[str]) -> set[str]:
    return present | {m["name"] for m in _mechanisms() if present & set(m["implied_by"])}


def _markers() -> dict[str, str]:
    return {m["name"]: m["marker"] for m in _mechanisms() if m["marker"]}


def row_mechanisms(row) -> set[str]:
    """The mechanisms (of `MARKERS`) a run had, from its flat row (`seed_metrics`; NaN is null)."""
    return {m for m, marker in _markers().items() if not _null(row.get(marker))}


def _null(value) -> bool:
    try:
        return value is None or bool(value != value)  # None or NaN
    except TypeError:  # pandas' NA
        return True


def shown(scope: str, metrics, present: set[str]) -> list:
    """`metrics` of `scope` without those that need a mechanism not in `present` (names not in
    the catalogue are kept)."""
    needs = {m.metric: m.needs for m in _catalogue() if m.scope == scope}
    present = _with_implied(set(present))
    return [m for m in metrics if needs.get(m) is None or needs[m] in present]


def ran(stats: dict) -> str:
    """What ran, in a few words: the reaction points' protocols, congestion points, marking
    queues, what the protocols count of theirs (`_core.protocol_summary`'s "ran": DCTCP and TCP
    flows; from the part of the document their tallies read), transfers and ports with flow control, with their numbers ("" for plain traffic)."""
    protocols = Counter(rp.get("protocol", "rp") for rp in stats.get("rps", []))
    parts = [f"{name} reaction points ×{n}" for name, n in protocols.items()]
    counts = {
        "congestion points": sum(1 for q in stats.get("queues", []) if q.get("cp")),
        "marking queues": sum(1 for q in stats.get("queues", []) if q.get("aqm")),
        **dict(_engine_summary(stats, _reads("tallies"))["ran"]),
        "transfers": sum(1 for f in stats.get("flows", []) if "size_bytes" in f),
        "ports with flow control": len(stats.get("ports", [])),
    }
    parts += [f"{what} ×{n}" for what, n in counts.items() if n]
    return ", ".join(parts)


def metric_declarations() -> list[dict]:
    """Every raw statistic of the engine's stats document, declared once in the engine (by the
    engine itself and by each protocol): [{scope, name, unit, kind, doc}]."""
    import json

    from . import _core  # here, not at import: importing this module does not load the engine

    return json.loads(_core.metric_declarations())


def summary_declarations() -> list[dict]:
    """Every summary metric, declared once in the engine (by the engine itself and by each
    protocol), in the summary's order: [{scope, name, window, unit, definition, engine, needs,
    formula, follows}] — `formula` "python" (this module's `FORMULAS`) or "engine" (a protocol's,
    `protocol_summary`), `follows` the (scope, name) an "engine" one follows."""
    return list(_declarations())


@functools.cache
def _declarations() -> tuple[dict, ...]:
    import json

    from . import _core

    return tuple(json.loads(_core.summary_declarations()))


def protocol_summary(stats: dict) -> dict:
    """The protocols' summary metrics of a run, computed in the engine by their formulas from the
    stats document: {"values": {"global": {name: value}, scope: {name: [value per entry of the
    scope's section, in order]}}, "ran": [[what, count]]} (`_core.protocol_summary`). The engine
    is handed only the part of the document its formulas read (`_core.protocol_summary_reads`),
    not the whole of a large fabric's."""
    return _engine_summary(stats, _reads("summary"))


def _engine_summary(stats: dict, reads: dict[str, tuple[str, ...]]) -> dict:
    """`_core.protocol_summary` of the part of `stats` with only `reads` (section → keys), written
    as JSON text a chunk of entries at a time: the part is never a tree of dicts beside the document."""
    from . import _core, jsonio

    parts = []
    for section, keys in reads.items():
        if section not in stats:
            continue
        value = stats[section]
        if isinstance(value, list):  # a chunk of entries per call of the encoder, not one each
            chunks = (jsonio.dumps([_only(entry, keys) for entry in value[j:j + _CHUNK]])[1:-1]
                      for j in range(0, len(value), _CHUNK))
            text = b"[" + b", ".join(c for c in chunks if c) + b"]"
        else:
            text = jsonio.dumps(_only(value, keys))
        parts.append(jsonio.dumps(section) + b": " + text)
    text = b"{" + b", ".join(parts) + b"}"
    return jsonio.loads(_core.protocol_summary(text.decode()))


_CHUNK = 4096  # entries of a section encoded together by `_engine_summary`


@functools.cache
def _reads(what: str) -> dict[str, tuple[str, ...]]:
    """What of the stats document the protocols' formulas and tallies read ("summary",
    `_core.protocol_summary_reads`), or their tallies alone ("tallies", `_core.protocol_tally_reads`)."""
    import json

    from . import _core

    text = _core.protocol_summary_reads() if what == "summary" else _core.protocol_tally_reads()
    return {section: tuple(keys) for section, keys in json.loads(text).items()}


def _only(entry, keys: tuple[str, ...]):
    """An entry of a stats document's list section, or a section that is no list, with only `keys`
    (anything but a dict as it is)."""
    return {k: entry[k] for k in keys if k in entry} if isinstance(entry, dict) else entry


def _placed(scope: str, entry: dict, values: dict) -> dict:
    """`entry`, an entry of `scope` computed by `FORMULAS`, with the protocols' metrics of that
    scope, `values` (name → value), each after the metric its declaration follows when that is of
    `scope` and in the entry, first otherwise — in the declarations' order."""
    if not values:  # nothing to place (most sections of most runs): the entry as it is
        return entry
    plan = _plan(scope, tuple(entry), tuple(values))
    return {key: (values if protocol else entry)[key] for key, protocol in plan}


@functools.cache
def _plan(scope: str, entry_keys: tuple, value_keys: tuple) -> tuple[tuple[str, bool], ...]:
    """Where `_placed` puts each key, for entries with `entry_keys` and protocol metrics
    `value_keys`: (key, whether the protocol's value) in order. The declarations do not change
    from entry to entry and a section's entries have a few shapes, so each shape is planned once
    (planning it per entry re-scanned every declaration: minutes for a million flows)."""
    items = [(k, False) for k in entry_keys]
    for d in _declarations():
        if d["scope"] != scope or d["formula"] != "engine" or d["name"] not in value_keys:
            continue
        after_scope, after = d["follows"]
        keys = [k for k, _ in items]
        at = keys.index(after) + 1 if after_scope == scope and after in keys else 0
        items.insert(at, (d["name"], True))
    return tuple(dict(items).items())


def jain(values: list[float]) -> float | None:
    """Jain's fairness index (Σr)²/(k·Σr²); None when there is no value or all are zero."""
    square_sum = sum(v * v for v in values)
    if not values or square_sum == 0:
        return None
    return sum(values) ** 2 / (len(values) * square_sum)


def _pct(num: float, den: float) -> float | None:
    return num / den * 100 if den else None


def _mean(values: list[float]) -> float | None:
    return fmean(values) if values else None


def _rp(rp: dict) -> dict:
    # A reaction point that names its limiters `regulators_created` (BCN's, protocols/bcn/
    # METRICS) counts them as the others' `limiters_created`.
    return {
        "cr_mean_mbps": rp["cr_mean_bps"] / MBPS,
        "cr_std_mbps": rp["cr_std_bps"] / MBPS,
        "feedback_received": rp["feedback_received_window"],
        "limiters_created": rp["limiters_created"] if "limiters_created" in rp else rp.get("regulators_created"),
    }


def _session(session: dict) -> dict:
    return {"cr_mean_mbps": session["cr_mean_bps"] / MBPS, "cr_std_mbps": session["cr_std_bps"] / MBPS}


def _queue(queue: dict, window_s: float) -> dict:
    out = {
        "q_mean_frames": queue["q_mean_frames"],
        "q_std_frames": queue["q_std_frames"],
        "utilisation": queue["busy_s_window"] / window_s if window_s else None,
        "arrivals": queue["arrivals_window"],
        "drops": queue["drops_window"],
        "feedback_sent": queue["feedback_sent_window"],
    }
    if queue["cp"]:
        out["q_dev_from_qeq_frames"] = queue["q_mean_frames"] - queue["qeq_frames"]
    return out


_THROUGHPUT = operator.itemgetter("throughput_bps")


def _flow(flow: dict) -> dict:
    receivers, get = flow["receivers"], flow.get
    out = {
        "source_loss_pct": _pct(flow["source_dropped"], flow["frames_generated"]),
        "throughput_mbps": sum(map(_THROUGHPUT, receivers)) / MBPS,
        "loss_pct": _pct(get("dropped_window", 0), get("injected_window", 0) + get("replicated_window", 0)),
    }
    if "size_bytes" in flow:
        out["slowdown"] = _slowdown(flow)
    out["receivers"] = {r["host"]: {"throughput_mbps": r["throughput_bps"] / MBPS} for r in receivers}
    return out


FCT_BUCKETS = [("<100KB", 0, 100e3), ("100KB-1MB", 100e3, 1e6), ("1MB-10MB", 1e6, 10e6), (">=10MB", 10e6, math.inf)]


def _slowdown(flow: dict) -> float | None:
    fct, ideal = flow.get("fct_s"), flow.get("fct_ideal_s")
    return fct / ideal if fct is not None and ideal else None


def _nearest_rank(sorted_values: list[float], q: float) -> float | None:
    return sorted_values[max(math.ceil(q * len(sorted_values)), 1) - 1] if sorted_values else None


def fct_buckets(stats: dict) -> dict:
    """Per flow-size bucket (`FCT_BUCKETS`): the transfers, how many completed, and the median and
    99th percentile of their slowdown; {} for a run without transfers. In the summary as "fct"."""
    transfers = [f for f in stats["flows"] if "size_bytes" in f]
    if not transfers:
        return {}
    buckets = {name: [] for name, _, _ in FCT_BUCKETS}
    for f in transfers:  # one pass: the buckets are disjoint
        size = f["size_bytes"]
        for name, lo, hi in FCT_BUCKETS:
            if lo <= size < hi:
                buckets[name].append(f)
                break
    out = {}
    for name, inside in buckets.items():
        slow = sorted(s for s in map(_slowdown, inside) if s is not None)
        out[name] = {"flows": len(inside), "completed": len(slow),
                     "slowdown_median": _nearest_rank(slow, 0.5), "slowdown_p99": _nearest_rank(slow, 0.99)}
    return out


def summarize(stats: dict) -> dict:
    """The summary of a run: {"window", "global", "rps", "queues", "flows", "ports",
    "definitions"} ("ports": the ports of a run with flow control).

    Pure and JSON-serialisable; `stats` is the parsed `sim.stats_json()` document (a stored one
    too, read with today's names): the engine computes the protocols' metrics from it
    (`protocol_summary`), this module the rest.
    """
    time = stats["time"]
    window = stats["window"]
    values = protocol_summary(stats)["values"]

    def entries(scope: str, section: list[dict], formula) -> dict:
        columns = values.get(scope, {})  # the protocols' metrics: a value per entry, in order
        if not columns:  # most sections of most runs, and every one of a million-host fabric's
            return dict(zip([e["name"] for e in section], map(formula, section)))
        names, rows = list(columns), zip(*columns.values(), strict=True)
        return {e["name"]: _placed(scope, formula(e), dict(zip(names, row)))
                for e, row in zip(section, rows, strict=True)}

    rps = entries("rp", stats["rps"], _rp)
    queues = entries("queue", stats["queues"], lambda q: _queue(q, time["window_s"]))
    flows = entries("flow", stats["flows"], _flow)
    ports = entries("port", stats.get("ports", []), lambda p: {})

    # CR metrics are per session (Mliki et al. 2016a §3: a multiple-unicast session's CR = min r_i); a
    # unicast or multicast session has one RP, so its session CR is that RP's CR.
    sessions = {s["name"]: _session(s) for s in stats.get("sessions", [])} or rps
    cr_means = [s["cr_mean_mbps"] for s in sessions.values()]
    throughputs = [r["throughput_mbps"] for f in flows.values() for r in f["receivers"].values()]
    cps = [q for q in stats["queues"] if q["cp"]]
    main_cp = max(cps, key=lambda q: q["arrivals"])["name"] if cps else None
    main = queues.get(main_cp or "", {})

    return {
        "window": {
            "measure": {
                "from_s": time["measure_from_s"],
                "to_s": time["end_s"],
                "length_s": time["window_s"],
            },
            "run": {"from_s": 0.0, "to_s": time["end_s"], "length_s": time["end_s"]},
        },
        "global": _placed("global", {
            "feedback_rate_pct": _pct(window["feedback_sent"], window["data_injected"]),
            "loss_rate_pct": _pct(window["data_dropped"], window["data_injected"] + window["data_replicated"]),
            "source_loss_pct": _pct(window["data_source_dropped"], window["data_generated"]),
            "total_loss_pct": _pct(window["data_source_dropped"] + window["data_dropped"],
                                   window["data_generated"] + window["data_replicated"]),
            "feedback_per_cp_frame_pct": _pct(sum(q["feedback_sent_window"] for q in cps),
                                              sum(q["arrivals_window"] for q in cps)),
            "feedback_busiest_cp_pct": max((_pct(q["feedback_sent_window"], q["arrivals_window"]) for q in cps
                                            if q["arrivals_window"]), default=None),
            "feedback_per_delivered_pct": _pct(window["feedback_sent"], window["data_delivered"]),
            "cr_mean_mbps": _mean(cr_means),
            "cr_std_mbps": _mean([s["cr_std_mbps"] for s in sessions.values()]),
            "cr_spread_mbps": pstdev(cr_means) if cr_means else None,
            "jain_cr": jain(cr_means),
            "jain_throughput": jain(throughputs),
            "throughput_mean_mbps": _mean(throughputs),
            "cr_min_mbps": min((x["cr_min_bps"] / MBPS for x in stats.get("sessions", []) or stats["rps"]), default=None),
            "main_cp": main_cp,
            **{k: main.get(k) for k in MAIN_CP_METRICS},
        }, values.get("global", {})),
        "rps": rps,
        "queues": queues,
        "flows": flows,
        "ports": ports,
        **({"fct": fct} if (fct := fct_buckets(stats)) else {}),
        "definitions": [m.row() for m in _catalogue()],
    }


def seed_metrics(summary: dict) -> dict:
    """The flat row of a run: every global metric, the main CP's queue metrics included (None
    when there is none). Sweeps (a row per run), reproductions (part "all") and the CLI table all
    show this row, so a run is flattened here only. (Summaries written before the main CP's
    metrics were global take them from the queue.)"""
    g = summary["global"]
    main = summary["queues"].get(g["main_cp"] or "", {})
    return {**g, **{k: main.get(k) for k in MAIN_CP_METRICS}}


def group_metrics(stats: dict) -> dict:
    """Per multicast group (flows whose `group` is set): feedback and loss rates over the group's
    own frames, and CR statistics over the group's sessions, in the window (Mliki et al. 2016a §3.6)."""
    by_group: dict[str, list[dict]] = {}
    for f in stats["flows"]:
        if f.get("group"):
            by_group.setdefault(f["group"], []).append(f)
    sessions = stats.get("sessions", [])
    out = {}
    for g, flows in sorted(by_group.items()):
        names = {f["name"] for f in flows}
        injected = sum(f["injected_window"] for f in flows)
        crs = [s for s in sessions if set(s["flows"]) <= names]
        means = [s["cr_mean_bps"] / MBPS for s in crs]
        out[g] = {
            "feedback_rate_pct": _pct(sum(f["feedback_received_window"] for f in flows), injected),
            "loss_rate_pct": _pct(sum(f["dropped_window"] for f in flows),
                                  injected + sum(f["replicated_window"] for f in flows)),
            "cr_mean_mbps": _mean(means),
            "cr_std_mbps": _mean([s["cr_std_bps"] / MBPS for s in crs]),
            "jain_cr": jain(means),
        }
    return out


def switch_metrics(stats: dict) -> dict:
    """Per switch: the CP queue with the most arrivals (its busiest output) — mean, std-dev and
    deviation of the mean from Qeq, in frames, over the window."""
    best: dict[str, dict] = {}
    for q in stats["queues"]:
        if q["cp"] and q["arrivals"] and (q["node"] not in best or q["arrivals"] > best[q["node"]]["arrivals"]):
            best[q["node"]] = q
    return {
        node: {"queue": q["name"], "q_mean_frames": q["q_mean_frames"], "q_std_frames": q["q_std_frames"],
               "q_dev_from_qeq_frames": q["q_mean_frames"] - q["qeq_frames"]}
        for node, q in sorted(best.items())
    }


def _formulas() -> dict[tuple[str, str], object]:
    """(scope, name) → the function whose formula computes it: the engine's own summary metrics
    (those a protocol declares are computed in its folder, `protocol_summary`)."""
    global_ = ["feedback_rate_pct", "loss_rate_pct", "source_loss_pct", "total_loss_pct",
               "feedback_per_cp_frame_pct", "feedback_busiest_cp_pct", "feedback_per_delivered_pct", "cr_mean_mbps", "cr_std_mbps", "cr_spread_mbps", "jain_cr", "jain_throughput", "throughput_mean_mbps",
               "cr_min_mbps", "main_cp", *MAIN_CP_METRICS]
    by_scope = [
        ("global", summarize, global_),
        ("rp", _rp, ["cr_mean_mbps", "cr_std_mbps", "feedback_received", "limiters_created"]),
        ("queue", _queue, ["q_mean_frames", "q_std_frames", "q_dev_from_qeq_frames", "utilisation", "arrivals", "drops",
                           "feedback_sent"]),
        ("flow", _flow, ["source_loss_pct", "throughput_mbps", "loss_pct"]),
        ("receiver", _flow, ["throughput_mbps"]),
        ("flow", _slowdown, ["slowdown"]),
        ("fct bucket", fct_buckets, ["flows", "completed", "slowdown_median", "slowdown_p99"]),
    ]
    return {(scope, name): f for scope, f, names in by_scope for name in names}


FORMULAS = _formulas()


@functools.cache
def _catalogue() -> tuple[Metric, ...]:
    return tuple(Metric(d["name"], d["scope"], d["window"], d["unit"], d["definition"], tuple(d["engine"]), d["needs"])
                 for d in _declarations())


def global_metrics() -> list[str]:
    """The global metrics' names, in the summary's order: a run's flat row (`seed_metrics`)."""
    return [m.metric for m in _catalogue() if m.scope == "global"]


def __getattr__(name: str):
    """`CATALOGUE` (the `Metric`s, in the declarations' order), `DEFINITIONS` (their rows), `MECHANISMS`,
    `IMPLIED` and `MARKERS`, read from the engine's declarations on first use: importing this module
    does not load the engine."""
    if name == "MECHANISMS":
        return {m["name"]: m["doc"] for m in _mechanisms()}
    if name == "IMPLIED":
        return {m["name"]: set(m["implied_by"]) for m in _mechanisms() if m["implied_by"]}
    if name == "MARKERS":
        return _markers()
    if name == "CATALOGUE":
        return _catalogue()
    if name == "DEFINITIONS":
        return [m.row() for m in _catalogue()]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
