"""Jiang & Jain 2007: BCN with TCP and UDP (`cnsim reproduce jiang2007-bcn`).

experiment.py (configurations, runs, what a run yields), tables.py (the paper's numbers), claims.py
(the checks), report.py (tables beside the paper's, the differences explained), figures.py, fluid.py
(the paper's analytic model of BCN, §V: `bcn_fluid`, `bcn_equilibrium`).
"""

from ..paper import FolderPaper

PAPER = FolderPaper(__name__)
