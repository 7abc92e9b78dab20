"""Every claim of every reproduced paper is calibrated both ways, with no simulation: its rule fed
the paper's own data says *supported*, fed a counter-datum *not supported* (calibration.py). A row
that cannot is not counted: it is "not testable as stated", with its reason."""

import pytest

from cnsim.reproduce import REGISTRY, calibration, experiment
from cnsim.reproduce.compare import INCONCLUSIVE


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_claim_passes_on_the_papers_data_and_fails_on_its_negation(name, tmp_path):
    checks = calibration.empty_checks(experiment(name), tmp_path)
    assert checks, f"{name}: no checks"
    assert calibration.problems(checks) == []


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_with_no_runs_no_claim_is_decided(name, tmp_path):
    checks = calibration.empty_checks(experiment(name), tmp_path)
    decided = [c.id for c in checks if c.kind == "paper" and c.decide is not None and c.state != INCONCLUSIVE]
    assert decided == []
