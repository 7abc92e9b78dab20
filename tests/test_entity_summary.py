"""Results for every entity: per-flow throughput, goodput and loss, per-port pause time, a table
for every scope (ports included), the main CP's queue in the global summary, and a CLI summary
that shows the busiest queues, flows and pausing ports of a run without a CP."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import cnsim
from cnsim.capture import CaptureSpec

ROOT = Path(__file__).resolve().parents[1]
INCAST = ROOT / "python/cnsim/scenarios/examples/incast-pause.toml"
QCN = ROOT / "python/cnsim/scenarios/examples/unicast-qcn.toml"
TCP = ROOT / "python/cnsim/scenarios/examples/tcp-bcn.toml"
SHORT = {"simulation.duration": "20ms", "simulation.measure_from": "10ms"}


def cli(*args):
    return subprocess.run([sys.executable, "-m", "cnsim", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"})


@pytest.fixture(scope="module")
def incast():
    return cnsim.run(INCAST)


def test_flows_have_throughput_summed_over_receivers(incast):
    flows = incast.table("flows")
    for f in incast.stats["flows"]:
        assert flows.loc[f["name"], "throughput_mbps"] == pytest.approx(
            sum(r["throughput_bps"] for r in f["receivers"]) / 1e6)
    assert flows["loss_pct"].notna().all()


def test_tcp_flows_have_goodput():
    r = cnsim.run(TCP, set=SHORT)
    flows = r.table("flows")
    tcp = {f["name"]: f["tcp_goodput_bps"] for f in r.stats["flows"] if "tcp_goodput_bps" in f}
    assert tcp and all(flows.loc[n, "goodput_mbps"] == pytest.approx(v / 1e6) for n, v in tcp.items())


def test_ports_table_has_pause_activity(incast):
    ports = incast.table("ports")
    paused = ports[ports["pause_received"] > 0]
    assert len(paused) >= 4 and (paused["paused_s"] > 0).all()
    raw = {p["name"]: max(p["paused_s_window"]) for p in incast.stats["ports"]}
    assert all(ports.loc[n, "paused_s"] == pytest.approx(v) for n, v in raw.items())


def test_ports_table_of_a_run_without_flow_control_is_empty_not_refused():
    r = cnsim.run(QCN, set=SHORT)
    assert r.table("ports").empty and "paused_s" in r.table("ports").columns


def test_the_main_cp_queue_is_in_the_global_summary():
    r = cnsim.run(QCN, set=SHORT)
    g = r.summary["global"]
    assert g["q_mean_frames"] == pytest.approx(r.summary["queues"][g["main_cp"]]["q_mean_frames"])


def test_stats_frame_and_series_frame_are_both_properties(incast):
    assert len(incast.stats_frame) > 0 and len(incast.series_frame) > 0


def test_cli_summary_of_a_pause_run_shows_queues_flows_and_ports(tmp_path):
    r = cli("run", INCAST, "-o", tmp_path / "o", "--no-figures")
    assert r.returncode == 0, r.stderr
    assert "queues by q_mean_frames" in r.stdout and "flows by throughput_mbps" in r.stdout
    assert "ports by paused_s" in r.stdout and "SW>D" in r.stdout
    # the ports' columns: every port metric the engine declares
    ports = r.stdout.split("ports by paused_s", 1)[1]
    assert all(f"{m} (" in ports for m in ("paused_s", "pause_sent", "pause_received"))


def test_cli_summary_ranks_by_a_chosen_metric_and_refuses_unknown_ones(tmp_path):
    r = cli("run", INCAST, "-o", tmp_path / "o", "--no-figures", "--top", 2, "--rank", "pause_received")
    assert r.returncode == 0 and "2 of" in r.stdout and "ports by pause_received" in r.stdout
    r = cli("run", INCAST, "-o", tmp_path / "p", "--rank", "bogus")
    assert r.returncode == 2 and "--rank" in r.stderr and not (tmp_path / "p").exists()


@pytest.mark.parametrize("args, option", [(["--pcap", "--pcap-max-mb", "inf"], "--pcap-max-mb"),
                                          (["--pcap", "--pcap-max-mb", "1e30"], "--pcap-max-mb"),
                                          (["--pcap", "--pcap-max-mb", "nan"], "--pcap-max-mb"),
                                          (["--pcap", "--pcap-snaplen", "4294967296"], "--pcap-snaplen"),
                                          (["--max-wall", "nan"], "--max-wall"),
                                          (["--max-series-mb", "inf"], "--max-series-mb")])
def test_out_of_range_options_are_usage_errors_naming_the_option(tmp_path, args, option):
    r = cli("run", INCAST, "-o", tmp_path / "o", *args)
    assert r.returncode == 2 and option in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("kw", [{"snaplen": 2**32}, {"max_bytes": 10**30}, {"snaplen": 10}])
def test_capture_spec_bounds_are_checked_in_python(kw):
    with pytest.raises(ValueError):
        CaptureSpec(**kw)
