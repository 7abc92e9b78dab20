"""Checks of the public functions' arguments: a clear TypeError/ValueError/FileNotFoundError at the
call, never an AttributeError or OverflowError from deep inside."""

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

MAX_SEED = 2**63 - 1
# Runs one sweep (or reproduction) may hold: its task list, labels and store index are built before
# the first run, at a few hundred bytes each; 200 000 runs is days of simulation on any machine.
MAX_RUNS = 200_000


def integer(value, name: str, *, low: int = 0, high: int | None = None) -> int:
    """An int (not a bool) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"≥ {low}"
        raise ValueError(f"{name}: expected an integer {bound}, got {value}")
    return value


def seed(value, name: str = "seed") -> int:
    return integer(value, name, low=0, high=MAX_SEED)


def jobs(value) -> int | None:
    return None if value is None else integer(value, "jobs", low=1)


def seeds(value) -> list[int]:
    """An int N (seeds 1..N) or an iterable of seeds."""
    if isinstance(value, int) and not isinstance(value, bool):
        return list(range(1, integer(value, "seeds", low=1, high=MAX_RUNS) + 1))
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise TypeError(f"seeds: expected a number of seeds or a list of seeds, got {value!r}")
    out = []
    for s in value:
        if len(out) == MAX_RUNS:
            raise ValueError(f"seeds: more than {MAX_RUNS} seeds")
        out.append(seed(s, "seeds[]"))
    if not out:
        raise ValueError("seeds: expected at least one seed")
    return out


def path(value, name: str) -> Path:
    if not isinstance(value, str | os.PathLike):
        raise TypeError(f"{name}: expected a path (str or pathlib.Path), got {value!r}")
    if not str(value) or "\0" in str(value):
        raise ValueError(f"{name}: not a valid path: {value!r}")
    return Path(value)


def scenario(value) -> str | Path:
    """A scenario: TOML text (a str with a newline) or the path of an existing file."""
    if isinstance(value, str) and "\n" in value:
        return value
    p = path(value, "scenario")
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such scenario file")
    if p.is_dir():
        raise IsADirectoryError(f"{p}: is a directory, not a scenario file")
    return p


def overrides(value):
    """`set`: None, a mapping of key → value, a "key=value" string or an iterable of them."""
    if value is None or isinstance(value, Mapping | str):
        return value
    if not isinstance(value, Iterable):
        raise TypeError(f"set: expected a mapping or a list of 'key=value' strings, got {value!r}")
    value = list(value)
    bad = [v for v in value if not isinstance(v, str)]
    if bad:
        raise TypeError(f"set: expected 'key=value' strings, got {bad[0]!r}")
    return value
