"""The figures of the Roeck 2007 reproduction: per scenario, each metric against the grid value,
one line (or bar) per variant, means over seeds; axes labelled with their units."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..paper import Runs
from .experiment import SCENARIOS, TIME_SERIES
from .measure import LABELS, SECTIONS, table

AXES = {"load_gbps": "offered load (Gb/s)", "t_on_ms": "hotspot on-time t_on (ms)", "latency_us": "forward latency (µs)",
        "psample_pct": "psample (%)", "stage": "", "w_hai_latency": "W / HAI / latency (µs)", "w": "W",
        "margin": "variant / RTT (µs) / parameter", "unit_latency": "Fb unit / latency (µs)"}


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
        (_, (full, _)), = sc.grid.items()
        height = 3.2 + 0.06 * max(len(str(x)) for x in full)   # room for long categorical tick labels
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, height * rows), squeeze=False)
        for ax, (m, t) in zip(axes.flat, tables):
            numeric = all(str(i).replace(".", "", 1).isdigit() for i in t.index)
            if len(t.index) == 1:  # one grid value: one bar per variant
                ax.bar(list(t.columns), list(t.iloc[0]), color="tab:blue")
                ax.tick_params(axis="x", rotation=45, labelsize=7)
                ax.set_xlabel("variant", fontsize=7)
            elif not numeric:  # categorical grid: a group of bars per grid value, one bar per variant
                width = 0.8 / len(t.columns)
                for j, v in enumerate(t.columns):
                    ax.bar([i + j * width for i in range(len(t.index))], list(t[v]), width, label=v)
                ax.set_xticks([i + 0.4 - width / 2 for i in range(len(t.index))], [str(i) for i in t.index],
                              rotation=60, ha="right", fontsize=6)
                ax.set_xlabel(AXES.get(t.index.name, t.index.name), fontsize=7)
                if len(t.columns) > 1:
                    ax.legend(fontsize=7)
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


def timeseries(runs: Runs, where: Path) -> dict[str, str]:
    """The slides' time-series figures: for each kept run (seed 1; experiment.TIME_SERIES), the
    throughput delivered to the hotspot's host and the hotspot's queue against time, one row per
    variant. Returns "scenario point" → file name relative to the report."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    where.mkdir(parents=True, exist_ok=True)
    figs = {}
    for sc in SCENARIOS:
        if sc.key not in TIME_SERIES:
            continue
        (_, (full, short)), = sc.grid.items()
        for value in (short if runs.quick else full):
            got = [(var, runs.extra(seed=1, scenario=sc.key, point=str(value), variant=var)) for var in sc.variants]
            got = [(var, x) for var, x in got if x and x.get("t")]
            if not got:
                continue
            fig, axes = plt.subplots(len(got), 2, figsize=(10, 1.9 * len(got) + 0.6), squeeze=False, sharex=True)
            for (var, x), (a_thr, a_q) in zip(got, axes):
                t_ms = [t * 1e3 for t in x["t"]]
                a_thr.plot(t_ms, x["thr_gbps"], lw=0.8, color="tab:blue")
                a_q.plot(t_ms, x["q_kb"], lw=0.8, color="tab:red")
                a_thr.set_ylabel(f"{var}\nGb/s", fontsize=8)
                a_q.set_ylabel("kB", fontsize=8)
                for ax in (a_thr, a_q):
                    ax.tick_params(labelsize=7)
                    ax.grid(alpha=0.3)
            axes[0][0].set_title(f"throughput delivered to the hotspot's host ({sc.hotspot.split('>')[1]})", fontsize=9)
            axes[0][1].set_title(f"hotspot queue {sc.hotspot} (kB)", fontsize=9)
            for ax in axes[-1]:
                ax.set_xlabel("time (ms)", fontsize=8)
            label = f"{AXES.get(next(iter(sc.grid)), '')} {value}".strip() if len(full) > 1 else ""
            fig.suptitle(f"{sc.title}{' — ' + label if label else ''} (seed 1)", fontsize=10)
            fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))   # room for the title
            name = f"{sc.key}-{value}-time.png" if len(full) > 1 else f"{sc.key}-time.png"
            fig.savefig(where / name, dpi=90)
            plt.close(fig)
            figs[f"{sc.key} {value}"] = f"figures/{name}"
    return figs
