"""The reports' comparison rule (cnsim.reproduce.compare): cases that must agree and must not.

`old_rule` is the rule the reports used before (|mean − paper| ≤ max(25 %, 0.25) + 2 SE); the cases
marked "old rule" show it accepted what the new rule rejects."""

import statistics as st

import pytest

from cnsim.reproduce.compare import difference, row_verdicts, similar, verdict


def old_rule(paper, values):
    mean, sd, n = st.fmean(values), st.stdev(values), len(values)
    return abs(mean - paper) <= max(0.25 * abs(paper), 0.25) + 2 * sd / n ** 0.5


# 150 ± 91 Mb/s (std over 3 seeds) against the paper's 67.65 Mb/s
WIDE = [150 - 91, 150, 150 + 91]
# a first CNM at 3.2 s against the paper's "after the first 4 s"
EARLY = [3.2, 3.21, 3.19]


def test_old_rule_accepted_what_must_not_agree():
    assert old_rule(67.65, WIDE) and old_rule(4.0, EARLY)


def test_wide_interval_does_not_agree():
    assert verdict(67.65, WIDE, "Mb/s") != "agrees"


def test_first_cnm_at_3_2_s_differs_from_4_s():
    assert verdict(4.0, EARLY, "s") == "differs"


@pytest.mark.parametrize("paper, values, unit", [
    (4.0, [4.0055, 4.0056, 4.0054, 4.0055], "s"),
    (2.49, [2.4, 2.5, 2.45, 2.55, 2.42, 2.47, 2.52, 2.44, 2.5, 2.46], "%"),
    (0.0, [0.0, 0.1, 0.0, 0.05, 0.0], "%"),
    (67.65, [66, 70, 68, 65, 69, 67, 68, 66, 70, 67], "Mb/s"),
])
def test_tight_intervals_near_the_paper_agree(paper, values, unit):
    assert verdict(paper, values, unit) == "agrees"


def test_one_seed_is_never_in_agreement():
    assert verdict(4.0, [4.0], "s") == "inconclusive"


def test_trend_gate():
    paper = [10.0, 20.0, 30.0]
    flat = [[20.0, 20.1, 19.9]] * 3
    rising = [[10.0, 10.1, 9.9], [20.0, 20.1, 19.9], [30.0, 30.1, 29.9]]
    assert row_verdicts(paper, rising, "%") == ["agrees"] * 3
    assert row_verdicts(paper, flat, "%") == ["differs", "agrees, trend differs", "differs"]


def test_differences_need_significance_and_size():
    a, b = [10.0, 10.2, 9.8, 10.1], [5.0, 5.1, 4.9, 5.2]
    assert difference(a, b, "%") == 1 and difference(b, a, "%") == -1
    assert difference([10.0, 10.2, 9.8], [9.7, 9.9, 9.5], "%") == 0   # significant but < 20 %
    assert difference([10.0, 30.0, 2.0], [5.0, 25.0, 1.0], "%") == 0  # large but not significant
    assert similar([0.9, 0.91, 0.9], [0.89, 0.9, 0.9], "1") and not similar([0.9, 0.91], [0.6, 0.61], "1")
