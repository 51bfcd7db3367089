"""ACS action dice: the text's examples, giant dice, duplicates (RULINGS part A)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.engine.dice import Dice
from sim.rules.acs.action_dice import (
    ActionDie,
    action_dice,
    action_die,
    place_actions,
    roll_action_segments,
)


def no_reroll(sides: int) -> int:
    raise AssertionError("no re-roll expected")


def rerolls(*faces: int, sides: int):
    """A roller that gives ``faces`` in order and checks each re-roll is of the die rolled."""
    script = iter(faces)

    def roll(asked: int) -> int:
        assert asked == sides
        return next(script)

    return roll


def test_text_example_two_actions_2_and_8():
    segments, log = place_actions([2, 8], action_die(2), no_reroll)
    assert segments == [2, 8]
    assert log == []


def test_text_example_3_3_4_8_slides_to_3_4_5_8():
    segments, log = place_actions([3, 3, 4, 8], action_die(4), no_reroll)
    assert segments == [3, 4, 5, 8]
    assert log == [("slide", 3, 5)]  # "slide one of the two ... which would be 5"


def test_slide_never_moves_lower_and_rerolls_when_nothing_is_open_above():
    # 10 is taken, 2 is open
    segments, log = place_actions([9, 10, 10], action_die(3), rerolls(10, 2, sides=10))
    assert segments == [2, 9, 10]
    assert log == [("reroll", 10, 2)]


def test_reroll_mode_rerolls_instead_of_sliding():
    segments, log = place_actions([3, 3], action_die(2), rerolls(3, 7, sides=10), "reroll")
    assert segments == [3, 7]
    assert log == [("reroll", 3, 7)]


@pytest.mark.parametrize(
    ("actions", "sides", "first"),
    [(1, 4, 7), (2, 6, 5), (3, 8, 3), (4, 10, 1), (6, 10, 1)],
)
def test_giant_dice_and_their_segments(actions, sides, first):
    die = action_die(actions, giant=True)
    assert die == ActionDie(sides, 10 - sides)
    assert die.first_segment == first
    assert die.segment(sides) == 10


def test_text_example_giant_d4_two_is_segment_8_and_one_is_7():
    die = action_die(1, giant=True)
    assert die.segment(2) == 8
    assert die.segment(1) == 7


def test_normal_size_always_d10_from_segment_1():
    for actions in range(1, 11):
        assert action_die(actions) == ActionDie(10, 0)


def test_giant_duplicates_slide_within_the_giant_range():
    die = action_die(2, giant=True)  # 2d6 -> segments 5..10
    assert place_actions([5, 5], die, no_reroll) == ([9, 10], [("slide", 9, 10)])
    # segment 10 again, then face 1 = segment 5
    segments, log = place_actions([6, 6], die, rerolls(6, 1, sides=6))
    assert segments == [5, 10]
    assert log == [("reroll", 10, 5)]


def test_simultaneous_actions_let_two_share_a_segment_but_not_three():
    segments, log = place_actions([4, 4, 4], action_die(3), no_reroll, per_segment=2)
    assert segments == [4, 4, 5]
    assert log == [("slide", 4, 5)]


def test_more_actions_than_segments_is_refused():
    with pytest.raises(ValueError):
        place_actions([1, 2, 3, 4, 1], action_die(1, giant=True), no_reroll)


def test_roll_action_segments_rolls_every_die_then_the_rerolls_from_one_stream():
    # The clock's call: three d10 faces 9, 10, 10 in order; the second 10 has nothing open
    # above it and is re-rolled from the same stream (10 again, then 2).
    dice = Dice.from_faces([(9, 10), (10, 10), (10, 10), (10, 10), (2, 10)])
    segments, faces, log = roll_action_segments(action_die(3), (10, 10, 10), dice.roll)
    assert (segments, faces, log) == ([2, 9, 10], [9, 10, 10], [("reroll", 10, 2)])
    assert not dice._buffer


def test_roll_action_segments_gives_a_giant_its_late_segments():
    dice = Dice.from_faces([(2, 4)])  # one action: a d4, face 2 is segment 8
    assert roll_action_segments(action_die(1, giant=True), (4,), dice.roll) == ([8], [2], [])


def test_distinct_faces_keep_their_segments_without_rolling_more():
    dice = Dice.from_faces([(4, 6), (1, 6)])  # a giant's 2d6: faces 4 and 1
    assert roll_action_segments(action_die(2, giant=True), (6, 6), dice.roll) == (
        [5, 8],
        [4, 1],
        [],
    )


@given(
    actions=st.integers(1, 10),
    giant=st.booleans(),
    mode=st.sampled_from(["slide", "reroll"]),
    share=st.booleans(),
    combat=st.integers(0, 10_000),
)
def test_segments_stay_in_the_die_range_one_per_segment(actions, giant, mode, share, combat):
    dice = Dice(7, combat)
    die = action_die(actions, giant)
    segments, faces, _ = roll_action_segments(
        die, action_dice(die, actions), dice.roll, mode, 2 if share else 1
    )
    assert len(segments) == actions == len(faces)
    assert all(die.first_segment <= s <= 10 for s in segments)
    assert all(1 <= f <= die.sides for f in faces)
    most = max(segments.count(s) for s in segments)
    assert most <= (2 if share else 1)
    assert segments == sorted(segments)


@given(
    faces=st.lists(st.integers(1, 10), min_size=1, max_size=10),
    giant=st.booleans(),
    mode=st.sampled_from(["slide", "reroll"]),
    share=st.booleans(),
    combat=st.integers(0, 10_000),
)
def test_roll_action_segments_places_its_faces_as_place_actions_does(
    faces, giant, mode, share, combat
):
    # Whatever shortcut roll_action_segments takes when no two dice share a segment, the
    # segments are those place_actions gives for the same faces and the same re-rolls.
    die = action_die(len(faces), giant)
    faces = [(face - 1) % die.sides + 1 for face in faces]
    per_segment = 2 if share else 1
    if len(faces) > die.sides * per_segment:
        return
    script = [(face, die.sides) for face in faces]
    tail = Dice(11, combat)
    rerolls = [(tail.roll(die.sides), die.sides) for _ in range(200)]
    got = roll_action_segments(
        die, action_dice(die, len(faces)), Dice.from_faces(script + rerolls).roll, mode, per_segment
    )
    again = Dice.from_faces(rerolls)
    want = place_actions(faces, die, again.roll, mode, per_segment)
    assert got == (want[0], faces, want[1])


def exact_segment_one_chance(actions: int) -> float:
    """Brute force over every face combination, re-rolls uniform over the open segments."""
    total = 0.0
    for faces in itertools.product(range(1, 11), repeat=actions):
        total += _chance_segment_one(list(faces), 0.1**actions)
    return total


def _chance_segment_one(faces: list[int], weight: float) -> float:
    # The rule as read: every die claims its face; duplicates then slide up in roll order, and
    # one with nothing open above is re-rolled, landing uniformly on an open segment.
    taken = set(faces)
    pending = [f for i, f in enumerate(faces) if f in faces[:i]]
    return _place(taken, pending, weight)


def _place(taken: set[int], pending: list[int], weight: float) -> float:
    if not pending:
        return weight if 1 in taken else 0.0
    face, rest = pending[0], pending[1:]
    above = [s for s in range(face + 1, 11) if s not in taken]
    if above:
        return _place(taken | {above[0]}, rest, weight)
    open_segments = [s for s in range(1, 11) if s not in taken]
    return sum(_place(taken | {s}, rest, weight / len(open_segments)) for s in open_segments)


@pytest.mark.parametrize("actions", [1, 2, 3])
def test_chance_of_an_action_on_segment_one_matches_exact_value(actions):
    from tests.conftest import within

    exact = exact_segment_one_chance(actions)
    if actions == 1:
        assert exact == pytest.approx(0.1)
    trials = 20_000
    hits = 0
    for k in range(trials):
        die = action_die(actions)
        segments, _, _ = roll_action_segments(die, action_dice(die, actions), Dice(2024, k).roll)
        hits += segments[0] == 1
    assert within(hits, trials, exact)
