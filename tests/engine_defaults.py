"""The engine's documented defaults, read from its sources so that a test's bound is computed from the
values the engine runs with (never a copy typed into the test): a protocol's `default_fns!` table in
`protocols/<name>/spec.rs`, the scenario's in `scenario/model.rs`, and a protocol's `HEADER_BYTES`."""

from pathlib import Path
import re

SRC = Path(__file__).resolve().parents[1] / "crates" / "cnsim-engine" / "src"
_ENTRY = re.compile(r"^\s*(d_\w+):\s*(\w+)\s*=\s*(.+?);\s*$", re.M)
_WRAPPED = re.compile(r"^(\w+)\(([\d_]+)\)$")
# Engine units: Duration in ps (→ s), Rate in bit/s, Bytes in bytes.
_SCALE = {"Duration": 1e-12, "Rate": 1.0, "Bytes": 1.0}


def _table(path: Path) -> dict[str, float]:
    block = path.read_text().split("default_fns! {", 1)[1].split("\n}", 1)[0]
    out = {}
    for name, ty, expr in _ENTRY.findall(block):
        m = _WRAPPED.match(expr.strip())
        if m and m.group(1) in _SCALE:
            out[name.removeprefix("d_")] = int(m.group(2).replace("_", "")) * _SCALE[m.group(1)]
        elif ty in ("f64", "u32", "u64"):
            out[name.removeprefix("d_")] = float(expr.replace("_", ""))
    return out


def protocol(name: str) -> dict[str, float]:
    """`protocols/<name>/spec.rs`'s defaults, keyed as the scenario table's keys (times in s)."""
    return _table(SRC / "protocols" / name / "spec.rs")


def scenario() -> dict[str, float]:
    """`scenario/model.rs`'s defaults (e.g. `overhead`, the per-frame preamble and gap in bytes)."""
    return _table(SRC / "scenario" / "model.rs")


def header_bytes(name: str) -> int:
    """A protocol's `HEADER_BYTES` (`protocols/<name>/wire.rs`), a sum of integer terms."""
    m = re.search(r"pub const HEADER_BYTES: u32 = ([\d +]+);", (SRC / "protocols" / name / "wire.rs").read_text())
    return sum(int(x) for x in m.group(1).split("+"))
