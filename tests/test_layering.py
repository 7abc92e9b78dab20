"""The engine's layers (docs/architecture.md, "Layers"): every module of `crates/cnsim-engine/src`
belongs to one layer, and a file may name only its own layer and the layers below it. Names are
the paths a file uses — `use` items (braces expanded), inline `crate::…`, `super::…` and
`self::…` paths in code, and the paths of `#[serde(default = "…")]` attributes — resolved to the
top-level module they reach. Within a layer, the top-level modules must not form a cycle either."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "crates/cnsim-engine/src"

# The layer order, lowest first: each layer's top-level modules (`lib` is the crate root's own
# items, e.g. `crate::simulation`). Declared once here and mirrored in docs/architecture.md.
LAYERS = [
    ["core"],
    ["units", "traffic", "defaults"],
    ["net"],
    ["slots"],
    ["protocols"],
    ["registry"],
    ["scenario", "tap"],
    ["sim"],
    ["build", "report", "describe", "lint", "fct"],
    ["lib", "bench"],
]
RANK = {m: i for i, layer in enumerate(LAYERS) for m in layer}


def strip_comments(text: str) -> str:
    """The code with comments blanked out (string and char literals kept, newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            j = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if j < 0 else j + 1 + len(hashes)
            out.append(text[i:j])
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                out.append(m.group(0))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_path(path: Path) -> list[str]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "mod":
        parts.pop()
    return [] if parts == ["lib"] else parts


def expand(tree: str) -> list[str]:
    """`a::{b, c::{d, e}}` → [a::b, a::c::d, a::c::e] (`self` in braces is the prefix itself)."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    m = re.match(r"^(.*?)\{(.*)\}$", tree)
    if not m:
        return [tree]
    prefix, inner = m.groups()
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    out = []
    for it in filter(None, items):
        for p in expand(it):
            out.append(prefix.rstrip(":") if p == "self" else prefix + p)
    return out


def inline_modules(code: str) -> list[tuple[int, list[str]]]:
    """(offset, nested module names) at each change of inline `mod x { … }` nesting."""
    marks, stack, depth = [(0, [])], [], 0
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{|[{}]", code):
        if m.group(1):
            depth += 1
            stack.append((m.group(1), depth))
            marks.append((m.end(), [s[0] for s in stack]))
        elif m.group(0) == "{":
            depth += 1
        else:
            if stack and stack[-1][1] == depth:
                stack.pop()
                marks.append((m.end(), [s[0] for s in stack]))
            depth -= 1
    return marks


def resolve(path: str, here: list[str]) -> list[str] | None:
    """The absolute module path a `crate`/`super`/`self` path names (None: another crate)."""
    segs = [s for s in path.split("::") if s]
    if not segs or segs[0] not in {"crate", "$crate", "super", "self"}:
        return None
    if segs[0] in {"crate", "$crate"}:
        return segs[1:]
    cur = list(here)
    while segs and segs[0] in {"super", "self"}:
        if segs.pop(0) == "super":
            cur = cur[:-1]
    return cur + segs


def top_module(abs_path: list[str]) -> str:
    """The top-level module an absolute path reaches; `lib` for the crate root's own items."""
    if not abs_path:
        return "lib"
    head = abs_path[0]
    if (SRC / head).is_dir() or (SRC / f"{head}.rs").exists():
        return head
    return "lib"


def references(path: Path) -> list[tuple[int, str, str]]:
    """(line, path as written, top-level module it reaches) for each crate-internal path."""
    code = strip_comments(path.read_text(encoding="utf-8"))
    base = module_path(path)
    marks = inline_modules(code)

    def here(offset: int) -> list[str]:
        inner = [m for o, m in marks if o <= offset][-1]
        return base + inner

    refs = []
    used = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        used.append(m.span())
        line = code.count("\n", 0, m.start()) + 1
        for p in expand(m.group(1)):
            r = resolve(p.lstrip(":"), here(m.start()))
            if r is not None:
                refs.append((line, p, top_module(r)))
    for m in re.finditer(r"(?<![\w$])(\$crate|crate|super|self)((?:::\w+)+)", code):
        if any(a <= m.start() < b for a, b in used):
            continue
        line = code.count("\n", 0, m.start()) + 1
        r = resolve(m.group(0), here(m.start()))
        refs.append((line, m.group(0), top_module(r)))
    return refs


def files() -> list[Path]:
    return sorted(SRC.rglob("*.rs"))


def layer_of(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return parts[0]


def test_every_module_has_a_layer():
    tops = {layer_of(p) for p in files()}
    assert not tops - set(RANK), f"modules missing from LAYERS: {sorted(tops - set(RANK))}"
    assert not set(RANK) - tops, f"LAYERS names modules that do not exist: {sorted(set(RANK) - tops)}"


def test_the_architecture_page_states_the_same_order():
    """docs/architecture.md's "Layers" table lists the same modules in the same layers."""
    page = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    section = page.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if re.match(r"\|\s*\d+\s*\|", r)]
    documented = []
    for r in rows:
        cells = [c.strip() for c in r.strip("|").split("|")]
        documented.append([re.sub(r"(\.rs|/)$", "", m) for m in re.findall(r"`([^`]+)`", cells[2])])
    assert documented == LAYERS


def test_no_upward_reference():
    bad = []
    for p in files():
        mine = layer_of(p)
        for line, written, top in references(p):
            if RANK.get(top, -1) > RANK[mine]:
                bad.append(f"{p.relative_to(SRC)}:{line}: {written} ({mine} → {top})")
    assert not bad, "upward references:\n" + "\n".join(bad)


def test_no_cycle_within_a_layer():
    edges: dict[str, set[str]] = {}
    for p in files():
        mine = layer_of(p)
        for _, _, top in references(p):
            if top != mine and RANK.get(top) == RANK[mine]:
                edges.setdefault(mine, set()).add(top)

    def reaches(a: str, b: str, seen: set[str]) -> bool:
        return any(n == b or (n not in seen and reaches(n, b, seen | {n})) for n in edges.get(a, ()))

    cycles = sorted(m for m in edges if reaches(m, m, {m}))
    assert not cycles, f"modules in an import cycle within their layer: {cycles}; edges: {edges}"


def test_the_event_loop_calls_no_method_defined_above_it():
    """A method of `Sim` written in a higher layer (`impl Sim` in build/, report.rs …) is reached
    without a path, so the check above cannot see it: the event loop must not call one."""
    sim_code = "".join(strip_comments(p.read_text(encoding="utf-8")) for p in files() if layer_of(p) == "sim")
    bad = []
    for p in files():
        if RANK[layer_of(p)] <= RANK["sim"]:
            continue
        code = strip_comments(p.read_text(encoding="utf-8"))
        for block in re.finditer(r"\bimpl\s+(?:crate::sim::)?Sim\s*\{", code):
            for m in re.finditer(r"\bfn\s+(\w+)", code[block.end():]):
                if re.search(rf"\b(self|Self|Sim|sim)\s*(\.|::)\s*{m.group(1)}\s*\(", sim_code):
                    bad.append(f"{p.relative_to(SRC)}: Sim::{m.group(1)}")
    assert not bad, "the event loop calls methods defined above it:\n" + "\n".join(sorted(set(bad)))


def test_the_checker_sees_every_kind_of_path():
    """The parser itself: grouped uses, inline paths, `super` from nested modules, serde paths."""
    assert expand("crate::{a::{b, c}, d}") == ["crate::a::b", "crate::a::c", "crate::d"]
    assert expand("crate::protocols::{emcast as e, rlm}") == ["crate::protocols::emcast", "crate::protocols::rlm"]
    assert expand("crate::net::frame::{self, Frame}") == ["crate::net::frame", "crate::net::frame::Frame"]
    assert resolve("super::super::x", ["net", "port", "tests"]) == ["net", "x"]
    code = strip_comments('// crate::sim\nlet u = "http://x"; crate::a::b /* super::c */')
    assert "crate::sim" not in code and "crate::a::b" in code and "super::c" not in code
