"""The `dcqcn-fixed-point` reproduction (reproduce/dcqcn2015/): its scenarios ship with the package,
and a --quick reproduction from real runs renders the fixed-point table for every N beside both NP
pacings, with three-state verdicts (tests/test_golden_verdicts.py pins the verdicts themselves)."""

import json
import tomllib

import cnsim.reproduce as rep
from cnsim.reproduce import REGISTRY
from cnsim.reproduce.dcqcn2015 import PAPER, experiment
from cnsim.reproduce.paper import scenario_file


def test_tasks_and_scenarios_ship_with_the_package():
    tasks = PAPER.tasks(5, False)
    assert len(tasks) == len(experiment.FLOWS) * len(experiment.PACING) * 5
    for t in tasks:
        doc = tomllib.loads(scenario_file(t.scenario).read_text(encoding="utf-8"))
        assert doc["defaults"]["queue"]["discipline"] == "dcqcn" and "pfc" in doc["flow_control"]
        assert doc["flow"][0]["from"] == [f"S{i}" for i in range(1, t.label["n"] + 1)]
        assert doc["flow"][0]["rp"]["dcqcn"]["cnp_pacing"] == "window"
    assert experiment.NAME in REGISTRY


def test_quick_reproduction_reports_every_n_and_both_pacings(tmp_path):
    out = tmp_path / "dcqcn"
    rep.reproduce(experiment.NAME, out, quick=True, jobs=2, progress=False)
    report = (out / "report.md").read_text(encoding="utf-8")
    rows = [line for line in report.splitlines() if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    assert [int(r.split("|")[1]) for r in rows] == list(experiment.FLOWS)
    assert all(r.count("(n = ") == 4 for r in rows), "queue per window, rate min / max, queue since last CNP"
    assert "## Differences from the model" in report
    verdicts = json.loads((out / "verdicts.json").read_text(encoding="utf-8"))
    states = set(verdicts["states"].values()) if "states" in verdicts else {c["state"] for c in verdicts["checks"]}
    assert states <= {"supported", "not supported", "inconclusive"}
