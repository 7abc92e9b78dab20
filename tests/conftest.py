"""Make the in-tree package importable when cnsim is not installed (the engine may be unbuilt)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
