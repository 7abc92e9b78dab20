"""The protocol event trace (`--trace KINDS`): one row per event, as a pandas DataFrame / Parquet.

Columns: `t_s`, `kind`, `node`, `port` ("NODE>PEER", or None), `flow` (or None), and the fields
each kind fills (others are null):

| kind | fields |
|---|---|
| cnm_sent | `qntz_fb`, `fb` (Fb in bytes, before quantization), `qoff_bytes`, `qdelta_bytes`, `cpid` |
| cnm_received | `qntz_fb`, `cpid` (at the flow's source, before its RP reads it) |
| bcn_sent, bcn_received | `e` (frames), `stop` (0/1), `cpid` |
| drop | `reason` (queue_full, limiter_buffer, wire_loss, unroutable, aqm: RED's early or forced drop, ttl: a router decremented the TTL to 0), `frame_kind` |
| limiter_created | `rate_bps` (the limiter's rate right after the CNM that created it) |
| limiter_released | — |
| pause_sent, pause_received | `quanta` (0 = XON), `classes` (bit p = priority p; 255 = 802.3x PAUSE) |
| representative | `fb_hat`, `cpid` (E-QCN: the CP now behind F̂b; 0 = none) |

`cpid` is the 8-byte CPID as on the wire (the CP switch's MAC, then the port's index there), as an
unsigned integer: the pcap's CNMs carry the same value. A drop at a source (`limiter_buffer`) has
no port and `frame_kind` "data"; `port` of a drop is the queue (or wire) that lost the frame.
"""

import numpy as np
import pandas as pd

FIELDS = {
    "cnm_sent": {"a": "qntz_fb", "b": "qoff_bytes", "c": "qdelta_bytes", "x": "fb", "cpid": "cpid"},
    "cnm_received": {"a": "qntz_fb", "cpid": "cpid"},
    "bcn_sent": {"a": "stop", "x": "e", "cpid": "cpid"},
    "bcn_received": {"a": "stop", "x": "e", "cpid": "cpid"},
    "drop": {"a": "reason", "b": "frame_kind"},
    "limiter_created": {"x": "rate_bps"},
    "limiter_released": {},
    "pause_sent": {"a": "quanta", "b": "classes"},
    "pause_received": {"a": "quanta", "b": "classes"},
    "representative": {"a": "fb_hat", "cpid": "cpid"},
}
INT_COLUMNS = ("qntz_fb", "qoff_bytes", "qdelta_bytes", "stop", "quanta", "classes", "fb_hat")
FLOAT_COLUMNS = ("fb", "e", "rate_bps")
NONE = 0xFFFFFFFF


def kinds() -> tuple[list[str], list[str]]:
    """(event kind names, drop reason names), as the engine declares them."""
    from . import _core

    names, reasons = _core.trace_kinds()
    return list(names), list(reasons)


def mask(spec) -> int:
    """Kind bits of a `--trace` value: "all", or a comma-separated list of kinds (or an iterable)."""
    names, _ = kinds()
    if spec is True or spec == "all":
        return (1 << len(names)) - 1
    items = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else [str(s) for s in spec]
    bits = 0
    for item in filter(None, items):
        if item not in names:
            raise ValueError(f"--trace {item!r}: unknown event kind; expected 'all' or some of {', '.join(names)}")
        bits |= 1 << names.index(item)
    if not bits:
        raise ValueError("--trace: no event kind given")
    return bits


def frame(raw: dict, ports: list[str], nodes: list[str], flows: list[str]) -> pd.DataFrame:
    """The engine's trace columns (`_core.Simulation.trace()`) as a DataFrame (see module doc)."""
    names, reasons = kinds()
    from .capture import kind_names

    frame_kinds = kind_names()
    col = {k: np.frombuffer(raw[k], dt) for k, dt in
           (("t_ps", "<u8"), ("kind", "<u2"), ("node", "<u4"), ("port", "<u4"), ("flow", "<u4"),
            ("a", "<i8"), ("b", "<i8"), ("c", "<i8"), ("cpid", "<u8"), ("x", "<f8"))}
    kind_idx = np.log2(np.maximum(col["kind"], 1)).astype(int)
    kind = pd.Categorical.from_codes(kind_idx, categories=names)

    def named(values: np.ndarray, table: list[str]) -> pd.Categorical:
        values = values.astype(np.int64)
        codes = np.where(values == NONE, -1, values)
        return pd.Categorical.from_codes(codes, categories=table)

    df = pd.DataFrame({
        "t_s": col["t_ps"] / 1e12, "kind": kind, "node": named(col["node"], nodes),
        "port": named(col["port"], ports), "flow": named(col["flow"], flows),
    })
    for c in INT_COLUMNS:
        df[c] = pd.array([pd.NA] * len(df), dtype="Int64")
    for c in FLOAT_COLUMNS:
        df[c] = np.nan
    df["cpid"] = pd.array([pd.NA] * len(df), dtype="UInt64")
    df["reason"] = pd.Categorical([None] * len(df), categories=reasons)
    df["frame_kind"] = pd.Categorical([None] * len(df), categories=frame_kinds)
    for i, name in enumerate(names):
        rows = kind_idx == i
        if not rows.any():
            continue
        for src, dst in FIELDS[name].items():
            values = col[src][rows]
            if dst == "reason":
                df.loc[rows, dst] = [reasons[v] for v in values]
            elif dst == "frame_kind":
                df.loc[rows, dst] = [frame_kinds[int(v).bit_length() - 1] if v > 0 else "data" for v in values]
            elif dst == "cpid":
                df.loc[rows, dst] = values
            else:
                df.loc[rows, dst] = values
    # A rate limiter's deferred generations are replayed late (docs/performance.md), so their
    # drops are recorded after later events: restore time order (stable, so equal times keep the
    # engine's order).
    if len(df) and not df["t_s"].is_monotonic_increasing:
        df = df.sort_values("t_s", kind="stable", ignore_index=True)
    return df
