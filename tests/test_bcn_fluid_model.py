"""Jiang & Jain 2007 §V's analytic model of BCN (`cnsim.reproduce.jiang2007.fluid`) against its fixed
point and eq. (14)'s maximum, worked by hand (docs/analysis.md)."""

import math

import pytest

from cnsim import analysis as an
from cnsim.reproduce.jiang2007.fluid import BcnParams, bcn_equilibrium, bcn_fluid

C = 10e9
# Jiang & Jain 2007 §VI.D, Fig. 9 (parking lot) as routes: S1..S4 cross both trunks, S5 the first, S6 the second
PARKING_ROUTES = {**{f"S{i}": ["L1", "L2"] for i in range(1, 5)}, "S5": ["L1"], "S6": ["L2"]}


def approx(x, rel=1e-5):
    return pytest.approx(x, rel=rel)


K = 4 * 4e6 / 0.0124  # G_i R_u / G_d with Jiang & Jain 2007's defaults ≈ 1.290 Gb/s


def test_bcn_fluid_single_bottleneck_fixed_point():
    # symmetric sources: equal rates, Σ r = C, and the queue at Q_eq + σ Φ⁻¹(π) where the
    # negative-message probability π balances the increases: G_i R_u/(G_d r + G_i R_u) = π,
    # r = C/4 → π = K/(C/4 + K) = 0.3404, Φ⁻¹(0.3404) = −0.4113 → q = 16 − 0.411 = 15.589 packets
    df = bcn_fluid(4, duration=0.2)
    end = df.iloc[-1]
    rates = end[["S1", "S2", "S3", "S4"]]
    assert rates.to_list() == approx([C / 4] * 4, rel=1e-4)
    assert rates.sum() == approx(C, rel=1e-4)
    from scipy.stats import norm

    pi = K / (C / 4 + K)
    assert end["q:L"] == pytest.approx(16 + norm.ppf(pi), abs=0.01)
    assert end["q:L"] == pytest.approx(15.589, abs=0.01)
    assert list(df.columns) == ["t", "S1", "S2", "S3", "S4", "q:L"]


def test_bcn_fluid_queue_goes_to_qeq_as_the_feedback_sharpens():
    # e_sigma → 0 (the "Dirac delta" feedback of §V.B): q → Q_eq
    end = bcn_fluid(4, duration=0.2, e_sigma=0.02).iloc[-1]
    assert end["q:L"] == pytest.approx(16, abs=0.05)
    assert end[["S1", "S2", "S3", "S4"]].sum() == approx(C, rel=1e-4)


def test_bcn_fluid_unequal_starts_converge_to_equal_rates():
    df = bcn_fluid(4, rate0={"S1": 1e9, "S2": 1e8, "S3": 5e8, "S4": 2e9}, duration=2.0, points=11)
    end = df.iloc[-1]
    assert end[["S1", "S2", "S3", "S4"]].to_list() == approx([C / 4] * 4, rel=1e-4)


def test_bcn_fluid_parking_lot_reaches_eq14_maximum():
    # the fixed point maximises eq. (14) = Σ log(r_i + K) subject to (15): with both trunks full,
    # r5 + K = 2 (r1 + K) and 4 r1 + r5 = C, so r1 = (C − K)/6 = 1.4516 Gb/s, r5 = 4.1935 Gb/s and
    # r5/r1 = 2 + K/r1 = 2.889 — Jiang & Jain 2007's own defaults make K not small beside C/6.
    r1, r5 = (C - K) / 6, C - 4 * (C - K) / 6
    eq = bcn_equilibrium(routes=PARKING_ROUTES)
    assert eq[["S1", "S5"]].to_list() == approx([r1, r5], rel=1e-4)
    end = bcn_fluid(routes=PARKING_ROUTES, duration=2.0, points=11).iloc[-1]
    assert end[["S1", "S2", "S3", "S4"]].to_list() == approx([r1] * 4, rel=1e-4)
    assert end[["S5", "S6"]].to_list() == approx([r5] * 2, rel=1e-4)
    assert end["S5"] / end["S1"] == approx(2 + K / r1, rel=1e-4)
    assert end["S5"] / end["S1"] == approx(2.889, rel=1e-3)


def test_bcn_fluid_parking_lot_is_proportionally_fair_when_k_is_small():
    # "generally, 1 ≪ G_d r_i / (G_i R_u)" (§V.B): with G_d = 1.24, K = 12.9 Mb/s and the
    # fixed point is within 1 % of proportional fairness: r5/r1 = 2 + K/r1 = 2.0078
    k = 4 * 4e6 / 1.24
    r1 = (C - k) / 6
    end = bcn_fluid(routes=PARKING_ROUTES, duration=1.0, points=11, gd=1.24).iloc[-1]
    assert end["S1"] == approx(r1, rel=1e-4)
    assert end["S5"] / end["S1"] == approx(2 + k / r1, rel=1e-4)
    assert end["S5"] / end["S1"] == pytest.approx(2.0, rel=0.01)
    pf = an.proportional_fair(an.Network.from_routes(PARKING_ROUTES, C))
    assert end[["S1", "S5"]].to_list() == approx(pf[["S1", "S5"]].to_list(), rel=0.01)


def test_bcn_fluid_rejects_unknown_parameters():
    with pytest.raises(TypeError, match="unknown"):
        bcn_fluid(2, qeqq=3)
    assert not math.isnan(BcnParams().k)
