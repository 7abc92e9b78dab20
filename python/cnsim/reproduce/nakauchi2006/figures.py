"""The figures of the Nakauchi & Kobayashi 2006 reproduction (Figs. 4–9, from the runs of seed 1)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .measure import CHANNEL_MBPS, level, rate


def draw(case, run: dict, path: Path, burst: tuple[float, float]) -> Path:
    """The paper's figure for one case: throughput per 1-s bin of the multicast session, its
    receiver(s) and the TCP or CBR flows (the CBR burst shaded), and the receivers' levels below."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = run["series"]
    fig, (ax, axl) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    hosts = [e["name"] for e in run["endpoints"]]
    label = "RLM" if case.key == "fig8" else "EMcast"
    if len(hosts) > 1:
        # The paper's definition: the total rate of the groups the session's receivers hold.
        levels = pd.concat([level(s, h) for h in hosts], axis=1)
        total = levels.apply(lambda r: sum(CHANNEL_MBPS[int(x) - 1] for x in set(r)), axis=1)
        ax.plot(total.index, total.values, label=f"{label} session (all groups held)", lw=1.2)
    for h in hosts[:1]:
        m = rate(s, f"mrx_bps.{h}")
        ax.plot(m.index, m.values, label=f"{label} receiver {h}", lw=1.2)
    for name in sorted(n for n in s if n.startswith(("rx_bps.tcp", "rx_bps.cbr"))):
        m = rate(s, name)
        ax.plot(m.index, m.values, label=name.removeprefix("rx_bps.").split(">")[0], lw=0.8)
    if case.cbr:
        for a in (ax, axl):
            a.axvspan(*burst, color="0.9", zorder=0)
    ax.set_ylabel("throughput (Mb/s)")
    ax.set_title(f"{case.figure} (cnsim): {case.title}", fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    for h in hosts[:10]:
        lv = level(s, h)
        axl.step(lv.index, lv.values, where="post", lw=0.8)
    axl.set_ylabel("subscription level")
    axl.set_xlabel("time (s)")
    axl.set_ylim(0, 11)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
