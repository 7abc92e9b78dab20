"""The Mliki et al. 2016a/b experiments as `Paper`s: each topology's variants run over Qeq 25/50/75
frames, CP sampling modes and seeds, beside the same runs with each open choice changed (the
sensitivity settings, on the same seeds); a run yields the global metrics, per multicast group and
per switch (`extract`); seed 1 of the baseline keeps its full outputs for the figures.
"""

from __future__ import annotations

from ...metrics import group_metrics, seed_metrics, switch_metrics
from ...outputs import file_name
from ..paper import Paper, Report, Runs, Task
from . import sensitivity
from .spec import BASELINE, HYPOTHESIS_ONLY, QEQS, QUICK, Experiment, protocol_of


def plan(exp: Experiment, quick: bool) -> list[tuple[str, str]]:
    """(sampling, setting) of each run set: the baseline under every sampling mode of the experiment
    (--quick: the first only), then each alternative setting of sensitivity.py on the first sampling
    mode (--quick: the few of sensitivity.QUICK). Every set runs the same seeds."""
    sets = [(s, BASELINE) for s in (exp.samplings[:1] if quick else exp.samplings)]
    names = sensitivity.QUICK if quick else [x.name for x in sensitivity.SETTINGS if x.name != sensitivity.TABLE]
    return sets + [(exp.samplings[0], name) for name in names]


class MlikiPaper(Paper):
    """One experiment of Mliki et al. 2016a/b (`spec.Experiment`)."""
    seeds = 10   # the papers' numbers vary by 10–30 % from seed to seed in cnsim: ten seeds narrow the intervals

    def __init__(self, exp: Experiment):
        self.exp, self.name, self.title = exp, exp.name, exp.title

    def tasks(self, seeds: int, quick: bool) -> list[Task]:
        exp, out = self.exp, []
        targets = {(t[0].key, t[1]) for t in exp.targets}  # the hypothesis-only settings run on these only
        for sampling, setting in plan(exp, quick):
            for topo in exp.topologies:
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

    def extract(self, result, spec) -> dict:
        """[part, metric, value] of a finished run: "all" (global metrics and the main CP queue), each
        multicast group when there are several, each switch's busiest CP queue when there are several."""
        summary, stats = result.summary, result.stats
        parts = {"all": seed_metrics(summary)}
        groups = group_metrics(stats)
        if len(groups) > 1:
            parts.update(groups)
        switches = switch_metrics(stats)
        if len(switches) > 1:
            parts.update({k: {m: v for m, v in d.items() if m != "queue"} for k, d in switches.items()})
        return {"values": [[p, m, v] for p, ms in parts.items() for m, v in ms.items()
                           if isinstance(v, (int, float)) and not isinstance(v, bool)]}

    def checks(self, runs: Runs) -> list:
        from .report import claim_checks

        return claim_checks(self.exp, runs)

    def report(self, runs: Runs) -> Report:
        from .report import report

        return report(self.exp, runs)
