"""The `hpcc2019` reproduction (reproduce/hpcc2019/): its scenarios ship with the package and are the
ones its generator writes, the fabric has the artifact's shape and speeds, HPCC's base RTT is the
longest path's, the FB Hadoop distribution is the artifact's, a censored percentile is never taken
from an unfinished transfer, the comparisons are paired by seed (same transfers), and a --quick
reproduction from real runs renders the FCT, queue and PFC tables for every protocol, workload and
load (tests/test_golden_verdicts.py pins the verdicts; tests/test_calibration.py their calibration)."""

import json
import tomllib

import pytest

import cnsim
import cnsim.reproduce as rep
from cnsim.reproduce import REGISTRY
from cnsim.reproduce.hpcc2019 import PAPER, claims, experiment
from cnsim.reproduce.paper import scenario_file


def test_shipped_scenarios_are_the_generated_ones_and_ship_with_the_package():
    assert experiment.NAME in REGISTRY
    for cc in experiment.PROTOCOLS:
        text = scenario_file(f"{experiment.DIR}/{cc}.toml").read_text(encoding="utf-8")
        assert text == experiment.scenario(cc), f"regenerate scenarios/hpcc2019/{cc}.toml from experiment.scenario"
    tasks = PAPER.tasks(5, False)
    labels = {(t.label["cc"], t.label["workload"], t.label["load"]) for t in tasks}
    assert len(labels) == len(experiment.PROTOCOLS) * len(experiment.WORKLOADS) * len(experiment.LOADS)
    assert len(tasks) == 5 * len(labels)


def test_fabric_has_the_artifacts_shape_and_speeds():
    doc = tomllib.loads(experiment.scenario("hpcc"))
    links = doc["link"]
    host_links = [l for l in links if l.get("rate") == experiment.HOST_RATE]
    assert len(host_links) == experiment.PODS * experiment.TORS
    assert doc["defaults"]["link"] == {"rate": experiment.FABRIC_RATE, "delay": "1us"}
    # non-blocking at the ToR, as in the artifact's mix/fat.txt (16 × 100 G down, 4 × 400 G up)
    assert experiment.HOSTS_PER_TOR * 100 == experiment.AGGS * 400
    assert doc["flow_control"]["pfc"] and doc["routing"]["ecmp"]
    assert doc["workload"][0]["transport"]["hpcc"]["max_stage"] == 0


def test_base_rtt_is_the_longest_paths():
    # 12 link delays of 1 µs plus the wire times of a 1120-B data frame and a 124-B ACK on 2 host and 4 fabric hops
    wire = (1120 + 124) * 8 * (2 / 100e9 + 4 / 400e9)
    assert experiment.base_rtt_us() == pytest.approx(12 + wire * 1e6)


def test_fb_hadoop_is_the_artifacts_distribution():
    text = (scenario_file("workloads/fb-hadoop.cdf")).read_text(encoding="utf-8")
    points = [tuple(map(float, line.split())) for line in text.splitlines() if line and not line.startswith("#")]
    assert points[0] == (0.0, 0.0) and points[-1] == (1e7, 1.0)
    assert (120000.0, 0.9) in points and (300.0, 0.05) in points   # FbHdp_distribution.txt's 120000 90, 300 5
    res = cnsim.run(scenario_file(f"{experiment.DIR}/dcqcn.toml"), progress=False, figures=False,
                    set={"workload.0.sizes": "fb-hadoop", "workload.0.stop": "200us", "simulation.duration": "1ms"})
    sizes = [f["size_bytes"] for f in res.stats["flows"]]
    assert sizes and max(sizes) <= 1e7 + 1000


def test_a_censored_percentile_never_falls_on_an_unfinished_transfer():
    inf = float("inf")
    assert experiment.censored_percentile([1.0, 2.0, 3.0, inf], 50) == 2.0
    assert experiment.censored_percentile([1.0, 2.0, 3.0, inf], 95) is None
    assert experiment.censored_percentile([], 50) is None
    assert experiment.censored_percentile([5.0] * 99 + [inf], 99) == 5.0


def test_comparisons_are_paired_by_seed_on_the_same_transfers():
    # a seed fixes the workload's transfers: the same sizes under two protocols
    def sizes(cc):
        res = cnsim.run(scenario_file(f"{experiment.DIR}/{cc}.toml"), seed=3, progress=False, figures=False,
                        set={"workload.0.stop": "200us", "simulation.duration": "400us"})
        return sorted((f["source"], f["size_bytes"]) for f in res.stats["flows"])
    assert sizes("hpcc") == sizes("dcqcn")
    from pathlib import Path
    from cnsim.reproduce.paper import Runs
    tasks = PAPER.tasks(3, False)
    rows = [{"values": [["<200KB", "p95_slowdown", {"hpcc": 2.0, "dcqcn": 4.0}.get(t.label["cc"], 3.0) + t.seed]]}
            for t in tasks]
    runs = Runs(tasks, rows, seeds=3, quick=False, out=Path("/nonexistent"))
    r = claims.reduction(runs, "p95_slowdown", "<200KB", "dcqcn", workload="web-search", load=0.3)
    assert r == {s: pytest.approx(1 - (2.0 + s) / (4.0 + s)) for s in (1, 2, 3)}


def test_quick_reproduction_renders_every_table(tmp_path):
    out = tmp_path / "hpcc"
    rep.reproduce(experiment.NAME, out, quick=True, jobs=2, progress=False)
    text = (out / "report.md").read_text(encoding="utf-8")
    for w in experiment.WORKLOADS:
        for load in experiment.LOADS:
            section = text.split(f"### {w}, load {load:g}")[1].split("\n#")[0]
            rows = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ")][1:]
            assert rows == list(experiment.PROTOCOLS)
    fabric = text.split("## Queues and PFC pauses")[1].split("\n## ")[0]
    assert sum(line.startswith("| ") for line in fabric.splitlines()) == 1 + 16
    assert "What could be read of the paper" in text and "scaled to" in text
    verdicts = json.loads((out / "verdicts.json").read_text(encoding="utf-8"))
    assert set(verdicts["states"].values()) <= {"supported", "not supported", "inconclusive", "not testable as stated"}
