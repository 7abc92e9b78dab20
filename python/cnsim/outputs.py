"""Write a run's outputs into one directory without ever losing a file cnsim did not write.

Layout: `summary.json` ({"summary": ..., "stats": ...}), `series.parquet` (the long series frame),
`scenario.toml` (the resolved scenario), `figures/*.png`, and `.cnsim-run.json`, the manifest:
every file (with its sha256) and directory cnsim wrote there.

- A missing or empty `out`, or one that holds exactly a previous run's files (every entry listed in
  its manifest, unchanged), is written as a whole: the new run goes into a temporary directory
  beside it, which is renamed into place; the previous run is moved aside first and its listed
  files removed after. A reader sees the old run or the new one, never half of one.
- Anything else in `out` (a user's file, a file changed since cnsim wrote it, a run directory of an
  older cnsim without manifest) makes it "foreign": it is refused with FileExistsError, unless
  `force`. With `force`, cnsim's files are written into `out` one by one (each atomically) and the
  previous run's listed files are replaced or removed; every other file stays byte-identical, and a
  foreign file where cnsim must write one of its own is an error, not overwritten.

`check_output` makes all these checks (and that the location is writable) before a run starts;
`locked(out)` holds the directory from that check to the end of the writing, so that a second
cnsim writing the same directory at the same time is refused (as a sweep's is), and removes the
temporary siblings a killed cnsim left beside it.
"""

import hashlib
import json
import os
import re
import shutil
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pyarrow.parquet as pq

from . import jsonio

SUMMARY = "summary.json"
MANIFEST = ".cnsim-run.json"
CAPTURE = "capture.pcapng"
TRACE = "trace.parquet"
LOCK = ".cnsim-run.lock"  # held while a run is checked, run and written (not listed in the manifest)
OWN_FILES = (SUMMARY, "series.parquet", "scenario.toml", CAPTURE, TRACE, MANIFEST)  # figures/ too
MAX_NAME = 100  # longer file names are truncated (plus a short hash): see `file_name`


def file_name(text: str, limit: int = MAX_NAME) -> str:
    """`text` as a portable file name: unsafe characters become "-", and a name longer than
    `limit` is cut and given 12 hex digits of its sha256, so distinct long names stay distinct."""
    import re

    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", text) or "-"
    if len(name) <= limit:
        return name
    return f"{name[: limit - 13]}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def write_run(result, out: str | Path, *, figures: bool = True, force: bool = False) -> Path:
    """Write `result` (a `Result`, or anything with its attributes) to the directory `out`."""
    target = Path(out).absolute()  # "." has no name to write beside
    with locked(target):
        return _write_run(result, target, figures, force)


