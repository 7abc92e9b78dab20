"""Mliki et al. 2016a (legacy QCN, multicast vs multiple unicast) and 2016b (enhanced QCN for
multicast): `cnsim reproduce mliki2016-dumbbell | mliki2016-legacy | mliki2016-enhanced`.

spec.py (topologies, claims, numbers as data; views of the results), papers.py (the three
experiments), experiment.py (runs and what a run yields), claims.py (the checks), hypotheses.py and
sensitivity.py (what the papers may have counted; the open choices), findings.py (the prose),
report.py (the report's body), figures.py.
"""

from .experiment import MlikiPaper
from .papers import DUMBBELL_EXP, ENHANCED, LEGACY

DUMBBELL = MlikiPaper(DUMBBELL_EXP)
LEGACY = MlikiPaper(LEGACY)
ENHANCED = MlikiPaper(ENHANCED)
