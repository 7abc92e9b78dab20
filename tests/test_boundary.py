"""The protocol boundary (docs/architecture.md): no code line of the engine's `net/` or `sim/`
names a protocol. Protocols are the modules and folders of `protocols/` plus the names their
standards go by; a code line is what is left of a line once its comment is cut."""

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "crates/cnsim-engine/src"
# Step marking's module is `threshold`, a word the core also uses in its own sense (a queue
# threshold); it is left out. Everything else in protocols/, and the standards' other names.
ALSO = {"pfc", "dctcp", "cnm", "cnp", "sirens"}


def protocol_names() -> set[str]:
    found = {p.stem for p in (SRC / "protocols").iterdir() if p.stem not in {"mod", "metrics"}}
    return (found | ALSO) - {"threshold"}


def words(line: str) -> list[str]:
    """The identifiers' parts: snake_case and CamelCase split, lower-cased."""
    parts = re.findall(r"[A-Za-z][a-z0-9]*|[A-Z]+(?![a-z])", line)
    return [p.lower() for p in parts]


def test_protocol_names_cover_the_protocols_folder():
    names = protocol_names()
    assert {"qcn", "bcn", "ecm", "tcp", "pause", "red", "dcqcn", "rlm", "emcast", "eqcn"} <= names


def test_net_and_sim_name_no_protocol():
    names = protocol_names()
    hits = []
    for path in sorted((SRC / "net").glob("*.rs")) + sorted((SRC / "sim").glob("*.rs")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if set(words(code)) & names:
                hits.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    assert not hits, "protocol names in net/ or sim/:\n" + "\n".join(hits)
