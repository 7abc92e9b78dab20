"""The data of the Mliki et al. 2016a/b reproductions, shared by the folder's other modules: a
topology with its variants and the paper's values, a claim, a quoted number, an experiment; the
metric titles and units; and the views and samples of the long results table (columns topology,
variant, qeq, sampling, setting, seed, part, metric, value).

`part` is "all" (whole network: global metrics and the main CP queue), a multicast group ("G1"…,
metrics over the group's own flows) or a switch (its most loaded CP queue: `experiment.switch_parts`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from ...metrics import DEFINITIONS
from ..compare import Verdict, interval, num
from ..paper import inline, scenario_file
from . import sensitivity

QEQS = (25, 50, 75)
BASELINE = "baseline"
QUICK = {"simulation.duration": "5.6s", "simulation.measure_from": "5.1s"}
HYPOTHESIS_ONLY = {s.name for s in sensitivity.SETTINGS if s.kind == "hypothesis"}
UNITS = {d["metric"]: d["unit"] for d in DEFINITIONS if d["scope"] in ("global", "queue")}
# CR over the samples with a rate limiter in place (experiment.active_cr): a released limiter's CR
# is the line rate, not a rate the source sends at.
UNITS.update({"q_build_s": "s", "cr_active_mean_mbps": "Mb/s", "cr_active_std_mbps": "Mb/s", "jain_cr_active": "1", "cr_active_share": "1"})
# Report headings: a title per metric; the unit is the one metrics.py's table defines.
METRIC_TITLES = {
    "feedback_rate_pct": "feedback rate (CNMs ÷ copies sent by the sources)",
    "loss_rate_pct": "switch loss rate (copies dropped in switches ÷ copies in the network)",
    "total_loss_pct": "total loss rate (limiter + switch drops ÷ copies generated + replicated)",
    "source_loss_pct": "source-side loss in full rate limiters (÷ copies generated)",
    "first_cnm_s": "RP start time of congestion detection",
    "cr_std_mbps": "CR std-dev",
    "cr_mean_mbps": "mean session CR",
    "throughput_mean_mbps": "mean throughput per flow and receiver",
    "cr_min_mbps": "lowest session CR",
    "q_mean_frames": "mean queue",
    "q_std_frames": "queue std-dev",
    "q_dev_from_qeq_frames": "mean queue − Qeq",
    "q_build_s": "time the main CP's queue first holds 5 frames (whole run)",
    "jain_cr": "Jain fairness over session CRs",
    "jain_throughput": "Jain fairness over throughputs",
    "cr_active_mean_mbps": "mean session CR while its limiter is in place",
    "cr_active_std_mbps": "CR std-dev while the limiter is in place",
    "jain_cr_active": "Jain fairness over session CRs while limited",
    "cr_active_share": "share of the window with the session's limiter in place",
}
LABELS = {m: t if UNITS[m] == "1" else f"{t} ({UNITS[m]})" for m, t in METRIC_TITLES.items()}
# Mliki et al. 2016a §3.1 (2016b §4.1 the same): six sources share 1 Gb/s links, so the reference
# rate each flow's CR should reach is CR_mean = 1 Gb/s ÷ 6.
LINK_MBPS, SOURCES = 1000.0, 6
CR_MEAN_MBPS = LINK_MBPS / SOURCES


def unit(metric: str) -> str:
    return UNITS.get(metric, "1")


@dataclass
class Topology:
    key: str
    title: str
    # variant → (scenario path inside the cnsim package, "scenarios/…", extra overrides)
    variants: dict[str, tuple[str, dict]]
    # (metric, variant) → values at Qeq 25/50/75 (None where the paper gives none); part "all"
    paper: dict = field(default_factory=dict)
    figs: dict = field(default_factory=dict)      # metric → the paper's figure(s)
    sections: dict = field(default_factory=dict)  # metric → the section whose text states the values
    # (metric, variant) → what the paper value (or its comparison) rests on: read from prose, a
    # reconstructed topology, …
    notes: dict = field(default_factory=dict)
    cite: str = ""                                # the paper the values come from, e.g. "Mliki et al. 2016a"
    # (metric, variant) → per Qeq, the formula of a derived value over stated ones (PaperValue.derived)
    derived: dict = field(default_factory=dict)
    # run in the baseline sets only (not under the sensitivity settings: a second reading of a
    # topology, kept cheap); its robustness columns then repeat the baseline (`view` fills them)
    baseline_only: bool = False

    def where(self, metric: str) -> str:
        """Where the paper states `metric`: "Mliki et al. 2016a §3.2, Fig. 11"."""
        return ", ".join(x for x in (f"{self.cite} {self.sections.get(metric, '')}".strip(), self.figs.get(metric))
                         if x)


@dataclass
class Claim:
    key: str                                   # the check's id (golden files)
    text: str                                  # the paper's words
    source: str                                # where the paper says it
    rule: object                               # claims.Rule: the rule, its inputs and its calibration
    reason: str = ""                           # "not testable as stated": why (quoted in numbers)
    constructed: str = ""                      # holds by construction: why (not counted, no calibration)
    paper: object = ""                         # the stated value (verdicts.PaperValue) or text


@dataclass
class Experiment:
    name: str
    title: str
    topologies: list[Topology]
    choices: Callable[[], list[str]]                # the choices where the papers are silent (read from the scenarios)
    findings: str   # the findings prose: the name of its function in findings.py (legacy, enhanced)
    claims: list[Claim]
    samplings: tuple[str, ...] = ("every-frame", "table")
    numbers: list[Claim] = field(default_factory=list)
    figure_index: list[tuple[str, str, str]] = field(default_factory=list)   # (paper figure, content, cnsim)
    targets: list[tuple] = field(default_factory=list)   # hypotheses: (topology, variant) with paper feedback values
    rests_on: Callable[[], list[str]] = list             # "what the numbers rest on" (prose, made with the report)


def with_all_flows(path: str, key: str, value: str) -> dict:
    """Overrides setting `flow.<i>.<key>` for every [[flow]] table of a scenario."""
    n = len(tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", []))
    return {f"flow.{i}.{key}": value for i in range(n)}


def rmin_mbps(path: str) -> float:
    """The lowest `min_rate` of the reaction points of a scenario, Mb/s (cnsim's Rmin: a choice of
    the scenario, which neither paper states)."""
    from ...analysis import parse_rate

    flows = tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", [])
    rates = [parse_rate(keys["min_rate"]) / 1e6 for f in flows if isinstance(f.get("rp"), dict)
             for keys in f["rp"].values() if isinstance(keys, dict) and "min_rate" in keys]
    return min(rates) if rates else float("nan")


def with_rp(path: str, protocol: str) -> dict:
    """Overrides giving every flow's reaction point to `protocol` (e.g. "eqcn"), keeping the keys
    its current RP table sets (E-QCN's table takes every QCN key)."""
    flows = tomllib.loads(scenario_file(path).read_text(encoding="utf-8")).get("flow", [])
    sets = {}
    for i, f in enumerate(flows):
        rp = f.get("rp", "none")
        keys = next(iter(rp.values())) if isinstance(rp, dict) and rp else {}
        sets[f"flow.{i}.rp"] = inline({protocol: keys})
    return sets


def protocol_of(extra: dict) -> str:
    """The reaction point of a variant: "eqcn" when its overrides give the flows E-QCN."""
    return "eqcn" if any("eqcn" in str(v) for v in extra.values()) else "qcn"


def view(df: pd.DataFrame, setting: str, *, max_seed: int | None = None, fill: bool = True) -> pd.DataFrame | None:
    """The rows of one setting on every-frame sampling ("cp.qcn.sampling=table": the baseline's
    table-sampling runs), with column `sampling` set to "every-frame"; configurations the setting
    does not apply to take the baseline's rows (`fill`). None if the setting was not run."""
    if max_seed is not None:
        df = df[df.seed <= max_seed]
    base = df[(df.setting == BASELINE) & (df.sampling == "every-frame")]
    if setting == BASELINE:
        return base
    if setting == sensitivity.TABLE:
        sel = df[(df.setting == BASELINE) & (df.sampling == "table")]
    else:
        sel = df[df.setting == setting]
    if sel.empty:
        return None
    sel = sel.assign(sampling="every-frame")
    if not fill:
        return sel
    have = set(zip(sel.topology, sel.variant))
    return pd.concat([sel, base[[k not in have for k in zip(base.topology, base.variant)]]])



_INDEX: dict[int, tuple] = {}  # id(view) → (view, {(topology, variant, qeq, part, metric): values}); kept alive


def samples(df: pd.DataFrame, topology: str, variant: str, metric: str, qeq: int, part: str = "all") -> list[float]:
    """The values (one per seed) of a metric in a configuration of a view."""
    if id(df) not in _INDEX:
        keys = zip(df.topology, df.variant, df.qeq, df.part, df.metric)
        index: dict[tuple, list] = {}
        for k, v in zip(keys, df["value"]):
            if v == v:
                index.setdefault(k, []).append(v)
        _INDEX[id(df)] = (df, index)
    return list(_INDEX[id(df)][1].get((topology, variant, qeq, part, metric), []))


def by_seed(df: pd.DataFrame, topology: str, variant: str, metric: str, qeq: int, part: str = "all") -> dict[int, float]:
    """{seed: value} of a metric in a configuration of a view (for comparisons paired by seed)."""
    sel = df[(df.topology == topology) & (df.variant == variant) & (df.qeq == qeq) & (df.part == part)
             & (df.metric == metric)]
    return {int(k): float(v) for k, v in zip(sel.seed, sel["value"]) if v == v}


def forget() -> None:
    """Drop the indexes of `samples` (call when the views are no longer used)."""
    _INDEX.clear()


def show(values) -> str:
    """mean ± 95 % half-width (n)."""
    return interval(values).show()


def fmt(x) -> str:
    return num(x)
