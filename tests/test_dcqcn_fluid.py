"""DCQCN's fluid model (reproduce/dcqcn2015/fluid.py) against what Zhu, Ghobadi, Misra & Padhye,
CoNEXT 2016 ("ECN or Delay") §3 states about it: the fixed point solves the model with every
derivative zero, RC* = C/N, q* grows with N, the cube-root form of p* is its small-p limit, and the
delay-differential equation settles from line rate when the feedback delay is small (4 µs) and does
not settle with 10 flows at 85 µs. Tolerances are written beside each assertion with their reason;
they were fixed before the first run."""

import math

import numpy as np
import pytest

from cnsim.reproduce.dcqcn2015 import fluid as F

P = F.Params()


def test_marking_curve_hand_computed():
    # 1000-B packets: Kmin = 5 pkts, Kmax = 200 pkts. q = 102.5 pkts → (102.5 − 5)/195 · 1 % = 0.5 %.
    assert F.marking(5.0, P) == 0.0
    assert F.marking(102.5, P) == pytest.approx(0.005, rel=1e-12)
    assert F.marking(200.0, P) == pytest.approx(0.01, rel=1e-12)
    assert F.marking(200.001, P) == 1.0


def test_terms_small_p_limits_and_p_one():
    # p → 0: b = c = 1/B = 1/10 000, d = e = 1/(T·rc) = 1/(55 µs · 5·10⁶ pkt/s) = 1/275, a = 0.
    a, b, c, d, e = F.terms(0.0, 5e6, P)
    assert (a, b, c) == (0.0, pytest.approx(1e-4), pytest.approx(1e-4))
    assert d == pytest.approx(1 / 275) and e == pytest.approx(1 / 275)
    assert F.terms(1.0, 5e6, P) == (1.0, 0.0, 0.0, 0.0, 0.0)
    # p = 1 %, rc = 2.5·10⁶ pkt/s (10 Gb/s): a = 1 − 0.99^(50 µs · 2.5e6 = 125) = 1 − e^(125·ln 0.99)
    # = 1 − e^(−1.256293) = 1 − 0.284708 = 0.715292; d = 0.01/(0.99^(−137.5) − 1)
    # = 0.01/(e^(1.381922) − 1) = 0.01/2.982550 = 0.0033529.
    a, _, _, d, _ = F.terms(0.01, 2.5e6, P)
    assert a == pytest.approx(0.715292, abs=1e-6)
    assert d == pytest.approx(0.0033529, rel=1e-4)


def test_p_star_approximation_hand_computed():
    # N = 2, 1000-B packets: C = 5·10⁶ pkt/s, R_AI = 5000 pkt/s, B = 10⁴ pkts, T = τ' = 55 µs.
    # N/(T·C) = 2/275 = 7.2727e-3; + 1/B → 7.3727e-3; squared 5.4357e-5.
    # R_AI·N²/(τ'·C²) = 5000·4/(55e-6·2.5e13) = 1.45455e-5; product 7.9065e-10;
    # ∛ = 9.2469e-4 (9.2469² = 85.505, × 9.2469 = 790.66).
    assert F.p_star_approx(2, P) == pytest.approx(9.2469e-4, rel=1e-4)


@pytest.mark.parametrize("n", [1, 2, 4, 8, 10, 16, 64])
def test_fixed_point_solves_the_model_with_rc_c_over_n(n):
    fp = F.fixed_point(n, P)
    # RC* = C/N exactly (the theorem's consequence of dq/dt = 0 with equal flows).
    assert fp["rc_bps"] == pytest.approx(40e9 / n, rel=1e-12)
    # Every derivative is zero: relative residuals at double precision after a bisection to
    # 1e-14 in ln p; 1e-9 leaves room for the rounding of the exp/log terms.
    for name, r in F.residuals(fp, n, P).items():
        assert abs(r) < 1e-9, (name, r)
    assert 0 < fp["p"] < 1 and 0 < fp["alpha"] < 1 and fp["rt_bps"] > fp["rc_bps"]
    # q* on the marking curve: p(q*) = p* below Kmax; on the step at Kmax otherwise.
    q_pkts = fp["q_bytes"] / P.packet_bytes
    if fp["on_kmax_step"]:
        assert fp["p"] > P.pmax and fp["q_bytes"] == P.kmax_bytes
    else:
        assert F.marking(q_pkts, P) == pytest.approx(fp["p"], rel=1e-9)


