"""Proposition Three's ranged rules on the ACS clock, each as it acts in rounds.

Every rule that acts at range in ``rules: prop3`` (``test_ranged_combat``) is shown here acting
on the clock, through the same functions (``missiles.missile_attack``, ``missiles.shot_reach``):
range increments, maximum range, ``min_shot_dice``, aiming (a round of aim is ``aim_actions``
actions), size, missile defense by form (an ACS defense: it costs the target its action on the
segment), armor after a failed defense, focused fire over the ACS second, running out of shots,
a dropped bow picked up, counter-attacks at range. Scripted dice: a script that is not used up
exactly fails the test.
"""

from __future__ import annotations

import pytest

from tests.prop3.clock_helpers import (
    ARCHER,
    JUST_A_MISS,
    TARGET,
    clock,
    d8,
    events,
    kinds,
    no_pair,
    second,
    with_,
)
from tests.prop3.scripted import scripted

A_FIRST = second((10, [5]), (1, [5]))
"""A ranks first; both act on segment 5."""


@pytest.mark.parametrize(("distance", "increments"), [(3, 1), (5, 1), (6, 2), (15, 3), (25, 5)])
def test_each_increment_beyond_the_first_costs_a_die_and_gives_the_target_a_point(
    distance, increments
):
    dice_a = 6 - (increments - 1)
    faces = A_FIRST + no_pair(dice_a) + JUST_A_MISS
    _combat, trace = scripted(clock(ARCHER, TARGET, distance), faces)
    (shot,) = events(trace, "shoot")
    assert (shot.data["distance"], shot.data["increments"]) == (distance, increments)
    (x,) = events(trace, "exchange")
    assert (x.data["dice"], x.data["d_dice"], x.data["d_wiggle"]) == (dice_a, 4, increments - 1)
    (act,) = [e for e in events(trace, "act") if e.actor == "A"]
    assert act.data["shot"] == distance and act.data["unit"] == "feet"


def test_no_shot_beyond_the_maximum_range_the_archer_closes_in_over_its_actions():
    # 5 ft a round (speed), a round is round_seconds of the clock, spread over 1 action a second.
    _combat, trace = scripted(clock(ARCHER, TARGET, 30), A_FIRST)
    (move,) = [e for e in events(trace, "move") if e.actor == "A"]
    assert move.data["end"] == pytest.approx(5 / 6) and move.data["unit"] == "feet"
    assert "shoot" not in kinds(trace)
    quick = clock(ARCHER, TARGET, 30, {"round_seconds": 3})
    _combat, trace = scripted(quick, A_FIRST)
    assert events(trace, "move")[0].data["end"] == pytest.approx(5 / 3)
    held = with_(ARCHER, tactics={"movement": "hold"})
    _combat, trace = scripted(clock(held, TARGET, 30), A_FIRST)
    assert [e.actor for e in events(trace, "hold")] == ["A", "T"]


def test_min_shot_dice_keeps_an_archer_closing_in_until_its_pool_is_big_enough():
    # 6 dice, at least 4 kept: 2 increments beyond the first, 15 ft (the round's shot_reach).
    # 60 ft a round over 6 s and 2 actions: 5 ft an action; the second move stops at 15 ft.
    picky = with_(ARCHER, actions=2, speed=60, tactics={"min_shot_dice": 4})
    _combat, trace = scripted(clock(picky, TARGET, 25), second((10, [2, 5]), (1, [9])))
    assert [round(e.data["distance"], 3) for e in events(trace, "move")] == [20, 15]
    assert "shoot" not in kinds(trace)


def test_a_round_of_aim_is_aim_actions_actions_then_the_shot_gets_its_point():
    aimer = with_(ARCHER, actions=3, tactics={"aim": "always"})
    faces = second((10, [2, 5, 8]), (1, [9])) + no_pair(6) + JUST_A_MISS
    _combat, trace = scripted(clock(aimer, TARGET, 5, {"aim_actions": 2}), faces)
    assert kinds(trace)[:3] == ["aim", "aim", "shoot"]
    assert [(e.data["action"], e.data["of"]) for e in events(trace, "aim")] == [(1, 2), (2, 2)]
    (x,) = events(trace, "exchange")
    assert x.data["wiggle"] == 1  # the same size: the point is the aim's
    assert events(trace, "shoot")[0].data["aimed"] is True


