"""`cnsim reproduce`: re-run a seed paper's experiments and write a report next to its numbers.

Each experiment module defines `NAME`, `TITLE` and `reproduce(out, *, seeds, jobs, quick) -> Path`
(the report's path). `EXPERIMENTS` maps names to modules.
"""

from . import mliki2016_dumbbell

EXPERIMENTS = {m.NAME: m for m in (mliki2016_dumbbell,)}
