"""Scenario generators for topologies too large to write by hand, as TOML text.

`fat_tree(k)`: the k-ary fat tree (Al-Fares et al. 2008): k pods of k/2 edge and k/2 aggregation
switches, (k/2)² core switches, k³/4 hosts; with permutation traffic (host i sends to the host
k³/8 positions on, so every flow crosses the core). Switches and hosts are numbered so that name
ranges keep the file short: E1.., A1.., C1.., H1... Routing is ECMP (`[routing] ecmp = true`) unless
`ecmp=False`: each flow is hashed onto one of the (k/2)² core paths between pods, rather than all
of them sharing the smallest-named one.
"""


def fat_tree(k: int, *, rate: str = "10Gbps", delay: str = "1us", duration: str = "1ms",
             traffic_rate: str = "1Gbps", qcn: bool = False, capacity: str = "100 frames",
             ecmp: bool = True, dcqcn: bool = False, workload: str | None = None, load: float = 0.5) -> str:
    """A k-ary fat tree (k even, ≥ 2), routed with ECMP unless `ecmp=False`, with permutation traffic
    — or, with `workload` (a shipped size distribution such as "web-search"), Poisson arrivals of
    transfers at `load` of every host's link. `dcqcn`: DCQCN's marking on every queue, its RP and NP
    on every flow, and PFC (a RoCEv2 fabric)."""
    if not isinstance(k, int) or k < 2 or k % 2:
        raise ValueError(f"k must be an even integer ≥ 2, got {k!r}")
    half = k // 2
    n_edge = n_agg = k * half
    n_core = half * half
    n_hosts = k * half * half
    marking = ', discipline = "dcqcn"' if dcqcn else ""
    lines = [
        "[simulation]", f'duration = "{duration}"', 'record_interval = "0s"', "",
        "[defaults]", f'link = {{ rate = "{rate}", delay = "{delay}" }}', f'queue = {{ capacity = "{capacity}"{marking} }}', "",
        "[routing]", f"ecmp = {'true' if ecmp else 'false'}", "",
    ]
    if dcqcn:
        lines += ["[flow_control.pfc]", ""]
    if qcn:
        lines += ["[cp.qcn]", ""]
    lines += ["[[switch]]", f'names = ["E1..E{n_edge}", "A1..A{n_agg}", "C1..C{n_core}"]',
              "[[host]]", f'names = "H1..H{n_hosts}"', ""]
    for e in range(n_edge):
        pod = e // half
        hosts = f"H{e * half + 1}..H{(e + 1) * half}"
        aggs = f"A{pod * half + 1}..A{(pod + 1) * half}"
        lines += ["[[link]]", f'between = ["E{e + 1}", ["{hosts}", "{aggs}"]]']
    for a in range(n_agg):
        i = a % half
        lines += ["[[link]]", f'between = ["A{a + 1}", "C{i * half + 1}..C{(i + 1) * half}"]']
    rp = "rp = { qcn = {} }" if qcn else "rp = { dcqcn = {} }" if dcqcn else ""
    if workload:
        lines += ["[[workload]]", f'hosts = ["H1..H{n_hosts}"]', f'sizes = "{workload}"', f"load = {load}",
                  'start = "0s"', f'stop = "{duration}"',
                  'traffic = "transfer"', rp]
        return "\n".join(lines) + "\n"
    for h in range(n_hosts):
        dst = (h + n_hosts // 2) % n_hosts
        lines += ["[[flow]]", f'from = "H{h + 1}"', f'to = "H{dst + 1}"',
                  f'traffic = {{ kind = "cbr", rate = "{traffic_rate}" }}', rp]
    return "\n".join(lines) + "\n"
