"""The paired statistics on their own: Tango's interval, McNemar's exact test, Holm, the t-test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.stats import binomtest, norm, ttest_rel

from analysis.compare import (
    holm,
    mcnemar_exact,
    newcombe_interval,
    paired_t_test,
    paired_win_difference,
    tango_interval,
)

Z = norm.ppf(0.975)


def brute_force_score(base_only: int, variant_only: int, n: int, delta: float) -> float:
    """Tango's score statistic with the constrained likelihood maximised numerically."""
    n12, n21, rest = variant_only, base_only, n - base_only - variant_only

    def minus_log_likelihood(p21: float) -> float:
        value = 0.0
        for count, p in ((n12, p21 + delta), (n21, p21), (rest, 1 - 2 * p21 - delta)):
            if count:
                value -= count * math.log(p)
        return value

    low, high = max(0.0, -delta) + 1e-13, (1 - delta) / 2 - 1e-13
    p21 = minimize_scalar(
        minus_log_likelihood, bounds=(low, high), method="bounded", options={"xatol": 1e-13}
    ).x
    return (n12 - n21 - n * delta) / math.sqrt(n * (2 * p21 + delta * (1 - delta)))


@pytest.mark.parametrize(
    ("base_only", "variant_only", "n"),
    [(36, 82, 1000), (5, 1, 50), (0, 3, 20), (2, 9, 30), (119, 90, 1000)],
)
def test_tango_interval_inverts_the_score_test(base_only, variant_only, n):
    low, high = tango_interval(base_only, variant_only, n)
    estimate = (variant_only - base_only) / n
    assert -1 <= low < estimate < high <= 1
    assert brute_force_score(base_only, variant_only, n, low) == pytest.approx(Z, abs=1e-5)
    assert brute_force_score(base_only, variant_only, n, high) == pytest.approx(-Z, abs=1e-5)


def test_tango_score_at_zero_is_mcnemars_statistic():
    # The interval excludes 0 exactly when McNemar's (asymptotic) statistic exceeds z.
    for b, c in ((36, 82), (40, 60), (50, 52)):
        chi = (c - b) / math.sqrt(b + c)
        low, _ = tango_interval(b, c, 1000)
        assert (low > 0) == (chi > Z)
        assert brute_force_score(b, c, 1000, 0.0) == pytest.approx(chi, abs=1e-6)


def test_no_discordant_pairs_give_zero_and_a_wilson_like_interval():
    low, high = tango_interval(0, 0, 1000)
    bound = Z**2 / (1000 + Z**2)
    assert low == pytest.approx(-bound, abs=1e-9) and high == pytest.approx(bound, abs=1e-9)


def test_all_pairs_discordant_one_way_reach_the_edge():
    low, high = tango_interval(10, 0, 10)
    assert low == -1.0 and high < 0


def test_mcnemar_exact_is_the_binomial_test_on_discordant_pairs():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(36, 82) == pytest.approx(binomtest(82, 118, 0.5).pvalue)
    assert mcnemar_exact(5, 5) == 1.0


def test_holm_step_down():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_newcombe_hybrid_score_interval_matches_the_paper():
    # Newcombe (1998), example (a): 56/70 - 48/80, method 10: 0.0524 to 0.3339.
    low, high = newcombe_interval(48, 80, 56, 70)
    assert low == pytest.approx(0.0524, abs=1e-4)
    assert high == pytest.approx(0.3339, abs=1e-4)


def test_paired_t_test_agrees_with_scipy_and_handles_equal_pairs():
    rng = np.random.default_rng(3)
    base = rng.exponential(5, 300)
    variant = base + rng.normal(0.2, 1, 300)
    t, p = paired_t_test(base, variant)
    expected = ttest_rel(variant, base)
    assert t == pytest.approx(expected.statistic) and p == pytest.approx(expected.pvalue)
    assert paired_t_test(base, base) == (0.0, 1.0)


def test_paired_win_difference_counts():
    base = [True, True, False, False, True]
    variant = [True, False, True, True, True]
    d = paired_win_difference(base, variant, "v", "red")
    assert (d.base_only, d.variant_only, d.base_wins, d.variant_wins) == (1, 2, 3, 4)
    assert d.difference == pytest.approx(0.2)
    assert d.difference == pytest.approx(d.variant_rate - d.base_rate)
