"""The Mliki et al. 2016a/b experiments as `Paper`s: each topology's variants run over Qeq 25/50/75
frames, CP sampling modes and seeds, beside the same runs with each open choice changed (the
sensitivity settings, on the same seeds); a run yields the global metrics, per multicast group and
per switch (`extract`); seed 1 of the baseline keeps its full outputs for the figures.
"""

from __future__ import annotations

import sys
from statistics import fmean, pstdev

import pandas as pd

from ...metrics import jain, group_metrics, seed_metrics
from ...outputs import file_name
from ..paper import QUICK_SEEDS as _QUICK, FolderPaper, Report, Runs, Task
from . import sensitivity
from .spec import BASELINE, HYPOTHESIS_ONLY, QEQS, QUICK, Experiment, protocol_of

# The sequential design (runs.py): five seeds, then ten while a claim is still inconclusive. Its
# worst case (a claim undecided at five) is the ten seeds these reports always ran: legacy and
# enhanced ≈ 150 s each and the dumbbell ≈ 80 s on two free cores, within CI's budget for the seven
# experiments; a cap of twenty would double that.
SCHEDULE = (5, 10)
SEEDS = SCHEDULE[-1]
QUICK_SEEDS = _QUICK


def plan(exp: Experiment, quick: bool) -> list[tuple[str, str]]:
    """(sampling, setting) of each run set: the baseline under every sampling mode of the experiment
    (--quick: the first only), then each alternative setting of sensitivity.py on the first sampling
    mode (--quick: the few of sensitivity.QUICK). Every set runs the same seeds; a topology marked
    `baseline_only` runs in the baseline sets only (`MlikiPaper.tasks`)."""
    sets = [(s, BASELINE) for s in (exp.samplings[:1] if quick else exp.samplings)]
    names = sensitivity.QUICK if quick else [x.name for x in sensitivity.SETTINGS if x.name != sensitivity.TABLE]
    return sets + [(exp.samplings[0], name) for name in names]


def active_cr(result, sessions: dict[str, list[str]]) -> dict:
    """CR statistics over the window's samples in which a session's rate limiter is in place (its
    CR below the line rate it starts from: a released limiter leaves CR at line rate, which is not a
    rate the session sends at). Per session: the mean and std-dev of those samples (the series'
    resolution, `record_interval`), and the share of the window they cover; None for a session
    never limited in the window. `sessions`: name → the names of its CR series."""
    w = result.summary["window"]["measure"]
    out = {}
    for name, series in sessions.items():
        frames = [result.series(n) for n in series]
        if not frames:
            continue
        cr = frames[0] if len(frames) == 1 else pd.concat(frames, axis=1).min(axis=1)
        line = float(cr.iloc[0])
        inside = cr[(cr.index >= w["from_s"]) & (cr.index <= w["to_s"])]
        active = [float(v) / 1e6 for v in inside if v < line * (1 - 1e-9)]
        out[name] = {"mean": fmean(active) if active else None, "std": pstdev(active) if active else None,
                     "share": len(active) / len(inside) if len(inside) else None}
    return out


def _active_metrics(per: dict) -> dict:
    means = [s["mean"] for s in per.values() if s["mean"] is not None]
    stds = [s["std"] for s in per.values() if s["std"] is not None]
    shares = [s["share"] for s in per.values() if s["share"] is not None]
    return {"cr_active_mean_mbps": fmean(means) if means else None, "cr_active_std_mbps": fmean(stds) if stds else None,
            "jain_cr_active": jain(means) if means else None, "cr_active_share": fmean(shares) if shares else None}


# The queue "starts to build up" (Mliki et al. 2016a §3.1, Figs. 9–10) when it first holds this many
# frames: 5 % of the 100-frame buffer, the smallest rise a reader can tell on the figures' 0–100-frame
# axis (below it the queue holds the one or two frames in service of an uncongested link).
BUILD_FRAMES = 5


def build_up_s(result) -> float | None:
    """The first time (s, whole run) the main CP's queue holds `BUILD_FRAMES` frames or more, at the
    series' resolution (`record_interval`); None if it never does (the run has no value: censored)."""
    main = result.summary["global"].get("main_cp")
    name = f"q_frames.{main}"
    if not main or name not in set(result.names()):
        return None
    q = result.series(name)
    hit = q[q >= BUILD_FRAMES]
    return float(hit.index[0]) if len(hit) else None


