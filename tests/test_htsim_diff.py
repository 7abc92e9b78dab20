"""scripts/htsim_diff.py's own logic, without htsim: the parameters it gives each simulator, its
parsing of the htsim driver's output (tests/data/htsim_diff_hpcc_incast.txt: a real output of
scripts/peer/htsim_diff.cpp, the HPCC incast of the default scenario, its queue samples cut to the
first 120), and its verdicts inside and outside the tolerances."""

import importlib.util
import re
import statistics
from pathlib import Path

import pytest

import cnsim

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("htsim_diff", ROOT / "scripts" / "htsim_diff.py")
hd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hd)
SAMPLE = ROOT / "tests" / "data" / "htsim_diff_hpcc_incast.txt"


def transport(text: str) -> list[dict]:
    return cnsim.describe(text)["flows"]


@pytest.mark.parametrize("proto", list(hd.PROTOCOLS))
def test_a_full_packet_is_the_same_size_on_the_wire_in_both(proto):
    p, pay = hd.PROTOCOLS[proto], hd.payload_b(proto)
    assert pay["cnsim"] + p["cnsim_header_b"] == hd.NET["packet_b"]
    # htsim: HPCC adds its 64-B header to the payload; Swift's and DCTCP's packets are all payload
    assert pay["htsim"] + (hd.HPCC["header_b"] if proto == "hpcc" else 0) == hd.NET["packet_b"]
    text = hd.cnsim_scenario(proto, "incast")
    assert f'size = "{hd.NET["flow_pkts"] * pay["cnsim"]}B"' in text and f'mss = "{pay["cnsim"]}B"' in text
    for key in ['overhead = "0B"', f'rate = "{hd.NET["rate_gbps"]}Gbps"', f'delay = "{hd.NET["delay_ns"]}ns"',
                f'capacity = "{hd.NET["queue_pkts"]} frames"', f'record_interval = "{hd.NET["sample_us"]}us"']:
        assert key in text, key


def test_hpcc_gets_htsims_parameters_in_both():
    text = hd.cnsim_scenario("hpcc", "incast")
    for key in [f'eta = {hd.HPCC["eta"]}', f'max_stage = {hd.HPCC["max_stage"]}', f'w_ai = "{hd.HPCC["wai_b"]}B"',
                f'base_rtt = "{hd.HPCC["t_us"]}us"', 'trigger = "ingress"', f'xoff = "{hd.HPCC["pfc_high_pkts"]} frames"',
                f'xon = "{hd.HPCC["pfc_low_pkts"]} frames"']:
        assert key in text, key
    args = dict(a.split("=") for a in hd.htsim_args("hpcc"))
    assert args == {k: str(hd.HPCC[k]) for k in ("t_us", "eta", "max_stage", "wai_b", "pfc_high_pkts", "pfc_low_pkts")}
    # htsim's W_AI is one MSS of payload
    assert hd.HPCC["wai_b"] == hd.payload_b("hpcc")["htsim"]


def test_swift_gets_htsims_targets_and_window_bounds():
    text = hd.cnsim_scenario("swift", "permutation")
    s = hd.SWIFT
    h_ps = round(s["base_target_us"] / s["hdiv"] * 1e6)
    for key in [f'base_target = "{s["base_target_us"]}us"', f'hop_scale = "{h_ps}ps"', f'fs_range = "{s["fs_range_us"]}us"',
                f'beta = {s["beta"]}', f'max_mdf = {s["max_mdf"]}', f'init_cwnd = {s["init_cwnd_pkts"]}',
                f'min_cwnd = {s["min_cwnd_b"] / hd.NET["packet_b"]}', f'ack_size = "{s["ack_b"]}B"']:
        assert key in text, key
    assert hd.htsim_args("swift") == [f"init_cwnd_pkts={s['init_cwnd_pkts']}", f"hdiv={s['hdiv']}"]
    assert "[flow_control" not in text


def test_dctcp_marks_at_htsims_fixed_threshold_without_pfc():
    text = hd.cnsim_scenario("dctcp", "incast")
    for key in ['ecn = "dctcp"', 'discipline = "threshold"', f'k = "{hd.DCTCP["mark_k_pkts"]} frames"',
                f'ack_size = "{hd.DCTCP["ack_b"]}B"', 'kind = "tcp-transfer"']:
        assert key in text, key
    assert hd.htsim_args("dctcp") == [] and "[flow_control" not in text


