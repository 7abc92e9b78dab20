"""DCQCN's fluid model for N identical flows through one RED-ECN bottleneck, integrated as a
delay-differential equation, and its fixed point.

Sources (written once here, used below):

- Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015 [DCQCN15], §5:
  the fluid model for N flows with the same rate and state. Its text was not available to this
  module's author; the equations are taken from their restatement in:
- Zhu, Ghobadi, Misra, Padhye, "ECN or Delay: Lessons Learnt from Analysis of DCQCN and TIMELY",
  CoNEXT 2016 [ECNDELAY16], §3 (DCQCN): the "Model" subsection (figure "DCQCN fluid model" and the
  table of variables and parameters) and the "Stability" subsection (theorem "DCQCN's unique fixed
  point", the cube-root approximation of p*, the phase-margin figure).

The model ([ECNDELAY16] §3 Model; p and RC below are evaluated at t − τ* where marked ·̃):

    p(q)   = 0                               q ≤ Kmin
           = (q − Kmin)/(Kmax − Kmin)·Pmax   Kmin < q ≤ Kmax
           = 1                               q > Kmax
    dq/dt  = N·RC − C
    dα/dt  = g/τ' · ((1 − (1 − p̃)^(τ'·R̃C)) − α)
    dRT/dt = −(RT − RC)/τ · a + R_AI·R̃C·(c + e)
    dRC/dt = −RC·α/(2τ) · a + (RT − RC)/2 · R̃C·(b + d)

    a = 1 − (1 − p̃)^(τ·R̃C)                      (a CNP arrives within one CNP interval τ)
    b = p̃ / ((1 − p̃)^(−B) − 1),   c = b·(1 − p̃)^(F·B)            (byte-counter increases)
    d = p̃ / ((1 − p̃)^(−T·R̃C) − 1), e = d·(1 − p̃)^(F·T·R̃C)       (timer increases)

The exponents count packets: p is a per-packet marking probability, so RC and C are in packets per
second, B and q in packets. [ECNDELAY16] does not state the packet size; `Params.packet_bytes`
defaults to the 1000-B payload of the authors' ns-3 simulator configuration (CNP interval 50 µs,
α interval 55 µs, F = 5, R_AI 40 Mb/s there too).

The fixed point ([ECNDELAY16] §3 Stability, theorem "DCQCN's unique fixed point"): N·RC* = C, and
with all flows equal RC* = C/N; α* = 1 − (1 − p*)^(τ'·RC*); eliminating RT* between dRT/dt = 0 and
dRC/dt = 0 gives  a²·α* / ((b + d)(c + e)) = τ²·R_AI·RC*,  whose left side grows monotonically in p
from 0 to ∞, so p* is unique; q* = Kmin + p*/Pmax·(Kmax − Kmin). Its Taylor approximation for small
p*:  p* ≈ ∛( R_AI·N²/(τ'·C²) · (1/B + N/(T·C))² ).

Open point (not a test): with these parameters and τ* = 50 µs, N = 10 settles here, while the
phase-margin figure of [ECNDELAY16] §3 Stability (default parameters, its 50-µs curve) puts N = 10
below 0°. The text's explicit statements — stable at 4 µs for every N, unstable with 10 flows at
85 µs, stable with 2 — do hold here (tests/test_dcqcn_fluid.py). The paper's linearisation may use
other units for the exponents (its companion code counts bits, not packets); not resolved. The
reproduction pins packets and shows what each open reading (bits, T, B, C) does to q*
(claims.READINGS; the report's table "How far q* moves with each open reading").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np


@dataclass(frozen=True)
class Params:
    """The model's parameters, SI units (bytes, seconds, bit/s). Defaults: [ECNDELAY16] §3 states
    F = 5 and R_AI = 40 Mb/s (table of parameters) and Kmax = 200 KB (stability figure); the
    others are DCQCN's recommended values, [DCQCN15] Table 2 as used by the authors' fluid-model
    code: C = 40 Gb/s, Kmin = 5 KB, Pmax = 1 %, g = 1/256, τ = 50 µs, τ' = 55 µs, T = 55 µs,
    B = 10 MB. KB and MB are 10³ and 10⁶ bytes (the authors' code, and cnsim's units).

    τ* (control loop delay) is a free parameter in [ECNDELAY16] §3 (its figures use 0–100 µs,
    and 4 µs and 85 µs for the time series); the default 50 µs is the delay the authors' fluid-model
    code uses (it takes τ* = τ). It changes stability, not the fixed point."""
    link_bps: float = 40e9                 # C
    kmin_bytes: float = 5e3                # Kmin
    kmax_bytes: float = 200e3              # Kmax
    pmax: float = 0.01                     # Pmax
    g: float = 1 / 256                     # α's gain
    tau_s: float = 50e-6                   # τ: CNP generation interval (at most one CNP per τ)
    tau_prime_s: float = 55e-6             # τ': α update interval
    timer_s: float = 55e-6                 # T: rate-increase timer
    byte_counter_bytes: float = 10e6       # B: rate-increase byte counter
    r_ai_bps: float = 40e6                 # R_AI: additive-increase step
    fast_recovery_steps: int = 5           # F
    tau_star_s: float = 50e-6              # τ*: control loop delay
    packet_bytes: float = 1000.0           # size of one marked unit (see the module)

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise ValueError(f"Params.{f.name}: expected a finite number, got {v!r}")
            if v < 0 or (v == 0 and f.name != "tau_star_s"):
                raise ValueError(f"Params.{f.name}: must be {'≥' if f.name == 'tau_star_s' else '>'} 0, got {v!r}")
        if not self.kmin_bytes < self.kmax_bytes:
            raise ValueError(f"Params: Kmin ({self.kmin_bytes} B) must be below Kmax ({self.kmax_bytes} B)")
        if self.pmax > 1 or self.g >= 1:
            raise ValueError(f"Params: need 0 < Pmax ≤ 1 and 0 < g < 1, got Pmax {self.pmax}, g {self.g}")
        if not isinstance(self.fast_recovery_steps, int):
            raise ValueError(f"Params.fast_recovery_steps: an integer, got {self.fast_recovery_steps!r}")

    # The model's own units: packets and packets per second.
    @property
    def c_pps(self) -> float:
        return self.link_bps / (8 * self.packet_bytes)

    @property
    def r_ai_pps(self) -> float:
        return self.r_ai_bps / (8 * self.packet_bytes)

    @property
    def b_pkts(self) -> float:
        return self.byte_counter_bytes / self.packet_bytes

    @property
    def kmin_pkts(self) -> float:
        return self.kmin_bytes / self.packet_bytes

    @property
    def kmax_pkts(self) -> float:
        return self.kmax_bytes / self.packet_bytes


def marking(q_pkts: float, P: Params) -> float:
    """p(q): the RED-ECN marking probability of a queue of q packets ([ECNDELAY16] §3 Model)."""
    if q_pkts <= P.kmin_pkts:
        return 0.0
    if q_pkts <= P.kmax_pkts:
        return (q_pkts - P.kmin_pkts) / (P.kmax_pkts - P.kmin_pkts) * P.pmax
    return 1.0


def _h(p: float) -> float:
    """p / −ln(1 − p): 1 at p = 0, 0 at p = 1 (the small-p limits of b and d, written stably)."""
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    return p / -math.log1p(-p)


def _phi(u: float) -> float:
    """u / (eᵘ − 1): 1 at u = 0, → 0 as u → ∞."""
    if u < 1e-12:
        return 1.0
    if u > 700.0:
        return 0.0
    return u / math.expm1(u)


def terms(p: float, rc_pps: float, P: Params) -> tuple[float, float, float, float, float]:
    """The paper's a, b, c, d, e at marking probability p and (delayed) rate rc, packets/s.

    b and d are written as (p / −ln(1−p))·φ(u)/B and …/(T·rc) with φ(u) = u/(eᵘ − 1), which is the
    same value without the 0/0 at p = 0 (where b = 1/B, d = 1/(T·rc)); at p = 1 a = 1 and b … e = 0."""
    tau, T, B, F = P.tau_s, P.timer_s, P.b_pkts, P.fast_recovery_steps
    if p >= 1.0:
        return 1.0, 0.0, 0.0, 0.0, 0.0
    lg = math.log1p(-p)                      # ln(1 − p) ≤ 0
    a = -math.expm1(tau * rc_pps * lg)
    b = _h(p) * _phi(-B * lg) / B
    c = b * math.exp(F * B * lg)
    d = _h(p) * _phi(-T * rc_pps * lg) / (T * rc_pps) if rc_pps > 0 else math.inf
    e = d * math.exp(F * T * rc_pps * lg) if rc_pps > 0 else math.inf
    return a, b, c, d, e


def rhs(rc: float, rt: float, alpha: float, q: float, rc_delayed: float, q_delayed: float,
        n_flows: int, P: Params) -> tuple[float, float, float, float]:
    """(dRC/dt, dRT/dt, dα/dt, dq/dt) of N identical flows, rates in packets/s, q in packets.

    Two bounds the equations leave implicit: the queue cannot go below 0, and RC cannot rise above
    the line rate C (a sender's rate limiter; the authors' fluid-model code clamps it the same way)."""
    p = marking(q_delayed, P)
    a, b, c, d, e = terms(p, rc_delayed, P)
    lg = math.log1p(-p) if p < 1.0 else -math.inf
    alpha_target = -math.expm1(P.tau_prime_s * rc_delayed * lg) if p < 1.0 else 1.0
    # R̃C·b and R̃C·d, finite also at R̃C = 0 (d·rc = h(p)·φ/T).
    inc_byte = rc_delayed * b
    inc_timer = _h(p) * _phi(-P.timer_s * rc_delayed * lg) / P.timer_s if p < 1.0 else 0.0
    fr_byte = math.exp(P.fast_recovery_steps * P.b_pkts * lg) if p < 1.0 else 0.0
    fr_timer = math.exp(P.fast_recovery_steps * P.timer_s * rc_delayed * lg) if p < 1.0 else 0.0
    d_alpha = P.g / P.tau_prime_s * (alpha_target - alpha)
    d_rt = -(rt - rc) / P.tau_s * a + P.r_ai_pps * (inc_byte * fr_byte + inc_timer * fr_timer)
    d_rc = -rc * alpha / (2 * P.tau_s) * a + (rt - rc) / 2 * (inc_byte + inc_timer)
    if rc >= P.c_pps and d_rc > 0:
        d_rc = 0.0
    d_q = n_flows * rc - P.c_pps
    if q <= 0.0 and d_q < 0:
        d_q = 0.0
    return d_rc, d_rt, d_alpha, d_q


def _check_flows(n_flows) -> int:
    if isinstance(n_flows, bool) or not isinstance(n_flows, (int, np.integer)) or n_flows < 1:
        raise ValueError(f"n_flows: a positive integer, got {n_flows!r}")
    return int(n_flows)


def integrate(n_flows: int, P: Params = Params(), *, duration_s: float = 0.1, dt_s: float = 0.5e-6,
              every: int = 20) -> dict[str, np.ndarray]:
    """Integrate the model from line rate (the DCQCN specification: flows start at C; RT = C,
    α = 1, q = 0, and the same state for t ≤ 0) over `duration_s` with Heun's method at a fixed
    step `dt_s`. τ* must be a whole number (≥ 1) of steps, so that the delayed values are stored
    ones (a history buffer, no interpolation).

    Returns {"t": s, "q_bytes", "rc_bps", "rt_bps", "alpha"}, one sample every `every` steps."""
    n = _check_flows(n_flows)
    for name, v in (("duration_s", duration_s), ("dt_s", dt_s)):
        if not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise ValueError(f"{name}: a positive number of seconds, got {v!r}")
    lag = P.tau_star_s / dt_s
    k = round(lag)
    if k < 1 or abs(lag - k) > 1e-6 * max(1.0, lag):
        raise ValueError(f"dt_s: τ* = {P.tau_star_s} s must be a whole number (≥ 1) of steps of {dt_s} s")
    if not isinstance(every, int) or every < 1:
        raise ValueError(f"every: a positive integer, got {every!r}")
    steps = int(math.ceil(duration_s / dt_s))
    C = P.c_pps
    # History ring of (rc, q) for the last k + 1 steps; before t = 0 the initial state.
    ring_rc = [C] * (k + 1)
    ring_q = [0.0] * (k + 1)
    rc, rt, alpha, q = C, C, 1.0, 0.0
    out = np.empty((steps // every + 1, 5))
    out[0] = (0.0, q, rc, rt, alpha)
    row = 1
    for i in range(steps):
        # ring slot of step j is j mod (k + 1): at step i it holds i − k … i (the oldest is i − k).
        old = (i - k) % (k + 1)
        nxt = (i + 1 - k) % (k + 1)
        k1 = rhs(rc, rt, alpha, q, ring_rc[old], ring_q[old], n, P)
        pr = (rc + dt_s * k1[0], rt + dt_s * k1[1], alpha + dt_s * k1[2], max(0.0, q + dt_s * k1[3]))
        k2 = rhs(*pr, ring_rc[nxt], ring_q[nxt], n, P)
        rc = min(C, max(0.0, rc + dt_s / 2 * (k1[0] + k2[0])))
        rt = rt + dt_s / 2 * (k1[1] + k2[1])
        alpha = min(1.0, max(0.0, alpha + dt_s / 2 * (k1[2] + k2[2])))
        q = max(0.0, q + dt_s / 2 * (k1[3] + k2[3]))
        slot = (i + 1) % (k + 1)          # step i + 1 replaces step i − k, no longer needed
        ring_rc[slot], ring_q[slot] = rc, q
        if (i + 1) % every == 0:
            out[row] = ((i + 1) * dt_s, q, rc, rt, alpha)
            row += 1
    out = out[:row]
    unit = 8 * P.packet_bytes
    return {"t": out[:, 0], "q_bytes": out[:, 1] * P.packet_bytes, "rc_bps": out[:, 2] * unit,
            "rt_bps": out[:, 3] * unit, "alpha": out[:, 4]}


def p_lhs(p: float, n_flows: int, P: Params) -> float:
    """a²·α / ((b + d)(c + e)) at RC* = C/N: the left side of the fixed point's equation for p*
    (+∞ where c + e underflows, at p above ~1.5 % with the defaults)."""
    rc = P.c_pps / n_flows
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return math.inf
    a, b, c, d, e = terms(p, rc, P)
    alpha = -math.expm1(P.tau_prime_s * rc * math.log1p(-p))
    den = (b + d) * (c + e)
    return a * a * alpha / den if den > 0 else math.inf


def p_rhs(n_flows: int, P: Params) -> float:
    """τ²·R_AI·RC* at RC* = C/N: the right side of the fixed point's equation for p*."""
    return P.tau_s ** 2 * P.r_ai_pps * P.c_pps / n_flows


