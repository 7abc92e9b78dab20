"""Roeck 2007 (IEEE 802.1Qau interim): ECM vs QCN, QCN-FbHat and probing QCN in complex scenarios
(`cnsim reproduce roeck2007-qau`).

experiment.py (variants, scenarios, grid points, runs, what a run yields), measure.py (a run's
metrics; tables over seeds), claims.py (the slides' findings as checks), report.py, figures.py.
"""

from ..paper import FolderPaper

PAPER = FolderPaper(__name__)
