"""The exact law type every exchange's distribution is given in (sim.engine.distribution)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from sim.engine.distribution import Distribution, rolls


def test_weights_are_merged_normalized_and_zeros_dropped():
    law = Distribution.of([("hit", 3), ("miss", 1), ("hit", 1), ("kill", 0)])
    assert law.table == {"hit": Fraction(4, 5), "miss": Fraction(1, 5)}
    assert law.outcomes == ("hit", "miss")
    assert law.probability("kill") == 0
    assert sum(p for _, p in law) == 1


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match="positive weight"):
        Distribution.of([("a", 0)])
    with pytest.raises(ValueError, match="negative"):
        Distribution.of([("a", 1), ("b", -1)])


def test_two_dice_sum_to_the_triangle():
    total = rolls(6, 6).map(sum)
    assert total.probability(7) == Fraction(6, 36)
    assert total.probability(2) == Fraction(1, 36)
    assert total.probability(lambda s: s >= 10) == Fraction(6, 36)
    assert total.expectation() == 7


def test_bind_weights_the_second_stage_by_the_first():
    # A d4 chooses how many d2 to roll: the chance of every face being 2 is mean(1/2**n).
    law = rolls(4).bind(lambda r: rolls(*[2] * r[0]).map(lambda faces: all(f == 2 for f in faces)))
    assert law.probability(True) == Fraction(1, 4) * sum(Fraction(1, 2**n) for n in range(1, 5))


def test_the_sampler_draws_each_outcome_as_often_as_its_chance():
    law = Distribution.of([("a", 1), ("b", 2), ("c", 7)])
    sampler = law.sampler()
    assert sampler.draw(0.0) == "a"
    assert sampler.draw(0.0999) == "a"
    assert sampler.draw(0.1) == "b"
    assert sampler.draw(0.2999) == "b"
    assert sampler.draw(0.3) == "c"
    assert sampler.draw(0.999999) == "c"
    stream = random.Random(5)
    n = 20_000
    count = sum(sampler.draw(stream.random()) == "b" for _ in range(n))
    se = (0.2 * 0.8 / n) ** 0.5
    assert abs(count / n - 0.2) < 4 * se


def test_equal_laws_are_equal_whatever_the_order():
    assert Distribution.of([(1, 1), (2, 1)]) == Distribution.of([(2, 5), (1, 5)])
    assert Distribution.of([(1, 1), (2, 1)]) != Distribution.of([(1, 1), (2, 2)])
