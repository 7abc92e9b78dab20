"""json_indent.dump writes the text of json.dump(indent=2, allow_nan=False), byte for byte."""

import io
import json
import math

import pytest

from cnsim import json_indent


def written(obj) -> str:
    f = io.StringIO()
    json_indent.dump(obj, f)
    return f.getvalue()


AWKWARD = {
    "floats": [0.0, -0.0, 1e-7, 1e16, 1e22, 123456789.125, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, -2.5],
    "ints": [0, -1, 2**63, -(2**70), True, False, None],
    "strings": ["", "plain", "ünïcødé", "日本", "emoji 🚀", 'quote " and \\ back', "new\nline\ttab\x00nul\u2028",
                "{[,]}: ,\n  "],
    "empties": [[], {}, [[]], [{}], {"a": {}}, {"b": []}],
    "nested": {"a": {"b": {"c": [1, [2, [3, {"d": None}]], {"e": "f"}]}}, "g": 1},
    "mixed": {"x": 1, "y": [1, 2], "z": 3.5, "w": {"v": [{}, 1, "s", [], {"u": 2}]}, "t": "end"},
    "scalars after a container": [[1], 2, 3, {"a": 1}, 4],
    "ünïcødé key": {"日本": 1, "": 2, "quote\"key": 3},
    "tuple": (1, (2, 3), {"k": (4,)}),
    "non-str keys": {1: "int", 2.5: "float", True: "bool", None: "null"},
}


@pytest.mark.parametrize("obj", [AWKWARD, *AWKWARD.values(), 1, 1e-7, "s", None, [], {}, [[[[]]]],
                                 {"flows": [{"name": f"f{i}", "rate": i / 7, "receivers": [{"host": "H", "t": i * 1e-9}]}
                                            for i in range(50)]}])
def test_the_text_is_json_dumps_with_indent_2(obj):
    assert written(obj) == json.dumps(obj, indent=2, allow_nan=False)


@pytest.mark.parametrize("bad", [math.nan, [1, {"a": math.inf}], {"a": [1, -math.inf]}, {math.nan: 1}])
def test_nan_and_infinity_are_refused_as_json_dump_refuses_them(bad):
    with pytest.raises(ValueError):
        json.dumps(bad, indent=2, allow_nan=False)
    with pytest.raises(ValueError):
        written(bad)


@pytest.mark.parametrize("bad", [{"a": object()}, [1, {2, 3}], {(1, 2): "tuple key"}])
def test_what_json_cannot_hold_is_refused(bad):
    with pytest.raises(TypeError):
        json.dumps(bad, indent=2, allow_nan=False)
    with pytest.raises(TypeError):
        written(bad)


def test_a_long_list_is_written_in_pieces_that_join_to_the_same_text():
    doc = {"entries": [{"i": i, "sub": {"j": [i, i * 0.5]}} for i in range(3 * json_indent._FLUSH)]}
    writes = []

    class Sink:
        def write(self, text):
            writes.append(text)

    json_indent.dump(doc, Sink())
    assert len(writes) > 2  # never one string of the whole text
    assert "".join(writes) == json.dumps(doc, indent=2, allow_nan=False)


ODD = ["},\n{", '": {"', "a: {", "x}", "}", "{", ":\x01{", "\x01", "[{}]", "},\n  {"]
ROW = {"name": "SW>H1", "arrivals": 0, "busy_s": 0.0, "cp": False, "qeq": None, "capacity": "100 frames"}


def _rows(n):
    return [{**ROW, "name": f"q{i}", "odd": ODD[i % len(ODD)], "x": i / 3} for i in range(n)]


@pytest.mark.parametrize("table", [
    _rows(1), _rows(3 * json_indent._ROWS + 5),                                  # a list of rows, in several chunks
    {f"k{i}{ODD[i % len(ODD)]}": r for i, r in enumerate(_rows(json_indent._ROWS + 1))},  # a dict of rows
    [*_rows(json_indent._ROWS + 2), {**ROW, "nested": [1, {"a": 2}]}, *_rows(3)],  # a later row holds a container
    [*_rows(5), {}, *_rows(2)],                                                  # an empty row
    {1: ROW, "b": ROW}, [{1: "int key", 2.5: "float key", None: 0, True: 1}, ROW],  # keys json.dump converts
    {"tables": {"queues": _rows(7), "ports": {"p": ROW}}, "after": [ROW, 1, ROW]},
])
def test_a_table_of_rows_is_written_as_json_dumps_writes_it(table):
    assert written(table) == json.dumps(table, indent=2, allow_nan=False)


@pytest.mark.parametrize("bad", [[*_rows(json_indent._ROWS + 1), {**ROW, "x": math.nan}], {"a": {"x": math.inf}}])
def test_nan_in_a_table_row_is_refused(bad):
    with pytest.raises(ValueError):
        written(bad)


def test_a_long_container_of_scalars_is_written_whole():
    """The C encoder hands back a long text in several pieces; every piece is written."""
    flat = {"xs": [i / 7 for i in range(200_000)], "names": {f"n{i}": "v" * 20 for i in range(20_000)}}
    assert written(flat) == json.dumps(flat, indent=2, allow_nan=False)
