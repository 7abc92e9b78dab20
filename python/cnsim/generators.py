"""Scenario generators for topologies too large to write by hand, as TOML text.

`fat_tree(k)`: the k-ary fat tree (Al-Fares et al. 2008): k pods of k/2 edge and k/2 aggregation
switches, (k/2)² core switches, k³/4 hosts; with permutation traffic (host i sends to the host
k³/8 positions on, so every flow crosses the core). Switches and hosts are numbered so that name
ranges keep the file short: E1.., A1.., C1.., H1... Routing is ECMP (`[routing] ecmp = true`) unless
`ecmp=False`: each flow is hashed onto one of the (k/2)² core paths between pods, rather than all
of them sharing the smallest-named one.
"""

from .scenario import to_toml


def fat_tree(k: int, *, rate: str = "10Gbps", delay: str = "1us", duration: str = "1ms",
             traffic_rate: str = "1Gbps", qcn: bool = False, capacity: str = "100 frames",
             ecmp: bool = True, dcqcn: bool = False, workload: str | None = None, load: float = 0.5,
             queue: dict | None = None, flow: dict | None = None, overhead: str | None = None) -> str:
    """A k-ary fat tree (k even, ≥ 2), routed with ECMP unless `ecmp=False`, with permutation traffic
    — or, with `workload` (a shipped size distribution such as "web-search"), Poisson arrivals of
    transfers at `load` of every host's link. `dcqcn`: DCQCN's marking on every queue, its RP and NP
    on every flow, and PFC (a RoCEv2 fabric). `queue`: keys added to every queue (a discipline and its
    table). `flow`: the keys of every permutation flow but its ends, in place of the CBR traffic at
    `traffic_rate`. `overhead`: the links' wire overhead."""
    if not isinstance(k, int) or k < 2 or k % 2:
        raise ValueError(f"k must be an even integer ≥ 2, got {k!r}")
    half = k // 2
    n_edge = n_agg = k * half
    n_core = half * half
    n_hosts = k * half * half
    if queue and dcqcn:
        raise ValueError("queue and dcqcn both set the queues' discipline: choose one")
    if flow is not None and (workload or qcn or dcqcn):
        raise ValueError("flow gives the permutation's flows: not with workload, qcn or dcqcn")
    queue = {"capacity": capacity, **({"discipline": "dcqcn"} if dcqcn else {}), **(queue or {})}
    link = {"rate": rate, "delay": delay, **({"overhead": overhead} if overhead else {})}
    doc: dict = {
        "simulation": {"duration": duration, "record_interval": "0s"},
        "defaults": {"link": link, "queue": queue},
        "routing": {"ecmp": ecmp},
        **({"flow_control": {"pfc": {}}} if dcqcn else {}),
        **({"cp": {"qcn": {}}} if qcn else {}),
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
    rp = {"rp": {"qcn": {}}} if qcn else {"rp": {"dcqcn": {}}} if dcqcn else {}
    if workload:
        doc["workload"] = [{"hosts": [f"H1..H{n_hosts}"], "sizes": workload, "load": load, "start": "0s",
                            "stop": duration, "traffic": "transfer", **rp}]
    else:
        traffic = flow if flow is not None else {"traffic": {"kind": "cbr", "rate": traffic_rate}, **rp}
        doc["flow"] = [{"from": f"H{h + 1}", "to": f"H{(h + n_hosts // 2) % n_hosts + 1}", **traffic}
                       for h in range(n_hosts)]
    return to_toml(doc)
