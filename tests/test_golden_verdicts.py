"""Golden verdicts: every reproduction's verdict table is committed (tests/golden/), and a change of
any verdict fails here with the diff, so that a model change that flips a verdict is a deliberate,
reviewed commit (regenerate with `.venv/bin/python scripts/golden.py EXPERIMENT`).

The experiments of golden_verdicts.FULL_IN_CI are re-run in full; the others with --quick, against
their -quick golden file.
"""

import json

import pytest

import cnsim.reproduce as rep
from golden_verdicts import FULL_IN_CI, GOLDEN, diff


def _golden(name: str, quick: bool) -> dict:
    path = GOLDEN / f"{name}{'-quick' if quick else ''}.json"
    assert path.exists(), f"{path} is missing: write it with scripts/golden.py {name}"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", list(rep.REGISTRY))
def test_full_golden_file_is_a_full_run_with_three_state_verdicts(name):
    g = _golden(name, quick=False)
    assert g["experiment"] == name and not g["quick"] and g["seeds"] >= 5
    assert set(g["states"].values()) <= {"supported", "not supported", "inconclusive", "holds by construction"}


@pytest.mark.parametrize("name", list(rep.REGISTRY))
def test_verdicts_match_the_golden_file(name, tmp_path):
    quick = name not in FULL_IN_CI
    golden = _golden(name, quick)
    rep.reproduce(name, tmp_path / name, quick=quick, jobs=2, progress=False)
    now = json.loads((tmp_path / name / "verdicts.json").read_text(encoding="utf-8"))
    changed = diff(golden["states"], now["states"])
    assert not changed, (f"{name}{' --quick' if quick else ''}: {len(changed)} verdict(s) changed against "
                         f"tests/golden/ — if intended, regenerate with scripts/golden.py {name}:\n" + "\n".join(changed))