def _write_run(result, target: Path, figures: bool, force: bool) -> Path:
    merge = check_output(target, force=force)
    if Path.cwd().is_relative_to(target):  # renaming it would leave the shell in a deleted directory
        merge = True
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _sibling(target, "tmp")
    tmp.mkdir()
    try:
        _write_files(result, tmp, figures)
        _write_manifest(tmp)
        if merge:
            _merge_into(tmp, target)
        else:
            _swap_into_place(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def check_output(target: Path, *, force: bool = False) -> bool:
    """Raise a one-line OSError unless a run can be written to `target`; True when it must be
    merged into a foreign directory (`force`), False when written whole."""
    check_location(target)
    if not target.exists():
        return False
    foreign = _foreign(target)
    if not foreign:
        return False
    if not force:
        raise FileExistsError(
            f"{target} holds files cnsim did not write there (e.g. {foreign[0]}); choose a fresh "
            "output directory, or --force (force=True) to write cnsim's files into it and keep the others"
        )
    for name in OWN_FILES:
        if ((target / name).exists() or (target / name).is_symlink()) and name in foreign:
            raise FileExistsError(f"{target / name} was not written by cnsim; even --force does not overwrite it: move it away")
    figures = target / "figures"
    if figures.is_symlink() or (figures.exists() and not figures.is_dir()):
        raise FileExistsError(f"{figures} is not a directory cnsim can write its figures into: move it away")
    if not os.access(target, os.W_OK | os.X_OK):
        raise PermissionError(f"{target} is not writable")
    return True


def check_location(target: Path) -> None:
    """Raise a one-line OSError unless `target` is (or can be created as) a writable directory."""
    for part in target.parts:
        if len(os.fsencode(part)) > 255:
            raise OSError(f"{target}: a path component is longer than 255 bytes")
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise FileExistsError(f"{target} exists and is not a directory")
    existing = target
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise NotADirectoryError(f"{target}: {existing} is not a directory")
    # Runs are written beside `target` then renamed: its parent must be writable too.
    writable = existing if existing != target else target.absolute().parent
    if not os.access(writable, os.W_OK | os.X_OK):
        raise PermissionError(f"{target}: {writable} is not writable")


def read_manifest(directory: Path) -> dict:
    """The manifest of a run directory ({"files": {path: sha256}, "dirs": [...]}); empty if none."""
    try:
        doc = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        return {"files": dict(doc["files"]), "dirs": list(doc["dirs"])}
    except (OSError, ValueError, KeyError, TypeError):
        return {"files": {}, "dirs": []}


def _foreign(directory: Path) -> list[str]:
    """Entries of `directory` (relative paths, sorted) that its manifest does not account for."""
    manifest = read_manifest(directory)
    foreign = []
    for root, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = Path(root) / name
            rel = path.relative_to(directory).as_posix()
            if rel in (MANIFEST, LOCK) and not path.is_symlink():
                continue
            if path.is_symlink():
                foreign.append(rel)
            elif path.is_dir():
                if rel not in manifest["dirs"]:
                    foreign.append(rel)
            elif manifest["files"].get(rel) != _sha256(path):
                foreign.append(rel)
    return sorted(foreign)


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _sibling(target: Path, kind: str) -> Path:
    """A fresh hidden name beside `target` (short enough for any target name)."""
    return target.with_name(f".{file_name(target.name, 64)}.{uuid.uuid4().hex[:12]}.{kind}")


_HELD: set[Path] = set()  # run directories this process holds


class DirectoryInUse(OSError):
    """Another cnsim process is writing the same run directory."""


@contextmanager
def locked(target: Path):
    """Hold `target` (a run directory: created if missing) for one cnsim process: an exclusive
    flock on `target/.cnsim-run.lock`, released when the process ends however it ends; raise
    DirectoryInUse if another process holds it. While held, the temporary siblings (`.tmp`, `.old`)
    that a killed cnsim left beside `target` are removed: nobody else can be writing them. On the
    way out a directory this call created is removed again if it is still empty (nothing written)."""
    from .locks import exclusive

    target = target.absolute()
    if target in _HELD:  # this process holds it already (a run that writes its Result)
        yield target
        return
    created = not target.exists()
    target.mkdir(parents=True, exist_ok=True)
    lock = target / LOCK
    refused = lambda holder: DirectoryInUse(  # noqa: E731
        f"{target} is being written by another cnsim run ({holder}); wait for it to end, or use another output directory")
    try:
        with exclusive(lock, refused) as f:
            _HELD.add(target)
            try:
                _remove_stale_siblings(target)
                yield target
            finally:
                _HELD.discard(target)
                try:  # ours unless a new run took the name since (the directory was replaced)
                    if f is not None and lock.exists() and os.stat(lock).st_ino == os.fstat(f.fileno()).st_ino:
                        lock.unlink()
                except OSError:
                    pass
    finally:
        if created:
            try:
                target.rmdir()  # only if nothing was written
            except OSError:
                pass


def _remove_stale_siblings(target: Path) -> None:
    """Remove `_sibling`s of `target` (names cnsim made: `.<name>.<12 hex>.tmp|old`) — called with
    `target` locked, so no live cnsim is writing them."""
    pattern = re.compile(re.escape(f".{file_name(target.name, 64)}.") + r"[0-9a-f]{12}\.(tmp|old)")
    for path in target.parent.iterdir():
        m = pattern.fullmatch(path.name)
        if not m or not path.is_dir() or path.is_symlink():
            continue
        if m.group(1) == "tmp":  # a run being written: only cnsim's files
            shutil.rmtree(path, ignore_errors=True)
        else:  # a previous run moved aside: its listed files only; anything else stays
            (path / LOCK).unlink(missing_ok=True)
            _remove_listed(path, read_manifest(path))
            try:
                path.rmdir()
            except OSError:
                pass


def _write_files(result, directory: Path, figures: bool) -> None:
    series = result.series_table()
    # pyarrow writes without holding the GIL: series.parquet is written on a second thread while this
    # one computes the summary and writes summary.json (a million-queue run: 1.5 s of each).
    with ThreadPoolExecutor(1) as pool:
        written = pool.submit(pq.write_table, series, directory / "series.parquet")
        doc = {"summary": result.summary, "stats": result.stats}
        # Streamed to the file, indented (`jsonio`): never joined whole, 700 MB for a million hosts.
        with open(directory / SUMMARY, "wb") as f:
            jsonio.dump(doc, f)
            f.write(b"\n")
        written.result()
    (directory / "scenario.toml").write_text(result.scenario_toml)
    if getattr(result, "capture", None) is not None:
        result.capture.write(directory / CAPTURE)
    if getattr(result, "trace", None) is not None:
        result.trace.to_parquet(directory / TRACE, index=False)
    if figures:
        try:
            draw_run_figures(result, directory / "figures")
        except Exception as exc:  # a figure never costs a run its results
            warnings.warn(f"figures not drawn ({type(exc).__name__}: {exc}); the results are written", stacklevel=4)


def draw_run_figures(result, directory: str | Path) -> list[Path]:
    """Draw every figure of the run into `directory` as PNG; return the files written."""
    import matplotlib  # slow to import: only when drawing

    from .figures import STYLE, cr_figure, plotted_queues, queue_figure, throughput_figure

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    with matplotlib.rc_context(STYLE):
        figures = [("cr", cr_figure(result)), ("throughput", throughput_figure(result))]
        figures += [(f"queue_{file_name(q['name'])}", queue_figure(result, q)) for q in plotted_queues(result.stats)]
        for stem, fig in figures:
            if fig is not None:
                path = directory / f"{stem}.png"
                fig.savefig(path)
                written.append(path)
    return written


def _write_manifest(directory: Path) -> None:
    files, dirs = {}, []
    for path in sorted(directory.rglob("*")):
        rel = path.relative_to(directory).as_posix()
        if path.is_dir():
            dirs.append(rel)
        else:
            files[rel] = _sha256(path)
    doc = {"written_by": "cnsim run", "files": files, "dirs": dirs}
    (directory / MANIFEST).write_text(json.dumps(doc, indent=1) + "\n")


def _swap_into_place(new: Path, target: Path) -> None:
    """Rename `new` to `target`; a previous run is moved aside first and its listed files removed."""
    if not target.exists() or not any(target.iterdir()):
        os.replace(new, target)  # rename(2) replaces an empty directory
        return
    old = _sibling(target, "old")
    os.rename(target, old)
    try:
        os.rename(new, target)
    except BaseException:
        os.rename(old, target)
        raise
    (old / LOCK).unlink(missing_ok=True)  # ours: the lock of this run (its holder keeps it open)
    _remove_listed(old, read_manifest(old))
    try:
        old.rmdir()
    except OSError:  # something appeared there after the check: keep it
        warnings.warn(f"kept {old}: it holds files cnsim did not write", stacklevel=3)


def _merge_into(new: Path, target: Path) -> None:
    """`--force`: move each of `new`'s files into `target` (the manifest last); remove the files
    of the previous run that this one does not have. Foreign files are never overwritten."""
    old = read_manifest(target)
    own = read_manifest(new)
    for rel in own["dirs"]:
        dest = target / rel
        if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
            raise FileExistsError(f"{dest} was not written by cnsim; even with --force it is not overwritten")
    for rel in own["files"]:
        dest = target / rel
        if (dest.exists() or dest.is_symlink()) and (dest.is_symlink() or old["files"].get(rel) != _sha256(dest)):
            raise FileExistsError(f"{dest} was not written by cnsim; even with --force it is not overwritten")
    for rel in own["dirs"]:
        (target / rel).mkdir(exist_ok=True)
    for rel in own["files"]:
        os.replace(new / rel, target / rel)
    stale = {"files": {k: v for k, v in old["files"].items() if k not in own["files"]},
             "dirs": [d for d in old["dirs"] if d not in own["dirs"]]}
    _remove_listed(target, stale)
    os.replace(new / MANIFEST, target / MANIFEST)


def _remove_listed(directory: Path, manifest: dict) -> None:
    """Remove the files of `manifest` that are unchanged, then its directories that are empty."""
    for rel, digest in manifest["files"].items():
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            continue  # a manifest never names a file outside its own directory
        path = directory / rel
        if path.is_file() and not path.is_symlink() and _sha256(path) == digest:
            path.unlink()
    (directory / MANIFEST).unlink(missing_ok=True)
    for rel in sorted(manifest["dirs"], key=lambda d: d.count("/"), reverse=True):
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            continue
        try:
            (directory / rel).rmdir()
        except OSError:
            pass
