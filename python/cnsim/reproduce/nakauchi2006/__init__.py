"""Nakauchi & Kobayashi 2006: SIRENS, EMcast vs TCP, RLM vs EMcast (`cnsim reproduce nakauchi-sirens`).

experiment.py (cases, runs, what a run yields), measure.py (the numbers a claim rests on), claims.py
(the checks), report.py (the report's body), figures.py (Figs. 4–9).
"""

from ..paper import FolderPaper

PAPER = FolderPaper(__name__)
