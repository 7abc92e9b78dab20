"""Jiang & Jain 2007's analytic model of BCN: the fluid model of §V (eqs. 3, 4, 7–10) and the
equilibrium it converges to (eq. 14 subject to 15).

- `bcn_fluid(...)`: the model integrated with `scipy.integrate.solve_ivp`;
- `bcn_equilibrium(...)`: the rates that maximise eq. (14) subject to (15), the point the model's
  Lyapunov argument (eqs. 11–13) says it converges to;
- `BcnParams`: the paper's parameters (§VI.A) and the model's one CHOICE, `e_sigma`.

The model is the paper's, so it lives with the paper's reproduction; the protocol-free tools it
uses (`Network`, `max_log_utility`) are `cnsim.analysis`'s. See docs/analysis.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...analysis import Network, max_log_utility

__all__ = ["BcnParams", "bcn_fluid", "bcn_equilibrium"]


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


def _network(n_sources, routes, capacity) -> Network:
    """The model's network: `routes` over links of `capacity`, or `n_sources` sources S1..Sn on one link "L"."""
    if routes is None:
        routes = {f"S{i + 1}": ["L"] for i in range(n_sources)}
    return Network.from_routes(routes, capacity)


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
    net = _network(n_sources, routes, capacity)
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
    net = _network(n_sources, routes, capacity)
    return max_log_utility(net, offset=p.k).rename("bcn_equilibrium_bps")
