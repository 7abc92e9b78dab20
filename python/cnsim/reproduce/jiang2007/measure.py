"""The runs of the Jiang & Jain 2007 reproduction as arrays: a metric's values over seeds in one
configuration, or a seeds × sources matrix; and the spread of throughputs across sources."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..compare import num as fmt


class View:
    """Means over seeds of one run set's metrics."""

    def __init__(self, df: pd.DataFrame):
        self.df = df

    def values(self, exp: str, var: str, part: str, metric: str) -> np.ndarray:
        d = self.df
        sel = d[(d.experiment == exp) & (d.variant == var) & (d.part == part) & (d.metric == metric)]
        return sel["value"].to_numpy(dtype=float)

    def mean(self, exp, var, part, metric) -> float:
        v = self.values(exp, var, part, metric)
        return float(np.mean(v)) if len(v) else float("nan")

    def cell(self, exp, var, part, metric, scale: float = 1.0) -> str:
        v = self.values(exp, var, part, metric) * scale
        if not len(v):
            return "–"
        return fmt(float(np.mean(v))) + (f" ± {fmt(float(np.std(v, ddof=1)))}" if len(v) > 1 else "")

    def per_seed(self, exp, var, parts, metric) -> np.ndarray:
        """seeds × parts matrix of a metric."""
        d = self.df
        sel = d[(d.experiment == exp) & (d.variant == var) & (d.metric == metric) & d.part.isin(parts)]
        return sel.pivot_table(index="seed", columns="part", values="value").reindex(columns=parts).to_numpy()


def cv(rows: np.ndarray) -> np.ndarray:
    """std/avg (%) across sources, per seed."""
    return 100 * rows.std(axis=1) / rows.mean(axis=1)
