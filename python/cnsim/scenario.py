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

import math
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

Overrides = Mapping[str, object] | Iterable[str] | None  # {"k": v} or ["k=v", ...]


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


def source(scenario) -> tuple[str, str]:
    """(TOML text, label) of what every function that takes a scenario accepts: a `Scenario`, a
    dict (the TOML document as data), a path, or — kept for compatibility — a str holding a
    newline, read as TOML text."""
    from . import _args

    if isinstance(scenario, Scenario):
        return scenario.text, scenario.label
    if isinstance(scenario, Mapping):
        s = Scenario.from_dict(scenario)
        return s.text, s.label
    scenario = _args.scenario(scenario)
    if isinstance(scenario, str):
        return scenario, "<string>"
    return _read(scenario), str(scenario)


def value_text(value: object) -> str:
    """An override value as the engine reads it (booleans as TOML true/false)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def overrides(set: Overrides, label: str = "") -> list[tuple[str, str]]:
    """`{"k": v}` or `["k=v", ...]` as the engine's list of (key, value text); a malformed item is a
    ScenarioError naming `label`."""
    from . import _args
    from ._core import ScenarioError

    set = _args.overrides(set)
    if set is None:
        return []
    if isinstance(set, Mapping):
        return [(str(k), value_text(v)) for k, v in set.items()]
    if isinstance(set, str):
        set = [set]
    pairs = []
    for item in set:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ScenarioError(f"{label + ': ' if label else ''}--set {item!r}: expected key=value")
        pairs.append((key.strip(), value.strip()))
    return pairs


# A scenario file's size cap: `cnsim check` of a 50 MB scenario takes about 15 s and 2.4 GB
# (docs/scenarios.md, Limits), so 64 MiB stays within half a minute and a few GB.
MAX_SCENARIO_BYTES = 64 << 20


def _read(path: Path) -> str:
    """The text of `path` if it is a regular file of at most MAX_SCENARIO_BYTES (checked before it
    is opened, so a FIFO or a device never blocks or streams, and again while it is read)."""
    from ._core import ScenarioError

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise ScenarioError(f"{path}: not a regular file (a scenario is a TOML file)")
        if st.st_size > MAX_SCENARIO_BYTES:
            raise ScenarioError(f"{path}: {st.st_size} bytes, more than the {MAX_SCENARIO_BYTES} a scenario file may have")
        with open(path, "rb") as f:
            data = f.read(MAX_SCENARIO_BYTES + 1)
        if len(data) > MAX_SCENARIO_BYTES:
            raise ScenarioError(f"{path}: grew past the {MAX_SCENARIO_BYTES} bytes a scenario file may have while it was read")
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")   # as read_text's newlines
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: {exc.strerror}") from None


def _check(v, where: str) -> None:
    """Refuse, naming the key, what has no TOML form, and NaN and infinities (TOML has them, no
    scenario quantity does), before `tomli_w` writes the document."""
    if isinstance(v, bool | int | str):
        return
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{where}: {v!r} is not a TOML number")
    elif isinstance(v, Mapping):
        for k, x in v.items():
            if not isinstance(k, str) or not k:
                raise TypeError(f"{where or 'scenario'}: keys must be non-empty str, got {k!r}")
            _check(x, f"{where}.{k}" if where else k)
    elif isinstance(v, list | tuple):
        for x in v:
            _check(x, f"{where}[]")
    else:
        raise TypeError(f"{where}: {v!r} has no TOML form (use str, int, float, bool, list or dict)")


def to_toml(doc: Mapping) -> str:
    """A TOML document of `doc` (written by `tomli_w`; `tomllib.loads` gives `doc` back)."""
    import tomli_w

    if not isinstance(doc, Mapping):
        raise TypeError(f"scenario: expected a dict, got {doc!r}")
    _check(doc, "")
    return tomli_w.dumps(doc)


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