def test_p_equation_is_monotonic_so_p_star_is_unique():
    # CoNEXT 2016 §3, theorem "DCQCN's unique fixed point": the left side is monotonic in p, below
    # the right side at p → 0 and above it at p → 1. Checked on p ∈ [10⁻⁶, 1 %]: above ~1.5 % the
    # factor (1 − p)^(F·B) (F·B = 5·10⁴ packets) underflows to 0 in double precision and the left
    # side is +∞, which the bisection reads correctly as "above".
    for n in (2, 10, 64):
        ps = np.geomspace(1e-6, 1e-2, 400)
        lhs = np.array([F.p_lhs(p, n, P) for p in ps])
        assert np.all(np.diff(lhs) > 0)
        rhs = F.p_rhs(n, P)
        assert lhs[0] < rhs and F.p_lhs(0.5, n, P) > rhs


def test_q_star_grows_with_n():
    # CoNEXT 2016 §3 Stability: "the queue length q* is determined by p* …, which depends on the
    # number of flows N". p* grows strictly with N; q* with it until p* passes Pmax (then q* = Kmax).
    fps = [F.fixed_point(n, P) for n in range(1, 33)]
    ps = [fp["p"] for fp in fps]
    qs = [fp["q_bytes"] for fp in fps]
    assert all(b > a for a, b in zip(ps, ps[1:]))
    assert all(b >= a for a, b in zip(qs, qs[1:]))
    below = [fp["q_bytes"] for fp in fps if not fp["on_kmax_step"]]
    assert len(below) >= 2 and all(b > a for a, b in zip(below, below[1:]))


def test_cube_root_form_is_the_small_p_limit():
    # The paper's p* ≈ ∛(…) drops O(p⁴) terms. With R_AI 10⁶ times smaller, p* is ~100 times
    # smaller (p* ∝ R_AI^(1/3)), τ·RC*·p* and B·p* are ≲ 10⁻¹, and the byte-counter term is ~1 % of
    # the timer term: the two must agree within 2 % (the remaining first-order terms).
    small = F.Params(r_ai_bps=40.0)
    for n in (2, 4, 8):
        exact, approx = F.fixed_point(n, small)["p"], F.p_star_approx(n, small)
        assert approx == pytest.approx(exact, rel=0.02)


def test_params_are_validated():
    with pytest.raises(ValueError, match="Kmin"):
        F.Params(kmin_bytes=300e3)
    with pytest.raises(ValueError, match="pmax"):
        F.Params(pmax=-0.1)
    with pytest.raises(ValueError, match="whole number"):
        F.integrate(2, F.Params(tau_star_s=4e-6), duration_s=1e-3, dt_s=3e-6)
    with pytest.raises(ValueError, match="n_flows"):
        F.fixed_point(0, P)


# Settling. The fixed point is an exact equilibrium of the same equations, so what separates the
# integrated state from it at the end is the transient left and the integrator's error (Heun, step
# 0.5 µs = τ*/8). The slowest mode is α's, time constant τ'/g = 14 ms; after 120 ms (8.5 of them) a
# settled run has lost its transient. "Settled" over the last 20 ms: mean queue within ±10 % of q*,
# queue peak-to-peak below 10 % of q*, mean RC within ±2 % of C/N. The queue gets the wider band
# because q* is set by p* through the marking slope, which amplifies a small rate error.
SETTLE = dict(duration_s=0.12, dt_s=0.5e-6)
TAIL_S = 0.02


def _settled(run: dict, fp: dict, n: int) -> tuple[bool, str]:
    tail = run["t"] >= run["t"][-1] - TAIL_S
    q, rc = run["q_bytes"][tail], run["rc_bps"][tail]
    mean_ok = abs(q.mean() - fp["q_bytes"]) <= 0.10 * fp["q_bytes"]
    ptp_ok = np.ptp(q) <= 0.10 * fp["q_bytes"]
    rc_ok = abs(rc.mean() - 40e9 / n) <= 0.02 * 40e9 / n
    why = f"q mean {q.mean():.0f} B vs q* {fp['q_bytes']:.0f} B, ptp {np.ptp(q):.0f} B, RC {rc.mean() / 1e9:.3f} Gb/s"
    return mean_ok and ptp_ok and rc_ok, why


@pytest.mark.parametrize("n", [2, 10])
def test_dde_settles_at_the_fixed_point_with_a_short_feedback_delay(n):
    # CoNEXT 2016 §3 Stability: "When the feedback delay is small (4 µs), DCQCN is stable — flow
    # rates, and queue length quickly stabilizes regardless of the number of flows."
    p4 = F.Params(tau_star_s=4e-6)
    run = F.integrate(n, p4, **SETTLE)
    ok, why = _settled(run, F.fixed_point(n, p4), n)
    assert ok, why


def test_dde_does_not_settle_with_ten_flows_and_85us():
    # CoNEXT 2016 §3 Stability: "when the delay is large (85 µs), the protocol is unstable for
    # 10 flows". The same settling test, which the 4-µs runs pass, must fail.
    p85 = F.Params(tau_star_s=85e-6)
    run = F.integrate(10, p85, **SETTLE)
    ok, why = _settled(run, F.fixed_point(10, p85), 10)
    assert not ok, why
