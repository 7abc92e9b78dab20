"""Scenarios given explicitly: `Scenario.from_path`, `from_toml` (text), `from_dict` (the TOML
document as Python data) or the small `Builder`; every `cnsim` function that takes a scenario
takes a `Scenario`, a path, or (for compatibility) a str that holds a newline, read as TOML text.

    s = (cnsim.Builder(duration="20ms")
         .defaults(link={"rate": "10Gbps", "delay": "1us"}, queue={"capacity": "100 frames"})
         .switches("SW").hosts("H1..H4", "D")
         .link("H1..H4", "SW").link("SW", "D").port("SW>D", cp={"qcn": {}})
         .flow("H1..H4", "D", traffic={"kind": "cbr", "rate": "5Gbps"}, rp={"qcn": {}})
         .build())
    cnsim.run(s)

The dict is written as TOML text for the engine (`to_toml`), so errors name a line of that text
(its label is "<dict>"); the schema is docs/scenarios.md.
"""

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Scenario:
    """A scenario's TOML text and the label its errors name (a path, "<string>", "<dict>")."""

    text: str
    label: str
    path: Path | None = None

    @classmethod
    def from_path(cls, path: str | Path) -> "Scenario":
        from . import _args

        p = _args.scenario(_args.path(path, "scenario"))
        return cls(_read(p), str(p), p)

    @classmethod
    def from_toml(cls, text: str, label: str = "<string>") -> "Scenario":
        if not isinstance(text, str):
            raise TypeError(f"from_toml: expected TOML text (str), got {text!r}")
        return cls(text, label)

    @classmethod
    def from_dict(cls, doc: Mapping, label: str = "<dict>") -> "Scenario":
        return cls(to_toml(doc), label)


def _read(path: Path) -> str:
    from ._core import ScenarioError

    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: {exc.strerror}") from None


def _value(v, where: str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{where}: {v!r} is not a TOML number")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k, where)} = {_value(x, f'{where}.{k}')}" for k, x in v.items()) + " }"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x, f"{where}[]") for x in v) + "]"
    raise TypeError(f"{where}: {v!r} has no TOML form (use str, int, float, bool, list or dict)")


def _key(k, where: str) -> str:
    if not isinstance(k, str) or not k:
        raise TypeError(f"{where}: keys must be non-empty str, got {k!r}")
    return k if all(c.isalnum() or c in "_-" for c in k) else json.dumps(k)


def to_toml(doc: Mapping) -> str:
    """A TOML document of `doc`: top-level dicts as [tables], lists of dicts as [[arrays of
    tables]], everything deeper inline."""
    if not isinstance(doc, Mapping):
        raise TypeError(f"scenario: expected a dict, got {doc!r}")
    lines: list[str] = []
    plain = {k: v for k, v in doc.items() if not _is_table(v) and not _is_table_array(v)}
    for k, v in plain.items():
        lines.append(f"{_key(k, 'scenario')} = {_value(v, k)}")
    for k, v in doc.items():
        if _is_table(v):
            _table(lines, [k], v)
        elif _is_table_array(v):
            for item in v:
                lines.append(f"\n[[{_key(k, 'scenario')}]]")
                lines += [f"{_key(ik, k)} = {_value(iv, f'{k}.{ik}')}" for ik, iv in item.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(lines: list[str], path: list[str], table: Mapping) -> None:
    where = ".".join(path)
    lines.append(f"\n[{'.'.join(_key(p, where) for p in path)}]")
    subs = []
    for k, v in table.items():
        if _is_table(v) and any(_is_table(x) for x in v.values()):
            subs.append((k, v))  # a nested table with tables inside: its own header
        else:
            lines.append(f"{_key(k, where)} = {_value(v, f'{where}.{k}')}")
    for k, v in subs:
        _table(lines, [*path, k], v)


def _is_table(v) -> bool:
    return isinstance(v, Mapping)


def _is_table_array(v) -> bool:
    return isinstance(v, list | tuple) and bool(v) and all(isinstance(x, Mapping) for x in v)


class Builder:
    """A scenario built step by step (each method returns the builder); `build()` → `Scenario`.
    Keys and values are those of docs/scenarios.md; this only assembles the document."""

    def __init__(self, **simulation):
        self.doc: dict = {"simulation": dict(simulation)} if simulation else {}

    def simulation(self, **keys) -> "Builder":
        self.doc.setdefault("simulation", {}).update(keys)
        return self

    def defaults(self, **keys) -> "Builder":
        self.doc.setdefault("defaults", {}).update(keys)
        return self

    def table(self, name: str, **keys) -> "Builder":
        """Any top-level table, e.g. table("cp", qcn={"qeq": "25 frames"})."""
        self.doc.setdefault(name, {}).update(keys)
        return self

    def _item(self, kind: str, **keys) -> "Builder":
        self.doc.setdefault(kind, []).append({k.rstrip("_"): v for k, v in keys.items() if v is not None})
        return self

    def switches(self, *names: str, **keys) -> "Builder":
        return self._item("switch", names=_one_or_list(names), **keys)

    def hosts(self, *names: str, **keys) -> "Builder":
        return self._item("host", names=_one_or_list(names), **keys)

    def link(self, a, b, **keys) -> "Builder":
        """A link (or links, with name ranges) between `a` and `b`; keys such as rate, delay, queue."""
        return self._item("link", between=[a, b], **keys)

    def port(self, at: str, **keys) -> "Builder":
        return self._item("port", at=at, **keys)

    def group(self, name: str, members: list[str], **keys) -> "Builder":
        return self._item("group", name=name, members=members, **keys)

    def flow(self, from_, to, **keys) -> "Builder":
        return self._item("flow", from_=from_, to=to, **keys)

    def build(self, label: str = "<builder>") -> Scenario:
        return Scenario.from_dict(self.doc, label)


def _one_or_list(names: tuple) -> str | list[str]:
    return names[0] if len(names) == 1 else list(names)
