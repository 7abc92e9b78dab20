"""jsonio.dump writes the text of one whole orjson.dumps(indent 2), in parts; the values are the document's."""

import io
import json
import math

import numpy as np
import orjson
import pytest

from cnsim import jsonio


def written(obj) -> bytes:
    f = io.BytesIO()
    jsonio.dump(obj, f)
    return f.getvalue()


def whole(obj) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY)


AWKWARD = {
    "floats": [0.0, -0.0, 1e-7, 1e16, 1e22, 123456789.125, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, -2.5],
    "ints": [0, -1, 2**63 - 1, -(2**63), True, False, None],
    "strings": ["", "plain", "ünïcødé", "日本", "emoji 🚀", 'quote " and \\ back', "new\nline\ttab\x00nul\u2028",
                "{[,]}: ,\n  ", "\n  }"],
    "empties": [[], {}, [[]], [{}], {"a": {}}, {"b": []}],
    "nested": {"a": {"b": {"c": [1, [2, [3, {"d": None}]], {"e": "f"}]}}, "g": 1},
    "mixed": {"x": 1, "y": [1, 2], "z": 3.5, "w": {"v": [{}, 1, "s", [], {"u": 2}]}, "t": "end"},
    "scalars after a container": [[1], 2, 3, {"a": 1}, 4],
    "ünïcødé key": {"日本": 1, "": 2, "quote\"key": 3, "new\nline": {"k": [1]}},
    "tuple": (1, (2, 3), {"k": (4,)}),
    "non-str keys": {1: "int", 2.5: "float", True: "bool", None: "null", 7: {"nested": [1]}},
    "numpy": [np.float64(0.25), np.int64(3), np.arange(3)],
}
ODD = ["},\n{", '": {"', "a: {", "x}", "}", "{", "\n  }", "[{}]", "},\n  {"]
ROW = {"name": "SW>H1", "arrivals": 0, "busy_s": 0.0, "cp": False, "qeq": None, "capacity": "100 frames"}


def _rows(n):
    return [{**ROW, "name": f"q{i}", "odd": ODD[i % len(ODD)], "x": i / 3} for i in range(n)]


CASES = [AWKWARD, *AWKWARD.values(), 1, 1e-7, "s", None, [], {}, [[[[]]]],
         _rows(1), _rows(3 * jsonio.ROWS + 5),                                       # a table in several chunks
         {f"k{i}{ODD[i % len(ODD)]}": r for i, r in enumerate(_rows(jsonio.ROWS + 1))},  # a dict of rows
         [*_rows(jsonio.ROWS + 2), {**ROW, "nested": [1, {"a": 2}]}, *_rows(3)],       # a row holding a container
         {"tables": {"queues": _rows(jsonio.ROWS * 2), "ports": {"p": ROW}}, "after": [ROW, 1, ROW]},
         {"summary": {"xs": [i / 7 for i in range(200_000)]}, "n": {f"n{i}": "v" * 20 for i in range(20_000)}}]


@pytest.mark.parametrize("obj", CASES)
def test_the_text_is_one_whole_orjson_dumps(obj):
    assert written(obj) == whole(obj)


@pytest.mark.parametrize("obj", CASES)
def test_the_values_are_the_documents_and_the_layout_is_json_dumps_indent_2(obj):
    text = written(obj)
    plain = json.loads(json.dumps(obj, default=lambda a: a.tolist() if hasattr(a, "tolist") else a))
    assert json.loads(text) == plain
    if not any(ord(c) > 127 for c in text.decode()) and b"e-" not in text:
        assert text.decode() == json.dumps(plain, indent=2)  # same layout where the spelling agrees


def test_a_large_document_is_written_in_parts():
    doc = {"entries": [{"i": i, "sub": {"j": [i, i * 0.5]}} for i in range(3 * jsonio.ROWS)]}
    writes = []

    class Sink:
        def write(self, text):
            writes.append(text)

    jsonio.dump(doc, Sink())
    assert len(writes) > 2  # never one text of the whole document
    assert max(map(len, writes)) < len(b"".join(writes)) / 2
    assert b"".join(writes) == whole(doc)


def test_nan_and_infinity_are_written_as_null():
    assert json.loads(written({"a": [math.nan, math.inf, -math.inf, 1.0]})) == {"a": [None, None, None, 1.0]}


@pytest.mark.parametrize("bad", [{"a": object()}, [1, {2, 3}], {(1, 2): "tuple key"}, {"a": 2**64}])
def test_what_json_cannot_hold_is_refused(bad):
    with pytest.raises(TypeError):
        written(bad)


@pytest.mark.parametrize("rows", [1, 2, 3, 1000])
def test_the_engines_statistics_parsed_by_chunks_are_the_whole_documents(rows):
    """`stats_json_cut`'s offsets cut the tables (flows, queues, ports with PFC, reaction points)
    into chunks that `loads_tables` parses to the document `stats_json` holds."""
    from cnsim import _core
    from cnsim.api import drive

    path = "scenarios/roeck2007/no-hotspot.toml"
    with open(path, encoding="utf-8") as f:
        sim = _core.Simulation(f.read(), path, [("simulation.duration", "2ms")], 1, None)
    drive(sim, lambda: None)
    whole = orjson.loads(sim.stats_json())
    text, cuts = sim.stats_json_cut(rows)
    assert text.decode() == sim.stats_json()
    assert {key for key, _ in cuts} == {"flows", "queues", "rps", "ports"}
    assert all(len(offsets) >= 2 for _, offsets in cuts)
    assert max(len(offsets) for _, offsets in cuts) > (2 if rows < 3 else 1)  # some table in several chunks
    assert jsonio.loads_tables(text, cuts) == whole