@pytest.mark.parametrize("case", list(hd.SCENARIOS))
def test_both_get_the_same_flows_on_the_same_paths(case):
    text = hd.cnsim_scenario("dctcp", case)
    flows = transport(text)
    lines = [tuple(map(int, l.split())) for l in hd.htsim_flows("dctcp", case).splitlines()]
    assert len(lines) == len(flows) == len(hd.flow_ends(case))
    half = hd.NET["k"] // 2
    for (src, dst, agg, core), f in zip(lines, flows):
        h, _e, a, *_ = f["path"]
        assert (f["path"][0], f["path"][-1]) == (f"H{src + 1}", f"H{dst + 1}") and agg == int(a[1:]) - 1
        assert core % half == agg % half        # a core htsim wires to that aggregation switch
    if case == "incast":
        assert {d for _, d, _, _ in lines} == {0} and len(lines) == 8
    else:
        n = hd.hosts()
        assert [(s, d) for s, d, _, _ in lines] == [(s, (s + n // 2) % n) for s in range(n)]


def test_the_command_matches_the_drivers_usage():
    usage = (ROOT / "scripts" / "peer" / "htsim_diff.cpp").read_text()
    positional = re.search(r"//\s+htsim_diff (\S+) (.*)\n//\s+(.*)\[KEY=VALUE", usage)
    names = [positional.group(1)] + positional.group(2).split() + positional.group(3).split()
    cmd = hd.htsim_command(Path("drv"), "hpcc", "incast", Path("f.flows"))
    assert len(cmd) - 1 - len(hd.htsim_args("hpcc")) == len(names)
    got = dict(zip(names, cmd[1:]))
    assert got["hpcc|swift|dctcp"] == "hpcc" and got["K"] == str(hd.NET["k"]) and got["FLOWS"] == "f.flows"
    assert got["PACKET_B"] == str(hd.NET["packet_b"]) and got["BOTTLENECK_HOST"] == "0"


def test_the_drivers_output_is_parsed():
    r = hd.parse_htsim(SAMPLE.read_text())
    assert r["proto"] == "hpcc" and r["n_flows"] == 8 == len(r["flows"]) and r["drops"] == 0
    assert [f["src"] for f in r["flows"]] == list(range(8, 16)) and all(f["dst"] == 0 for f in r["flows"])
    assert all(f["fct_us"] > 0 for f in r["flows"]) and len(r["queue_bytes"]) == 120
    m = hd.measures([f["fct_us"] for f in r["flows"]], [b / hd.NET["packet_b"] for b in r["queue_bytes"]])
    assert m["completion_us"] == max(f["fct_us"] for f in r["flows"])
    assert m["fct_median_us"] == statistics.median(f["fct_us"] for f in r["flows"])
    assert 0 < m["fct_jain"] < 1 and m["queue_p99_pkts"] >= m["queue_p50_pkts"] >= 0
    with pytest.raises(ValueError, match="not the output of htsim_diff"):
        hd.parse_htsim("Initial CWND is 25000\n")


def test_an_unfinished_flow_is_parsed_and_reported_as_a_disagreement():
    out = SAMPLE.read_text().replace("fct_us=622.000", "fct_us=-1.000")
    r = hd.parse_htsim(out)
    assert r["flows"][0]["fct_us"] is None
    m = hd.measures([f["fct_us"] for f in r["flows"]], None)
    rows = hd.rows("hpcc", "incast", {"completion_us": 1.0, "fct_median_us": 1.0, "fct_jain": 1.0}, m)
    assert rows == [{"protocol": "hpcc", "case": "incast", "metric": "unfinished flows", "cnsim": 0, "htsim": 1,
                     "agree": False}]


def test_percentiles_are_nearest_rank_over_the_window_to_the_completion():
    q = list(range(100))                         # one sample per sample_us, from time 0
    m = hd.measures([50.0, 60.0], q)             # completion at 60: samples 0 … 60
    assert (m["queue_p50_pkts"], m["queue_p99_pkts"]) == (30, 60)
    m = hd.measures([50.0, 60.0], q, queue_from=0.5)
    assert m["queue_p50_pkts"] == 45               # samples 30 … 60


def test_verdicts_inside_and_outside_the_tolerances():
    # completion: 10 % or 20 µs, whichever is larger
    assert hd.agrees("completion_us", 1090, 1000) and not hd.agrees("completion_us", 1110, 1000)
    assert hd.agrees("completion_us", 119, 100) and not hd.agrees("completion_us", 121, 100)
    # queue percentiles: 30 % or 5 packets
    assert hd.agrees("queue_p50_pkts", 4, 0) and not hd.agrees("queue_p50_pkts", 6, 0)
    assert hd.agrees("queue_p99_pkts", 64, 50) and not hd.agrees("queue_p99_pkts", 66, 50)
    assert hd.agrees("fct_jain", 0.96, 1.0) and not hd.agrees("fct_jain", 0.94, 1.0)
    c = {"completion_us": 1000.0, "fct_median_us": 900.0, "fct_jain": 0.99, "queue_p50_pkts": 17, "queue_p99_pkts": 66}
    h = {"completion_us": 999.0, "fct_median_us": 958.0, "fct_jain": 0.999, "queue_p50_pkts": 84, "queue_p99_pkts": 95}
    rows = hd.rows("dctcp", "incast", c, h)
    assert [r["metric"] for r in rows] == list(hd.TOLERANCES)
    assert [r["agree"] for r in rows] == [True, True, True, False, False]
    text = hd.table(rows)
    assert text.count("\n") == 2 + len(rows) and text.count("**differ**") == 2
    assert "| dctcp | incast | queue_p50_pkts | 17 | 84 | ±max(5, 30%) | **differ** |" in text


def test_the_per_flow_table_pairs_each_flows_fcts():
    ends = hd.flow_ends("incast")
    c = hd.measures([100.0 + i for i in range(len(ends))], None)
    h = hd.measures([200.0 + i for i in range(len(ends))], None)
    lines = hd.flow_table("swift", "incast", c, h).splitlines()
    assert len(lines) == len(ends) and lines[0] == "| swift | incast | H9→H1 | 100 | 200 |"
    assert hd.flow_table("swift", "incast", {"unfinished": 1}, h) == ""
