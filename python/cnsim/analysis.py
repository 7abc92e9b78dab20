"""Theory beside the simulated rates: fair allocations of a scenario's flows.

- `max_min_fair(scenario)` and `proportional_fair(scenario)`: the allocations of the scenario's
  flows over its links, with the network read from the engine (`cnsim.describe`: the names it
  expanded and the routes and multicast trees it chose; nothing is re-routed here).
- `max_log_utility(net, offset, weight)`: the rates that maximise Σ w log(x + k) on a `Network`,
  proportional fairness's optimiser, which a paper's model may shift (Jiang & Jain 2007's eq. 14:
  `cnsim.reproduce.jiang2007.fluid`).

A protocol's own analytic model lives with the paper it comes from, in that paper's reproduction
folder. See docs/analysis.md.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = [
    "Network",
    "network",
    "max_min_fair",
    "proportional_fair",
    "max_log_utility",
    "parse_rate",
]

# ---------------------------------------------------------------------------------------------
# The network as resources × flows


@dataclass(frozen=True)
class Network:
    """Flows over resources: `matrix` (DataFrame, resources × flows, 1 where a flow crosses a
    resource), `capacity` (Series by resource, bit/s) and `demand` (Series by flow, bit/s; inf
    where the flow has no application rate)."""

    matrix: pd.DataFrame
    capacity: pd.Series
    demand: pd.Series

    @classmethod
    def from_routes(cls, routes: Mapping[str, Sequence[str]], capacity: float | Mapping[str, float],
                    demand: Mapping[str, float] | None = None) -> "Network":
        """A network from {flow: [resource, ...]} and capacities (one number for all, or by
        resource); `demand` by flow (missing: unlimited)."""
        flows = list(routes)
        resources = list(dict.fromkeys(r for f in flows for r in routes[f]))
        m = pd.DataFrame(0.0, index=resources, columns=flows)
        for f in flows:
            for r in routes[f]:
                m.loc[r, f] = 1.0
        if isinstance(capacity, Mapping):
            cap = pd.Series({r: float(capacity[r]) for r in resources})
        else:
            cap = pd.Series(float(capacity), index=resources)
        d = pd.Series(math.inf, index=flows)
        for f, v in (demand or {}).items():
            d[f] = float(v)
        return cls(m, cap, d)


_RATE_UNITS = {"bps": 1.0, "b/s": 1.0, "kbps": 1e3, "Kbps": 1e3, "kb/s": 1e3, "Mbps": 1e6,
               "Mb/s": 1e6, "Gbps": 1e9, "Gb/s": 1e9, "Tbps": 1e12}


def parse_rate(text: str) -> float:
    """"5Gbps" -> 5e9 (the units of docs/scenarios.md; the resolved TOML writes rates this way)."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*(\S+)\s*", str(text))
    if not m or m.group(2) not in _RATE_UNITS:
        raise ValueError(f"not a rate: {text!r}")
    return float(m.group(1)) * _RATE_UNITS[m.group(2)]


def _demand(traffic: Mapping) -> float:
    """A flow block's demand cap: its application rate for cbr and poisson; unlimited otherwise
    (bernoulli is a load of the line rate, which the access link already caps; pareto's `rate`
    is the peak of a burst, not a mean)."""
    if traffic.get("kind") in ("cbr", "poisson") and "rate" in traffic:
        return parse_rate(traffic["rate"])
    return math.inf


def network(scenario, set=None) -> Network:
    """The flows of a scenario over its links, as the engine built them (`cnsim.describe`).

    Each direction a→b of a link is a resource of capacity `rate_bps`. A unicast (or
    multiple-unicast copy) flow uses every hop of its `path`; a multicast flow uses every edge of
    its `tree` once — one copy per edge, at the flow's rate, however many receivers lie below it
    (the switch replicates), so the multicast flow has one rate, limited by its most loaded edge.
    A flow's demand is its application rate (cbr/poisson `traffic.rate` of its [[flow]] block in
    the resolved scenario, `cnsim.check`); the block of each described flow is found by asking the
    engine (describe with that block's priority changed), never by expanding names here.
    """
    from . import _core
    from .scenario import overrides, source

    text, path = source(scenario)
    base = overrides(set, path)
    desc = _describe(text, path, base)
    resolved = tomllib.loads(_core.check(text, path, base))
    blocks = resolved.get("flow", [])

    caps: dict[tuple[str, str], float] = {}
    for link in desc["links"]:
        for a, b in ((link["a"], link["b"]), (link["b"], link["a"])):
            caps.setdefault((a, b), float(link["rate_bps"]))

    block_of = _flow_blocks(text, path, base, desc, blocks)
    routes: dict[str, list[str]] = {}
    demand: dict[str, float] = {}
    for f in desc["flows"]:
        if "path" in f:
            edges = list(zip(f["path"][:-1], f["path"][1:]))
        else:
            edges = [tuple(e) for e in f["tree"]]
        routes[f["name"]] = [f"{a}>{b}" for a, b in edges]
        k = block_of.get(f["name"])
        demand[f["name"]] = _demand(blocks[k].get("traffic", {})) if k is not None else math.inf
    capacity = {f"{a}>{b}": c for (a, b), c in caps.items()}
    return Network.from_routes(routes, capacity, demand)


def _describe(text: str, path: str, overrides: list) -> dict:
    import json

    from . import _core

    return json.loads(_core.describe(text, path, overrides))


