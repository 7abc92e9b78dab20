"""One key switches a generated fabric's congestion control: `fat_tree(cc=NAME)` applies the fabric
preset a protocol declares in its registration, and scripts/cc_sweep.py compares them on one
workload (docs/scenarios.md, "One fabric, every congestion control")."""

import importlib.util
import math
import tomllib
from pathlib import Path

import pytest

import cnsim
from cnsim import _core
from cnsim.generators import LONGEST_PATH_HOPS, fabric_presets, fat_tree

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("cc_sweep", ROOT / "scripts" / "cc_sweep.py")
cc_sweep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc_sweep)

SIX = {"qcn", "dcqcn", "dctcp", "hpcc", "timely", "swift"}


def test_the_engine_declares_a_preset_for_each_of_the_six():
    presets = fabric_presets()
    assert SIX <= set(presets)
    assert presets["dctcp"]["protocol"] == "tcp" and presets["hpcc"]["needs_base_rtt"]
    assert all(p["doc"] for p in presets.values())


def resolved(text: str, set: dict | None = None) -> dict:
    return tomllib.loads(cnsim.check(text, set=set))


def test_one_key_changes_only_what_the_preset_writes():
    """The same fabric and workload; `cc` writes the one key `[fabric] cc` (with the fabric's
    longest path), and the engine adds the preset's queue keys, top-level tables and workload keys
    when it loads the file."""
    plain = tomllib.loads(fat_tree(4, workload="web-search"))
    plain_resolved = resolved(fat_tree(4, workload="web-search"))
    for cc, p in fabric_presets().items():
        doc = tomllib.loads(fat_tree(4, workload="web-search", cc=cc))
        assert doc.pop("fabric") == {"cc": cc, "longest_path": LONGEST_PATH_HOPS}, cc
        assert doc == plain, cc
        want = p["toml"]
        r = resolved(fat_tree(4, workload="web-search", cc=cc))
        assert r["link"] == plain_resolved["link"] and r["host"] == plain_resolved["host"], cc
        for k, v in want.get("queue", {}).items():
            assert r["defaults"]["queue"][k] == v, (cc, k)
        for k in want.get("tables", {}):
            assert r[k] != plain_resolved.get(k), (cc, k)
        (w,), (w0,) = r["workload"], plain_resolved["workload"]
        for k in want.get("workload", {}):
            assert k in w and w[k] != w0.get(k), (cc, k)


def test_the_key_switches_a_file_with_set():
    """`--set fabric.cc=NAME` on a generated file gives what `fat_tree(cc=NAME)` gives."""
    base = fat_tree(4, workload="web-search", cc="qcn")
    for cc in fabric_presets():
        assert resolved(base, {"fabric.cc": cc}) == resolved(fat_tree(4, workload="web-search", cc=cc)), cc


def test_an_unknown_preset_is_an_error_at_its_line_naming_the_known_ones(tmp_path):
    path = tmp_path / "x.toml"
    text = fat_tree(4, workload="web-search", cc="qcn").replace('cc = "qcn"', 'cc = "cubic"')
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("cc ="))
    path.write_text(text)
    with pytest.raises(cnsim.ScenarioError, match=f"x.toml:{line}:") as e:
        cnsim.check(path)
    assert all(name in str(e.value) for name in fabric_presets())


def test_hpccs_base_rtt_is_the_fabrics_longest_path():
    """HPCC's T is the six-hop inter-pod path's: propagation, a full data frame and an ACK per hop."""
    def t(**kw):
        return resolved(fat_tree(4, workload="web-search", cc="hpcc", **kw))["workload"][0]["transport"]["hpcc"]["base_rtt"]
    got = t(rate="25Gbps", delay="2us")
    assert got == _core.fabric_base_rtt("hpcc", "25Gbps", "2us", None, LONGEST_PATH_HOPS)
    ps = int(got.removesuffix("ps"))
    assert 6 * 2 * 2e6 < ps < 6 * (2 * 2e6 + 1520 * 8 / 25e9 * 1e12 * 2)
    # the wire overhead counts: none makes it shorter
    assert int(t(overhead="0B").removesuffix("ps")) < int(t().removesuffix("ps"))
    assert _core.fabric_base_rtt("timely", "10Gbps", "1us", None, 6) is None


