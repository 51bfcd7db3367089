"""Ranged combat in the round process: range, maximum range, aiming, size, shots, moving."""

from __future__ import annotations

import copy

import pytest

from sim.engine.combat import Combat
from sim.scenario.loader import scenario_from_dict
from tests.prop3.scripted import d8
from tests.prop3.scripted import dice as scripted_dice

ARCHER = {"name": "A", "vigor": 4, "agility": 6, "skills": {"archery": "average"},
          "missile": {"name": "bow", "range": 5, "max_range": 25, "ammunition": "arrow"},
          "tactics": {"min_shot_dice": 0}}
TARGET = {"name": "T", "vigor": 6, "agility": 4, "armor": {"name": "jack"}, "speed": 0,
          "tactics": {"defense": "dodge"}}


def setup(archer, target, distance, faces, options=None):
    data = {"name": "ranged", "rules": "prop3",
            "options": {"start_distance": distance, "melee_range": 0, **(options or {})},
            "sides": [{"name": "a", "combatants": [archer]},
                      {"name": "t", "combatants": [target]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(faces)
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    rounds = prepared.rounds(combat)
    a, t = combat.fighters
    rounds.set_order([a, t])
    return rounds, a, t, trace, dice


def no_pair(n):
    """``n`` faces of d8 that make no pair even with 2 wiggle points."""
    return d8(*([1, 4, 7, 8, 8, 8][:n] if n > 1 else [4] * n))


def kinds(trace):
    return [e.kind for e in trace if e.kind in ("shoot", "aim", "move", "hold", "declare")]


@pytest.mark.parametrize(("distance", "increments"), [(3, 1), (5, 1), (6, 2), (15, 3), (25, 5)])
def test_each_increment_beyond_the_first_costs_a_die_and_gives_the_target_a_point(
    distance, increments
):
    dice_a, dice_t = 6 - (increments - 1), 4
    faces = [*no_pair(dice_a), (6, 6)]  # a fumble, just a miss
    rounds, a, _t, trace, dice = setup(ARCHER, TARGET, distance, faces)
    rounds.turn(a)
    (shot,) = [e for e in trace if e.kind == "shoot"]
    assert shot.data["increments"] == increments
    x = next(e for e in trace if e.kind == "exchange")
    assert x.data["dice"] == dice_a and x.data["d_dice"] == dice_t == 4
    assert x.data["d_wiggle"] == increments - 1
    assert not dice._buffer


def test_no_shot_beyond_the_maximum_range_the_archer_closes_in():
    rounds, a, _, trace, _ = setup(ARCHER, TARGET, 30, [])
    archer_speed = a.state.profile.speed
    rounds.turn(a)
    assert kinds(trace) == ["move"]
    assert a.pos == pytest.approx(archer_speed)  # 5 ft closer, still out of range (25)
    held = copy.deepcopy(ARCHER)
    held["tactics"]["advance"] = False
    rounds, a, _t, trace, _dice = setup(held, TARGET, 30, [])
    rounds.turn(a)
    assert kinds(trace) == ["hold"]


def test_min_shot_dice_keeps_an_archer_closing_in_until_its_pool_is_big_enough():
    picky = copy.deepcopy(ARCHER)
    picky["tactics"]["min_shot_dice"] = 4  # 6 dice: at most 2 increments beyond the first
    rounds, a, _t, trace, _dice = setup(picky, TARGET, 25, [])
    rounds.turn(a)
    move = next(e for e in trace if e.kind == "move")
    assert move.data["distance"] == 20  # 5 ft a round, not yet within 15 ft
    rounds.turn(a)
    assert next(e for e in trace if e.kind == "move" and e is not move).data["distance"] == 15


def test_aiming_a_round_gives_a_wiggle_point_on_the_next_shot_at_that_target():
    aimer = copy.deepcopy(ARCHER)
    aimer["tactics"]["aim"] = "always"
    faces = [*no_pair(6), (6, 6)]
    rounds, a, _t, trace, dice = setup(aimer, TARGET, 5, faces)
    rounds.turn(a)
    assert kinds(trace) == ["aim"]
    rounds.turn(a)
    x = next(e for e in trace if e.kind == "exchange")
    assert x.data["wiggle"] == 1  # the same size: the point is the aim's
    assert a.state.aim is None
    assert not dice._buffer


def test_aim_first_aims_only_before_the_first_shot():
    aimer = copy.deepcopy(ARCHER)
    aimer["tactics"]["aim"] = "first"
    faces = [*no_pair(6), (6, 6), *no_pair(6), (6, 6)]
    rounds, a, _t, trace, _dice = setup(aimer, TARGET, 5, faces)
    for _ in range(3):
        rounds.turn(a)
    assert kinds(trace) == ["aim", "shoot", "shoot"]
    assert [e.data["wiggle"] for e in trace if e.kind == "exchange"] == [1, 0]


@pytest.mark.parametrize(
    ("archer_size", "target_size", "dice", "wiggle", "d_dice", "d_wiggle"),
    [(0, 0, 6, 0, 4, 0), (0, 2, 6, 2, 2, 0), (1, 0, 5, 0, 4, 1), (0, -1, 5, 0, 4, 1)],
)
def test_size_differences_both_ways(archer_size, target_size, dice, wiggle, d_dice, d_wiggle):
    archer = {**copy.deepcopy(ARCHER), "size_category": archer_size}
    target = {**copy.deepcopy(TARGET), "size_category": target_size}
    faces = [*no_pair(dice), (6, 6)]
    rounds, a, _t, trace, dice_stream = setup(archer, target, 5, faces)
    rounds.turn(a)
    x = next(e for e in trace if e.kind == "exchange")
    assert (x.data["dice"], x.data["wiggle"], x.data["d_dice"], x.data["d_wiggle"]) == (
        dice, wiggle, d_dice, d_wiggle)
    assert not dice_stream._buffer


def test_shots_run_out_then_the_thrower_closes_in_for_melee():
    thrower = copy.deepcopy(ARCHER)
    thrower["missile"] = {"name": "javelins", "skill": "thrown", "range": 10, "max_range": 40,
                          "ammunition": "javelin", "shots": 1}
    faces = [*no_pair(6), (6, 6)]
    rounds, a, _t, trace, _dice = setup(thrower, TARGET, 20, faces)
    rounds.turn(a)
    rounds.turn(a)
    assert kinds(trace) == ["shoot", "move"]
    assert a.state.shots == 0
    assert next(e for e in trace if e.kind == "move").data["distance"] == 15


def test_a_fumbled_shot_drops_the_bow_and_the_next_action_picks_it_up():
    faces = [*no_pair(6), (1, 6)]
    rounds, a, _t, trace, _dice = setup(ARCHER, TARGET, 5, faces)
    rounds.turn(a)
    assert not a.state.bow and a.state.armed
    rounds.turn(a)
    assert a.state.bow and "pick_up" in [e.kind for e in trace]


def test_in_melee_range_the_archer_fights_hand_to_hand():
    basher = copy.deepcopy(ARCHER)
    basher["tactics"]["attack"] = "bash"
    faces = [*d8(2, 4, 6, 8), (6, 6)]  # Vigor 4: a 4-die bash with its fists, no pair
    rounds, a, _t, trace, dice = setup(basher, TARGET, 5, faces, {"melee_range": 5})
    rounds.turn(a)
    assert kinds(trace) == ["declare"]
    assert not dice._buffer
