"""Theory beside the simulated rates: fair allocations of a scenario's flows, and Jiang & Jain 2007's fluid
model of BCN.

- `max_min_fair(scenario)` and `proportional_fair(scenario)`: the allocations of the scenario's
  flows over its links, with the network read from the engine (`cnsim.describe`: the names it
  expanded and the routes and multicast trees it chose; nothing is re-routed here).
- `max_log_utility(net, offset, weight)`: the rates that maximise Σ w log(x + k) on a `Network`,
  proportional fairness's optimiser, which a paper's model may shift (Jiang & Jain 2007's eq. 14).
- `bcn_fluid(...)`: Jiang & Jain 2007 §V's analytical BCN model (eqs. 3, 4, 7–10) integrated with
  `scipy.integrate.solve_ivp`; `bcn_equilibrium(...)`: the rates that maximise eq. (14) subject to
  (15), the point the model's Lyapunov argument (eqs. 11–13) says it converges to.

See docs/analysis.md.
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
    "bcn_fluid",
    "bcn_equilibrium",
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


# ---------------------------------------------------------------------------------------------
# Jiang & Jain 2007 §V: the fluid model of BCN


@dataclass(frozen=True)
class BcnParams:
    """Jiang & Jain 2007's parameters (§VI.A: Qeq 16, W 2, Gi 4, Gd 0.0124, Ru 4 Mb/s, 1500-B packets,
    10 Gb/s links, 100-packet buffers; Pm 0.01 is docs/protocols.md §6's default — the seed names Pm
    but gives no simulation value) and the model's one constant the seed does not give:
    `e_sigma`, the spread of the feedback e around its fluid value (see `bcn_fluid`)."""

    qeq: float = 16.0          # Q_eq, packets
    w: float = 2.0             # W
    gi: float = 4.0            # G_i
    gd: float = 0.0124         # G_d
    ru: float = 4e6            # R_u, bit/s
    pm: float = 0.01           # P_m
    packet_bits: float = 12000.0  # S, bits (1500 B)
    buffer: float = 100.0      # packets (drop-tail: the fluid queue stops there)
    e_sigma: float = 1.0       # CHOICE, packets: std-dev of e_i around eq. (4)'s value

    @property
    def k(self) -> float:
        """G_i R_u / G_d (bit/s): eq. (14)'s offset, log(G_d r/(G_i R_u) + 1) = log(r + k) + const."""
        return self.gi * self.ru / self.gd


def _routes_and_caps(n_sources, routes, capacity):
    if routes is None:
        routes = {f"S{i + 1}": ["L"] for i in range(n_sources)}
    net = Network.from_routes(routes, capacity)
    return net


