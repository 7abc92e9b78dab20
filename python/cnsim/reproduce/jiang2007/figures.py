"""Figures of the Jiang & Jain 2007 report: the queue traces the paper plots (Figs. 5, 7, 8, 11, 13,
14; seed 1 of each configuration) and the throughputs of Tables III, V and VI beside the paper's."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .tables import BAND, QEQ, TABLE3, TABLE5, TABLE6  # noqa: E402


def _trace(ax, traces: dict, key: str, queue: str, label: str | None = None, until: float | None = None) -> None:
    tr = traces.get(key, {}).get(queue)
    if not tr:
        return
    t, q = np.asarray(tr["t"]), np.asarray(tr["q"])
    if until is not None:
        t, q = t[t <= until], q[t <= until]
    ax.plot(t * 1e3, q, lw=0.6, label=label)
    ax.axhspan(QEQ - BAND, QEQ + BAND, color="0.85", zorder=0)
    ax.set_xlabel("time (ms)")
    ax.set_ylabel(f"queue {queue} (frames)")


def _bars(ax, df: pd.DataFrame, exp: str, variants: list[tuple[str, str]], parts: list[str], paper: list[float]) -> None:
    width = 0.8 / (len(variants) + 1)
    x = np.arange(len(parts))
    for i, (var, label) in enumerate(variants):
        d = df[(df.experiment == exp) & (df.variant == var) & (df.metric == "thr_gbps") & df.part.isin(parts)]
        g = d.groupby("part")["value"]
        mean, std = g.mean().reindex(parts), g.std().reindex(parts).fillna(0)
        ax.bar(x + i * width, mean.values, width, yerr=std.values, capsize=2, label=label)
    ax.bar(x + len(variants) * width, paper, width, label="paper", color="0.3")
    ax.set_xticks(x + width * len(variants) / 2, parts)
    ax.set_ylabel("throughput (Gb/s)")
    ax.legend(fontsize=7)


def draw(df: pd.DataFrame, traces: dict, out: Path) -> list[tuple[str, str]]:
    """Write the figures into `out`; return [(file name, what it shows)]."""
    out.mkdir(parents=True, exist_ok=True)
    made = []

    def save(fig, name: str, what: str) -> None:
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        made.append((name, what))

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
    for var in ("none", "bcn"):
        _trace(axes[0], traces, f"table1-2/{var}", "CS>ES5", var, until=0.05)
        _trace(axes[1], traces, f"table1-2/{var}", "CS>ES5", var)
    axes[0].set_title("first 50 ms")
    axes[0].legend(fontsize=7)
    axes[1].set_title("whole run")
    save(fig, "fig5_six_source_queue.png", "Fig. 5: queue CS→ES5 of the 6-source topology, with and without BCN (grey: [12, 20])")

    for cap, num in ((1, 7), (10, 8)):
        fig, axes = plt.subplots(2, 2, figsize=(10, 5.5), sharey=True)
        for ax, (ru, pm) in zip(axes.flat, [(0.8, 0.05), (0.8, 0.1), (8, 0.05), (8, 0.1)]):
            _trace(ax, traces, f"fig{num}/{cap}G-ru{ru:g}-pm{pm:g}", "CS>ES5", until=0.1)
            ax.set_title(f"Ru = {ru:g} Mb/s, Pm = {pm:g}", fontsize=9)
        save(fig, f"fig{num}_factorial_{cap}g.png",
             f"Fig. {num}: queue CS→ES5 (first 100 ms) of the symmetric topology at {cap} Gb/s, the four (Ru, Pm) settings")

    fig, ax = plt.subplots(figsize=(8, 3.5))
    parts = [f"ST{i}" for i in range(1, 7)]
    _bars(ax, df, "table3", [("bcn", "TCP + BCN"), ("pause", "TCP + PAUSE")], parts, TABLE3)
    d = df[(df.experiment == "table3-udp") & (df.variant == "bcn") & (df.metric == "thr_gbps") & df.part.isin(parts)]
    m = d.groupby("part")["value"].mean().reindex(parts)
    ax.plot(np.arange(6) + 0.27, m.values, "k^", label="UDP + BCN")
    ax.axhline(10 / 6, ls=":", color="k", lw=0.8)
    ax.axhline(10 / 3, ls=":", color="k", lw=0.8)
    ax.legend(fontsize=7)
    save(fig, "table3_parking_lot.png", "Table III: parking-lot throughputs (dotted: C/6 and C/3, proportional fairness)")

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
    _bars(axes[0], df, "table5", [("bcn", "BCN"), ("none", "no BCN")], ["ST1", "ST2", "ST3", "ST4"], TABLE5)
    for q, sw in (("ES5>DT1", "SW1"), ("ES5>DT2", "SW2")):
        _trace(axes[1], traces, "table5/bcn", q, f"{q} ({sw})", until=0.1)
    axes[1].legend(fontsize=7)
    axes[1].set_ylabel("queue (frames)")
    save(fig, "table5_fig11_asymmetric.png", "Table V and Fig. 11: asymmetric topology, throughputs and the two congested queues with BCN")

    fig, axes = plt.subplots(1, 2, figsize=(11, 3.2))
    mixed = [f"ST{i}" for i in range(1, 5)] + [f"SU{i}" for i in range(1, 5)]
    _bars(axes[0], df, "table6", [("bcn", "BCN"), ("none", "no BCN"), ("bcn-10conn", "BCN, 10 conn.")], mixed, TABLE6)
    _trace(axes[1], traces, "table6/bcn", "CS>ES5", until=0.1)
    save(fig, "table6_fig13_mixed.png", "Table VI and Fig. 13: TCP/UDP mixed traffic, throughputs and the bottleneck queue with BCN")

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2), sharey=True)
    for ax, var in zip(axes, ("bcn-1ms", "bcn-100ms")):
        _trace(ax, traces, f"fig14/{var}", "CS>ES5")
        ax.set_title(f"burst period {var[4:]}", fontsize=9)
    save(fig, "fig14_bursty_queue.png", "Fig. 14: bottleneck queue with Pareto on/off UDP sources, mean burst 1 ms and 100 ms")
    return made
