"""Pictures of a scenario's network: `draw_topology(scenario, out_png)`.

The graph comes from the engine's resolved scenario (`cnsim.check`), so defaults and `--set`
overrides are those the engine would run with. The layout is layered and needs no graph library:
sources on the left, switches in the middle in the order the data crosses them (chain order), and
receivers on the right. Switches are squares, hosts circles; a host's colour is the group it sends
to or belongs to. Drawn with matplotlib only (Agg canvas, no pyplot state).
"""

import re
import tomllib
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

UNICAST_COLOUR = "#7f7f7f"
IDLE_COLOUR = "#d9d9d9"
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
           "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79"]


# --- names -------------------------------------------------------------------------------------

def _split_number(x: str):
    """(prefix, number, digits) of a name with trailing digits, or None (names.rs `split`)."""
    i = len(x)
    while i > 0 and x[i - 1] in "0123456789":
        i -= 1
    digits = x[i:]
    if not digits or int(digits) >= 2**64:
        return None
    return x[:i], int(digits), len(digits)


def expand_name(s: str) -> list[str]:
    """Expand one name or range exactly as the engine does (crates/cnsim-engine/src/scenario/names.rs).

    "S1..S3" is S1, S2, S3; "H08..H10" keeps the first number's zero padding; a plain name is itself.
    """
    if ".." not in s:
        return [s]
    a, b = s.split("..", 1)
    pa, pb = _split_number(a), _split_number(b)
    if pa and pb and pa[0] == pb[0] and pa[1] <= pb[1] and pb[1] - pa[1] < 100_000:
        prefix, na, wa = pa
        nb = pb[1]
        pad = wa if a.endswith(f"0{na}") or (na == 0 and wa > 1) else 0
        return [f"{prefix}{str(i).zfill(pad)}" for i in range(na, nb + 1)]
    raise ValueError(f'bad name range "{s}": expected e.g. "S1..S6" (same prefix, ascending numbers)')


def expand_names(value) -> list[str]:
    """A names value (one string or a list of strings and ranges) as the list of names."""
    items = [value] if isinstance(value, str) else list(value)
    return [name for item in items for name in expand_name(item)]