def switch_parts(stats: dict) -> dict:
    """Per switch, its most loaded CP queue: the largest time-weighted mean queue in the window
    (ties: the most arrivals) — the queue a per-switch figure plots. (By arrivals alone a transit
    queue fed through one 1 Gb/s link can outnumber an overloaded receiver port and be chosen while
    it holds nothing.) Mean, std-dev and the mean's deviation from Qeq, frames."""
    best: dict[str, dict] = {}
    for q in stats["queues"]:
        if not (q["cp"] and q["arrivals"]):
            continue
        k = (q["q_mean_frames"], q["arrivals"])
        if q["node"] not in best or k > (best[q["node"]]["q_mean_frames"], best[q["node"]]["arrivals"]):
            best[q["node"]] = q
    return {node: {"q_mean_frames": q["q_mean_frames"], "q_std_frames": q["q_std_frames"],
                   "q_dev_from_qeq_frames": q["q_mean_frames"] - q["qeq_frames"]} for node, q in sorted(best.items())}


def _session_series(result) -> dict[str, list[str]]:
    """Session name → its CR series: the session's own (multiple unicast: CR = min r_i) or its RP's."""
    names = set(result.names())
    stats = result.stats
    sessions = stats.get("sessions") or [{"name": rp["name"], "flows": [rp["flow"]]} for rp in stats["rps"]]
    out = {}
    for s in sessions:
        own = f"session_cr_bps.{s['name']}"
        rps = [f"rp_cr_bps.{rp['name']}" for rp in stats["rps"] if rp["flow"] in s["flows"]]
        out[s["name"]] = [own] if own in names else [n for n in rps if n in names]
    return out


def extract(result, spec) -> dict:
    """[part, metric, value] of a finished run: "all" (global metrics and the main CP queue), each
    multicast group when there are several, each switch's most loaded CP queue (`switch_parts`) when
    there are several; the CR metrics also over the samples with a rate limiter in place (`active_cr`); the time the
    main CP's queue starts to build up (`build_up_s`)."""
    summary, stats = result.summary, result.stats
    per = active_cr(result, _session_series(result))
    parts = {"all": {**seed_metrics(summary), **_active_metrics(per), "q_build_s": build_up_s(result)}}
    groups = group_metrics(stats)
    if len(groups) > 1:
        members = {}
        for f in stats["flows"]:
            if f.get("group"):
                members.setdefault(f["group"], set()).add(f["name"])
        sessions = stats.get("sessions") or [{"name": rp["name"], "flows": [rp["flow"]]} for rp in stats["rps"]]
        for g, d in groups.items():
            mine = {s["name"] for s in sessions if set(s["flows"]) <= members.get(g, set())}
            parts[g] = {**d, **_active_metrics({k: v for k, v in per.items() if k in mine})}
    switches = switch_parts(stats)
    if len(switches) > 1:
        parts.update(switches)
    return {"values": [[p, m, v] for p, ms in parts.items() for m, v in ms.items()
                       if isinstance(v, (int, float)) and not isinstance(v, bool)]}


class MlikiPaper(FolderPaper):
    """One experiment of Mliki et al. 2016a/b (`spec.Experiment`): the folder's one `FolderPaper`
    shape, parameterised by the experiment, because one folder defines three experiments over the
    same modules (this module's SEEDS, QUICK_SEEDS and SCHEDULE; `extract`; claims.checks;
    report.report), each with its own topologies and claims."""

    def __init__(self, exp: Experiment):
        self.package, self.experiment = __package__, sys.modules[__name__]
        self.exp, self.name, self.title = exp, exp.name, exp.title
        self.seeds, self.quick_seeds, self.schedule = SEEDS, QUICK_SEEDS, SCHEDULE

    def tasks(self, seeds: int, quick: bool) -> list[Task]:
        exp, out = self.exp, []
        targets = {(t[0].key, t[1]) for t in exp.targets}  # the hypothesis-only settings run on these only
        for sampling, setting in plan(exp, quick):
            for topo in exp.topologies:
                if topo.baseline_only and setting != BASELINE:
                    continue
                for variant, (path, extra) in topo.variants.items():
                    more = {} if setting == BASELINE else sensitivity.BY_NAME[setting].overrides(path, protocol_of(extra), quick)
                    if more is None or (setting in HYPOTHESIS_ONLY and (topo.key, variant) not in targets):
                        continue
                    for qeq in QEQS:
                        sets = {"cp.qcn.qeq": f"{qeq} frames", "cp.qcn.sampling": sampling, **extra,
                                **(QUICK if quick else {}), **more}
                        for seed in range(1, seeds + 1):
                            keep = seed == 1 and sampling == exp.samplings[0] and setting == BASELINE
                            out.append(Task({"topology": topo.key, "variant": variant, "qeq": qeq, "sampling": sampling,
                                             "setting": setting}, path, sets, seed,
                                            keep=file_name(f"{topo.key}-{variant}-qeq{qeq}") if keep else None))
        return out

    def checks(self, runs: Runs) -> list:
        from .report import claim_checks

        return claim_checks(self.exp, runs)

    def report(self, runs: Runs) -> Report:
        from .report import report

        return report(self.exp, runs)
