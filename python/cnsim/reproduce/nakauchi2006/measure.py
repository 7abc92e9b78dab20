"""What the claims of Nakauchi & Kobayashi 2006 rest on, measured on one run: EMcast's and TCP's
throughput against the fair share, the receivers' levels, and the subscription-level dynamics around
the CBR burst (when a level is reached, left and regained, and the seconds with heavy loss)."""

from __future__ import annotations

import numpy as np
import pandas as pd

BOTTLENECK_MBPS = 50.0                               # §3.1: the 50 Mb/s bottleneck
CHANNEL_MBPS = [0.1 * 2 ** i for i in range(10)]     # §3.1: ten channels, 100 kb/s doubling
CBR_MBPS = 45.0                                      # §3.3: the cross traffic's 45 Mbps
TOP_LEVEL = max(i + 1 for i, r in enumerate(CHANNEL_MBPS) if r < BOTTLENECK_MBPS)   # level 9: 25.6 Mb/s
LOSSY = 0.1          # a second is "lossy" above 10 % loss (RLM's own loss threshold, §3.3)


def received_bytes(series: dict, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(t, bytes received up to t) from a rate series (`rx_bps.*`, `mrx_bps.*`: bit/s over the
    record interval ending at each sample)."""
    t, v = (np.asarray(x, dtype=float) for x in series[name])
    return t, np.cumsum(v * np.diff(t, prepend=t[0])) / 8


def rate(series: dict, name: str, bin_s: float = 1.0) -> pd.Series:
    """Mb/s per `bin_s` bin from a rate series (`rx_bps.*`, `mrx_bps.*`)."""
    t, v = received_bytes(series, name)
    edges = np.arange(0.0, t[-1] + 1e-9, bin_s)
    at = np.interp(edges, t, v)
    return pd.Series(np.diff(at) * 8 / bin_s / 1e6, index=edges[1:])


def level(series: dict, host: str) -> pd.Series:
    t, v = series[f"level.{host}"]
    return pd.Series(v, index=t)


def first_time(s: pd.Series, cond, after: float = 0.0) -> float | None:
    hit = s[(s.index >= after) & cond(s)]
    return float(hit.index[0]) if len(hit) else None


def lossy_seconds(series: dict, host: str, start: float, end: float, threshold: float = LOSSY) -> float:
    """Seconds in [start, end) whose loss rate (frames lost ÷ frames lost + received, per 1 s) exceeds `threshold`."""
    t, lost = (np.asarray(x, dtype=float) for x in series[f"mlost_frames.{host}"])
    _, rx = received_bytes(series, f"mrx_bps.{host}")
    edges = np.arange(np.floor(start), end + 1e-9, 1.0)
    dl = np.diff(np.interp(edges, t, lost))
    dr = np.diff(np.interp(edges, t, rx)) / 1500.0
    frac = np.where(dl + dr > 0, dl / np.maximum(dl + dr, 1e-9), 0.0)
    return float((frac > threshold).sum())


def jain(values) -> float | None:
    """Jain's index of `values` (1: all equal; 1/n: one takes everything)."""
    x = np.asarray(values, dtype=float)
    return float(x.sum() ** 2 / (len(x) * (x ** 2).sum())) if len(x) and (x ** 2).sum() > 0 else None


def analyse(case, row: dict, burst: tuple[float, float]) -> dict:
    """The numbers each claim rests on, from one run."""
    s = row["series"]
    hosts = [e["name"] for e in row["endpoints"]]
    out: dict = {}
    if case.tcp:
        em = np.mean([e["throughput_bps"] for e in row["endpoints"]]) / 1e6
        tcp = np.array(list(row["tcp"].values())) / 1e6
        fair = BOTTLENECK_MBPS / (case.tcp + 1)
        out.update(emcast_mbps=em, tcp_mean_mbps=float(tcp.mean()), tcp_min_mbps=float(tcp.min()),
                   tcp_max_mbps=float(tcp.max()), fair_mbps=fair, emcast_over_fair=em / fair,
                   emcast_over_tcp=em / tcp.mean())
    if case.tcp and case.receivers == 1:
        # Figs. 4–5's "gradually decrease the subscription level": the receiver's level decreases.
        out["level_decreases"] = int(row["endpoints"][0]["drops"])
    if case.receivers > 1:
        levels = np.array([e["level_final"] for e in row["endpoints"]])
        modal = np.bincount(levels).argmax()
        out.update(modal_level=int(modal), share_at_modal=float((levels == modal).mean()),
                   level_spread=int(levels.max() - levels.min()),
                   jain_receivers=jain([e["throughput_bps"] for e in row["endpoints"]]))
    if case.cbr:
        h = hosts[0]
        lv = level(s, h)
        before = lv[lv.index < burst[0]]
        out["level_before_burst"] = int(before.iloc[-1]) if len(before) else None
        # The first time at the top level, as measured (None: never reached before the run's end —
        # censored, counted by `reached_level9`); no extrapolation.
        out["t_reach_level9_s"] = first_time(lv, lambda x: x >= TOP_LEVEL)
        out["reached_level9"] = float(out["t_reach_level9_s"] is not None)
        top = out["level_before_burst"]
        out["t_reach_pre_burst_level_s"] = first_time(lv, lambda x: x >= top) if top else None
        fit = max(i + 1 for i, r in enumerate(CHANNEL_MBPS) if r <= BOTTLENECK_MBPS - CBR_MBPS)  # level 6: 3.2 Mb/s
        t_fit = first_time(lv, lambda x: x <= fit, after=burst[0])
        out["burst_fit_level"] = fit
        out["t_adapt_s"] = None if t_fit is None else t_fit - burst[0]
        top = out["level_before_burst"]
        t_back = first_time(lv, lambda x: x >= (top or 99), after=burst[1])
        out["t_recover_s"] = None if t_back is None else t_back - burst[1]
        out["lossy_s_in_burst"] = lossy_seconds(s, h, burst[0], min(burst[1] + 10, float(lv.index[-1])))
    return out
