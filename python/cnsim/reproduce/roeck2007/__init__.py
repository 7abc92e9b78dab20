"""Roeck 2007 (IEEE 802.1Qau interim): ECM vs QCN, QCN-FbHat and probing QCN in complex scenarios
(`cnsim reproduce roeck2007-qau`).

experiment.py (variants, scenarios, grid points, runs), measure.py (a run's metrics; tables over
seeds), claims.py (the slides' findings as checks), report.py, figures.py.
"""

from .experiment import Roeck2007

PAPER = Roeck2007()
