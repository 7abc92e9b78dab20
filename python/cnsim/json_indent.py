"""`dump`: the text of `json.dump(obj, f, indent=2, allow_nan=False)`, byte for byte, written in a
fraction of its time.

With an indent, the standard library encodes with its pure-Python encoder, a generator per level
yielding every token: a million-flow run's summary.json (900 MB) took 90 s. Here each container
whose items are all scalars — most of a stats document's — is encoded by the C encoder
(`json.encoder.c_make_encoder`) with the item separator that the indent gives at its depth
(",\\n" and the next level's indent: a string never holds a raw newline, it is escaped), and
only containers holding containers are walked in Python. A table — a list or dict whose items are
all non-empty dicts of scalars, as the stats' queues, ports and flows are — is encoded a chunk of
rows per C call and re-indented by string replacement (`_rows`), so a million-queue run does not
cost a Python call per row. Keys, floats (`float.__repr__`), strings
(ASCII-escaped) and the empty containers ("{}", "[]") are encoded as `json.dump` encodes them;
tests/test_json_indent.py compares the two on awkward values.
"""

import functools
import json
from json.encoder import c_make_encoder, encode_basestring_ascii

INDENT = "  "
_FLUSH = 1 << 14  # parts gathered before they are written: the text is never whole in memory
_CONTAINERS = (dict, list, tuple)
_ROWS = 4096  # table rows encoded per C call
# Separators for a table's compact encoding. A raw newline or control character never occurs in the
# encoded text of a string or key (they are escaped), so ",\n" is always a separator and ":\x01"
# always a key's end: a row's separators are followed by a key ('"'), the table's by a row ('{').
_KEY_END = ":\x01"
_NESTED = (_KEY_END + "{", _KEY_END + "[")  # a row holding a container: not a table after all


@functools.cache
def _flat(level: int):
    """The C encoder of a container of scalars at nesting `level` (its items one level deeper)."""
    if c_make_encoder is None:  # an interpreter without the C accelerator
        encoder = json.JSONEncoder(allow_nan=False, separators=(",\n" + INDENT * (level + 1), ": "))
        return lambda o: encoder.encode(o)
    encode = c_make_encoder(None, json.JSONEncoder().default, encode_basestring_ascii, None, ": ",
                            ",\n" + INDENT * (level + 1), False, False, False)
    return lambda o: "".join(encode(o, 0))  # the C encoder returns its text in pieces when long


@functools.cache
def _compact():
    """The C encoder with `_KEY_END` and ",\n" as separators, or None without the C accelerator."""
    if c_make_encoder is None:
        return None
    encode = c_make_encoder(None, json.JSONEncoder().default, encode_basestring_ascii, None, _KEY_END, ",\n",
                            False, False, False)
    return lambda o: "".join(encode(o, 0))  # the C encoder returns its text in pieces when long


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
    if _is_table(o, values, is_dict):
        _rows(o, level, is_dict, parts, write)
        return
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


def _is_table(o, values, is_dict: bool) -> bool:
    """Whether `o` (non-empty) looks like a table: its items non-empty dicts, the first of scalars
    only (a row found to hold a container later is encoded the general way), a dict's keys strings."""
    if _compact() is None:
        return False
    first = next(iter(values))
    if type(first) is not dict or any(isinstance(x, _CONTAINERS) for x in first.values()):
        return False
    if is_dict and not all(type(k) is str for k in o):
        return False
    return all(type(v) is dict and v for v in values)


def _rows(o, level: int, is_dict: bool, parts: list, write) -> None:
    """A table, `_ROWS` rows per C call: the compact text's separators become the indent's."""
    outer, row, cell = ("\n" + INDENT * n for n in (level, level + 1, level + 2))
    values = list(o.values()) if is_dict else o
    keys = [encode_basestring_ascii(k) + ": " for k in o] if is_dict else None
    parts.append("{" if is_dict else "[")
    separator = row
    for start in range(0, len(values), _ROWS):
        chunk = values[start:start + _ROWS]
        text = _compact()(chunk)
        if any(marker in text for marker in _NESTED):  # some row holds a container
            for i, value in enumerate(chunk, start):
                parts.append(separator + keys[i] if is_dict else separator)
                separator = "," + row
                _encode(value, level + 1, parts, write)
        else:
            cells = text[2:-2].replace(_KEY_END, ": ").replace(",\n", "," + cell).split("}," + cell + "{")
            if is_dict:
                rows = [key + "{" + cell + c + row + "}" for key, c in zip(keys[start:start + _ROWS], cells)]
            else:
                rows = ["{" + cell + c + row + "}" for c in cells]
            parts.append(separator + ("," + row).join(rows))
            separator = "," + row
        if len(parts) > _FLUSH:
            write("".join(parts))
            parts.clear()
    parts.append(outer + ("}" if is_dict else "]"))
