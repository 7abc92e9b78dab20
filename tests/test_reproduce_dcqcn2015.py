"""The `dcqcn-fixed-point` reproduction (reproduce/dcqcn2015/): its scenarios ship with the package,
a --quick reproduction from real runs renders the fixed-point table for every N beside both NP
pacings (with utilisation), the open readings, the queue's distribution against the model and the
figure, with three-state verdicts (tests/test_golden_verdicts.py pins the verdicts themselves); and
the defects a review found stay fixed: the model's C is the frames' capacity, each tolerance is the
largest move of q* under an open reading, N = 16 is not called a fair share at 96 % utilisation."""

import json
import tomllib

import pytest

import cnsim.reproduce as rep
from cnsim.reproduce import REGISTRY
from cnsim.reproduce.dcqcn2015 import PAPER, claims, experiment, report
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
    text = (out / "report.md").read_text(encoding="utf-8")
    table = text.split("## The fluid model's fixed point and cnsim")[1].split("\n## ")[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    assert [int(r.split("|")[1]) for r in rows] == list(experiment.FLOWS)
    assert "utilisation" in table
    assert all(r.count("(n = ") == 5 for r in rows), "queue per window, utilisation, rate min / max, queue since last CNP"
    for section in ("## Differences from the model", "## How far q* moves with each open reading",
                    "## The queue's distribution against the model at the measured loop delay"):
        assert section in text
    assert (out / "figures" / "trajectories.png").stat().st_size > 0
    verdicts = json.loads((out / "verdicts.json").read_text(encoding="utf-8"))
    states = set(verdicts["states"].values()) if "states" in verdicts else {c["state"] for c in verdicts["checks"]}
    assert states <= {"supported", "not supported", "inconclusive"}


def test_the_model_is_pinned_to_the_capacity_frames_get():
    # 40 Gb/s carries 1000-B frames plus 20 B of preamble and gap: 39.2 Gb/s of frame bits, what cnsim's rates count.
    assert claims.C_FRAMES_BPS == pytest.approx(40e9 * 1000 / 1020)
    for n in experiment.FLOWS:
        assert claims.model(n)["rc_bps"] == pytest.approx(claims.C_FRAMES_BPS / n)


def test_each_tolerance_is_the_largest_move_of_q_star_under_an_open_reading():
    for n in experiment.FLOWS:
        q = claims.model(n)["q_bytes"] / 1e3
        moves = [abs(claims.model(n, r)["q_bytes"] / 1e3 - q) for r in claims.READINGS]
        assert claims.q_tol_kb(n) == pytest.approx(max(1.0, *moves))
    # the bits reading is shown, not used: it puts q* at Kmin for every N
    assert all(claims.model(n, claims.BITS)["q_bytes"] < 5.1e3 for n in experiment.FLOWS)
    text = "\n".join(report.readings())
    assert all(r in text for r in claims.READINGS) and claims.BITS in text


def synthetic(per_n: dict, seeds: int = 5):
    """Runs of the full tasks with the values `per_n` {n: {metric: value}} for both pacings (±0.1 % per seed)."""
    from pathlib import Path

    from cnsim.reproduce.paper import Runs

    tasks = PAPER.tasks(seeds, False)
    rows = [{"values": [["all", m, x * (1 + 0.001 * (t.seed - 3))] for m, x in per_n.get(t.label["n"], {}).items()],
             "extra": None} for t in tasks]
    return Runs(tasks, rows, seeds=seeds, quick=False, out=Path("/nonexistent"))


def test_at_16_flows_the_report_shows_utilisation_and_no_fair_share_claim():
    vals = {n: {"q_mean_bytes": 60e3, "q_std_bytes": 70e3, "util_pct": 96.0, "rate_min_gbps": 2.2, "rate_max_gbps": 2.5}
            for n in experiment.FLOWS}
    models = {n: {"delay_us": 17.0, "q_mean_kb": 85.0, "q_std_kb": 76.0, "rc_mean_gbps": 2.4} for n in experiment.FLOWS}
    text = " ".join(report.findings(synthetic(vals), models))
    assert "every flow still gets its share" not in text
    assert "busy 96" in text and "not at a fixed point" in text and "swings" in text


def test_the_fluid_model_swings_at_the_packet_systems_delay_with_16_flows():
    # 16 flows: p* above Pmax (on the Kmax step); from line rate at a 17-µs loop delay the queue does not settle.
    m = report.fluid_at(16, 17e-6, 0.2, 0.1)
    assert claims.model(16)["on_kmax_step"] and m["q_std_kb"] > 10
    m = report.fluid_at(4, 14e-6, 0.2, 0.1)
    assert m["q_std_kb"] < 1 and m["q_mean_kb"] == pytest.approx(claims.model(4)["q_bytes"] / 1e3, rel=0.01)
