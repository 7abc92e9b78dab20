"""Figures of the reproduction reports: metrics vs Qeq with error bars over seeds beside the
paper's values (per topology, per group, per switch), and CR(t) per source for each run kept."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from .spec import METRIC_TITLES, QEQS, UNITS  # noqa: E402

# axis labels: the report's titles without their denominators (the report states them)
AXIS = {m: t.split(" (")[0] + ("" if UNITS[m] == "1" else f" ({UNITS[m]})") for m, t in METRIC_TITLES.items()}

# CR panels: over the samples with a rate limiter in place, as the claims compare them
MAIN = ["feedback_rate_pct", "loss_rate_pct", "total_loss_pct", "cr_active_std_mbps", "cr_active_mean_mbps",
        "throughput_mean_mbps", "q_mean_frames", "q_dev_from_qeq_frames", "jain_cr_active", "jain_throughput", "first_cnm_s"]
GROUP = ["feedback_rate_pct", "loss_rate_pct", "cr_active_std_mbps", "jain_cr_active"]
SWITCH = ["q_dev_from_qeq_frames", "q_std_frames"]


def _errorbars(ax, df: pd.DataFrame, label: str, offset: float) -> str:
    g = df.groupby("qeq")["value"]
    mean, std = g.mean(), g.std().fillna(0)
    line = ax.errorbar([q + offset for q in mean.index], mean.values, yerr=std.values, fmt="o-", capsize=3, ms=4, label=label)
    return line[0].get_color()


def _panels(n: int, title: str):
    cols = min(3, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows), squeeze=False)
    fig.suptitle(title)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _finish(fig, axes, path: Path) -> Path:
    for ax in axes:
        ax.set_xlabel("Qeq (frames)")
        ax.set_xticks(list(QEQS))
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def draw(exp, df: pd.DataFrame, out: Path, kept: Path | None = None) -> list[Path]:
    """The figures of the baseline runs (sensitivity runs are reported in tables)."""
    out.mkdir(parents=True, exist_ok=True)
    df = df[df.setting == "baseline"]
    paths = []
    for sampling in sorted(set(df.sampling)):
        for topo in exp.topologies:
            sub = df[(df.topology == topo.key) & (df.sampling == sampling)]
            if sub.empty:
                continue
            metrics = [m for m in MAIN if m in set(sub[sub.part == "all"].metric)]
            fig, axes = _panels(len(metrics), f"{topo.title} — CP sampling: {sampling}")
            for ax, metric in zip(axes, metrics):
                for k, variant in enumerate(topo.variants):
                    sel = sub[(sub.variant == variant) & (sub.part == "all") & (sub.metric == metric)]
                    color = _errorbars(ax, sel, f"cnsim {variant}", (k - 0.5) * 3)
                    paper = topo.paper.get((metric, variant))
                    if paper and any(v is not None for v in paper):
                        pts = [(q, v) for q, v in zip(QEQS, paper) if v is not None]
                        ax.plot(*zip(*pts), "x--", color=color, label=f"paper {variant}")
                ax.set_ylabel(AXIS[metric], fontsize=8)
            paths.append(_finish(fig, axes, out / f"{topo.key}-{sampling}.png"))
            for kind, names, metrics in (("groups", sorted(p for p in set(sub.part) if p.startswith("G")), GROUP),
                                         ("switches", sorted(p for p in set(sub.part) if p != "all" and not p.startswith("G")), SWITCH)):
                if not names:
                    continue
                fig, axes = _panels(len(metrics), f"{topo.title} — per {kind[:-1] if kind == 'switches' else 'group'} — {sampling}")
                for ax, metric in zip(axes, metrics):
                    for j, part in enumerate(names):
                        for k, variant in enumerate(topo.variants):
                            sel = sub[(sub.variant == variant) & (sub.part == part) & (sub.metric == metric)]
                            if not sel.empty:
                                _errorbars(ax, sel, f"{part} {variant}", (j * len(topo.variants) + k - 2) * 1.2)
                    ax.set_ylabel(AXIS[metric], fontsize=8)
                paths.append(_finish(fig, axes, out / f"{topo.key}-{kind}-{sampling}.png"))
    if kept and kept.exists():
        for topo in exp.topologies:
            dirs = sorted(d for d in kept.glob(f"{topo.key}-*") if (d / "series.parquet").exists())
            for p in (_cr_figure(dirs, out / f"{topo.key}-cr.png"), _queue_figure(dirs, out / f"{topo.key}-queues.png")):
                if p:
                    paths.append(p)
    return paths


def _run_grid(n: int):
    """A figure of `n` panels in rows of three, unused cells hidden: (figure, the n axes)."""
    cols = 3
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(13, 3 * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _queue_figure(dirs: list[Path], path: Path) -> Path | None:
    """One panel per kept run: the length (frames) of every switch output queue that held more
    than one frame, vs time — the papers' queue-size-variation figures, per CP."""
    if not dirs:
        return None
    fig, axes = _run_grid(len(dirs))
    for ax, d in zip(axes, dirs):
        s = pd.read_parquet(d / "series.parquet")
        s = s[s["name"].str.startswith("q_frames.")]
        for n, part in s.groupby("name"):
            if part["value"].max() > 1:
                ax.plot(part["t"], part["value"], lw=0.5, label=n.removeprefix("q_frames."))
        ax.set_title(d.name, fontsize=9)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("queue (frames)")
        ax.set_ylim(0, 105)
        ax.legend(fontsize=5)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _cr_figure(dirs: list[Path], path: Path) -> Path | None:
    """One panel per run: session CR(t) per source (RP CR when sessions are single flows), with
    the reference CR_mean = 1 Gb/s ÷ 6 of Mliki et al. 2016a §3.1."""
    if not dirs:
        return None
    fig, axes = _run_grid(len(dirs))
    for ax, d in zip(axes, dirs):
        s = pd.read_parquet(d / "series.parquet")
        names = sorted(n for n in s["name"].unique() if n.startswith("session_cr_bps."))
        names = names or sorted(n for n in s["name"].unique() if n.startswith("rp_cr_bps."))
        for n in names:
            part = s[s["name"] == n]
            ax.plot(part["t"], part["value"] / 1e6, lw=0.6, label=n.split(".", 1)[1])
        ax.axhline(1000 / 6, color="k", lw=0.8, ls="--")
        ax.set_title(d.name, fontsize=9)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("CR (Mb/s)")
        ax.set_ylim(0, 1050)
    axes[0].legend(fontsize=5, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