def bcn_fluid(n_sources: int = 4, *, routes: Mapping[str, Sequence[str]] | None = None,
              capacity: float | Mapping[str, float] = 10e9, duration: float = 0.2,
              rate0: float | Mapping[str, float] | None = None, points: int = 2001,
              params: BcnParams | None = None, **overrides) -> pd.DataFrame:
    """Jiang & Jain 2007 §V's analytical model of BCN, integrated with scipy.integrate.solve_ivp (LSODA).

    The network: `n_sources` sources S1..Sn on one bottleneck "L" (the default), or `routes`
    {source: [link, ...]} (a_li = 1 on those links: "if all traffic from a source goes over one
    path a_li ∈ {0, 1}", §V.A) with `capacity` C_l (one number, or by link). Parameters: Jiang & Jain 2007's
    defaults (`BcnParams`), any of which can be given by keyword (`gd=0.1`, `e_sigma=0.5`, ...).
    `rate0` is the start rate (default C/100 of the source's slowest link: the rate a source
    restarts at after a STOP, §IV.B). Returns a DataFrame: `t` (s), one column per source
    (r_i, bit/s), and one `q:<link>` column per link (packets).

    The equations, in the seed's notation (per link l, per source i):

      f_l = Σ_i a_li r_i                                       (§V.A, below eq. 8)
      dq_l/dt = (f_l − C_l) / S                                (eq. 3; q held in [0, buffer])
      ē_l = (Q_eq − q_l) − W (dq_l/dt) S / (C_l P_m)           (eq. 4)
      dr_i/dt = E{|e_i|} {G_i R_u − b_i (G_d r_i + G_i R_u)} / μ_i   (eq. 7)
      μ_i = S / (r_i P_m)                                      (§V.A: one message per sampled packet)
      b_i = μ_i r_i Σ_l p_l a_li = Σ_l a_li π_l,  p_l = π_l P_m / S   (eq. 8)

    which is eq. (10) (its ∂G/∂r_i is ∂P/∂r_i of eq. 9) and eq. (12) with V of eq. (11).
    What §V leaves open, and is chosen here (CHOICE):
    - p_l, "the probability that a negative BCN message is generated when the load is f", is only
      said to be increasing and differentiable. Here the feedback a sampled packet gets is
      e_l ~ Normal(ē_l, e_sigma²) (the "stochastic perturbation" of §VI.E; "for single source
      simulation e_i(t) ≈ 1", hence e_sigma = 1 packet by default), so π_l = P(e_l < 0) =
      Φ(−ē_l/σ) and E{|e_l|} is the folded-normal mean σ√(2/π) e^{−ē²/2σ²} + ē (1 − 2Φ(−ē/σ)).
      The queue is the congestion price: it rises until the negative messages balance the
      increases. As e_sigma → 0 the feedback becomes the sign of ē (the "Dirac delta" of §V.B).
    - E{|e_i|} for a source on several links: the mean of its links' E{|e_l|} (eq. 7 has one).
    - Positive messages come from every link of the path (§IV.E sends them only to regulators
      associated with that CP), STOP (q > Q_sc) and PAUSE are not modelled (§V does not), and a
      source's traffic loads every link of its route at r_i (f_l of §V.A: no queueing upstream).

    Fixed point (Proposition 1): dq_l/dt = 0 with q_l > 0, so f_l = C_l on every bottleneck, and
    G_i R_u / (G_d r_i + G_i R_u) = b_i, i.e. ∂V/∂r_i = 0: the rates maximise eq. (14) on the
    saturated links (`bcn_equilibrium`), and q_l = Q_eq + σ Φ⁻¹(π_l).
    """
    from scipy.integrate import solve_ivp
    from scipy.special import ndtr

    p = _params(params, overrides)
    net = _routes_and_caps(n_sources, routes, capacity)
    a = net.matrix.to_numpy()
    cap = net.capacity.to_numpy(dtype=float)
    sources, links = list(net.matrix.columns), list(net.matrix.index)
    n, nl = len(sources), len(links)
    on = a.sum(axis=0)  # links per source
    if rate0 is None:
        r0 = np.array([np.min(cap[a[:, i] > 0]) / 100 for i in range(n)])
    elif isinstance(rate0, Mapping):
        r0 = np.array([float(rate0[s]) for s in sources])
    else:
        r0 = np.full(n, float(rate0))
    S, sig = p.packet_bits, p.e_sigma
    giru = p.gi * p.ru
    rscale = float(np.max(cap))  # integrate r / rscale (well-scaled state)

    def rhs(_t, y):
        r = np.maximum(y[:n], 0.0) * rscale
        q = y[n:]
        f = a @ r
        dq = (f - cap) / S                                          # eq. (3)
        dq = np.where((q <= 0) & (dq < 0), 0.0, dq)
        dq = np.where((q >= p.buffer) & (dq > 0), 0.0, dq)
        ebar = (p.qeq - q) - p.w * dq * S / (cap * p.pm)            # eq. (4)
        pi_l = ndtr(-ebar / sig)                                    # P(e_l < 0)
        abs_e = sig * math.sqrt(2 / math.pi) * np.exp(-0.5 * (ebar / sig) ** 2) + ebar * (1 - 2 * pi_l)
        b = a.T @ pi_l                                              # eq. (8): b_i = Σ_l a_li π_l
        abs_ei = (a.T @ abs_e) / np.maximum(on, 1)                  # E{|e_i|}
        mu_inv = r * p.pm / S                                       # 1/μ_i
        dr = abs_ei * mu_inv * (giru - b * (p.gd * r + giru))       # eq. (7)
        return np.concatenate([dr / rscale, dq])

    y0 = np.concatenate([r0 / rscale, np.zeros(nl)])
    t_eval = np.linspace(0.0, duration, points)
    sol = solve_ivp(rhs, (0.0, duration), y0, method="LSODA", t_eval=t_eval, rtol=1e-7, atol=1e-10,
                    max_step=duration / 200)
    if not sol.success:
        raise RuntimeError(f"BCN fluid model: {sol.message}")
    out = pd.DataFrame({"t": sol.t})
    for i, s in enumerate(sources):
        out[s] = np.maximum(sol.y[i], 0.0) * rscale
    for j, l in enumerate(links):
        out[f"q:{l}"] = np.clip(sol.y[n + j], 0.0, p.buffer)
    out.attrs["params"] = p
    return out


def _params(params: BcnParams | None, overrides: Mapping) -> BcnParams:
    import dataclasses

    p = params or BcnParams()
    unknown = set(overrides) - {f.name for f in dataclasses.fields(BcnParams)}
    if unknown:
        raise TypeError(f"unknown BCN parameter(s): {sorted(unknown)}")
    return dataclasses.replace(p, **overrides)


def bcn_equilibrium(n_sources: int = 4, *, routes: Mapping[str, Sequence[str]] | None = None,
                    capacity: float | Mapping[str, float] = 10e9, params: BcnParams | None = None,
                    **overrides) -> pd.Series:
    """The rates (bit/s, by source) that maximise Jiang & Jain 2007's eq. (14),
    F_A(r) = Σ_i (G_i R_u P_m / S G_d) log(G_d r_i / (G_i R_u) + 1), subject to eq. (15) (each
    link's load ≤ C_l): the point the Lyapunov function V of eq. (11) is maximised at when the
    negative-message probability is a step at capacity ("close to Dirac delta", §V.B). It is
    Σ log(r_i + k) with k = G_i R_u / G_d, i.e. proportional fairness shifted by k: with Jiang & Jain 2007's
    defaults k = 4 · 4 Mb/s / 0.0124 ≈ 1.29 Gb/s, not small beside 10 Gb/s shares."""
    p = _params(params, overrides)
    net = _routes_and_caps(n_sources, routes, capacity)
    return max_log_utility(net, offset=p.k).rename("bcn_equilibrium_bps")
