"""Roeck 2007 (IEEE 802.1Qau interim): ECM vs QCN, QCN-FbHat and probing QCN in complex scenarios
(`cnsim reproduce roeck2007-qau`).

experiment.py (variants, scenarios, grid points, runs, what a run yields), measure.py (a run's
metrics; tables over seeds), claims.py (the slides' findings as checks), report.py, figures.py.
"""

from ..paper import Paper, Report, Runs, Task
from . import experiment


class Roeck2007(Paper):
    name, title = experiment.NAME, experiment.TITLE

    def tasks(self, seeds: int, quick: bool) -> list[Task]:
        return experiment.tasks(seeds, quick)

    def extract(self, result, spec) -> dict:
        return experiment.extract(result, spec)

    def report(self, runs: Runs) -> Report:
        from .report import report

        return report(runs)


PAPER = Roeck2007()
