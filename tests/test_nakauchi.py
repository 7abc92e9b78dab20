"""Seed 003 (issue 13): routers, RED, SIRENS, run-time multicast membership, EMcast and RLM from
Python, and `cnsim reproduce nakauchi-sirens --quick` end to end."""

import json
from pathlib import Path

import cnsim
from cnsim import reproduce as rep
from cnsim.reproduce import nakauchi

ROOT = Path(__file__).resolve().parents[1]
DIR = ROOT / "python" / "cnsim" / "scenarios" / "nakauchi2006"
SHORT = {"simulation.duration": "6s", "simulation.measure_from": "1s"}


def test_emcast_climbs_to_the_channel_that_fits_and_backs_off_under_cbr():
    # Empty 50 Mb/s path: channel 9 (25.6 Mb/s) is the highest below 0.8 × 50 Mb/s; a 45 Mb/s CBR
    # flow from 2 s to 4 s leaves 5 Mb/s: EMcast falls to ≤ 3.2 Mb/s (level 6) and climbs back.
    res = cnsim.run(DIR / "emcast-cbr.toml", set={**SHORT, "flow.10.start": "2s", "flow.10.stop": "4s"},
                    figures=False, progress=False)
    level = res.series("level.R1")
    assert level[(level.index > 1.0) & (level.index < 2.0)].eq(9).all()
    assert level[(level.index > 3.0) & (level.index < 4.0)].max() <= 6
    assert level[level.index > 5.0].eq(9).all()
    ep = res.stats["endpoints"][0]
    assert ep["protocol"] == "emcast" and ep["drops"] >= 3
    # The receiver's SIRENS table (two routers) is complete.
    rx = next(f for f in res.stats["flows"] if f["name"] == "ch9")["receivers"][0]
    assert rx["sirens_path_len"] == 2


def test_rlm_joins_layers_one_join_timer_at_a_time():
    res = cnsim.run(DIR / "rlm-cbr.toml", set={"simulation.duration": "13s"}, figures=False, progress=False)
    level = res.series("level.R1")
    # Join timer 3 s, then a 4-s detection time per experiment: level 2 at 3 s, level 3 at ≈ 10 s.
    assert level[level.index < 2.9].eq(1).all()
    assert level[(level.index > 3.1) & (level.index < 9.9)].eq(2).all()
    assert level.iloc[-1] == 3


def test_reproduce_quick(tmp_path):
    report = rep.reproduce("nakauchi-sirens", tmp_path / "out", quick=True, jobs=1, progress=False)
    text = report.read_text(encoding="utf-8")
    assert "Quick run" in text and "| Fig. 4 |" in text and "| Fig. 9 |" in text
    assert {p.name for p in (tmp_path / "out" / "figures").iterdir()} == {f"fig{i}.png" for i in range(4, 10)}
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["runs"] == 6 and len(summary["claims"]) == 7
    # A second call reuses the stored runs.
    rep.reproduce("nakauchi-sirens", tmp_path / "out", quick=True, jobs=1, progress=False)
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["ran"] == 0
    assert nakauchi.CASE["fig5"].overrides["link.0.delay"] == "68ms"
