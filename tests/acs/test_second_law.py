"""The exact law of what decides a second: ambition order and action segments, by brute force.

Each law is held to the function the clock calls (``ambition_order``, ``roll_action_segments``)
played on every script of faces; re-rolls may go on without end, so the brute force stops at a
number of rolls and the law must lie within the chance left unexplored.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.engine.dice import Dice
from sim.engine.distribution import Distribution
from sim.rules.acs.action_dice import action_dice, action_die, roll_action_segments, segments_law
from sim.rules.acs.ambition import (
    ambition_bonus,
    ambition_law,
    ambition_order,
    roll_off_law,
    split_ties,
    tied_groups,
)
from sim.rules.acs.defenses import GONE, LostAction, costs_action, lost_action, next_free_segment
from sim.rules.acs.fighter import Timing
from sim.rules.acs.models import AcsClockOptions, AcsTiming
from sim.rules.acs.second import Contender, SecondPlan, second_law
from tests.acs.every_face import agrees, brute_law
from tests.acs.test_action_dice import exact_segment_one_chance
from tests.acs.test_ambition import exact_win_chance


def _ambition(bonuses, keys=None):
    """The clock's ambition step on scripted dice: each d12 in position order, then roll-offs."""

    def play(dice):
        totals = [dice.roll(12) + bonus for bonus in bonuses]
        order, _ = ambition_order(totals, dice, keys)  # type: ignore[arg-type]
        return tuple(order)

    return play


@pytest.mark.parametrize(
    ("bonuses", "keys", "max_rolls"),
    [([1, 0], None, 6), ([0, 0, 20], None, 5), ([2, 0, 2], [2, 1, 1], 5), ([3, 3], [3, 3], 6)],
)
def test_the_ambition_law_is_ambition_order_over_every_face(bonuses, keys, max_rolls):
    brute, left = brute_law(_ambition(bonuses, keys), max_rolls)
    assert left < Fraction(1, 20)
    assert agrees(ambition_law(bonuses, keys), brute, left)


@pytest.mark.parametrize(("bonus_a", "bonus_b"), [(0, 0), (2, 0), (0, 3), (5, 1), (12, 0)])
def test_the_ambition_law_gives_the_winner_by_hand(bonus_a, bonus_b):
    law = ambition_law([bonus_a, bonus_b])
    assert law.probability(lambda order: order[0] == 0) == exact_win_chance(bonus_a, bonus_b)


@pytest.mark.parametrize("size", [2, 3])
def test_roll_offs_favour_nobody(size):
    # Independent dice re-rolled alike: every order of a tied group is as likely as any other.
    assert roll_off_law(size) == Distribution.uniform(itertools.permutations(range(size)))


def test_a_roll_off_round_splits_by_faces_highest_first_keeping_group_order():
    assert split_ties([4, 1, 7], [5, 9, 5]) == [[1], [4, 7]]
    assert split_ties([0, 1], [3, 3]) == [[0, 1]]


def test_tied_groups_rank_by_total_then_key():
    assert tied_groups([9, 4, 9, 4]) == [[0, 2], [1, 3]]
    assert tied_groups([9, 9, 9], [1, 2, 1]) == [[1], [0, 2]]


@given(st.lists(st.integers(1, 40), min_size=1, max_size=8, unique=True))
def test_without_ties_the_order_is_the_groups_of_one(totals):
    order, rolloffs = ambition_order(totals, Dice.from_faces([]))
    assert order == [group[0] for group in tied_groups(totals)]
    assert rolloffs == [[]] * len(totals)


def test_prepared_ambition_adds_its_bonus_only_when_ready():
    assert ambition_bonus(1, True, 3) == 4
    assert ambition_bonus(1, False, 3) == 1


def _segments(die, actions, mode, per_segment):
    def play(dice):
        segments, _, _ = roll_action_segments(
            die, action_dice(die, actions), dice.roll, mode, per_segment
        )
        return tuple(segments)

    return play


@pytest.mark.parametrize(
    ("actions", "giant", "mode", "per_segment", "extra"),
    [
        (1, False, "slide", 1, 0),
        (2, False, "slide", 1, 3),
        (2, False, "reroll", 1, 3),
        (2, True, "slide", 1, 3),  # a giant's 2d6 on segments 5..10
        (3, True, "reroll", 1, 2),
        (3, False, "slide", 2, 2),  # simultaneous actions: two may share a segment
    ],
)
def test_the_segments_law_is_roll_action_segments_over_every_face(
    actions, giant, mode, per_segment, extra
):
    die = action_die(actions, giant)
    brute, left = brute_law(_segments(die, actions, mode, per_segment), actions + extra)
    assert left < Fraction(1, 20)
    assert agrees(segments_law(die, actions, mode, per_segment), brute, left)


@pytest.mark.parametrize("actions", [1, 2, 3])
def test_the_segments_law_gives_segment_one_as_the_rule_read_by_hand(actions):
    law = segments_law(action_die(actions), actions)
    exact = law.probability(lambda segments: segments[0] == 1)
    assert float(exact) == pytest.approx(exact_segment_one_chance(actions), rel=1e-12)


def test_the_segments_law_refuses_more_actions_than_segments():
    with pytest.raises(ValueError, match="do not fit"):
        segments_law(action_die(1, giant=True), 5)


def test_the_law_of_a_second_is_ambition_and_segments_side_by_side():
    red = Contender(bonus=1, key=0, die=action_die(2), actions=2, per_segment=1)
    blue = Contender(bonus=0, key=0, die=action_die(1), actions=1, per_segment=1)
    law = second_law([red, blue])
    assert sum(p for _, p in law) == 1
    assert law.map(lambda plan: plan.order) == ambition_law([1, 0])
    assert law.map(lambda plan: plan.segments[0]) == segments_law(action_die(2), 2)
    assert law.map(lambda plan: plan.segments[1]) == segments_law(action_die(1), 1)
    both = law.probability(SecondPlan((1, 0), ((1, 2), (1,))))
    assert both == ambition_law([1, 0]).probability((1, 0)) * Fraction(3, 100) * Fraction(1, 10)


def test_a_contender_is_read_from_its_timing_and_the_clock_options():
    timing = Timing.of(AcsTiming(hp=5, actions=3, ambition_bonus=2), AcsClockOptions())
    ready = Contender.of(timing, True, AcsClockOptions(tie_break="ambition_bonus"))
    assert ready == Contender(bonus=5, key=2, die=action_die(3), actions=3, per_segment=1)
    assert Contender.of(timing, False, AcsClockOptions()).bonus == 2


def test_a_defense_costs_the_action_planned_on_its_segment():
    assert costs_action([3, 5], 3)
    assert not costs_action([5], 3)
    assert not costs_action([3, 5], 3, option=False)
    assert not costs_action([], 3)


def test_a_lost_action_slides_to_the_next_free_segment_or_is_gone():
    assert next_free_segment([5], 3) == 4
    assert next_free_segment([4, 5], 3) == 6
    assert next_free_segment([10], 9) is None
    assert lost_action([5], 3, "slide", False) == LostAction(4, False)
    assert lost_action([10], 9, "slide", False) == GONE
    assert lost_action([5], 3, "drop", False) == GONE
    assert lost_action([5], 3, "defensive_maneuver", False) == LostAction(4, True)
    # Already maneuvering this second: the second lost action slides.
    assert lost_action([5], 3, "defensive_maneuver", True) == LostAction(4, False)
    assert lost_action([10], 9, "defensive_maneuver", False) == GONE
