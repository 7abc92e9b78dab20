"""Nakauchi & Kobayashi 2006: SIRENS, EMcast vs TCP, RLM vs EMcast (`cnsim reproduce nakauchi-sirens`).

experiment.py (cases, runs, what a run yields), measure.py (the numbers a claim rests on), claims.py
(the checks), report.py (the report's body), figures.py (Figs. 4–9).
"""

from ..paper import Paper, Report, Runs, Task
from . import experiment


class Nakauchi2006(Paper):
    name, title = experiment.NAME, experiment.TITLE

    def tasks(self, seeds: int, quick: bool) -> list[Task]:
        return experiment.tasks(seeds, quick)

    def extract(self, result, spec) -> dict:
        return experiment.extract(result, spec)

    def report(self, runs: Runs) -> Report:
        from .report import report

        return report(runs)


PAPER = Nakauchi2006()
