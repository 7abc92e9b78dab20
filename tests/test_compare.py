"""The reports' one statistical rule (cnsim.reproduce.compare), against hand-computed intervals.

Hand computations: [1, 2, 3] has mean 2, s = 1, t₀.₉₇₅,₂ = 4.3027, so the 95 % half-width is
4.3027 / √3 = 2.4841. Welch for a = [10, 12, 14, 16] (mean 13, s² = 20/3) and b = [1, 2, 3]
(mean 2, s² = 1): SE² = (20/3)/4 + 1/3 = 2, ν = 2² / ((5/3)²/3 + (1/3)²/2) = 4.0755,
t₀.₉₇₅,ν = 2.7563, half-width 2.7563 · √2 = 3.8980.
"""

import math

import pytest

from cnsim.reproduce import compare
from cnsim.reproduce.compare import (BY_CONSTRUCTION, INCONCLUSIVE, NOT_SUPPORTED, SUPPORTED, against, all_of,
                                     beyond, by_construction, exceeds, interval, similar, tolerance, welch)


def test_t_interval_matches_hand_computation():
    iv = interval([1.0, 2.0, 3.0])
    assert iv.mean == 2.0 and iv.n == 3
    assert iv.half == pytest.approx(2.4841, abs=1e-4)


def test_welch_interval_matches_hand_computation():
    iv = welch([10, 12, 14, 16], [1, 2, 3])
    assert iv.mean == 11.0
    assert iv.half == pytest.approx(3.8980, abs=1e-3)


def test_one_run_is_never_a_verdict():
    assert against([2.11], 2.11, 0.1).state == INCONCLUSIVE
    assert exceeds([5.0], [1.0], 0.5).state == INCONCLUSIVE
    assert beyond([5.0], 1.0).state == INCONCLUSIVE


def test_against_paper_three_states():
    # interval 2 ± 2.48 against 2 ± 3: inside
    assert against([1, 2, 3], 2.0, 3.0).state == SUPPORTED
    # against 10 ± 1: [−0.48, 4.48] wholly below 9
    assert against([1, 2, 3], 10.0, 1.0).state == NOT_SUPPORTED
    # against 4 ± 1: straddles the lower boundary 3
    assert against([1, 2, 3], 4.0, 1.0).state == INCONCLUSIVE


def test_a_precise_value_outside_a_tight_band_is_not_supported():
    # the Table III case: 2.45 ± 0.10 against 2.11 ± 0.2 is wholly above 2.31
    values = [2.40, 2.45, 2.50, 2.43, 2.47]
    assert against(values, 2.11, 0.2).state == NOT_SUPPORTED


def test_exceeds_needs_significance_and_the_minimum_effect():
    a, b = [10, 12, 14, 16], [1, 2, 3]          # difference 11 ± 3.90: [7.10, 14.90]
    assert exceeds(a, b, 5.0).state == SUPPORTED
    assert exceeds(b, a, 5.0, direction=-1).state == SUPPORTED
    assert exceeds(a, b, 5.0, direction=-1).state == NOT_SUPPORTED   # significantly the other way
    assert exceeds(a, b, 12.0).state == INCONCLUSIVE                  # significant, below the minimum effect
    # no effect of the minimum size shown: the whole interval within ± the minimum effect
    assert exceeds([1.0, 1.1, 0.9, 1.0], [1.0, 0.9, 1.1, 1.05], 1.0).state == NOT_SUPPORTED
    # noisy: the interval straddles 0
    assert exceeds([1, 5, 9], [2, 4, 6], 1.0).state == INCONCLUSIVE


def test_paired_difference_uses_per_seed_differences():
    a = {1: 10.0, 2: 20.0, 3: 30.0}
    b = {1: 9.0, 2: 19.1, 3: 28.9}            # differences 1.0, 0.9, 1.1: tight, though each side is wide
    assert exceeds(a, b, 0.5, paired=True).state == SUPPORTED
    assert exceeds(list(a.values()), list(b.values()), 0.5).state == INCONCLUSIVE


def test_similar_three_states():
    assert similar([1.0, 1.01, 0.99], [1.0, 1.02, 0.98], 0.1).state == SUPPORTED
    assert similar([1.0, 1.01, 0.99], [2.0, 2.01, 1.99], 0.1).state == NOT_SUPPORTED
    assert similar([1, 2, 3], [1, 2, 3.5], 0.5).state == INCONCLUSIVE


def test_beyond_a_reference():
    assert beyond([10, 11, 12], 5.0).state == SUPPORTED
    assert beyond([10, 11, 12], 5.0, direction=-1).state == NOT_SUPPORTED
    assert beyond([1, 5, 9], 5.0).state == INCONCLUSIVE


def test_conjunction():
    s, n, i = (compare.Verdict(x, x) for x in (SUPPORTED, NOT_SUPPORTED, INCONCLUSIVE))
    assert all_of([s, s]).state == SUPPORTED
    assert all_of([s, i]).state == INCONCLUSIVE
    assert all_of([s, i, n]).state == NOT_SUPPORTED
    assert all_of([]).state == INCONCLUSIVE


def test_by_construction_is_its_own_state():
    v = by_construction("Rmin is a scenario parameter")
    assert v.state == BY_CONSTRUCTION and "Rmin" in v.evidence
    with pytest.raises(ValueError):
        compare.Verdict("agrees", "")


def test_default_tolerances_by_unit():
    assert tolerance(4.0, "s") == compare.TIME_TOL_S
    assert tolerance(0.9, "1") == compare.JAIN_TOL
    assert tolerance(100.0, "Mb/s") == pytest.approx(20.0)
    assert tolerance(0.0, "%") == compare.FLOORS["%"]


def test_interval_ignores_missing_values():
    iv = interval([1.0, None, float("nan"), 3.0])
    assert iv.n == 2 and iv.mean == 2.0 and math.isfinite(iv.half)


def test_the_rule_text_states_the_tolerances():
    for part in (f"{compare.REL_TOL:.0%}", f"{compare.TIME_TOL_S:g} s", f"{compare.JAIN_TOL:g}", "Welch", "inconclusive"):
        assert part in compare.RULE
