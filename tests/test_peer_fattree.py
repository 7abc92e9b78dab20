"""scripts/peer_fattree.py's cnsim side, without htsim: the scenario it runs is the DCTCP
permutation it documents, and the paths it hands htsim are cnsim's own, renamed to htsim's wiring
(htsim's aggregation switch at pod position i reaches cores i, i + k/2, …)."""

import importlib.util
from pathlib import Path

import cnsim

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
