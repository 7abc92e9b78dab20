"""Scenario generators for topologies too large to write by hand, as TOML text.

`fat_tree(k)`: the k-ary fat tree (Al-Fares et al. 2008): k pods of k/2 edge and k/2 aggregation
switches, (k/2)² core switches, k³/4 hosts; with permutation traffic (host i sends to the host
k³/8 positions on, so every flow crosses the core). Switches and hosts are numbered so that name
ranges keep the file short: E1.., A1.., C1.., H1... Routing is ECMP (`[routing] ecmp = true`) unless
`ecmp=False`: each flow is hashed onto one of the (k/2)² core paths between pods, rather than all
of them sharing the smallest-named one.

`cc=NAME` runs the fabric under one congestion control: a *fabric preset* that a protocol
declares in its registration (the engine's `slots::register::Fabric`), read here by name and
written into the queues, the top-level tables and every flow or workload. `fabric_presets()` lists
them; docs/scenarios.md ("One fabric, every congestion control") says what each writes.
"""

import json
import tomllib

from . import _core
from .scenario import to_toml

# The longest path of a k-ary fat tree (k ≥ 2): host, edge, aggregation, core, aggregation, edge,
# host — six links. A preset's "{base_rtt}" is this path's base RTT.
LONGEST_PATH_HOPS = 6
BASE_RTT = "{base_rtt}"


def fabric_presets() -> dict[str, dict]:
    """The engine's fabric presets by name: `protocol` (whose registration declares it), `doc`, and
    `toml` (its tables `queue`, `tables`, `flow`, `workload`, parsed)."""
    out = {}
    for p in json.loads(_core.fabric_presets()):
        out[p["name"]] = {"protocol": p["protocol"], "doc": p["doc"], "toml": tomllib.loads(p["toml"]),
                          "needs_base_rtt": p["needs_base_rtt"]}
    return out


def _filled(value, base_rtt: str | None):
    """`value` with every string "{base_rtt}" replaced by `base_rtt`."""
    if isinstance(value, dict):
        return {k: _filled(v, base_rtt) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, base_rtt) for v in value]
    return base_rtt if value == BASE_RTT else value


def fabric(cc: str | None, *, rate: str, delay: str, overhead: str | None) -> dict:
    """Preset `cc`'s tables (`queue`, `tables`, `flow`, `workload`; {} for None) for a fat tree of
    links of `rate`, `delay` and `overhead`, its "{base_rtt}" filled in with the fabric's longest
    base RTT (`_core.fabric_base_rtt`: a full data frame's wire time and propagation at each hop
    out, an acknowledgement's back)."""
    if cc is None:
        return {}
    presets = fabric_presets()
    if cc not in presets:
        raise ValueError(f"cc must be one of {', '.join(sorted(presets))}, not {cc!r}")
    base_rtt = _core.fabric_base_rtt(cc, rate, delay, overhead, LONGEST_PATH_HOPS)
    return _filled(presets[cc]["toml"], base_rtt)


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
    preset = fabric(cc, rate=rate, delay=delay, overhead=overhead)
    own = preset.get("queue", {})
    if queue and "discipline" in own and queue.get("discipline", own["discipline"]) != own["discipline"]:
        raise ValueError(f"queue and cc={cc!r} both set the queues' discipline: choose one")
    queue = {"capacity": capacity, **own, **(queue or {})}
    link = {"rate": rate, "delay": delay, **({"overhead": overhead} if overhead else {})}
    doc: dict = {
        "simulation": {"duration": duration, "record_interval": "0s"},
        "defaults": {"link": link, "queue": queue},
        "routing": {"ecmp": ecmp},
        **preset.get("tables", {}),
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
        doc["workload"] = [{"hosts": [f"H1..H{n_hosts}"], "sizes": workload, "load": load, "start": "0s",
                            "stop": duration, "traffic": "transfer", **preset.get("workload", {})}]
    else:
        traffic = flow if flow is not None else {"traffic": {"kind": "cbr", "rate": traffic_rate},
                                                 **preset.get("flow", {})}
        doc["flow"] = [{"from": f"H{h + 1}", "to": f"H{(h + n_hosts // 2) % n_hosts + 1}", **traffic}
                       for h in range(n_hosts)]
    return to_toml(doc)
