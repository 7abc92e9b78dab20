"""Outputs show what a run had: the FCT table of a run with transfers, and in the console summary,
the sweep's lines and `cnsim results`, the metrics of the mechanisms present (no feedback rate
without congestion points, no source-rate spread without reaction points). Real runs of the
shipped examples."""

import subprocess
import sys
from pathlib import Path

import pytest

import cnsim
from cnsim.metrics import CATALOGUE, MARKERS, mechanisms, row_mechanisms, seed_metrics

EXAMPLES = Path(__file__).resolve().parents[1] / "python/cnsim/scenarios/examples"
DCQCN = EXAMPLES.parent / "dcqcn2015/fixed-point-n2.toml"
DCQCN_SHORT = {"simulation.duration": "3ms", "simulation.measure_from": "1ms"}
QCN_ONLY = ("feedback_rate_pct", "cr_std_mbps", "main_cp", "jain_cr")


def invoke(*args) -> str:
    """The command line's standard output, in its own process (as a user runs it)."""
    r = subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def names(output: str) -> set[str]:
    """Every word of the output (metric names in rows and headers)."""
    return set(output.split())


def test_fct_table_of_a_run_with_transfers(tmp_path):
    r = cnsim.run(EXAMPLES / "websearch-fattree.toml", progress=False)
    table = r.table("fct")
    fct = r.summary["fct"]
    assert list(table.index) == list(fct) and table.index.name == "bucket"
    assert list(table.columns) == [m.metric for m in CATALOGUE if m.scope == "fct bucket"]
    for bucket, row in table.iterrows():
        for column, value in row.items():
            expected = fct[bucket][column]
            assert (value != value and expected is None) or value == expected
    assert table["flows"].sum() == sum(1 for f in r.stats["flows"] if "size_bytes" in f) > 0
    reopened = cnsim.Result.load(r.write(tmp_path / "run", figures=False)).table("fct")
    assert reopened.equals(table)
    plain = cnsim.run(EXAMPLES / "unicast-qcn.toml", progress=False).table("fct")
    assert plain.empty and list(plain.columns) == list(table.columns)


def test_a_runs_row_tells_the_mechanisms_its_stats_show():
    """The markers (a global metric null exactly without its mechanism) agree with the stats
    document on every example — runs with and without each mechanism among them."""
    runs = [cnsim.run(p, progress=False) for p in sorted(EXAMPLES.glob("*.toml"))]
    runs.append(cnsim.run(DCQCN, set=DCQCN_SHORT, progress=False))
    seen = []
    for r in runs:
        from_stats = mechanisms(r.stats) & set(MARKERS)
        assert row_mechanisms(seed_metrics(r.summary)) == from_stats, r.stats["scenario"]
        seen.append(from_stats)
    for m in MARKERS:
        assert any(m in s for s in seen) and any(m not in s for s in seen), m


def test_run_summary_shows_the_metrics_of_what_ran(tmp_path):
    dctcp = invoke("run", EXAMPLES / "dctcp-two-flows.toml", "-o", tmp_path / "dctcp", "--no-figures")
    assert "ran: marking queues ×3, DCTCP flows ×2" in dctcp
    assert not names(dctcp) & set(QCN_ONLY)
    assert {"loss_rate_pct", "throughput_mean_mbps", "jain_throughput"} <= names(dctcp)
    assert "goodput_mbps" in names(dctcp)  # TCP flows: their goodput

    qcn = invoke("run", EXAMPLES / "unicast-qcn.toml", "-o", tmp_path / "qcn", "--no-figures")
    assert "ran: qcn reaction points ×4, congestion points ×5" in qcn
    assert set(QCN_ONLY) <= names(qcn) and "goodput_mbps" not in names(qcn)

    web = invoke("run", EXAMPLES / "websearch-fattree.toml", "-o", tmp_path / "web", "--no-figures")
    fct = cnsim.Result.load(tmp_path / "web").summary["fct"]
    lines = web.splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("FCT slowdown"))
    for bucket, row in fct.items():
        cells = next(line.split() for line in lines[title:] if line.split()[:1] == [bucket])
        assert cells[1:3] == [str(row["flows"]), str(row["completed"])]
        median = row["slowdown_median"]
        assert cells[3] == ("-" if median is None else f"{median:.4g}")
    assert not names(web) & set(QCN_ONLY)


@pytest.fixture(scope="module")
def dctcp_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "dctcp"
    printed = invoke("sweep", EXAMPLES / "dctcp-two-flows.toml", "--grid", "simulation.duration=20ms,30ms",
                     "--seeds", 2, "--jobs", 1, "-o", out)
    return out, printed


def test_sweep_lines_show_the_metrics_of_its_protocols(dctcp_sweep, tmp_path):
    _, printed = dctcp_sweep
    header = next(line for line in printed.splitlines() if "seeds" in line).split()
    assert header == ["simulation.duration", "seeds", "loss_rate_pct", "throughput_mean_mbps", "jain_throughput"]
    qcn = invoke("sweep", EXAMPLES / "unicast-qcn.toml", "--grid", "cp.qcn.qeq=20 frames,30 frames", "--seeds", 1,
                 "--jobs", 1, "-o", tmp_path / "qcn", "--set", "simulation.duration=20ms",
                 "--set", "simulation.measure_from=5ms")
    header = next(line for line in qcn.splitlines() if "seeds" in line).split()
    assert header == ["cp.qcn.qeq", "seeds", "feedback_rate_pct", "loss_rate_pct", "cr_std_mbps"]


def test_results_columns_are_those_of_the_runs_mechanisms(dctcp_sweep, tmp_path):
    out, _ = dctcp_sweep
    header = invoke("results", out).splitlines()[0].split()
    assert not set(header) & set(QCN_ONLY)
    assert {"loss_rate_pct", "throughput_mean_mbps", "jain_throughput", "seed"} <= set(header)
    agg = invoke("results", out, "--agg").splitlines()[0].split()
    assert "throughput_mean_mbps_mean" in agg and "feedback_rate_pct_mean" not in agg
    # Asked for by name, a metric is shown whatever ran.
    assert "feedback_rate_pct" in invoke("results", out, "--metrics", "feedback_rate_pct").splitlines()[0]
    invoke("run", EXAMPLES / "unicast-qcn.toml", "-o", tmp_path / "qcn", "--no-figures")
    assert set(QCN_ONLY) <= set(invoke("results", tmp_path / "qcn").splitlines()[0].split())


def test_a_dcqcn_run_shows_its_feedback_rate_from_its_cnps(tmp_path):
    """DCQCN has no congestion point, but its NPs send CNPs: its summary offers the feedback rate
    (over every protocol's feedback frames, `window.feedback_sent`), which a DCTCP run does not."""
    out = invoke("run", DCQCN, "-o", tmp_path / "dcqcn", "--no-figures",
                 *[a for k, v in DCQCN_SHORT.items() for a in ("--set", f"{k}={v}")])
    assert {"feedback_rate_pct", "cr_mean_mbps"} <= names(out) and "main_cp" not in names(out)
    r = cnsim.Result.load(tmp_path / "dcqcn")
    w = r.stats["window"]
    assert r.summary["global"]["feedback_rate_pct"] == pytest.approx(100 * w["cnp_sent"] / w["data_injected"])
    dctcp = invoke("run", EXAMPLES / "dctcp-two-flows.toml", "-o", tmp_path / "dctcp", "--no-figures")
    assert "feedback_rate_pct" not in names(dctcp)
