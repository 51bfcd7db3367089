"""Spending wiggle points: the searches against brute force, and their invariants."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.rules.prop3.pool import NOTHING, Kind, Outcome, Result, read_roll, resolve
from sim.rules.prop3.wiggle import (
    ATTACKER_POLICIES,
    DEFENDER_POLICIES,
    Response,
    best_response,
    best_roll,
    lowest_pair,
)

P, T = Result.pair, Result.triple
GRID = [(n, sides) for sides in (4, 6) for n in range(6)] + [(n, 8) for n in range(5)]


def _check_wiggled(wiggled, roll, sides, points):
    assert len(wiggled.faces) == len(roll)
    assert all(1 <= f <= sides for f in wiggled.faces)
    assert wiggled.spent == sum(abs(a - b) for a, b in zip(wiggled.faces, roll, strict=True))
    assert wiggled.spent <= points


@pytest.mark.parametrize(("n", "sides"), GRID)
def test_best_roll_and_lowest_pair_match_brute_force(brute, n, sides):
    for roll in itertools.combinations_with_replacement(range(1, sides + 1), n):
        # Shuffle the order so that the faces are mapped back die by die.
        rolled = roll[::-1][1:] + roll[::-1][:1]
        for points in range(4):
            for options in brute.MODES:
                best, low = brute.reach(roll, sides, points, **options)
                got = best_roll(rolled, sides, points, **options)
                assert got.result == best, (rolled, points, options)
                _check_wiggled(got, rolled, sides, points)
                assert read_roll(got.faces, **options) == got.result
                pair = lowest_pair(rolled, sides, points, **options)
                assert (0 if pair is None else pair.result.face) == low, (rolled, points, options)
                if pair is not None:
                    _check_wiggled(pair, rolled, sides, points)
                    assert pair.result.kind == Kind.PAIR


ATTACKS = [NOTHING, P(6), P(3, 1), P(2, 5), P(1, 2), T(6), T(4), T(3), T(2), T(1)]


@pytest.mark.parametrize(("n", "sides"), [(1, 6), (2, 6), (3, 6), (4, 6), (5, 4), (4, 8)])
def test_best_response_matches_the_rule(brute, n, sides):
    for roll in itertools.combinations_with_replacement(range(1, sides + 1), n):
        for points in range(3):
            for options in brute.MODES:
                reach = brute.reach(roll, sides, points, **options)
                for attack in ATTACKS:
                    defense = best_response(attack, roll, sides, points, **options)
                    assert resolve(attack, defense.result) == brute.outcome(attack, reach)
                    _check_wiggled(defense.wiggled, roll, sides, points)


def test_moving_a_die_changes_which_three_are_lowest():
    # Raising the 1 to a 5 (4 points) makes the lowest three 5, 5, 5: looking only at the kept
    # dice (1, 5, 5) would find the pair and miss the triple.
    assert read_roll((1, 5, 5, 5)) == P(5, 1)
    got = best_roll((1, 5, 5, 5), 8, 4)
    assert got.result == T(5)
    assert got.faces == (5, 5, 5, 5)
    # With 3 points no triple fits (triple 4s costs 3 + 1 + 1); lowering two 5s gives 4, 4 over
    # the 1, and the fourth die (a 5) stays above the kept three.
    got = best_roll((1, 5, 5, 5), 8, 3)
    assert got.result == P(4, 1)
    assert sorted(got.faces) == [1, 4, 4, 5]


def test_best_roll_raises_low_dice_when_that_is_cheapest():
    # 2, 6, 6, 6 with 4 points: the 2 goes up to 6.
    got = best_roll((6, 2, 6, 6), 8, 4)
    assert got.result == T(6)
    assert got.faces == (6, 6, 6, 6)
    # With 3 points: two 6s down to 5 and the 2 down to 1, a pair of 5s over a 1.
    got = best_roll((6, 2, 6, 6), 8, 3)
    assert got.result == P(5, 1)
    assert got.spent == 3


def test_best_roll_goes_for_a_lower_pair_then_a_lower_third_die():
    # 2, 4, 5, 6, 6 with one point: 5 -> 4 gives a pair of 4s with third die 2 (the text).
    got = best_roll((2, 4, 5, 6, 6), 8, 1)
    assert got.result == P(4, 2)
    assert got.faces == (2, 4, 4, 6, 6)
    # With two points: 4 -> 2 gives a pair of 2s, third die 5.
    assert best_roll((2, 4, 5, 6, 6), 8, 2).result == P(2, 5)
    # With three: 2 -> 4 and 5 -> 4 make triple 4s (the 6s stay above).
    assert best_roll((2, 4, 5, 6, 6), 8, 3).result == T(4)


def test_faces_stay_on_the_die():
    assert best_roll((1, 2, 4), 4, 6).result == T(1)
    assert best_roll((4, 4, 3), 4, 0).result == P(4, 3)
    got = best_roll((4, 3, 3), 4, 1)
    assert got.result == T(3)
    assert all(1 <= f <= 4 for f in got.faces)


def test_single_die_and_stat_at_one_move_a_die_to_one():
    assert best_roll((4,), 8, 3).result == P(1)
    assert best_roll((4,), 8, 2).result == NOTHING
    got = best_roll((5, 3, 7), 8, 2, only_ones=True)
    assert got.result == P(1)
    assert got.faces == (5, 1, 7)
    assert best_roll((), 8, 6).result == NOTHING


def test_response_defends_reduces_ties_or_gives_up():
    assert best_response(P(4, 2), (3, 3, 7), 8, 0).response == Response.DEFEND
    assert best_response(P(4, 2), (3, 5, 7), 8, 0).response == Response.NONE
    assert best_response(P(4, 2), (4, 4, 2), 8, 0).response == Response.TIE
    reduce = best_response(T(5), (2, 3, 7, 8), 8, 1)
    assert reduce.response == Response.REDUCE
    assert reduce.result.face < 5
    assert best_response(T(5), (2, 3, 7, 8), 8, 0).response == Response.NONE
    crit = best_response(P(1, 2), (2, 2, 3), 8, 1)
    assert crit.response == Response.DEFEND
    assert crit.result == T(2)
    assert resolve(P(1, 2), crit.result) == Outcome.CRITICAL_DEFENSE


def test_reducing_is_preferred_to_a_tie():
    # Triple 5s against 4, 5, 5, 5 with one point: a tie (triple 5s) or a pair of 4s...
    # 4 stays, one 5 -> 4: the lowest three are 4, 4, 5, a pair of 4s below the triple.
    defense = best_response(T(5), (4, 5, 5, 5), 8, 1)
    assert defense.response == Response.REDUCE
    assert resolve(T(5), defense.result) == Outcome.CRIT_REDUCED


def test_best_set_defender_may_count_a_pair_beside_a_losing_triple():
    defense = best_response(T(5), (2, 2, 6, 6, 6), 8, 0, keep="best_set")
    assert read_roll((2, 2, 6, 6, 6), keep="best_set") == T(6)
    assert defense.response == Response.REDUCE
    assert defense.result == P(2, 6)
    assert resolve(T(5), defense.result) == Outcome.CRIT_REDUCED


def test_policies_are_registered_by_name():
    assert ATTACKER_POLICIES["best"] is best_roll
    assert DEFENDER_POLICIES["best"] is best_response


def test_negative_points_are_refused():
    with pytest.raises(ValueError):
        best_roll((1, 2, 3), 6, -1)


ROLLS = st.integers(2, 12).flatmap(
    lambda sides: st.tuples(
        st.just(sides),
        st.lists(st.integers(1, sides), min_size=0, max_size=12),
        st.integers(0, 6),
        st.sampled_from(["lowest_three", "best_set"]),
        st.booleans(),
        st.booleans(),
    )
)


@given(ROLLS)
def test_wiggling_never_makes_a_roll_worse(case):
    sides, faces, points, keep, crit, ones = case
    options = {"keep": keep, "crit_allowed": crit, "only_ones": ones}
    got = best_roll(faces, sides, points, **options)
    assert got.result >= read_roll(faces, **options)
    assert read_roll(got.faces, **options) == got.result
    _check_wiggled(got, faces, sides, points)


@given(ROLLS)
def test_more_points_are_never_worse(case):
    sides, faces, points, keep, crit, ones = case
    options = {"keep": keep, "crit_allowed": crit, "only_ones": ones}
    assert (
        best_roll(faces, sides, points + 1, **options).result
        >= best_roll(faces, sides, points, **options).result
    )


_RESPONSE_ORDER = [Response.NONE, Response.TIE, Response.REDUCE, Response.DEFEND]


@given(ROLLS, st.sampled_from(ATTACKS))
def test_defender_response_is_consistent_and_monotone(case, attack):
    sides, faces, points, keep, crit, ones = case
    options = {"keep": keep, "crit_allowed": crit, "only_ones": ones}
    defense = best_response(attack, faces, sides, points, **options)
    outcome = resolve(attack, defense.result)
    if defense.response == Response.DEFEND:
        assert outcome in (Outcome.DEFENDED, Outcome.CRITICAL_DEFENSE)
    elif defense.response == Response.REDUCE:
        assert outcome == Outcome.CRIT_REDUCED
    elif defense.response == Response.TIE:
        assert outcome == Outcome.TIE
    else:
        assert outcome in (Outcome.FUMBLE, Outcome.HIT, Outcome.CRITICAL_HIT)
    if attack.kind != Kind.NOTHING:
        more = best_response(attack, faces, sides, points + 1, **options)
        assert _RESPONSE_ORDER.index(more.response) >= _RESPONSE_ORDER.index(defense.response)
