"""The draft `dcqcn-fixed-point` reproduction (reproduce/dcqcn2015/) before the engine runs DCQCN:
its tasks, and its claims and report on synthetic rows — a run exactly at the fluid fixed point is
supported, one at twice q* is not. The engine's runs will replace the synthetic rows."""

import tomllib
from pathlib import Path

from cnsim.reproduce import REGISTRY, compare
from cnsim.reproduce.dcqcn2015 import PAPER, claims, experiment
from cnsim.reproduce.paper import Runs, scenario_file


def test_tasks_and_scenarios_ship_with_the_package():
    tasks = PAPER.tasks(5, False)
    assert len(tasks) == len(experiment.FLOWS) * 5
    for t in tasks:
        doc = tomllib.loads(scenario_file(t.scenario).read_text(encoding="utf-8"))
        assert doc["defaults"]["queue"]["discipline"] == "dcqcn" and "pfc" in doc["flow_control"]
        assert doc["flow"][0]["from"] == [f"S{i}" for i in range(1, t.label["n"] + 1)]
    assert experiment.NAME not in REGISTRY               # registered once the engine runs it


def _runs(queue_factor: float, seeds: int = 3) -> Runs:
    tasks = PAPER.tasks(seeds, False)
    rows = []
    for t in tasks:
        n, fp = t.label["n"], claims.model(t.label["n"])
        jitter = 1 + 0.01 * (t.seed - 2)                 # a small spread so that intervals exist
        values = [["all", "q_mean_bytes", fp["q_bytes"] * queue_factor * jitter]]
        values += [[f"S{i}", "rate_gbps", 40.0 / n * jitter] for i in range(1, n + 1)]
        values += [["all", "rate_min_gbps", 40.0 / n * jitter], ["all", "rate_max_gbps", 40.0 / n * jitter]]
        rows.append({"values": values, "extra": None})
    return Runs(tasks, rows, seeds=seeds, quick=False, out=Path("."))


def test_claims_support_a_run_at_the_fixed_point_and_reject_one_far_from_it():
    at = {c.id: c.state for c in claims.checks(_runs(1.0))}
    assert all(at[f"n{n}.queue-at-fixed-point"] == compare.SUPPORTED for n in experiment.FLOWS)
    assert all(at[f"n{n}.rate-fair-share"] == compare.SUPPORTED for n in experiment.FLOWS)
    # q*(N) grows until N = 16 sits on the Kmax step: every consecutive pair by more than 20 % of the smaller.
    assert all(at[f"n{a}-n{b}.queue-grows-with-n"] == compare.SUPPORTED
               for a, b in zip(experiment.FLOWS, experiment.FLOWS[1:]))
    far = {c.id: c.state for c in claims.checks(_runs(2.0))}
    assert all(far[f"n{n}.queue-at-fixed-point"] == compare.NOT_SUPPORTED for n in experiment.FLOWS)


def test_report_renders():
    rep = PAPER.report(_runs(1.0))
    assert any(line.startswith("| 16 |") and "at Kmax" in line for line in rep.body)
    assert rep.choices
