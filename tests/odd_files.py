"""Files a scenario may name that are no small regular file, made for the tests that check they are
refused at once: a FIFO, a device, a directory, a huge (sparse) file."""

import os
from pathlib import Path


def make(target: Path, kind: str, huge_bytes: int) -> None:
    """Make `target` a `kind` ("fifo", "device", "directory" or "huge": `huge_bytes` long)."""
    if kind == "fifo":
        os.mkfifo(target)                 # opening it would block until a writer comes
    elif kind == "device":
        target.symlink_to("/dev/zero")    # reading it would never end
    elif kind == "directory":
        target.mkdir()
    else:
        with open(target, "wb") as f:     # a sparse file past the cap: refused by its size, not read
            f.truncate(huge_bytes)
