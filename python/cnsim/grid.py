"""Sweep grid syntax (`cnsim sweep --grid/--zip`) and the numeric, unit-named columns of a sweep.

A `--grid` value is `KEY=VALUES` where VALUES is

- a list: `25 frames,50 frames,75 frames`; a value holding a comma is quoted ('…' or "…", the
  quotes are removed) or is a TOML array/table (`["0s","1s"],["0s","2s"]`: brackets nest);
- a range: `16..64 step 16 frames` (or `16frames..64frames step 16frames`): START, START+STEP, …
  up to STOP inclusive, each with the unit; STEP > 0, STOP ≥ START, at most 10 000 values.

`--grid` keys make a Cartesian product; `--zip` keys vary together (all `--zip` lists have one
length, and the zipped tuple is one more axis of the product).

Grid columns of a sweep hold the values as text, whether the sweep came from the CLI or the
Python API; when every value of a key is a number with one unit (or none), the sweep also has
`KEY [UNIT]` (float64; `[1]` for plain numbers), the column to plot and aggregate.
"""

import math
import re
from decimal import Decimal, InvalidOperation

MAX_RANGE = 10_000
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_RANGE = re.compile(rf"^\s*({_NUMBER})\s*([A-Za-z%/]*)\s*\.\.\s*({_NUMBER})\s*([A-Za-z%/]*)"
                    rf"\s+step\s+({_NUMBER})\s*([A-Za-z%/]*)\s*([A-Za-z%/]*)\s*$")
_VALUE = re.compile(rf"^\s*({_NUMBER})\s*([A-Za-z%/]*)\s*$")


def split_values(text: str, flag: str = "--grid") -> list[str]:
    """Comma-separated values; quotes ('…', "…") protect commas and are removed; commas inside
    [] or {} (TOML arrays and tables) do not split."""
    values, cur, depth, quote = [], [], 0, None
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
            else:
                cur.append(ch)
        elif ch in "'\"" and depth == 0:
            quote = ch
        elif ch in "[{":
            depth += 1
            cur.append(ch)
        elif ch in "]}":
            depth -= 1
            cur.append(ch)
        elif ch == "," and depth == 0:
            values.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if quote or depth:
        raise ValueError(f"{flag} {text!r}: unbalanced {'quote' if quote else 'brackets'}")
    values.append("".join(cur).strip())
    return [v for v in values if v]


def expand(text: str, flag: str = "--grid") -> list[str]:
    """The values of one `KEY=VALUES` right-hand side (a list or a range)."""
    m = _RANGE.match(text)
    if m is None:
        if re.search(r"\.\.", text) and re.search(r"\bstep\b", text):
            raise ValueError(f"{flag} {text!r}: expected a range as START..STOP step STEP [UNIT], e.g. 16..64 step 16 frames")
        return split_values(text, flag)
    start, u1, stop, u2, step, u3, unit = m.groups()
    units = {u for u in (u1, u2, u3, unit) if u}
    if len(units) > 1:
        raise ValueError(f"{flag} {text!r}: one unit for the whole range, not {', '.join(sorted(units))}")
    unit = units.pop() if units else ""
    try:
        a, b, s = Decimal(start), Decimal(stop), Decimal(step)
    except InvalidOperation:
        raise ValueError(f"{flag} {text!r}: not numbers") from None
    if s <= 0:
        raise ValueError(f"{flag} {text!r}: step must be > 0")
    if b < a:
        raise ValueError(f"{flag} {text!r}: STOP is below START")
    count = int((b - a) / s) + 1
    if count > MAX_RANGE:
        raise ValueError(f"{flag} {text!r}: {count} values (at most {MAX_RANGE})")
    sep = " " if unit else ""
    return [f"{_plain(a + i * s)}{sep}{unit}" for i in range(count)]


def _plain(d: Decimal) -> str:
    text = format(d.normalize(), "f")
    return text


def parse(items, flag: str) -> dict[str, list[str]]:
    """`KEY=VALUES` items of one flag as {key: values}; ValueError naming the flag and item."""
    grid: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{flag} {item!r}: expected KEY=V1,V2,... or KEY=START..STOP step STEP [UNIT]")
        vals = expand(values, f"{flag} {key}=")
        if not vals:
            raise ValueError(f"{flag} {item!r}: no values")
        if key in grid:
            raise ValueError(f"{flag} {key!r} given twice; list all its values in one {flag}")
        grid[key] = vals
    return grid


def number_unit(value) -> tuple[float, str] | None:
    """(number, unit) of a grid value such as 25, "25 frames", "10Gbps"; None if not of that form."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return (float(value), "") if math.isfinite(value) else None
    m = _VALUE.match(str(value))
    return (float(m.group(1)), m.group(2)) if m else None


def unit_column(values) -> tuple[str, list[float]] | None:
    """(unit, numbers) when every value is a number with the same unit ("" for none)."""
    parsed = [number_unit(v) for v in values]
    if not parsed or any(p is None for p in parsed) or len({p[1] for p in parsed}) != 1:
        return None
    return parsed[0][1] or "1", [p[0] for p in parsed]