def _flow_blocks(text, path, base, desc, blocks) -> dict[str, int]:
    """{flow name: index of its [[flow]] block}: with one block, all; otherwise, for each block,
    the flows whose priority changes when that block's priority is changed."""
    names = [f["name"] for f in desc["flows"]]
    if len(blocks) <= 1:
        return {n: 0 for n in names}
    prio = {f["name"]: f["priority"] for f in desc["flows"]}
    out: dict[str, int] = {}
    for k, block in enumerate(blocks):
        new = (int(block.get("priority", 0)) + 1) % 8
        d = _describe(text, path, base + [(f"flow.{k}.priority", str(new))])
        for f in d["flows"]:
            if f["priority"] != prio[f["name"]]:
                out[f["name"]] = k
    return out


def _as_network(scenario, set) -> Network:
    return scenario if isinstance(scenario, Network) else network(scenario, set=set)


# ---------------------------------------------------------------------------------------------
# Fair allocations


def max_min_fair(scenario, set=None) -> pd.Series:
    """The max-min fair allocation (bit/s, by flow) of a scenario (or a `Network`).

    Progressive filling, the exact algorithm (Bertsekas & Gallager, Data Networks §6.5.2; Jiang & Jain 2007
    §VI.D's f1, f2): every unfrozen flow grows at the same pace until a resource saturates (its
    flows are frozen) or a flow reaches its demand (it is frozen); repeat until all are frozen.
    """
    net = _as_network(scenario, set)
    a = net.matrix.to_numpy() > 0
    cap = net.capacity.to_numpy(dtype=float)
    dem = net.demand.to_numpy(dtype=float)
    nflows = a.shape[1]
    _check_bounded(net, a, dem)
    x = np.zeros(nflows)
    frozen = np.zeros(nflows, dtype=bool)
    while not frozen.all():
        active = ~frozen
        counts = (a & active).sum(axis=1)
        residual = cap - a.astype(float) @ x
        steps = [np.inf]
        used = counts > 0
        if used.any():
            steps.append(float(np.min(residual[used] / counts[used])))
        steps.append(float(np.min(dem[active] - x[active])))
        t = max(min(steps), 0.0)
        x[active] += t
        residual = cap - a.astype(float) @ x
        full = (residual <= 1e-9 * np.maximum(cap, 1.0)) & used
        frozen |= a[full].any(axis=0) if full.any() else False
        frozen |= x >= dem * (1 - 1e-12)
    return pd.Series(x, index=net.matrix.columns, name="max_min_fair_bps")


def proportional_fair(scenario, set=None) -> pd.Series:
    """The proportional-fair allocation (bit/s, by flow) of a scenario (or a `Network`): the x
    that maximises Σ_f log x_f subject to A x ≤ c and 0 < x ≤ demand (Kelly et al. 1998; Jiang & Jain 2007
    §VI.D's f3, f4), solved with scipy.optimize.minimize (SLSQP)."""
    net = _as_network(scenario, set)
    return max_log_utility(net, offset=0.0).rename("proportional_fair_bps")


def _check_bounded(net: Network, a: np.ndarray, dem: np.ndarray) -> None:
    free = ~a.any(axis=0) & np.isinf(dem)
    if free.any():
        names = list(net.matrix.columns[free])
        raise ValueError(f"flows {names} cross no resource and have no demand: unbounded")


def max_log_utility(net: Network, offset: float | np.ndarray = 0.0, weight: float | np.ndarray = 1.0) -> pd.Series:
    """argmax Σ_f w_f log(x_f + k_f) subject to A x ≤ c, 0 ≤ x ≤ demand (k = `offset`, w = `weight`;
    one number for all flows or one per flow, in the order of `net.matrix`'s columns), by flow in
    bit/s, solved with scipy.optimize.minimize (SLSQP) on rates scaled by the largest capacity.
    offset 0 and weight 1 is proportional fairness (`proportional_fair`)."""
    from scipy.optimize import minimize

    a = (net.matrix.to_numpy() > 0).astype(float)
    cap = net.capacity.to_numpy(dtype=float)
    dem = net.demand.to_numpy(dtype=float)
    _check_bounded(net, a > 0, dem)
    n = a.shape[1]
    scale = float(np.max(cap)) if len(cap) else float(np.max(dem[np.isfinite(dem)]))
    cap_s, dem_s = cap / scale, dem / scale
    k = np.broadcast_to(np.asarray(offset, dtype=float) / scale, (n,))
    w = np.broadcast_to(np.asarray(weight, dtype=float), (n,))
    # a feasible interior start: each flow's equal share of its tightest resource, within demand
    share = np.where(a.sum(axis=0) > 0,
                     np.min(np.where(a > 0, cap_s[:, None] / np.maximum(a.sum(axis=1), 1)[:, None], np.inf), axis=0),
                     np.inf)
    x0 = 0.99 * np.minimum(share, dem_s)
    lo = np.where(k > 0, 0.0, 1e-12)
    bounds = [(lo[i], None if math.isinf(dem_s[i]) else dem_s[i]) for i in range(n)]

    def f(x):
        return -float(np.sum(w * np.log(x + k)))

    def grad(x):
        return -w / (x + k)

    cons = [{"type": "ineq", "fun": lambda x: cap_s - a @ x, "jac": lambda x: -a}] if len(cap) else []
    res = minimize(f, x0, jac=grad, bounds=bounds, constraints=cons, method="SLSQP",
                   options={"ftol": 1e-12, "maxiter": 1000})
    if not res.success:
        raise RuntimeError(f"maximising Σ w log(x + k) failed: {res.message}")
    return pd.Series(res.x * scale, index=net.matrix.columns)
