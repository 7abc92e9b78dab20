"""The identity of the code that computes a result: the engine's build id (version + hash of the
Rust sources, from `_core.build_id()`) and a hash of this Python package's sources, which compute
the summaries. Stored results are keyed on it, so results of different code are never mixed."""

import functools
import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


@functools.cache
def python_hash() -> str:
    """sha256 over the package's .py files (sorted relative paths and contents)."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


@functools.cache
def build_id() -> str:
    """"VERSION+ENGINEHASH12+pyPYHASH12": changes whenever the engine or the Python code changes."""
    from . import _core

    return f"{_core.build_id()}+py{python_hash()[:12]}"