def _natural(name: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


# --- graph -------------------------------------------------------------------------------------

@dataclass
class Topology:
    """The network of a resolved scenario, with every range expanded."""

    switches: list[str]
    hosts: list[str]
    links: list[tuple[str, str, str]]                  # (a, b, rate) in file order
    groups: dict[str, list[str]]                       # group -> members, in file order
    flows: list[dict] = field(default_factory=list)    # {source, to, mode, receivers}
    cp: dict = field(default_factory=dict)             # the resolved [cp] table

    def neighbours(self) -> dict[str, list[str]]:
        adj: dict[str, list[str]] = {n: [] for n in self.switches + self.hosts}
        for a, b, _ in self.links:
            adj[a].append(b)
            adj[b].append(a)
        return adj


def load_topology(scenario, set=None) -> Topology:
    """Build the `Topology` of a scenario (a path or TOML text) from the engine's resolved form."""
    from .api import check

    data = tomllib.loads(check(scenario, set=set))
    default_rate = data.get("defaults", {}).get("link", {}).get("rate", "1Gbps")
    switches = [n for entry in data.get("switch", []) for n in expand_names(entry["names"])]
    hosts = [n for entry in data.get("host", []) for n in expand_names(entry["names"])]
    links = []
    for entry in data.get("link", []):
        left, right = (expand_names(end) for end in entry["between"])
        links += [(a, b, entry.get("rate", default_rate)) for a in left for b in right]
    groups = {g["name"]: expand_names(g["members"]) for g in data.get("group", [])}
    flows = []
    for entry in data.get("flow", []):
        to = entry["to"]
        for source in expand_names(entry["from"]):
            receivers = [m for m in groups[to] if m != source] if to in groups else [to]
            mode = entry.get("mode", "multicast" if to in groups else "unicast")
            flows.append({"source": source, "to": to, "mode": mode, "receivers": receivers})
    return Topology(switches, hosts, links, groups, flows, data.get("cp", {}))


def _distances(start: str, adj: dict, switches: set) -> dict[str, int]:
    """Hop distances from `start`; routes pass through switches only (hosts never forward)."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        u = todo.popleft()
        if u != start and u not in switches:
            continue
        for v in adj[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist


def _switch_depths(topo: Topology) -> dict[str, int]:
    """Column of each switch: the longest chain of switches the data crosses before it.

    A switch-to-switch link is oriented the way some flow's frames cross it on a shortest path;
    the depth is the longest path in that DAG. Switches no flow orients (or a cyclic orientation)
    fall back to hop counts from switches already placed.
    """
    adj, sw = topo.neighbours(), set(topo.switches)
    cache: dict[str, dict] = {}

    def dist(n):
        if n not in cache:
            cache[n] = _distances(n, adj, sw)
        return cache[n]

    edges: set[tuple[str, str]] = set()
    sw_links = [(a, b) for a, b, _ in topo.links if a in sw and b in sw]
    for flow in topo.flows:
        ds = dist(flow["source"])
        for r in flow["receivers"]:
            if r not in ds:
                continue
            dr = dist(r)
            for a, b in sw_links:
                for u, v in ((a, b), (b, a)):
                    if u in ds and v in dr and ds[u] + 1 + dr[v] == ds[r]:
                        edges.add((u, v))
    # Longest-path layering (Kahn); give up on the DAG if it has a cycle.
    preds = {n: [u for u, v in edges if v == n] for n in topo.switches}
    depth: dict[str, int] = {}
    in_dag = {n for e in edges for n in e}
    remaining = set(in_dag)
    while remaining:
        ready = [n for n in remaining if all(p in depth for p in preds[n])]
        if not ready:
            depth = {}
            break
        for n in ready:
            depth[n] = max((depth[p] + 1 for p in preds[n]), default=0)
            remaining.discard(n)
    # Everything else: breadth-first from what is placed (or from the first switch of a component).
    for start in sorted(topo.switches, key=_natural):
        if not depth:
            depth[start] = 0
        todo = deque(n for n in topo.switches if n in depth)
        while todo:
            u = todo.popleft()
            for v in adj[u]:
                if v in sw and v not in depth:
                    depth[v] = depth[u] + 1
                    todo.append(v)
        if start not in depth:
            depth[start] = 0
    return depth


def layout(topo: Topology) -> dict[str, tuple[float, float]]:
    """(x, y) of every node: column 0 sources, 1..L switches, L+1 receivers; rows grouped by switch."""
    depth = _switch_depths(topo)
    adj, sw = topo.neighbours(), set(topo.switches)
    senders = {f["source"] for f in topo.flows}
    order = {s: i for i, s in enumerate(sorted(topo.switches, key=lambda s: (depth[s], _natural(s))))}
    group_index = {g: i for i, g in enumerate(topo.groups)}

    def host_key(h):
        attached = [n for n in adj[h] if n in sw]
        where = order[attached[0]] if attached else len(order)
        groups = [group_index[f["to"]] for f in topo.flows if f["source"] == h and f["to"] in group_index]
        groups += [group_index[g] for g, members in topo.groups.items() if h in members]
        return (where, min(groups, default=len(group_index)), _natural(h))

    left = sorted((h for h in topo.hosts if h in senders), key=host_key)
    right = sorted((h for h in topo.hosts if h not in senders), key=host_key)
    n_cols = max(depth.values(), default=-1) + 1
    dx = 2.0
    pos: dict[str, tuple[float, float]] = {}
    for column, x in ((left, 0.0), (right, dx * (n_cols + 1))):
        for row, h in enumerate(column):
            pos[h] = (x, (len(column) - 1) / 2 - row)
    # A switch sits at the mean height of its hosts, else of its placed switch neighbours.
    for s in sorted(topo.switches, key=lambda s: order[s]):
        ys = [pos[n][1] for n in adj[s] if n in pos and n not in sw]
        pos[s] = (dx * (depth[s] + 1), sum(ys) / len(ys) if ys else 0.0)
    for s in sorted(topo.switches, key=lambda s: order[s]):
        if not any(n not in sw for n in adj[s]):
            ys = [pos[n][1] for n in adj[s] if n in sw]
            pos[s] = (pos[s][0], sum(ys) / len(ys) if ys else 0.0)
    # Switches of one column must not overlap.
    for col in {depth[s] for s in topo.switches}:
        same = sorted((s for s in topo.switches if depth[s] == col), key=lambda s: -pos[s][1])
        for upper, lower in zip(same, same[1:]):
            if pos[upper][1] - pos[lower][1] < 1.0:
                pos[lower] = (pos[lower][0], pos[upper][1] - 1.0)
    return pos


# --- drawing -----------------------------------------------------------------------------------

def _colours(topo: Topology) -> dict[str, str]:
    group_colour = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(topo.groups)}
    colour = {h: IDLE_COLOUR for h in topo.hosts}
    for g, members in reversed(list(topo.groups.items())):   # the first group a host is in wins
        for m in members:
            colour[m] = group_colour[g]
    for f in reversed(topo.flows):                            # a source: the first group it sends to
        if f["to"] in group_colour:
            colour[f["source"]] = group_colour[f["to"]]
        else:
            colour[f["source"]] = UNICAST_COLOUR
            if colour.get(f["to"]) == IDLE_COLOUR:
                colour[f["to"]] = UNICAST_COLOUR
    return colour


def _ranges(names: list[str]) -> str:
    """['A1', 'A2', 'A3', 'R5', 'R6'] -> 'A1..A3, R5, R6' (for legends; runs of three or more)."""
    out, run = [], []
    for n in names:
        if run:
            p0, p1 = _split_number(run[-1]), _split_number(n)
            if p0 and p1 and p0[0] == p1[0] and p1[1] == p0[1] + 1:
                run.append(n)
                continue
            out.append(run)
        run = [n]
    if run:
        out.append(run)
    return ", ".join(f"{r[0]}..{r[-1]}" if len(r) > 2 else ", ".join(r) for r in out)


def draw_topology(scenario, out_png, *, set=None, title: str | None = None, dpi: int = 100) -> Path:
    """Draw the network of `scenario` (path or TOML text) into the PNG `out_png`; return its path."""
    topo = load_topology(scenario, set=set)
    pos = layout(topo)
    colour = _colours(topo)
    set_ = frozenset(topo.switches)
    senders = {f["source"] for f in topo.flows}

    rows = max(sum(1 for h in topo.hosts if h in senders), sum(1 for h in topo.hosts if h not in senders), 3)
    n_cols = max(x for x, _ in pos.values()) / 2.0 + 1 if pos else 1
    fig = Figure(figsize=(1.5 + 1.3 * n_cols, 1.4 + 0.3 * rows))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_axis_off()

    rates = {rate for _, _, rate in topo.links}
    for a, b, rate in topo.links:
        (xa, ya), (xb, yb) = pos[a], pos[b]
        core = a in set_ and b in set_
        ax.plot([xa, xb], [ya, yb], color="black" if core else "#9a9a9a",
                lw=2.2 if core else 0.8, zorder=1, solid_capstyle="round")
        if core and len(rates) > 1:
            ax.text((xa + xb) / 2, (ya + yb) / 2 + 0.25, rate, ha="center", fontsize=7, zorder=3)

    for h in topo.hosts:
        x, y = pos[h]
        ax.scatter([x], [y], s=110, marker="o", color=colour[h], edgecolors="black",
                   linewidths=0.6, zorder=2)
        ha, off = ("right", -0.22) if h in senders else ("left", 0.22)
        ax.text(x + off, y, h, ha=ha, va="center", fontsize=8, zorder=3)
    for s in topo.switches:
        x, y = pos[s]
        ax.scatter([x], [y], s=420, marker="s", color="white", edgecolors="black",
                   linewidths=1.4, zorder=2)
        ax.text(x, y + 0.45, s, ha="center", va="bottom", fontsize=8, fontweight="bold", zorder=3,
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})

    handles = []
    for i, (g, members) in enumerate(topo.groups.items()):
        flows = [f for f in topo.flows if f["to"] == g]
        modes = sorted({f["mode"] for f in flows})
        label = f"{g}: {_ranges([f['source'] for f in flows]) or 'no source'} → {_ranges(members)}"
        if modes:
            label += f" ({', '.join(modes)})"
        handles.append(ax.scatter([], [], s=60, marker="o", color=PALETTE[i % len(PALETTE)],
                                  edgecolors="black", linewidths=0.6, label=label))
    if any(f["to"] not in topo.groups for f in topo.flows):
        handles.append(ax.scatter([], [], s=60, marker="o", color=UNICAST_COLOUR,
                                  edgecolors="black", linewidths=0.6, label="unicast"))
    handles.append(ax.scatter([], [], s=80, marker="s", color="white", edgecolors="black",
                              linewidths=1.2, label="switch"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=1,
              fontsize=7, frameon=False)

    caption = []
    if len(rates) == 1:
        caption.append(f"all links {next(iter(rates))}")
    if topo.cp.get("protocol", "none") != "none":
        caption.append(f"{topo.cp['protocol'].upper()} CP on every switch output queue "
                       f"(Qeq {topo.cp.get('qeq', '?')})")
    name = title if title is not None else (Path(scenario).name if "\n" not in str(scenario) else "")
    ax.set_title(name + ("\n" if name and caption else "") + "; ".join(caption), fontsize=9)

    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    if xs:
        ax.set_xlim(min(xs) - 1.0, max(xs) + 1.0)
        ax.set_ylim(min(ys) - 0.6, max(ys) + 1.0)
    out = Path(out_png)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=dpi, bbox_inches="tight")
    return out