def test_bad_spellings_are_clear_errors():
    with pytest.raises(ValueError, match="cc must be one of"):
        fat_tree(4, cc="cubic")
    with pytest.raises(ValueError, match="choose one"):
        fat_tree(4, cc="dctcp", queue={"discipline": "red"})
    with pytest.raises(ValueError, match="not with workload or cc"):
        fat_tree(4, cc="qcn", flow={})
    with pytest.raises(ValueError, match="rate"):
        _core.fabric_base_rtt("hpcc", "fast", "1us", None, 6)
    # a queue key refines the preset's (the file's keys win): DCTCP's K at another rate
    doc = resolved(fat_tree(4, cc="dctcp", queue={"threshold": {"k": "20 frames"}}))
    assert doc["defaults"]["queue"]["discipline"] == "threshold" and doc["defaults"]["queue"]["threshold"]["k"] == "20 frames"


@pytest.mark.parametrize("cc", sorted(SIX))
def test_each_preset_runs_the_permutation(cc):
    """Long-lived permutation flows under each preset deliver data through the core."""
    st = cnsim.run(fat_tree(4, cc=cc, duration="300us"), figures=False).stats
    assert st["frames"]["data_delivered"] > 0, cc


def test_the_sweep_has_a_row_per_preset_with_finite_slowdowns():
    """scripts/cc_sweep.py in miniature: a k = 4 fat tree, web-search at 0.5, 2 ms of arrivals."""
    table = cc_sweep.sweep(k=4, duration="4ms", arrivals="2ms")
    assert set(table.index) == set(fabric_presets()) >= SIX
    small = table["<100KB p50"], table["<100KB p99"]
    for col in small:
        assert all(math.isfinite(v) and v >= 1.0 for v in col), col
    assert all(int(d.split("/")[0]) > 0 for d in table["<100KB done"])


@pytest.mark.parametrize("cc", sorted(SIX))
def test_each_preset_completes_web_search_transfers_on_a_k8_fat_tree(cc):
    """128 hosts, web-search at 0.5, 1 ms of arrivals in a 3-ms run: transfers complete under each
    preset and the FCT table reports finite slowdowns for them."""
    text = fat_tree(8, cc=cc, workload="web-search", duration="3ms")
    fct = cnsim.run(text, set={"workload.0.stop": "1ms"}, figures=False).table("fct")
    done = fct[fct["completed"] > 0]
    assert fct["completed"].sum() > 0.5 * fct["flows"].sum(), fct
    assert all(math.isfinite(v) and v >= 1.0 for v in done["slowdown_median"]), fct


def test_a_sweep_grid_over_the_key_runs_every_preset(tmp_path):
    """`cnsim sweep --grid fabric.cc=…` on one generated file: a run per preset, none failed, and
    the presets' runs differ (the key took effect at each point)."""
    import os
    import subprocess
    import sys

    import pandas as pd

    path = tmp_path / "ft.toml"
    path.write_text(fat_tree(4, cc="qcn", workload="web-search", duration="1ms"))
    names = sorted(fabric_presets())
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    subprocess.run([sys.executable, "-m", "cnsim", "sweep", str(path), "--grid", "fabric.cc=" + ",".join(names),
                    "--seeds", "1", "--jobs", "1", "-q", "-o", str(tmp_path / "sw")], check=True, env=env)
    d = pd.read_parquet(tmp_path / "sw" / "sweep.parquet")
    assert sorted(d["fabric.cc"]) == names
    assert d["error"].isna().all(), d["error"].tolist()
    assert d["events"].nunique() == len(names), d[["fabric.cc", "events"]]
    # each run kept its FCT table, and scripts/cc_sweep.py makes its table from that sweep
    table = cc_sweep.table(tmp_path / "sw")
    assert sorted(table.index) == names
    assert all(int(d.split("/")[1]) > 0 for d in table["<100KB done"]), table
