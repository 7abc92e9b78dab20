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


# The registration measure (docs/architecture.md, "Adding a protocol"): for each protocol, the files
# outside its folder that name it — its module, or the names its standard gives its frames — in every
# engine directory and in `python/cnsim` outside the reproductions (which are about papers, and name
# protocols as papers do). A protocol should be named only by its folder and its registration.
ALIASES = {"qcn": {"cnm"}, "dcqcn": {"cnp"}, "pause": {"pfc"}, "tcp": {"dctcp"}}
# `threshold` is also the core's word for a queue threshold: step marking is found by its path and type.
PATTERNS = {"threshold": re.compile(r"\bthreshold::|\bThreshold\b")}
REGISTRATION = {"registry/protocols.rs", "protocols/mod.rs"}
PY = SRC.parents[2] / "python/cnsim"

# What is still to move: the files outside each protocol's folder and registration that name it.
# The test fails when a file appears here that is not listed (a new leak) and when a listed file no
# longer names the protocol (the list must shrink with the code).
DEBT: dict[str, set[str]] = {
    "bcn": {
        "engine:protocols/ecm/mod.rs",
        "engine:protocols/ecm/spec.rs",
        "python:analysis.py",
        "python:capture.py",
        "python:trace.py",
    },
    "dcqcn": {
        "python:benchsuite.py",
        "python:capture.py",
        "python:generators.py",
        "python:metrics.py",
        "python:trace.py",
    },
    "ecm": {
        "python:capture.py",
        "python:trace.py",
    },
    "emcast": {
        "engine:build/endpoints.rs",
        "engine:scenario/model.rs",
    },
    "eqcn": {
        "engine:protocols/qcn/slot.rs",
        "engine:protocols/qcn/spec.rs",
        "engine:scenario/load.rs",
    },
    "pause": {
        "engine:build/protocols.rs",
        "engine:report.rs",
        "engine:scenario/model.rs",
        "python:api.py",
        "python:benchsuite.py",
        "python:capture.py",
        "python:cli.py",
        "python:generators.py",
        "python:metrics.py",
        "python:trace.py",
    },
    "qcn": {
        "engine:bench.rs",
        "engine:defaults.rs",
        "engine:protocols/bcn/spec.rs",
        "engine:protocols/ecm/spec.rs",
        "engine:protocols/eqcn/mod.rs",
        "engine:protocols/eqcn/spec.rs",
        "engine:protocols/tcp/spec.rs",
        "engine:registry/rp.rs",
        "engine:scenario/load.rs",
        "python:__init__.py",
        "python:api.py",
        "python:benchsuite.py",
        "python:capture.py",
        "python:cli.py",
        "python:generators.py",
        "python:metrics.py",
        "python:query.py",
        "python:results.py",
        "python:scenario.py",
        "python:sweep.py",
        "python:trace.py",
    },
    "red": {
        "engine:report.rs",
        "python:cli.py",
        "python:execution.py",
    },
    "rlm": {
        "engine:build/endpoints.rs",
        "engine:scenario/model.rs",
    },
    "sirens": {
        "engine:build/endpoints.rs",
        "engine:build/topology.rs",
        "engine:build/traffic.rs",
        "engine:build/workload.rs",
        "engine:defaults.rs",
        "engine:protocols/emcast/spec.rs",
        "engine:registry/aqm.rs",
        "engine:registry/rf.rs",
        "engine:report.rs",
        "engine:scenario/model.rs",
    },
    "tcp": {
        "engine:bench.rs",
        "engine:build/workload.rs",
        "engine:protocols/qcn/wire.rs",
        "engine:scenario/model.rs",
        "engine:scenario/transport.rs",
        "engine:slots/wire.rs",
        "python:benchsuite.py",
        "python:cli.py",
        "python:metrics.py",
        "python:results.py",
    },
}


def code_of(path: Path) -> str:
    """The file's code without comments; a Rust file without its test module (by convention its
    last item, from `#[cfg(test)]` on): a test may pin a protocol's bytes without the protocol
    having to touch it."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".rs":
        text = text.split("#[cfg(test)]", 1)[0]
    cut = "//" if path.suffix == ".rs" else "#"
    return "\n".join(line.split(cut, 1)[0] for line in text.splitlines())


def names_protocol(code: str, protocol: str) -> bool:
    if protocol in PATTERNS:
        return bool(PATTERNS[protocol].search(code))
    return bool(set(words(code)) & ({protocol} | ALIASES.get(protocol, set())))


def outside_files(protocol: str) -> set[str]:
    """The files outside `protocol`'s folder and the registration that name it, as `engine:<path>`
    (under crates/cnsim-engine/src) or `python:<path>` (under python/cnsim)."""
    folder = SRC / "protocols" / protocol
    found = set()
    for path in sorted(SRC.rglob("*.rs")):
        rel = path.relative_to(SRC).as_posix()
        if not path.is_relative_to(folder) and rel not in REGISTRATION and names_protocol(code_of(path), protocol):
            found.add(f"engine:{rel}")
    for path in sorted(PY.rglob("*.py")):
        rel = path.relative_to(PY)
        if rel.parts[0] != "reproduce" and names_protocol(code_of(path), protocol):
            found.add(f"python:{rel.as_posix()}")
    return found


def protocols() -> list[str]:
    return sorted(p.name for p in (SRC / "protocols").iterdir() if p.is_dir())


def test_each_protocol_is_named_only_by_its_folder_and_its_registration():
    report = []
    for p in protocols():
        found, owed = outside_files(p), DEBT.get(p, set())
        if new := sorted(found - owed):
            report.append(f"{p}: named outside its folder and registration by {', '.join(new)}")
        if gone := sorted(owed - found):
            report.append(f"{p}: no longer named by {', '.join(gone)}: remove them from DEBT")
    assert not report, "\n".join(report)


if __name__ == "__main__":
    # `python tests/test_boundary.py`: the measure, protocol by protocol (what DEBT should say).
    for p in protocols():
        found = sorted(outside_files(p))
        print(f"{p}: {len(found)} file(s) outside its folder and registration" + "".join(f"\n    {f}" for f in found))
