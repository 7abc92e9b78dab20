"""Golden verdicts: every reproduction's verdict table is committed (tests/golden/), and a change of
any verdict, or of the numbers a verdict rests on, fails here with the diff, so that a model change
that flips a verdict is a deliberate, reviewed commit (regenerate with `.venv/bin/python
scripts/golden.py EXPERIMENT`). Every experiment is re-run in full, as `cnsim reproduce` runs it.
"""

import json

import pytest

import cnsim.reproduce as rep
from golden_verdicts import GOLDEN, diff, number_diff


def _golden(name: str, quick: bool = False) -> dict:
    path = GOLDEN / f"{name}.json"
    assert path.exists(), f"{path} is missing: write it with scripts/golden.py {name}"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", list(rep.REGISTRY))
def test_full_golden_file_is_a_full_run_with_three_state_verdicts(name):
    g = _golden(name, quick=False)
    assert g["experiment"] == name and not g["quick"] and g["seeds"] >= 5
    assert set(g["states"].values()) <= {"supported", "not supported", "inconclusive", "holds by construction",
                                         "not testable as stated"}
    assert set(g["numbers"]) == set(g["states"])


@pytest.mark.parametrize("name", list(rep.REGISTRY))
def test_verdicts_and_their_numbers_match_the_golden_file(name, tmp_path):
    golden = _golden(name)
    rep.reproduce(name, tmp_path / name, jobs=2, progress=False)
    now = json.loads((tmp_path / name / "verdicts.json").read_text(encoding="utf-8"))
    changed = diff(golden["states"], now["states"])
    assert not changed, (f"{name}: {len(changed)} verdict(s) changed against tests/golden/ — if intended, regenerate "
                         f"with scripts/golden.py {name}:\n" + "\n".join(changed))
    moved = number_diff(golden["numbers"], now["numbers"])
    assert not moved, (f"{name}: {len(moved)} interval(s) moved against tests/golden/ — if intended, regenerate "
                       f"with scripts/golden.py {name}:\n" + "\n".join(moved))
