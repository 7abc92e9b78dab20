"""Scenario generators for topologies too large to write by hand, as TOML text.

`fat_tree(k)`: the k-ary fat tree (Al-Fares et al. 2008): k pods of k/2 edge and k/2 aggregation
switches, (k/2)² core switches, k³/4 hosts; with permutation traffic (host i sends to the host
k³/8 positions on, so every flow crosses the core). Switches and hosts are numbered so that name
ranges keep the file short: E1.., A1.., C1.., H1... Routing is ECMP (`[routing] ecmp = true`) unless
`ecmp=False`: each flow is hashed onto one of the (k/2)² core paths between pods, rather than all
of them sharing the smallest-named one.

`cc=NAME` runs the fabric under one congestion control: it writes the scenario key `[fabric] cc =
NAME` (and `longest_path`, the links of the fabric's longest path), and the engine applies that
*fabric preset*, which a protocol declares in its registration (`slots::register::Fabric`), to the
queues, the top-level tables and every flow or workload when it loads the file. `fabric_presets()`
lists them; docs/scenarios.md ("One fabric, every congestion control") says what each writes.
"""

import json
import tomllib

from . import _core
from .scenario import to_toml

# The longest path of a k-ary fat tree (k ≥ 2): host, edge, aggregation, core, aggregation, edge,
# host — six links (`[fabric] longest_path`). A preset's "{base_rtt}" is this path's base RTT.
LONGEST_PATH_HOPS = 6


def fabric_presets() -> dict[str, dict]:
    """The engine's fabric presets by name: `protocol` (whose registration declares it), `doc`, and
    `toml` (its tables `queue`, `tables`, `flow`, `workload`, parsed)."""
    out = {}
    for p in json.loads(_core.fabric_presets()):
        out[p["name"]] = {"protocol": p["protocol"], "doc": p["doc"], "toml": tomllib.loads(p["toml"]),
                          "needs_base_rtt": p["needs_base_rtt"]}
    return out


def fat_tree(k: int, *, rate: str = "10Gbps", delay: str = "1us", duration: str = "1ms",
             traffic_rate: str = "1Gbps", capacity: str = "100 frames", ecmp: bool = True,
             cc: str | None = None, workload: str | None = None, load: float = 0.5,
             queue: dict | None = None, flow: dict | None = None, overhead: str | None = None) -> str:
    """A k-ary fat tree (k even, ≥ 2), routed with ECMP unless `ecmp=False`, with permutation traffic
    (CBR at `traffic_rate`) — or, with `workload` (a shipped size distribution such as
    "web-search"), Poisson arrivals of transfers at `load` of every host's link. `cc`: a fabric
    preset's name (`fabric_presets()`: "qcn", "dcqcn", "dctcp", "hpcc", "timely", "swift"), the one
    key that switches the fabric's congestion control. `queue`: keys added to every queue, over the
    preset's (a discipline and its table). `flow`: the keys of every permutation flow but its ends,
    in place of the CBR traffic (not with `cc` or `workload`). `overhead`: the links' wire overhead."""
    if not isinstance(k, int) or k < 2 or k % 2:
        raise ValueError(f"k must be an even integer ≥ 2, got {k!r}")
    half = k // 2
    n_edge = n_agg = k * half
    n_core = half * half
    n_hosts = k * half * half
    if flow is not None and (workload or cc):
        raise ValueError("flow gives the permutation's flows: not with workload or cc")
    presets = fabric_presets()
    if cc is not None and cc not in presets:
        raise ValueError(f"cc must be one of {', '.join(sorted(presets))}, not {cc!r}")
    own = presets[cc]["toml"] if cc is not None else {}
    preset_queue = own.get("queue", {})
    if queue and "discipline" in preset_queue and queue.get("discipline", preset_queue["discipline"]) != preset_queue["discipline"]:
        raise ValueError(f"queue and cc={cc!r} both set the queues' discipline: choose one")
    queue = {"capacity": capacity, **(queue or {})}
    link = {"rate": rate, "delay": delay, **({"overhead": overhead} if overhead else {})}
    doc: dict = {
        "simulation": {"duration": duration, "record_interval": "0s"},
        # The congestion control: the engine writes the preset's keys where the file has none.
        **({"fabric": {"cc": cc, "longest_path": LONGEST_PATH_HOPS}} if cc is not None else {}),
        "defaults": {"link": link, "queue": queue},
        "routing": {"ecmp": ecmp},
        "switch": [{"names": [f"E1..E{n_edge}", f"A1..A{n_agg}", f"C1..C{n_core}"]}],
        "host": [{"names": f"H1..H{n_hosts}"}],
        "link": [],
    }
    for e in range(n_edge):
        pod = e // half
        hosts = f"H{e * half + 1}..H{(e + 1) * half}"
        aggs = f"A{pod * half + 1}..A{(pod + 1) * half}"
        doc["link"].append({"between": [f"E{e + 1}", [hosts, aggs]]})
    for a in range(n_agg):
        i = a % half
        doc["link"].append({"between": [f"A{a + 1}", f"C{i * half + 1}..C{(i + 1) * half}"]})
    if workload:
        # Without `traffic`, the engine's default ("transfer") or the preset's.
        doc["workload"] = [{"hosts": [f"H1..H{n_hosts}"], "sizes": workload, "load": load, "start": "0s",
                            "stop": duration}]
    else:
        cbr = {} if "traffic" in own.get("flow", {}) else {"traffic": {"kind": "cbr", "rate": traffic_rate}}
        traffic = flow if flow is not None else cbr
        doc["flow"] = [{"from": f"H{h + 1}", "to": f"H{(h + n_hosts // 2) % n_hosts + 1}", **traffic}
                       for h in range(n_hosts)]
    return to_toml(doc)
