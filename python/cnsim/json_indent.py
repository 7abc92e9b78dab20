"""`dump`: the text of `json.dump(obj, f, indent=2, allow_nan=False)`, byte for byte, written in a
fraction of its time.

With an indent, the standard library encodes with its pure-Python encoder, a generator per level
yielding every token: a million-flow run's summary.json (900 MB) took 90 s. Here each container
whose items are all scalars — most of a stats document's — is encoded by the C encoder
(`json.encoder.c_make_encoder`) with the item separator that the indent gives at its depth
(",\\n" and the next level's indent: a string never holds a raw newline, it is escaped), and
only containers holding containers are walked in Python. Keys, floats (`float.__repr__`), strings
(ASCII-escaped) and the empty containers ("{}", "[]") are encoded as `json.dump` encodes them;
tests/test_json_indent.py compares the two on awkward values.
"""

import functools
import json
from json.encoder import c_make_encoder, encode_basestring_ascii

INDENT = "  "
_FLUSH = 1 << 14  # parts gathered before they are written: the text is never whole in memory
_CONTAINERS = (dict, list, tuple)


@functools.cache
def _flat(level: int):
    """The C encoder of a container of scalars at nesting `level` (its items one level deeper)."""
    if c_make_encoder is None:  # an interpreter without the C accelerator
        encoder = json.JSONEncoder(allow_nan=False, separators=(",\n" + INDENT * (level + 1), ": "))
        return lambda o: encoder.encode(o)
    encode = c_make_encoder(None, json.JSONEncoder().default, encode_basestring_ascii, None, ": ",
                            ",\n" + INDENT * (level + 1), False, False, False)
    return lambda o: encode(o, 0)[0]


def _key(key) -> str:
    """A dict key as `json.dump` writes it (str, float, int, bool, None; anything else refused)."""
    if isinstance(key, str):
        return encode_basestring_ascii(key)
    if isinstance(key, (float, int, bool)) or key is None:
        return encode_basestring_ascii(_flat(0)(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def dump(obj, f) -> None:
    """Write `obj` to the text file `f` as `json.dump(obj, f, indent=2, allow_nan=False)` does
    (ValueError on NaN or infinity, TypeError on what JSON cannot hold)."""
    parts: list[str] = []
    _encode(obj, 0, parts, f.write)
    f.write("".join(parts))


def _encode(o, level: int, parts: list, write) -> None:
    if not isinstance(o, _CONTAINERS):
        parts.append(_flat(level)(o))
        return
    is_dict = isinstance(o, dict)
    if not o:
        parts.append("{}" if is_dict else "[]")
        return
    values = o.values() if is_dict else o
    inner, outer = "\n" + INDENT * (level + 1), "\n" + INDENT * level
    opening, closing = ("{", "}") if is_dict else ("[", "]")
    for v in values:
        if isinstance(v, _CONTAINERS):
            break
    else:  # scalars only: one call of the C encoder
        parts.append(opening + inner + _flat(level)(o)[1:-1] + outer + closing)
        return
    # Containers one at a time; the scalars between them a run at a time, by the C encoder.
    parts.append(opening)
    separator = inner
    run = {} if is_dict else []
    for item in o.items() if is_dict else o:
        value = item[1] if is_dict else item
        if not isinstance(value, _CONTAINERS):
            if is_dict:
                run[item[0]] = value
            else:
                run.append(value)
            continue
        if run:
            parts.append(separator + _flat(level)(run)[1:-1])
            separator = "," + inner
            run = {} if is_dict else []
        parts.append(separator + _key(item[0]) + ": " if is_dict else separator)
        separator = "," + inner
        _encode(value, level + 1, parts, write)
        if len(parts) > _FLUSH:
            write("".join(parts))
            parts.clear()
    if run:
        parts.append(separator + _flat(level)(run)[1:-1])
    parts.append(outer + closing)
