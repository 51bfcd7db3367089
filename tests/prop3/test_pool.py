"""Pool sizing, reading rolls and resolving attacks (RULINGS part C: Pool, Reading, Resolving)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.engine.dice import Dice
from sim.rules.prop3.pool import (
    NOTHING,
    ONES,
    Kind,
    Outcome,
    Result,
    can_crit,
    die_for,
    only_ones,
    pool_size,
    read_roll,
    resolve,
    roll_pool,
)

P, T = Result.pair, Result.triple


@pytest.mark.parametrize(
    ("proficiency", "sides"),
    [("excellent", 4), ("good", 6), ("average", 8), ("fair", 10), ("poor", 12)],
)
def test_die_size_follows_proficiency(proficiency, sides):
    assert die_for(proficiency) == sides


def test_unknown_proficiency_is_refused():
    with pytest.raises(ValueError, match="proficiency"):
        die_for("great")


def test_pool_is_the_stat():
    assert pool_size(4) == 4
    assert pool_size(12) == 12


def test_size_adds_or_removes_vigor_dice_only():
    assert pool_size(5, size=2, vigor=True) == 7
    assert pool_size(5, size=-2, vigor=True) == 3
    assert pool_size(5, size=2, vigor=False) == 5


def test_disadvantages_and_other_losses_take_dice_down_to_zero():
    assert pool_size(4, disadvantages=1) == 3
    assert pool_size(4, disadvantages=2, lost=1) == 1
    assert pool_size(2, lost=5) == 0
    assert pool_size(0, size=3, vigor=True) == 0


def test_stat_flags():
    assert [can_crit(stat) for stat in (4, 3, 2, 1)] == [True, True, False, False]
    assert [only_ones(stat) for stat in (4, 3, 2, 1)] == [False, False, False, True]


def test_result_order_classes_faces_and_third_die():
    ordered = [
        NOTHING,
        P(6),  # no third die: loses to an equal pair that has one
        P(6, 5),
        P(6, 1),
        P(2, 7),
        P(2, 1),
        P(1),
        P(1, 3),
        T(6),
        T(2),
        T(1),
    ]
    assert sorted(reversed(ordered)) == ordered
    for worse, better in itertools.pairwise(ordered):
        assert worse < better
        assert better > worse
        assert worse != better
    assert P(4, 2) == P(4, 2)
    assert not P(4, 2) < P(4, 2)


def test_result_rank_round_trips():
    for result in [NOTHING, P(3), P(3, 1), P(12, 11), T(1), T(12), Result.triple(4, 2)]:
        assert Result.from_rank(result.rank) == result


def test_equal_results_and_only_they_hash_alike():
    # The hash is the rank: a dict or cache keyed by results tells every result apart.
    results = [NOTHING] + [P(f, t) for f in (1, 6, 12) for t in (None, 1, 5, 12) if t != f]
    results += [T(f) for f in (1, 6, 12)] + [Result.triple(4, 2), Result.triple(4, 3)]
    for a in results:
        for b in results:
            assert (hash(a) == hash(b)) == (a == b), (a, b)
        assert hash(Result(a.kind, a.face, a.third)) == hash(a)
    assert len(set(results)) == len(results)


def test_results_must_be_well_formed():
    with pytest.raises(ValueError):
        Result(Kind.NOTHING, 3)
    with pytest.raises(ValueError):
        Result(Kind.TRIPLE, 3, 0)
    with pytest.raises(ValueError):
        Result(Kind.PAIR, 0)


@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        ((3, 5, 7, 1), NOTHING),  # lowest three 1, 3, 5
        ((4, 4, 2, 9), P(4, 2)),
        ((4, 4, 6, 9), P(4, 6)),
        ((5, 5, 5, 1), P(5, 1)),  # lowest three 1, 5, 5: not a triple
        ((5, 5, 5, 7), T(5)),
        ((1, 2, 3, 3, 3), NOTHING),  # the triple is not among the lowest three
        ((2, 2), P(2)),
        ((2, 3), NOTHING),
    ],
)
def test_lowest_three(faces, expected):
    assert read_roll(faces) == expected


@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        ((1, 2, 3, 3, 3), T(3)),
        ((1, 1, 6, 6, 6), T(6)),  # any triple beats any pair
        ((1, 2, 4, 6, 6, 8), P(6, 1)),  # the lowest other die breaks ties
        ((3, 5, 5, 2, 2), P(2, 3)),  # the lowest pair anywhere
        ((3, 5, 7), NOTHING),
        ((4, 4), P(4)),
    ],
)
def test_best_set(faces, expected):
    assert read_roll(faces, keep="best_set") == expected


def test_stat_at_two_cannot_crit():
    assert read_roll((5, 5, 5, 7), crit_allowed=False) == P(5, 5)
    assert read_roll((5, 5, 5, 7), keep="best_set", crit_allowed=False) == P(5, 5)
    assert read_roll((1, 5, 5, 5), keep="best_set", crit_allowed=False) == P(5, 1)
    assert read_roll((2, 2, 5), crit_allowed=False) == P(2, 5)


def test_stat_at_one_succeeds_only_on_a_one():
    assert read_roll((1, 1, 1), only_ones=True) == ONES
    assert read_roll((4, 1, 6), only_ones=True) == ONES
    assert read_roll((2, 2, 2), only_ones=True) == NOTHING
    assert P(1) == ONES


def test_a_single_die_succeeds_only_on_a_one_and_no_dice_fail():
    assert read_roll((1,)) == ONES
    assert read_roll((2,)) == NOTHING
    assert read_roll(()) == NOTHING
    assert P(1, 2) > ONES  # the lowest pair, but without a third die
    assert P(2, 1) < ONES
    assert T(6) > ONES  # never a critical


def test_unknown_keep_mode_is_refused():
    with pytest.raises(ValueError, match="keep"):
        read_roll((1, 1, 2), keep="highest")


@given(st.lists(st.integers(1, 12), min_size=3, max_size=12))
def test_best_set_is_never_worse_than_lowest_three(faces):
    assert read_roll(faces, keep="best_set") >= read_roll(faces)


def test_roll_pool_uses_the_stream():
    dice = Dice.from_faces([(3, 8), (8, 8), (1, 8)])
    assert roll_pool(dice, 3, 8) == (3, 8, 1)
    seeded = roll_pool(Dice(7, 0), 12, 12)
    assert seeded == roll_pool(Dice(7, 0), 12, 12)
    assert all(1 <= f <= 12 for f in seeded)


@pytest.mark.parametrize(
    ("attack", "defense", "expected"),
    [
        (NOTHING, T(1), Outcome.FUMBLE),
        (NOTHING, NOTHING, Outcome.FUMBLE),
        (P(4, 2), NOTHING, Outcome.HIT),
        (P(4, 2), P(5, 1), Outcome.HIT),
        (P(4, 2), P(3, 7), Outcome.DEFENDED),
        (P(4, 2), P(4, 1), Outcome.DEFENDED),
        (P(4, 2), P(4, 3), Outcome.HIT),
        (P(4, 2), P(4, 2), Outcome.TIE),
        (P(4, 2), P(4), Outcome.HIT),
        (P(4), P(4), Outcome.TIE),
        (P(1, 2), T(6), Outcome.CRITICAL_DEFENSE),
        (T(5), NOTHING, Outcome.CRITICAL_HIT),
        (T(5), P(4, 9), Outcome.CRIT_REDUCED),
        (T(5), P(5, 1), Outcome.CRITICAL_HIT),
        (T(5), P(6, 1), Outcome.CRITICAL_HIT),
        (T(5), T(6), Outcome.CRITICAL_HIT),
        (T(5), T(4), Outcome.CRITICAL_DEFENSE),
        (T(5), T(5), Outcome.TIE),
        (T(2), ONES, Outcome.CRIT_REDUCED),
        (T(1), ONES, Outcome.CRITICAL_HIT),
    ],
)
def test_resolve(attack, defense, expected):
    assert resolve(attack, defense) == expected