def test_anything_between_two_aiming_actions_starts_the_round_of_aim_again():
    # Two actions a second, the last spent readying (ACS prepared ambition): each second's aim is
    # a first action of two again, never a whole round, so no shot is ever taken.
    aimer = with_(ARCHER, actions=2, tactics={"aim": "always", "ready_last_action": True})
    faces = second((10, [2, 5]), (1, [9])) * 2
    _combat, trace = scripted(clock(aimer, TARGET, 5, {"aim_actions": 2}, time_limit=2), faces)
    assert [(e.data["action"], e.data["of"]) for e in events(trace, "aim")] == [(1, 2), (1, 2)]
    assert len(events(trace, "ready")) == 2 and "shoot" not in kinds(trace)


def test_aim_first_aims_only_before_the_first_shot():
    aimer = with_(ARCHER, actions=3, tactics={"aim": "first"})
    faces = second((10, [2, 5, 8]), (1, [9])) + (no_pair(6) + JUST_A_MISS) * 2
    _combat, trace = scripted(clock(aimer, TARGET, 5), faces)
    assert kinds(trace)[:3] == ["aim", "shoot", "shoot"]
    assert [e.data["wiggle"] for e in events(trace, "exchange")] == [1, 0]


@pytest.mark.parametrize(
    ("archer_size", "target_size", "dice", "wiggle", "d_dice", "d_wiggle"),
    [(0, 0, 6, 0, 4, 0), (0, 2, 6, 2, 2, 0), (1, 0, 5, 0, 4, 1), (0, -1, 5, 0, 4, 1)],
)
def test_size_differences_both_ways(archer_size, target_size, dice, wiggle, d_dice, d_wiggle):
    archer = with_(ARCHER, size_category=archer_size)
    target = with_(TARGET, size_category=target_size)
    faces = A_FIRST + no_pair(dice) + JUST_A_MISS
    _combat, trace = scripted(clock(archer, target, 5), faces)
    (x,) = events(trace, "exchange")
    assert (x.data["dice"], x.data["wiggle"], x.data["d_dice"], x.data["d_wiggle"]) == (
        dice, wiggle, d_dice, d_wiggle)


@pytest.mark.parametrize(
    ("defense", "gear", "d_dice"),
    [("dodge", {}, 4),  # average: Agility (Speed) 4
     ("block", {"shield": True}, 5),  # poor: Vigor (Fortitude) 6, one die lost
     ("parry", {"weapon": {"name": "sword"}}, 3)],  # poor: Agility (Dexterity) 4, one lost
)
def test_missile_defense_by_form_is_an_acs_defense(defense, gear, d_dice):
    target = with_(TARGET, **gear, tactics={"defense": defense})
    # A's triple of 1s at 3 ft (one increment): a critical hit whatever the defense rolls.
    faces = A_FIRST + d8(1, 1, 1, 5, 6, 7) + d8(*[8] * d_dice)
    combat, trace = scripted(clock(ARCHER, target, 3), faces)
    (x,) = events(trace, "exchange")
    assert (x.data["defense"], x.data["d_dice"], x.data["outcome"]) == (
        defense, d_dice, "critical_hit")
    # The defense roll is an ACS defense: T's own action on segment 5 slides to segment 6.
    assert [(e.actor, e.data["moved_to"]) for e in events(trace, "action_lost")] == [("T", 6)]
    _a, t = combat.fighters
    assert t.defenses == 1 and t.hp == 5


def test_a_target_without_a_defensive_action_is_undefended_at_range():
    target = with_(TARGET, tactics={"defend": "never"})
    faces = A_FIRST + d8(1, 1, 1, 5, 6, 7)
    combat, trace = scripted(clock(ARCHER, target, 3), faces)
    (x,) = events(trace, "exchange")
    assert x.data["d_faces"] is None and events(trace, "shoot")[0].data["defense"] is None
    assert not events(trace, "action_lost") and combat.fighters[1].hp == 5


@pytest.mark.parametrize(("thrust", "outcome"), [("excellent", "defended"), ("average", "hit")])
def test_armor_excellent_against_the_ammunition_may_still_save_a_failed_dodge(thrust, outcome):
    # 6 ft: two increments, A rolls 5d8 for a pair of 2s; T dodges 4d8 + 1 wiggle (the
    # increment): 1, 3, 5 makes no pair with one point; the armor's point makes a pair of 1s.
    target = with_(TARGET, armor={"name": "mail", "thrust": thrust})
    faces = A_FIRST + d8(2, 2, 3, 7, 8) + d8(1, 3, 5, 8)
    combat, trace = scripted(clock(ARCHER, target, 6), faces)
    (x,) = events(trace, "exchange")
    assert (x.data["d_wiggle"], x.data["outcome"]) == (1, outcome)
    saves = [e.data["points"] for e in events(trace, "armor_save")]
    assert saves == ([1] if thrust == "excellent" else [])
    assert combat.fighters[1].state.nicks == (0 if thrust == "excellent" else 1)


