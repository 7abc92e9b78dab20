"""Paper-style figures of one run (matplotlib, Agg canvas; no pyplot state).

One function per figure; each returns a `Figure`, or None when the run has nothing to draw
(`cnsim.outputs.draw_run_figures` writes them as files).
A dotted vertical line marks the start of the measurement window.
"""

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

STYLE = {
    "figure.figsize": (5.5, 3.2),
    "font.size": 9,
    "axes.labelsize": 9,
    "axes.titlesize": 9,
    "legend.fontsize": 7,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.5,
    "lines.linewidth": 1.0,
    "savefig.dpi": 200,
    "savefig.bbox": "tight",
}
MAX_LEGEND = 12  # more lines than this: no legend
# Bounds that keep drawing within seconds on any topology: each figure draws the entities with the
# largest mean (its title says how many of how many), a run draws at most MAX_QUEUES queue figures,
# and labels and titles are cut to MAX_LABEL characters.
MAX_LINES = 12
MAX_QUEUES = 8
MAX_LABEL = 40
# A line draws at most this many points: a longer series is cut into MAX_POINTS / 2 runs of samples
# and each run drawn by its lowest and highest sample, in time order. At the figures' 1 100 pixels
# of width that is still about nine points per pixel column, so peaks and troughs show as they are,
# while a `record_interval` of 1 ps (50 million samples) draws in a second, not half a minute.
MAX_POINTS = 20_000


def label(text: str, limit: int = MAX_LABEL) -> str:
    """`text` cut to `limit` characters (…)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _axes(result, title: str, ylabel: str):
    fig = Figure()
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title(label(title, 2 * MAX_LABEL))
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.axvline(result.stats["time"]["measure_from_s"], color="0.6", linestyle=":", linewidth=0.8)
    return fig, ax


def _finish(result, ax) -> None:
    ax.set_xlim(0, result.stats["time"]["end_s"])
    ax.set_ylim(bottom=0)
    if 0 < len(ax.get_lines()) - 1 <= MAX_LEGEND:  # minus the window marker
        ax.legend(loc="best", frameon=False, ncols=2)


def envelope(t, v) -> tuple[np.ndarray, np.ndarray]:
    """(t, v) thinned to at most MAX_POINTS points: each of MAX_POINTS / 2 runs of consecutive
    samples keeps its lowest and its highest, in time order; a shorter series is returned whole."""
    t, v = np.asarray(t), np.asarray(v)
    n = len(v)
    if n <= MAX_POINTS:
        return t, v
    runs = MAX_POINTS // 2
    size = -(-n // runs)
    # The last run is padded with the last sample, whose index the clip gives back.
    rows = np.pad(v, (0, runs * size - n), mode="edge").reshape(runs, size)
    start = np.arange(runs) * size
    keep = np.unique(np.minimum(np.concatenate([start + rows.argmin(axis=1), start + rows.argmax(axis=1)]), n - 1))
    return t[keep], v[keep]


def _of(shown: list[str], total: int) -> str:
    return "" if len(shown) == total else f" ({len(shown)} of {total} with the largest mean)"


def cr_figure(result) -> Figure | None:
    """Current rate CR(t) of the reaction points (at most MAX_LINES), Mb/s (Mliki et al. 2016a Figs. 3-8)."""
    names, total = result.busiest("rp_cr_bps.", MAX_LINES)
    if not names:
        return None
    fig, ax = _axes(result, "Current rate at the reaction points" + _of(names, total), "CR (Mb/s)")
    for name in names:
        t, v = envelope(*_columns(result.series(name)))
        ax.plot(t, v / 1e6, label=label(name.removeprefix("rp_cr_bps.")))
    _finish(result, ax)
    return fig


def queue_figure(result, queue: dict) -> Figure | None:
    """Length q(t) of one output queue in frames of simulation.frame_size (queued bytes ÷
    frame_size), with Qeq dashed when the queue is a CP."""
    name = f"q_frames.{queue['name']}"
    if name not in result.names():
        return None
    fig, ax = _axes(result, f"Queue {label(queue['name'])}", "queue length (frames)")
    ax.plot(*envelope(*_columns(result.series(name))), color="C0", label="q")
    if queue["cp"]:
        ax.axhline(queue["qeq_frames"], color="C3", linestyle="--", linewidth=0.9, label="Qeq")
    _finish(result, ax)
    return fig


def throughput_figure(result) -> Figure | None:
    """Throughput of the (flow, receiver) pairs (at most MAX_LINES), Mb/s: the `rx_bps.` series
    (bit/s over each record interval)."""
    names, total = result.busiest("rx_bps.", MAX_LINES)
    if not names:
        return None
    fig, ax = _axes(result, "Throughput at the receivers" + _of(names, total), "throughput (Mb/s)")
    for name in names:
        t, v = envelope(*_columns(result.series(name).iloc[1:]))  # the first sample has no interval before it
        ax.plot(t, v / 1e6, label=label(name.removeprefix("rx_bps.").replace(">", " → ")))
    _finish(result, ax)
    return fig


def _columns(s) -> tuple[np.ndarray, np.ndarray]:
    return s.index.to_numpy(), s.to_numpy()


def plotted_queues(stats: dict) -> list[dict]:
    """The queues a run's figures show: the CP queues that carried data (the MAX_QUEUES busiest);
    without any, the busiest queue."""
    cps = [q for q in stats["queues"] if q["cp"] and q["arrivals"] > 0]
    if cps or not stats["queues"]:
        return sorted(cps, key=lambda q: -q["arrivals"])[:MAX_QUEUES]
    return [max(stats["queues"], key=lambda q: q["arrivals"])]
