"""scripts/peer_fattree.py's cnsim side, without htsim: the scenario it runs is the DCTCP
permutation it documents, and the paths it hands htsim are cnsim's own, renamed to htsim's wiring
(htsim's aggregation switch at pod position i reaches cores i, i + k/2, …)."""

import importlib.util
from pathlib import Path

import cnsim
import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("peer_fattree", ROOT / "scripts" / "peer_fattree.py")
peer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(peer)


def test_the_paths_given_to_htsim_are_cnsims_renamed():
    k, half = 8, 4
    text = peer.cnsim_scenario(k, 100)
    flows = cnsim.describe(text)["flows"]
    lines = [tuple(map(int, l.split())) for l in peer.htsim_paths(k, text).splitlines()]
    assert len(lines) == len(flows) == k ** 3 // 4
    cores = {}
    for (src, agg, core), f in zip(lines, flows):
        h, _e, a, c, *_ = f["path"]
        assert src == int(h[1:]) - 1 and agg == int(a[1:]) - 1
        assert agg // half == src // (half * half)        # the source's pod
        assert core % half == agg % half                   # a core htsim wires to that aggregation switch
        cores.setdefault(c, set()).add(core)
    # one htsim core for each of cnsim's: flows that share a core in cnsim share it in htsim
    assert all(len(v) == 1 for v in cores.values()) and len({min(v) for v in cores.values()}) == len(cores)


def test_the_cnsim_scenario_is_the_documented_dctcp_permutation():
    text = peer.cnsim_scenario(4, 200)
    st = cnsim.run(text, figures=False).stats
    assert st["frames"]["data_delivered"] > 0 and st["frames"]["data_dropped"] == 0
    switches = st["queues"]  # the switches' output queues: every one marks at K, and some did
    assert all(q["aqm"] == "threshold" for q in switches) and sum(q["threshold_marks"] for q in switches) > 0
    # every host's NIC queue is overridden: 1 000 frames, drop-tail (no discipline named)
    port = text[text.index("[[port]]"):]
    assert all(f'"H{h + 1}>E{h // 2 + 1}"' in port for h in range(16)) and "discipline" not in port
    for key in ['ecn = "dctcp"', 'overhead = "0B"', 'k = "15 frames"', 'capacity = "1000 frames"', 'ack_size = "40B"']:
        assert key in text, key


def test_the_incast_is_pfc_alone_from_the_last_pod_to_the_first_host():
    k = 8
    text = peer.cnsim_incast_scenario(k, 300)
    flows = cnsim.describe(text)["flows"]
    dst, srcs = peer.incast_ends(k)
    assert len(flows) == peer.INCAST["senders"] == len(srcs)
    for f, s in zip(flows, srcs):
        # every sender is outside the destination's pod: six hops, through a core switch
        assert f["path"][0] == f"H{s + 1}" and f["path"][-1] == f"H{dst + 1}" and len(f["path"]) == 7
        assert f["path"][3].startswith("C")
    st = cnsim.run(text, figures=False).stats
    fr = st["frames"]
    # PFC held the senders back: pauses sent, nothing lost, no congestion feedback (no rate control)
    assert fr["data_delivered"] > 0 and fr["data_dropped"] == 0 and fr["pause_sent"] > 0
    assert fr["feedback_sent"] == 0 and not st["rps"]
    # the senders offer `overload` times the destination's link
    pace = peer.incast_pace_mbps() * 1e6
    assert pace * len(srcs) == peer.INCAST["overload"] * peer.PARAMS["rate_gbps"] * 1e9
    for key in ['[flow_control.pfc]', 'trigger = "ingress"', 'xoff = "15 frames"', 'xon = "12 frames"',
                f'rate = "{peer.incast_pace_mbps():g}Mbps"', 'overhead = "0B"', 'capacity = "100 frames"']:
        assert key in text, key
    assert "dcqcn" not in text and "rp =" not in text and all(not f["rp"] for f in flows)


def test_an_incast_within_the_destinations_pod_is_refused():
    with pytest.raises(ValueError, match="outside the destination's pod"):
        peer.incast_ends(4)


def test_htsim_is_given_the_incasts_ends_and_parameters():
    p, i = peer.PARAMS, peer.INCAST
    dst, srcs = peer.incast_ends(8)
    for rate_control, model in ((False, "roce"), (True, "hpcc")):
        cmd = peer.incast_commands(8, 100, ROOT / "target", Path("htsim_incast"), Path("run_file"), rate_control)
        assert cmd["htsim"][1:] == [model, "8", "100", str(p["rate_gbps"]), str(p["delay_ns"]), str(p["packet_b"]),
                                    str(p["queue_pkts"]), str(i["pfc_high_pkts"]), str(i["pfc_low_pkts"]),
                                    f"{peer.incast_pace_mbps(rate_control):g}", str(dst), *map(str, srcs)]
    # with rate control both start at the link's rate; without, at `overload` times the fair share
    assert peer.incast_pace_mbps(True) == p["rate_gbps"] * 1e3 > peer.incast_pace_mbps(False)


def test_the_incast_with_rate_control_is_dcqcn_over_pfc():
    text = peer.cnsim_incast_scenario(8, 300, rate_control=True)
    flows = cnsim.describe(text)["flows"]
    assert len(flows) == peer.INCAST["senders"] and all(f["rp"] for f in flows)
    st = cnsim.run(text, figures=False).stats
    fr = st["frames"]
    assert fr["data_delivered"] > 0 and fr["data_dropped"] == 0 and fr["pause_sent"] > 0
    assert len(st["rps"]) == len(flows) and all(q["aqm"] == "dcqcn" for q in st["queues"])
    for key in ['[flow_control.pfc]', 'xoff = "15 frames"', 'discipline = "dcqcn"', 'rate = "10000Mbps"']:
        assert key in text, key


def test_the_dumbbell_is_the_engines_benchmark_without_overhead_and_htsim_is_given_its_links():
    import tomllib
    from cnsim import _core
    from cnsim.analysis import parse_rate
    n = 10
    text = peer.cnsim_dumbbell_scenario(n, 2000)
    bench = _core.bench_scenario("cbr", n, False, 0.002)
    # the engine's benchmark, only the wire overhead removed
    assert text.replace(', overhead = "0B"', "") == bench and 'overhead = "0B"' in text
    flows = cnsim.describe(text)["flows"]
    assert len(flows) == n and all(len(f["path"]) == 3 for f in flows)   # source, switch, sink: two hops
    rate, delay, access, bottleneck, total, stagger = map(float, peer.htsim_dumbbell_args(text))
    st = cnsim.run(text, figures=False).stats
    assert st["frames"]["data_delivered"] > 0
    # what htsim is given is what the scenario holds: 10 Gb/s, 1 µs links, the two queues' capacities,
    # the sources' total rate, and start times i · stagger / n
    assert (rate, delay) == (10.0, 1000.0) and (access, bottleneck) == (1000.0, 100.0)
    flow = tomllib.loads(text)["flow"][0]
    assert total * 1e9 / n == pytest.approx(parse_rate(flow["traffic"]["rate"]))
    starts = [peer.parse_duration(s) for s in flow["start"]]
    assert starts == pytest.approx([stagger * 1e-6 * i / n for i in range(n)], abs=1e-15)