@pytest.mark.parametrize(("span", "wiggles"), [("round", [0, 1, 0, 1]), ("fight", [0, 1, 2, 3])])
def test_focused_fire_counts_the_sides_successful_shots_over_the_acs_second(span, wiggles):
    # Two archers, two seconds, every shot a pair of 1s on an undefended target. The count of
    # the side's successful shots gives each next shot a point; "that round" is the second.
    target = with_(TARGET, vigor=8, tactics={"defend": "never"})
    a2 = with_(ARCHER, name="A2")
    each = second((10, [2]), (9, [3]), (1, [9]))
    faces = (each + d8(1, 1, 5, 6, 7, 8) * 2) * 2
    data = clock(ARCHER, target, 3, {"focused_fire_span": span}, time_limit=2, more=[a2])
    _combat, trace = scripted(data, faces)
    assert [e.data["wiggle"] for e in events(trace, "exchange")] == wiggles
    assert [e.actor for e in events(trace, "shoot")] == ["A", "A2", "A", "A2"]


def test_focused_fire_off_gives_no_points():
    target = with_(TARGET, vigor=8, tactics={"defend": "never"})
    a2 = with_(ARCHER, name="A2")
    faces = second((10, [2]), (9, [3]), (1, [9])) + d8(1, 1, 5, 6, 7, 8) * 2
    data = clock(ARCHER, target, 3, {"focused_fire": False}, more=[a2])
    _combat, trace = scripted(data, faces)
    assert [e.data["wiggle"] for e in events(trace, "exchange")] == [0, 0]


def test_shots_run_out_then_the_thrower_closes_in_for_melee():
    thrower = with_(ARCHER, actions=2, missile={
        "name": "javelins", "skill": "thrown", "range": 10, "max_range": 40,
        "ammunition": "javelin", "shots": 1})
    # 20 ft, two increments of 10: 5 dice.
    faces = second((10, [2, 5]), (1, [9])) + no_pair(5) + JUST_A_MISS
    combat, trace = scripted(clock(thrower, TARGET, 20), faces)
    assert kinds(trace)[:2] == ["shoot", "move"]
    assert combat.fighters[0].state.shots == 0
    assert events(trace, "move")[0].data["distance"] == pytest.approx(20 - 5 / 6 / 2)


def test_a_fumbled_shot_drops_the_bow_and_the_next_action_picks_it_up_at_range():
    archer = with_(ARCHER, actions=3)
    # 10 ft: two increments, 5 dice.
    faces = second((10, [2, 5, 8]), (1, [9])) + no_pair(5) + [(1, 6)] + no_pair(5) + JUST_A_MISS
    combat, trace = scripted(clock(archer, TARGET, 10), faces)
    assert kinds(trace)[:3] == ["shoot", "pick_up", "shoot"]
    assert combat.fighters[0].state.bow


def test_a_counter_attack_at_range_needs_a_missile_in_range():
    # A fumbles (3): T may counter-attack at once, a free attack, only with a missile weapon
    # of its own within the distance it would shoot from (the round's rule).
    faces = A_FIRST + no_pair(5) + [(3, 6)]
    _combat, trace = scripted(clock(ARCHER, TARGET, 10), faces)
    (counter,) = events(trace, "counter")
    assert (counter.actor, counter.data["mode"]) == ("T", None)
    bowman = with_(TARGET, missile={"name": "sling", "skill": "thrown", "range": 10,
                                    "max_range": 40, "ammunition": "stone"})
    # T: 4 dice (Agility), one increment at 10 ft; no pair, just a miss. A does not defend.
    # Then T's own action on segment 5: a shot too (it misses the same way).
    faces = A_FIRST + no_pair(5) + [(3, 6)] + (no_pair(4) + JUST_A_MISS) * 2
    combat, trace = scripted(clock(ARCHER, bowman, 10), faces)
    (counter,) = events(trace, "counter")
    assert (counter.actor, counter.data["mode"]) == ("T", "missile")
    counter_shot, own_shot = [e for e in events(trace, "shoot") if e.actor == "T"]
    assert counter_shot.data["missile"] == "sling" and combat.fighters[1].attacks == 2
    assert counter_shot.t == own_shot.t and counter_shot.data["increments"] == 1
