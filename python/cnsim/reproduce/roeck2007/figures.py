"""The figures of the Roeck 2007 reproduction: per scenario, each metric against the grid value,
one line (or bar) per variant, means over seeds; axes labelled with their units."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .experiment import SCENARIOS
from .measure import LABELS, SECTIONS, table

AXES = {"load_gbps": "offered load (Gb/s)", "t_on_ms": "hotspot on-time t_on (ms)", "latency_us": "forward latency (µs)",
        "psample_pct": "psample (%)", "stage": "", "w_hai_latency": "W / HAI / latency (µs)"}


def draw(df: pd.DataFrame, where: Path) -> dict[str, str]:
    """One figure per scenario: each metric of SECTIONS against the grid value, one line (or bar
    group) per variant. Returns scenario key → file name relative to the report."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    where.mkdir(parents=True, exist_ok=True)
    figs = {}
    for sc in SCENARIOS:
        tables = [(m, table(df, sc.key, m)) for m in SECTIONS[sc.key]]
        tables = [(m, t) for m, t in tables if not t.empty]
        if not tables:
            continue
        cols = 3
        rows = (len(tables) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
        for ax, (m, t) in zip(axes.flat, tables):
            numeric = all(str(i).replace(".", "", 1).isdigit() for i in t.index)
            if len(t.index) == 1 or not numeric:
                if len(t.index) > 1:  # categorical grid (FbHat): one bar per point, first variant
                    t = t.T
                    ax.set_xlabel(t.columns.name or "")
                ax.bar(list(t.columns), list(t.iloc[0]), color="tab:blue")
                ax.tick_params(axis="x", rotation=45)
            else:
                x = [float(i) for i in t.index]
                for v in t.columns:
                    ax.plot(x, list(t[v]), marker="o", label=v)
                ax.set_xlabel(AXES.get(t.index.name, t.index.name))
                if t.index.name in ("psample_pct", "t_on_ms", "latency_us"):
                    ax.set_xscale("log")
                ax.legend(fontsize=7)
            ax.set_title(LABELS.get(m, m), fontsize=9)
            ax.set_ylabel(LABELS.get(m, m), fontsize=7)
        for ax in list(axes.flat)[len(tables):]:
            ax.axis("off")
        fig.suptitle(sc.title, fontsize=10)
        fig.tight_layout()
        name = f"{sc.key}.png"
        fig.savefig(where / name, dpi=90)
        plt.close(fig)
        figs[sc.key] = f"figures/{name}"
    return figs
