"""Li et al., SIGCOMM 2019 (HPCC) §5's comparison as far as a readable source states it: DCQCN, TIMELY,
DCTCP and HPCC on a fat tree with web-search and FB Hadoop transfers at 30 % and 50 % load —
`hpcc2019`. experiment.py (the fabric, the shipped scenarios, the runs and what a run yields),
claims.py (the claims, their sources and calibrations), report.py (the report's body: FCT slowdown
percentiles per flow-size bucket and protocol, queues and PFC pauses, the scale-down and its effects).
"""

from ..paper import FolderPaper

PAPER = FolderPaper(__name__)
