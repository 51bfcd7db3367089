"""ACS ambition: the winner, same-segment order and pure-ambition roll-offs (RULINGS part A)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.engine.dice import Dice
from sim.rules.acs.ambition import ambition_order
from tests.conftest import within


def d12(*faces: int) -> Dice:
    return Dice.from_faces([(f, 12) for f in faces])


def test_highest_total_first_without_rolloffs():
    order, rolloffs = ambition_order([7, 12, 3], d12())
    assert order == [1, 0, 2]
    assert rolloffs == [[], [], []]


def test_tie_for_the_top_is_broken_by_pure_rolloff():
    order, rolloffs = ambition_order([9, 9, 4], d12(3, 11))
    assert order == [1, 0, 2]
    assert rolloffs == [[3], [11], []]


def test_rolloff_ties_reroll_only_among_the_tied():
    # Three tie at 8: roll-offs 5, 5, 2 -> the two fives roll again: 1 then 6.
    order, rolloffs = ambition_order([8, 8, 8], d12(5, 5, 2, 1, 6))
    assert order == [1, 0, 2]
    assert rolloffs == [[5, 1], [5, 6], [2]]


def test_ties_lower_down_are_also_rolled_off():
    order, _ = ambition_order([10, 4, 4], d12(2, 9))
    assert order == [0, 2, 1]


def test_tie_break_by_bonus_first_when_asked():
    order, rolloffs = ambition_order([9, 9], d12(), keys=[0, 2])
    assert order == [1, 0]
    assert rolloffs == [[], []]


def exact_win_chance(bonus_a: int, bonus_b: int) -> Fraction:
    """P(A wins ambition): higher total, or a tie won on an even pure roll-off."""
    wins = ties = 0
    for a in range(1, 13):
        for b in range(1, 13):
            wins += a + bonus_a > b + bonus_b
            ties += a + bonus_a == b + bonus_b
    return Fraction(wins, 144) + Fraction(ties, 144) / 2


@pytest.mark.parametrize(("bonus_a", "bonus_b"), [(0, 0), (2, 0), (0, 3), (5, 1)])
def test_chance_to_win_ambition_matches_exact_value(bonus_a, bonus_b):
    exact = float(exact_win_chance(bonus_a, bonus_b))
    trials = 20_000
    wins = 0
    for k in range(trials):
        dice = Dice(99, k)
        totals = [dice.roll(12) + bonus_a, dice.roll(12) + bonus_b]
        order, _ = ambition_order(totals, dice)
        wins += order[0] == 0
    assert within(wins, trials, exact)


def test_exact_win_chance_sanity():
    assert exact_win_chance(0, 0) == Fraction(1, 2)
    assert exact_win_chance(12, 0) == 1
