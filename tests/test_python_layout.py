"""The package's import structure, read with `ast` (nothing is imported): no module imports a
private name of another, and the intra-package import graph has no cycle.

Both rules keep modules replaceable one at a time: a private name is free to change without
looking elsewhere, and a cycle makes two modules one in disguise. Imports inside functions count
as much as those at the top. Underscore *modules* (`_core`, the engine; `_args`) are the
package's own internals and may be imported; underscore *names inside* a module may not.
`cnsim.reproduce` is checked separately (it is being rewritten elsewhere): its findings are
listed, not failed on, except where they involve the rest of the package.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "python" / "cnsim"
PACKAGE = "cnsim"
SEPARATE = "cnsim.reproduce"


def module_name(path: Path) -> str:
    parts = [PACKAGE, *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the package: its Python files, and its compiled ones (the engine)."""
    compiled = {module_name(p.with_name(p.name.split(".")[0] + ".py")): p for p in ROOT.rglob("*.so")}
    return {**compiled, **{module_name(p): p for p in sorted(ROOT.rglob("*.py"))}}


def resolve(current: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module of a (possibly relative) `from … import`."""
    if level == 0:
        return name or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([name] if name else [])])


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, str | None, int]]:
    """(module imported, private name taken from it or None, line) for every intra-package import
    of module `name`, and for every `mod._name` where `mod` was bound to an intra-package module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: list[tuple[str, str | None, int]] = []
    bound: dict[str, str] = {}  # local name → intra-package module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = resolve(name, is_package, node.level, node.module)
            if source != PACKAGE and not source.startswith(PACKAGE + "."):
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in known:  # `from . import module`
                    found.append((sub, None, node.lineno))
                    bound[alias.asname or alias.name] = sub
                else:
                    private = alias.name if alias.name.startswith("_") else None
                    found.append((source, private, node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + ".") or alias.name == PACKAGE:
                    found.append((alias.name, None, node.lineno))
                    if alias.asname:
                        bound[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                and node.attr.startswith("_") and not node.attr.startswith("__")
                and f"{bound[node.value.id]}.{node.attr}" not in known):
            found.append((bound[node.value.id], node.attr, node.lineno))
    return [(m, p, line) for m, p, line in found if m in known and m != name]


def graph() -> tuple[dict[str, set[str]], list[str]]:
    """The import graph (module → modules it imports) and every private import, as text."""
    known = modules()
    edges: dict[str, set[str]] = {m: set() for m in known}
    private = []
    for name, path in known.items():
        if path.suffix != ".py":
            continue
        for target, attr, line in imports(name, path, known):
            edges[name].add(target)
            if attr is not None:
                private.append(f"{path.relative_to(ROOT.parent)}:{line}: {target}.{attr}")
    return edges, private


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def separate(item: str) -> bool:
    return SEPARATE in item.replace("/", ".")


def test_the_checker_sees_a_cycle_and_a_private_import(tmp_path):
    """The rules can fail: a two-module cycle and a private import in a scratch package are found."""
    global ROOT
    pkg = tmp_path / "cnsim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .b import _g\n    return _g\n")
    (pkg / "b.py").write_text("from . import a\n\ndef _g():\n    return a\n")
    saved, ROOT = ROOT, pkg
    try:
        edges, private = graph()
    finally:
        ROOT = saved
    assert cycles(edges) == [["cnsim.a", "cnsim.b"]]
    assert private == ["cnsim/a.py:2: cnsim.b._g"]


def test_no_private_names_across_modules():
    _, private = graph()
    assert [p for p in private if not separate(p)] == []


def test_no_import_cycles():
    edges, _ = graph()
    assert [c for c in cycles(edges) if not all(separate(m) for m in c)] == []


def test_reproduce_keeps_the_same_rules():
    """cnsim.reproduce, checked apart so that its findings name it: no cycle, no private import."""
    edges, private = graph()
    found = [" ↔ ".join(c) for c in cycles(edges) if all(separate(m) for m in c)]
    found += [p for p in private if separate(p)]
    assert found == []
