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
    """A protocol's `HEADER_BYTES` (`protocols/<name>/wire.rs`)."""
    return constant(name, "HEADER_BYTES", "wire.rs")


def constant(protocol: str, name: str, file: str = "mod.rs") -> int:
    """An integer `const` of `protocols/<protocol>/<file>`: sums and products of literals and of other
    constants (looked up in the engine's sources, `as` casts dropped)."""
    text = (SRC / "protocols" / protocol / file).read_text()
    return _eval(name, text)


def _eval(name: str, text: str) -> int:
    m = re.search(rf"\bconst {name}: \w+ = ([^;]+);", text)
    if m is None:
        for f in SRC.rglob("*.rs"):
            m = re.search(rf"\bconst {name}: \w+ = ([^;]+);", f.read_text())
            if m:
                break
    expr = re.sub(r"\bas \w+", "", m.group(1))
    expr = re.sub(r"(?:\w+::)+(\w+)", r"\1", expr)
    expr = re.sub(r"\b([A-Z][A-Z0-9_]*)\b", lambda c: str(_eval(c.group(1), text)), expr)
    if not re.fullmatch(r"[\d\s+*()]+", expr):
        raise ValueError(f"const {name}: cannot evaluate {m.group(1)!r}")
    return eval(expr)  # literals, + and * only (checked above)


def artifact_w_ai_divisor() -> float:
    """HPCC's default W_AI is B·T over this (`Params::artifact_w_ai` in protocols/hpcc/mod.rs)."""
    text = (SRC / "protocols" / "hpcc" / "mod.rs").read_text()
    body = text.split("fn artifact_w_ai", 1)[1].split("}", 1)[0]
    return float(re.search(r"line_rate / ([\d.]+)", body).group(1))
