"""Make the in-tree package importable when cnsim is not installed: in this process, and in the
`python -m cnsim` subprocesses the CLI tests start."""

import os
import sys
from pathlib import Path

PYTHON_SOURCE = str(Path(__file__).resolve().parents[1] / "python")

sys.path.insert(0, PYTHON_SOURCE)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [PYTHON_SOURCE, os.environ.get("PYTHONPATH")]))
