"""One exclusive lock per output directory: a flock on a file inside it, released when the process
ends however it ends (SIGKILL included), with the holder's pid written in it for the message of the
process that is refused."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Callable


@contextmanager
def exclusive(path: Path, refused: Callable[[str], OSError]):
    """Hold an exclusive flock on the file `path` (created if missing) and yield its open file;
    raise `refused(holder)` at once if another process holds it. Where flock does not exist (not
    POSIX), nothing is locked."""
    try:
        import fcntl
    except ImportError:
        yield None
        return
    with open(path, "a+", encoding="utf-8") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            raise refused(f.read().strip() or "another process") from None
        f.seek(0)
        f.truncate()
        f.write(f"pid {os.getpid()}\n")
        f.flush()
        yield f
