"""Pictures of a scenario's network: `draw_topology(scenario, out_png)`.

The graph comes from the engine's description of the built network (`cnsim.describe`): node names,
links, and the route or multicast tree of every flow as the engine computed them (links no route
crosses are dotted), with the defaults and `--set` overrides the engine would run with. The layout is layered and needs no graph library:
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


def _natural(name: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


# --- graph -------------------------------------------------------------------------------------

@dataclass
class Topology:
    """The network of a scenario as the engine builds it (`cnsim.describe`): names expanded and
    routes chosen by the engine, never re-computed here."""

    switches: list[str]
    hosts: list[str]
    links: list[tuple[str, str, str]]                  # (a, b, rate label)
    groups: dict[str, list[str]]                       # group -> its receivers, in flow order
    flows: list[dict] = field(default_factory=list)    # the engine's flows (path or tree)
    cp: dict = field(default_factory=dict)             # the resolved [cp] table

    def neighbours(self) -> dict[str, list[str]]:
        adj: dict[str, list[str]] = {n: [] for n in self.switches + self.hosts}
        for a, b, _ in self.links:
            adj[a].append(b)
            adj[b].append(a)
        return adj

    def hops(self) -> set[tuple[str, str]]:
        """Every (from, to) hop some flow's frames take: its route, or its multicast tree."""
        out = set()
        for f in self.flows:
            out.update(zip(f["path"], f["path"][1:]) if "path" in f else map(tuple, f["tree"]))
        return out


def _rate_label(bps: float) -> str:
    for unit, scale in (("Tbps", 1e12), ("Gbps", 1e9), ("Mbps", 1e6), ("kbps", 1e3)):
        if bps >= scale:
            return f"{bps / scale:g}{unit}"
    return f"{bps:g}bps"


def load_topology(scenario, set=None) -> Topology:
    """The `Topology` of a scenario (a path or TOML text), from the engine's description."""
    from .api import check, describe

    net = describe(scenario, set=set)
    nodes = net["nodes"]
    switches = [n["name"] for n in nodes if n["kind"] != "host"]  # switches and routers forward
    hosts = [n["name"] for n in nodes if n["kind"] == "host"]
    links = [(ln["a"], ln["b"], _rate_label(ln["rate_bps"])) for ln in net["links"]]
    groups: dict[str, list[str]] = {}
    for f in net["flows"]:
        if f["group"]:
            members = groups.setdefault(f["group"], [])
            members += [r for r in f["receivers"] if r not in members]
    cp = tomllib.loads(check(scenario, set=set)).get("cp")  # for the caption only
    cp = cp if isinstance(cp, dict) else {}
    return Topology(switches, hosts, links, groups, net["flows"], cp)


def _switch_depths(topo: Topology) -> dict[str, int]:
    """Column of each switch: the longest chain of switches the data crosses before it.

    A switch-to-switch link is oriented the way the engine's routes and multicast trees cross
    it; the depth is the longest path in that DAG. Switches no flow crosses (or a cyclic
    orientation) fall back to hop counts from switches already placed: layout only, not routing.
    """
    adj, sw = topo.neighbours(), set(topo.switches)
    edges = {(u, v) for u, v in topo.hops() if u in sw and v in sw}
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
        groups = [group_index[f["group"]] for f in topo.flows if f["source"] == h and f["group"]]
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
        if f["group"]:
            colour[f["source"]] = group_colour[f["group"]]
        else:
            colour[f["source"]] = UNICAST_COLOUR
            for r in f["receivers"]:
                if colour[r] == IDLE_COLOUR:
                    colour[r] = UNICAST_COLOUR
    return colour


def _ranges(names: list[str]) -> str:
    """['A1', 'A2', 'A3', 'R5', 'R6'] -> 'A1..A3, R5, R6' (for legends; runs of three or more)."""
    def split(name):  # (prefix, number) of a name ending in digits
        m = re.fullmatch(r"(.*?)(\d+)", name)
        return m and (m[1], int(m[2]))

    out, run = [], []
    for n in names:
        if run:
            p0, p1 = split(run[-1]), split(n)
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
    used = {frozenset(hop) for hop in topo.hops()}
    for a, b, rate in topo.links:
        (xa, ya), (xb, yb) = pos[a], pos[b]
        core = a in set_ and b in set_
        ax.plot([xa, xb], [ya, yb], color="black" if core else "#9a9a9a",
                lw=2.2 if core else 0.8, zorder=1, solid_capstyle="round",
                linestyle="-" if frozenset((a, b)) in used else ":")  # dotted: no route crosses it
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
        flows = [f for f in topo.flows if f["group"] == g]
        modes = sorted({f["mode"] for f in flows})
        sources = list(dict.fromkeys(f["source"] for f in flows))  # multiple unicast: one flow per receiver
        label = f"{g}: {_ranges(sources) or 'no source'} → {_ranges(members)}"
        if modes:
            label += f" ({', '.join(modes)})"
        handles.append(ax.scatter([], [], s=60, marker="o", color=PALETTE[i % len(PALETTE)],
                                  edgecolors="black", linewidths=0.6, label=label))
    if any(not f["group"] for f in topo.flows):
        handles.append(ax.scatter([], [], s=60, marker="o", color=UNICAST_COLOUR,
                                  edgecolors="black", linewidths=0.6, label="unicast"))
    handles.append(ax.scatter([], [], s=80, marker="s", color="white", edgecolors="black",
                              linewidths=1.2, label="switch / router"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=1,
              fontsize=7, frameon=False)

    caption = []
    if len(rates) == 1:
        caption.append(f"all links {next(iter(rates))}")
    for protocol, params in topo.cp.items():  # the resolved [cp] is {protocol = {...}} (or none)
        caption.append(f"{protocol.upper()} CP on every switch output queue (Qeq {params.get('qeq', '?')})")
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
