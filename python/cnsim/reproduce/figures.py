"""Figures of the reproduction reports: metric vs Qeq with error bars over seeds and the paper's
values, and CR(t) per source for each configuration (like seed 000 Figs. 3–8)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

PANELS = [("feedback_rate_pct", "feedback rate (%)"), ("loss_rate_pct", "loss rate (%)"),
          ("cr_std_mbps", "CR std-dev (Mb/s)"), ("q_dev_from_qeq_frames", "mean queue − Qeq (frames)"),
          ("jain_cr", "Jain index (CR)"), ("first_cnm_s", "first CNM (s)")]


def draw(df: pd.DataFrame, paper: dict, qeqs, modes, out: Path, runs: Path | None = None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for sampling in sorted(set(df.sampling)):
        fig, axes = plt.subplots(2, 3, figsize=(12, 6.5))
        for ax, (metric, label) in zip(axes.flat, PANELS):
            for k, mode in enumerate(modes):
                sub = df[(df["mode"] == mode) & (df.sampling == sampling)].groupby("qeq")[metric]
                mean, std = sub.mean(), sub.std().fillna(0)
                x = [q + (k - 0.5) * 4 for q in mean.index]
                ax.errorbar(x, mean.values, yerr=std.values, fmt="o-", capsize=3, label=f"cnsim {mode}")
                if (metric, mode) in paper:
                    ax.plot(qeqs, paper[(metric, mode)], "x--", color=ax.lines[-1].get_color(), label=f"paper {mode}")
            ax.set_xlabel("Qeq (frames)")
            ax.set_ylabel(label)
            ax.set_xticks(list(qeqs))
            ax.grid(alpha=0.3)
        axes.flat[0].legend(fontsize=7)
        fig.suptitle(f"cnsim vs paper — CP sampling: {sampling}")
        fig.tight_layout()
        p = out / f"metrics-{sampling}.png"
        fig.savefig(p, dpi=110)
        plt.close(fig)
        paths.append(p)
    if runs and runs.exists():
        paths += _cr_figures(runs, out)
    return paths


def _cr_figures(runs: Path, out: Path) -> list[Path]:
    """One panel per run directory: session CR(t) (or RP CR(t)) per source, with CR_mean."""
    dirs = sorted(d for d in runs.iterdir() if (d / "series.parquet").exists())
    if not dirs:
        return []
    fig, axes = plt.subplots(len(dirs) // 3 or 1, min(3, len(dirs)), figsize=(13, 3.2 * (len(dirs) // 3 or 1)), squeeze=False)
    for ax, d in zip(axes.flat, dirs):
        s = pd.read_parquet(d / "series.parquet")
        names = sorted(n for n in s["name"].unique() if n.startswith("session."))
        if not names:
            names = sorted(n for n in s["name"].unique() if n.startswith("rp.") and n.endswith(".cr"))
        for n in names:
            part = s[s["name"] == n]
            ax.plot(part["t"], part["value"] / 1e6, lw=0.7, label=n.split(".")[1])
        ax.axhline(1000 / 6, color="k", lw=0.8, ls="--")
        ax.set_title(d.name, fontsize=9)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("CR (Mb/s)")
        ax.set_ylim(0, 1050)
    axes.flat[0].legend(fontsize=6, ncol=2)
    fig.tight_layout()
    p = out / "cr-per-source.png"
    fig.savefig(p, dpi=110)
    plt.close(fig)
    return [p]