def p_equation(p: float, n_flows: int, P: Params) -> float:
    """Left side − right side: zero at the fixed point's p*, negative below it, positive above."""
    return p_lhs(p, n_flows, P) - p_rhs(n_flows, P)


def p_star_approx(n_flows: int, P: Params = Params()) -> float:
    """[ECNDELAY16] §3 Stability: p* ≈ ∛(R_AI·N²/(τ'·C²)·(1/B + N/(T·C))²), its small-p Taylor form."""
    n = _check_flows(n_flows)
    C = P.c_pps
    return (P.r_ai_pps * n * n / (P.tau_prime_s * C * C) * (1 / P.b_pkts + n / (P.timer_s * C)) ** 2) ** (1 / 3)


def fixed_point(n_flows: int, P: Params = Params()) -> dict:
    """The model's fixed point for N identical flows ([ECNDELAY16] §3 Stability).

    p* solves `p_equation` (bisection on ln p, the left side being monotonic); RC* = C/N;
    α* = 1 − (1 − p*)^(τ'·RC*); RT* = RC* + a·α*/((b + d)·τ) (dRC/dt = 0). q* is the queue whose
    marking probability is p*. When p* > Pmax no queue marks with p* (the curve jumps from Pmax to
    1 at Kmax): q* is then Kmax and `on_kmax_step` is True — the equilibrium sits on the step.

    Returns q_bytes, p, alpha, rc_bps, rt_bps, p_approx (the cube-root form), on_kmax_step."""
    n = _check_flows(n_flows)
    lo, hi = math.log(1e-15), math.log(1.0 - 1e-15)
    if p_equation(math.exp(lo), n, P) >= 0:
        raise ValueError(f"fixed_point: p* is below 1e-15 for N = {n}; the parameters are outside the model's range")
    for _ in range(200):
        mid = (lo + hi) / 2
        if p_equation(math.exp(mid), n, P) < 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-14:
            break
    p = math.exp((lo + hi) / 2)
    rc = P.c_pps / n
    a, b, c, d, e = terms(p, rc, P)
    alpha = -math.expm1(P.tau_prime_s * rc * math.log1p(-p))
    rt = rc + a * alpha / ((b + d) * P.tau_s)
    on_step = p > P.pmax
    q = P.kmax_pkts if on_step else P.kmin_pkts + p / P.pmax * (P.kmax_pkts - P.kmin_pkts)
    unit = 8 * P.packet_bytes
    return {"q_bytes": q * P.packet_bytes, "p": p, "alpha": alpha, "rc_bps": rc * unit, "rt_bps": rt * unit,
            "p_approx": p_star_approx(n, P), "on_kmax_step": on_step}


def residuals(point: dict, n_flows: int, P: Params = Params()) -> dict[str, float]:
    """The model's right-hand side at `point` (a `fixed_point` result) held constant over the delay,
    with p = point["p"], each relative to the size of its largest term: all ≈ 0 at a fixed point."""
    n = _check_flows(n_flows)
    unit = 8 * P.packet_bytes
    rc, rt, alpha, p = point["rc_bps"] / unit, point["rt_bps"] / unit, point["alpha"], point["p"]
    a, b, c, d, e = terms(p, rc, P)
    alpha_target = -math.expm1(P.tau_prime_s * rc * math.log1p(-p))
    cut_rt, inc_rt = (rt - rc) / P.tau_s * a, P.r_ai_pps * rc * (c + e)
    cut_rc, inc_rc = rc * alpha / (2 * P.tau_s) * a, (rt - rc) / 2 * rc * (b + d)
    return {"q": (n * rc - P.c_pps) / P.c_pps,
            "alpha": (alpha_target - alpha) / max(alpha, alpha_target),
            "rt": (inc_rt - cut_rt) / max(inc_rt, cut_rt),
            "rc": (inc_rc - cut_rc) / max(inc_rc, cut_rc)}
