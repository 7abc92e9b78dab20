"""Write a run's outputs into one directory, atomically.

Layout: `summary.json` ({"summary": ..., "stats": ...}), `series.parquet` (the long series frame),
`scenario.toml` (the resolved scenario), `figures/*.png`. Everything is written into a temporary
directory beside the target and renamed into place: a reader sees the old directory or the new one
(or, for the instant between two renames, none), never a half-written one.
"""

import json
import os
import shutil
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SUMMARY = "summary.json"


def write_run(result, out: str | Path, *, figures: bool = True) -> Path:
    """Write `result` (a `Result`, or anything with its attributes) to the directory `out`.

    An existing `out` is replaced whole, but only if it is empty or a previous run's directory
    (it holds summary.json); anything else raises FileExistsError before writing.
    """
    target = Path(out)
    _check_replaceable(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _sibling(target, "tmp")
    tmp.mkdir()
    try:
        _write_files(result, tmp, figures)
        _swap_into_place(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def _check_replaceable(target: Path) -> None:
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise FileExistsError(f"{target} exists and is not a directory")
    if target.is_dir() and any(target.iterdir()) and not (target / SUMMARY).is_file():
        raise FileExistsError(f"{target} exists and is not a cnsim run directory (no {SUMMARY})")


def _sibling(target: Path, kind: str) -> Path:
    """A fresh hidden name beside `target`."""
    return target.with_name(f".{target.name}.{uuid.uuid4().hex[:12]}.{kind}")


def _write_files(result, directory: Path, figures: bool) -> None:
    doc = {"summary": result.summary, "stats": result.stats}
    (directory / SUMMARY).write_text(json.dumps(doc, indent=2, allow_nan=False) + "\n")
    table = pa.Table.from_pandas(result.series_frame, preserve_index=False)
    pq.write_table(table, directory / "series.parquet")
    (directory / "scenario.toml").write_text(result.scenario_toml)
    if figures:
        from .figures import draw_run_figures  # matplotlib is slow to import; only when drawing

        draw_run_figures(result, directory / "figures")


def _swap_into_place(new: Path, target: Path) -> None:
    """Rename `new` to `target`; an existing `target` is moved aside first and removed after."""
    if not target.exists():
        os.rename(new, target)
        return
    old = _sibling(target, "old")
    os.rename(target, old)
    try:
        os.rename(new, target)
    except BaseException:
        os.rename(old, target)
        raise
    shutil.rmtree(old)
