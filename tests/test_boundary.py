"""The protocol boundary (docs/architecture.md): no code line of the engine's `net/` or `sim/`
names a protocol. Protocols are the modules and folders of `protocols/` plus the names their
standards go by; a code line is what is left of a line once its comment is cut."""

import ast
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
REGISTRATION = {"registry/protocols.rs"}
# A protocol built on another names it in its own folder: each such dependency is declared here, with
# its reason, and the folder is not counted against the protocol it builds on.
BUILDS_ON = {
    "eqcn": ("qcn", "E-QCN (Mliki et al. 2016b) extends QCN's reaction point: it wraps QCN's RP, "
                    "reads QCN's CNMs, its table holds QCN's keys, and it writes QCN's CP table with its "
                    "tie-break key"),
    "ecm": ("bcn", "ECM, BCN's successor (Roeck 2007), keeps BCN's rate-regulator tag with CPID "
                   "association (bcn::Rrt, bcn::Association) and its association key"),
    "dcqcn": ("pause", "DCQCN runs on a lossless RoCEv2 fabric (Zhu et al. 2015 §2): its fabric preset "
                       "turns PFC on beside its marking, RP and NP"),
}
PY = SRC.parents[2] / "python/cnsim"

# What is still to move: the files outside each protocol's folder and registration that name it.
# The test fails when a file appears here that is not listed (a new leak) and when a listed file no
# longer names the protocol (the list must shrink with the code). Nothing is left: a paper's
# analytic model of a protocol lives in that paper's reproduction folder (Jiang & Jain 2007's of
# BCN: `cnsim.reproduce.jiang2007.fluid`).
DEBT: dict[str, set[str]] = {}


# A Rust file's inline test module: `#[cfg(test)]` before `mod NAME {` (a `#[cfg(test)]` on another
# item, such as `mod routing_tests;` near a file's top, cuts nothing).
TEST_MODULE = re.compile(r"^#\[cfg\(test\)\]\s*mod \w+ \{", re.M)


def code_of(path: Path) -> str:
    """The file's code without comments; a Rust file without its test module (by convention its
    last item, from `#[cfg(test)] mod tests {` on): a test may pin a protocol's bytes without the protocol
    having to touch it. A Python file's docstrings are its doc comments, cut as Rust's `///` and
    `//!` are (a string that is not a docstring, a help text or a dict key, is code)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".rs":
        text = TEST_MODULE.split(text, 1)[0]
    else:
        text = without_docstrings(text)
    cut = "//" if path.suffix == ".rs" else "#"
    return "\n".join(line.split(cut, 1)[0] for line in text.splitlines())


def without_docstrings(text: str) -> str:
    """Python source with the lines of its module's, classes' and functions' docstrings blanked."""
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines[first.lineno - 1:first.end_lineno] = [""] * (first.end_lineno - first.lineno + 1)
    return "\n".join(lines)


# Words that are not a protocol where they stand: rich's colour markup (`[red]…[/]`) and a URL's
# scheme (`tcp://HOST:PORT`, a dask scheduler's address).
NOT_A_PROTOCOL = re.compile(r"\[/?red\]|\b[a-z]+://")


def test_only_the_inline_test_module_is_cut(tmp_path):
    f = tmp_path / "mod.rs"
    f.write_text("#[cfg(test)]\nmod routing_tests;\nuse a::pause;\n#[cfg(test)]\nmod tests {\n    use b::qcn;\n}\n")
    code = code_of(f)
    assert names_protocol(code, "pause") and not names_protocol(code, "qcn")


def names_protocol(code: str, protocol: str) -> bool:
    code = NOT_A_PROTOCOL.sub(" ", code)
    if protocol in PATTERNS:
        return bool(PATTERNS[protocol].search(code))
    return bool(set(words(code)) & ({protocol} | ALIASES.get(protocol, set())))


def test_python_docstrings_colour_markup_and_url_schemes_name_no_protocol(tmp_path):
    source = tmp_path / "m.py"
    source.write_text('''"""Module doc: cp.qcn.qeq."""


class K:
    """Class doc: dcqcn."""

    def f(self):
        """Function doc: pause."""
        print("[red]failed[/]", "tcp://HOST:PORT")  # comment: bcn
        return {"ecm": 1}
''', encoding="utf-8")
    code = code_of(source)
    assert [p for p in ("qcn", "dcqcn", "pause", "red", "tcp", "bcn", "ecm") if names_protocol(code, p)] == ["ecm"]
    # a string that is code still counts: a protocol's table, a colour that is the AQM's name
    assert names_protocol('aqm = "red"', "red") and names_protocol('case = "tcp"', "tcp")


def outside_files(protocol: str) -> set[str]:
    """The files outside `protocol`'s folder and the registration that name it, as `engine:<path>`
    (under crates/cnsim-engine/src) or `python:<path>` (under python/cnsim)."""
    folders = [SRC / "protocols" / p for p in [protocol] + [q for q, (base, _) in BUILDS_ON.items() if base == protocol]]
    found = set()
    for path in sorted(SRC.rglob("*.rs")):
        rel = path.relative_to(SRC).as_posix()
        inside = any(path.is_relative_to(f) for f in folders)
        if not inside and rel not in REGISTRATION and names_protocol(code_of(path), protocol):
            found.add(f"engine:{rel}")
    for path in sorted(PY.rglob("*.py")):
        rel = path.relative_to(PY)
        if rel.parts[0] != "reproduce" and names_protocol(code_of(path), protocol):
            found.add(f"python:{rel.as_posix()}")
    return found


def protocols() -> list[str]:
    return sorted(p.name for p in (SRC / "protocols").iterdir() if p.is_dir())


def test_a_declared_dependency_is_one_a_folder_has():
    """A protocol declared as building on another names it in its folder (else the declaration is stale)."""
    for p, (base, reason) in BUILDS_ON.items():
        assert reason and (SRC / "protocols" / p).is_dir()
        assert any(names_protocol(code_of(f), base) for f in (SRC / "protocols" / p).rglob("*.rs")), p


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
