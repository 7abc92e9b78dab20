"""The JSON documents of a run (summary.json, the engine's statistics): read and written with orjson.

A million-host run's summary.json is 700 MB. The standard library takes 2.5 times orjson's time to
parse it and, with an indent, writes it with its pure-Python encoder, a token at a time: more than
ten times orjson's time, even with the C encoder handed every run of scalars. `dump` writes the text of `orjson.dumps(obj, option=OPT_INDENT_2)` —
the layout of `json.dump(obj, f, indent=2)` — but never holds it whole: a container of more than
`ROWS` items is encoded `ROWS` items per call and re-indented to its depth. The text differs from the
standard library's only in spelling, never in value: non-ASCII characters are written as UTF-8
rather than `\\uXXXX`, and a small exponent as `1e-7` rather than `1e-07`. NaN and the infinities,
which JSON cannot hold, are written as null, as serde_json writes the engine's statistics.
tests/test_jsonio.py checks the text against one whole `orjson.dumps` and the values against the
document.
"""

import orjson

ROWS = 4096  # items of a large container encoded per call
_PLAIN = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY  # keys and numbers as the standard library takes them
_OPTIONS = _PLAIN | orjson.OPT_INDENT_2
_INDENT = b"  "


def loads(text: str | bytes):
    """The document of a JSON text (orjson: the standard library's values, about 2.5× faster)."""
    return orjson.loads(text)


def loads_tables(text: bytes, cuts: list[tuple[str, list[int]]]) -> dict:
    """The document of `text`, an object whose large arrays (tables) are parsed a chunk of rows at a
    time: `cuts` gives, for each table key, the byte offsets of its rows' text (`[start, ..., end]`,
    each chunk a run of whole rows, a comma between chunks). orjson parses through a tree of its
    own, 3 times the text's size: parsed whole, a million-flow document took 0.9 GB more at its
    peak than with the standard library; by chunks, no more than the rows themselves."""
    head, pos = [], 0
    for _, offsets in cuts:
        head.append(text[pos:offsets[0]])
        pos = offsets[-1]
    head.append(text[pos:])
    doc = orjson.loads(b"".join(head))
    for key, offsets in cuts:
        rows = doc[key]  # [] in the head
        for a, b in zip(offsets, offsets[1:]):
            rows.extend(orjson.loads(b"[" + text[a:b].rstrip(b",") + b"]"))
    return doc


def dumps(obj) -> bytes:
    """The compact JSON text of `obj`."""
    return orjson.dumps(obj, option=_PLAIN)


def dump(obj, f) -> None:
    """Write `obj` to the binary file `f`, indented by two spaces (TypeError on what JSON cannot hold)."""
    _encode(obj, 0, f.write)


def _indented(obj, level: int) -> bytes:
    text = orjson.dumps(obj, option=_OPTIONS)
    return text.replace(b"\n", b"\n" + _INDENT * level) if level else text


def _encode(o, level: int, write) -> None:
    is_dict = isinstance(o, dict)
    if not (is_dict or isinstance(o, (list, tuple))) or not o or not _large(o, is_dict):
        write(_indented(o, level))
        return
    inner, outer = b"\n" + _INDENT * (level + 1), b"\n" + _INDENT * level
    write(b"{" if is_dict else b"[")
    items = list(o.items()) if is_dict else o
    separator = inner
    if len(items) > ROWS:  # a table: ROWS items per call, each chunk's brackets dropped
        for start in range(0, len(items), ROWS):
            chunk = items[start:start + ROWS]
            text = _indented(dict(chunk) if is_dict else chunk, level)
            write(separator)
            write(memoryview(text)[len(inner) + 1:len(text) - len(outer) - 1])  # a view: no copy of the chunk
            separator = b"," + inner
    else:  # a few large items: one at a time
        for item in items:
            if is_dict:
                write(separator + _key(item[0]) + b": ")
                _encode(item[1], level + 1, write)
            else:
                write(separator)
                _encode(item, level + 1, write)
            separator = b"," + inner
    write(outer + (b"}" if is_dict else b"]"))


def _key(key) -> bytes:
    """A dict key as orjson writes it inside a dict (a string; `OPT_NON_STR_KEYS` turns 1 into "1")."""
    return orjson.dumps({key: 0}, option=_OPTIONS)[len(b"{\n  "):-len(b": 0\n}")]


def _large(o, is_dict: bool) -> bool:
    """Whether `o` is worth encoding in parts: more than `ROWS` items, or an item that is a container."""
    if len(o) > ROWS:
        return True
    return any(isinstance(v, (dict, list, tuple)) and v for v in (o.values() if is_dict else o))
