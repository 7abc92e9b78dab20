"""`cnsim reproduce` ends with the report's three most important rows: not supported first, then
inconclusive, then supported, the largest effect (mean over its interval's half-width) first
within a state, then by id; rows held by construction or not testable are not findings."""

import json

from cnsim import cli
from cnsim.reproduce.verdicts import effect, most_important

DOC = {
    "level": 0.975,
    "states": {"a.ok": "supported", "b.vague": "inconclusive", "c.wrong-small": "not supported",
               "d.wrong-large": "not supported", "e.built": "holds by construction", "f.untestable": "not testable as stated"},
    "numbers": {"a.ok": [[5.0, 4.0, 6.0, 10]], "b.vague": [[1.0, -1.0, 3.0, 10]],
                "c.wrong-small": [[2.0, 1.0, 3.0, 10]],                            # 2 half-widths from 0
                "d.wrong-large": [[1.0, 0.5, 1.5, 10], [9.0, 8.0, 10.0, 10]],       # 9 half-widths at its second point
                "e.built": [[100.0, 100.0, 100.0, 1]], "f.untestable": []},
}


def test_not_supported_first_then_by_effect():
    lines = most_important(DOC)
    assert [line.split(":")[0] for line in lines] == ["d.wrong-large", "c.wrong-small", "b.vague"]
    assert lines[0] == "d.wrong-large: not supported (mean [97.5 % interval]: 1 [0.5, 1.5]; 9 [8, 10])"


def test_the_order_does_not_depend_on_the_documents_order():
    shuffled = {"states": dict(reversed(DOC["states"].items())), "numbers": DOC["numbers"], "level": DOC["level"]}
    assert most_important(shuffled) == most_important(DOC)
    assert most_important(DOC, k=5)[-2:] == ["b.vague: inconclusive (mean [97.5 % interval]: 1 [-1, 3])",
                                             "a.ok: supported (mean [97.5 % interval]: 5 [4, 6])"]


def test_effect_is_half_widths_from_zero():
    assert effect([[2.0, 1.0, 3.0, 5]]) == 2.0 and effect([]) == 0.0 and effect([[None, None, None, 0]]) == 0.0


def test_the_cli_prints_them_after_the_counts(tmp_path):
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps(DOC))
    assert cli._findings(path) == most_important(DOC)
