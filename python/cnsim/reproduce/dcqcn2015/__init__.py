"""Zhu et al., SIGCOMM 2015 (DCQCN) §5 and Zhu, Ghobadi, Misra & Padhye, CoNEXT 2016 §3: DCQCN's
fluid model, its fixed point, and `dcqcn-fixed-point` — cnsim's packet-level DCQCN against it.

fluid.py (the model, a DDE integrator and the fixed point; runs today, tests/test_dcqcn_fluid.py),
experiment.py (runs and what a run yields), claims.py (the checks, the pinned parameters and the
open readings), report.py (the report's body: the fixed point beside cnsim with utilisation, q*
under each open reading, the queue's spread against the model at the measured loop delay, and a
figure of queue and rates over time per N).
"""

from ..paper import FolderPaper

PAPER = FolderPaper(__name__)
