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


def test_one_key_changes_only_what_the_preset_writes():
    """The same fabric and workload; `cc` adds the preset's queue keys, top-level tables and
    workload keys, nothing else."""
    plain = tomllib.loads(fat_tree(4, workload="web-search"))
    for cc, p in fabric_presets().items():
        doc = tomllib.loads(fat_tree(4, workload="web-search", cc=cc))
        want = p["toml"]
        assert doc["link"] == plain["link"] and doc["switch"] == plain["switch"] and doc["host"] == plain["host"]
        assert doc["defaults"]["queue"] == {**plain["defaults"]["queue"], **want.get("queue", {})}, cc
        assert {k: v for k, v in doc.items() if k not in plain} == want.get("tables", {}), cc
        (w,), (w0,) = doc["workload"], plain["workload"]
        assert set(w) == set(w0) | set(want["workload"]), cc
        assert all(w[k] == w0[k] for k in w0 if k not in want["workload"]), cc


def test_hpccs_base_rtt_is_the_fabrics_longest_path():
    """HPCC's T is the six-hop inter-pod path's: propagation, a full data frame and an ACK per hop."""
    doc = tomllib.loads(fat_tree(4, workload="web-search", cc="hpcc", rate="25Gbps", delay="2us"))
    t = doc["workload"][0]["transport"]["hpcc"]["base_rtt"]
    assert t == _core.fabric_base_rtt("hpcc", "25Gbps", "2us", None, LONGEST_PATH_HOPS)
    ps = int(t.removesuffix("ps"))
    assert 6 * 2 * 2e6 < ps < 6 * (2 * 2e6 + 1520 * 8 / 25e9 * 1e12 * 2)
    # the wire overhead counts: none makes it shorter
    zero = tomllib.loads(fat_tree(4, workload="web-search", cc="hpcc", overhead="0B"))
    assert int(zero["workload"][0]["transport"]["hpcc"]["base_rtt"].removesuffix("ps")) < int(
        tomllib.loads(fat_tree(4, workload="web-search", cc="hpcc"))["workload"][0]["transport"]["hpcc"]["base_rtt"].removesuffix("ps"))
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
    # a queue key refines the preset's: DCTCP's K at another rate
    doc = tomllib.loads(fat_tree(4, cc="dctcp", queue={"threshold": {"k": "20 frames"}}))
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
