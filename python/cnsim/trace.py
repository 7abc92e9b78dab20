"""The protocol event trace (`--trace KINDS`): one row per event, as a pandas DataFrame / Parquet.

Columns: `t_s`, `kind`, `node`, `port` ("NODE>PEER", or None), `flow` (or None), and the fields
each kind fills (others are null), as the engine declares them: the engine's own kinds in
`tap/trace.rs`, each protocol's in its registration; `fields()` reads them (`_core.trace_fields()`),
and docs/observing.md's table lists them (a test checks it against the engine).

`cpid` is the 8-byte CPID as on the wire (the CP switch's MAC, then the port's index there), as an
unsigned integer: the pcap's CNMs carry the same value. A drop at a source (`limiter_buffer`) has
no port and `frame_kind` "data"; `port` of a drop is the queue (or wire) that lost the frame.
"""

import numpy as np
import pandas as pd

NONE = 0xFFFFFFFF
# Column groups of the DataFrame, in order: each holds the fields of its type, in the order the
# kinds first declare them.
TYPES = ("int", "float", "unsigned", "reason", "frame_kind")


def kinds() -> tuple[list[str], list[str]]:
    """(event kind names, drop reason names), as the engine declares them."""
    from . import _core

    names, reasons = _core.trace_kinds()
    return list(names), list(reasons)


def fields() -> dict[str, list[tuple[str, str, str]]]:
    """Per event kind, the fields its rows fill, as the engine declares them: (name, engine column,
    type), the type one of `TYPES`."""
    from . import _core

    names, _ = kinds()
    return {name: [tuple(f) for f in declared] for name, declared in zip(names, _core.trace_fields())}


def columns() -> dict[str, str]:
    """Every field column of the DataFrame, in order, with its type."""
    seen: dict[str, str] = {}
    for declared in fields().values():
        for name, _, ty in declared:
            seen.setdefault(name, ty)
    return {name: ty for t in TYPES for name, ty in seen.items() if ty == t}


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
    empty = {
        "int": lambda: pd.array([pd.NA] * len(df), dtype="Int64"),
        "float": lambda: np.nan,
        "unsigned": lambda: pd.array([pd.NA] * len(df), dtype="UInt64"),
        "reason": lambda: pd.Categorical([None] * len(df), categories=reasons),
        "frame_kind": lambda: pd.Categorical([None] * len(df), categories=frame_kinds),
    }
    for name, ty in columns().items():
        df[name] = empty[ty]()
    for i, (name, declared) in enumerate(fields().items()):
        rows = kind_idx == i
        if not rows.any():
            continue
        for dst, src, ty in declared:
            values = col[src][rows]
            if ty == "reason":
                df.loc[rows, dst] = [reasons[v] for v in values]
            elif ty == "frame_kind":
                df.loc[rows, dst] = [frame_kinds[int(v).bit_length() - 1] if v > 0 else "data" for v in values]
            else:
                df.loc[rows, dst] = values
    # A rate limiter's deferred generations are replayed late (docs/performance.md), so their
    # drops are recorded after later events: restore time order (stable, so equal times keep the
    # engine's order).
    if len(df) and not df["t_s"].is_monotonic_increasing:
        df = df.sort_values("t_s", kind="stable", ignore_index=True)
    return df
