"""Zhu et al., SIGCOMM 2015 (DCQCN) §5 and Zhu, Ghobadi, Misra & Padhye, CoNEXT 2016 §3: DCQCN's
fluid model, its fixed point, and `dcqcn-fixed-point` — cnsim's packet-level DCQCN against it.

fluid.py (the model, a DDE integrator and the fixed point; runs today, tests/test_dcqcn_fluid.py),
experiment.py (runs and what a run yields), claims.py (the checks), report.py (the report's body).
"""

from ..paper import Paper, Report, Runs, Task
from . import experiment



class Dcqcn2015(Paper):
    name, title = experiment.NAME, experiment.TITLE

    def tasks(self, seeds: int, quick: bool) -> list[Task]:
        return experiment.tasks(seeds, quick)

    def extract(self, result, spec) -> dict:
        return experiment.extract(result, spec)

    def report(self, runs: Runs) -> Report:
        from .report import report

        return report(runs)


PAPER = Dcqcn2015()
