"""The fumble d6 of Combat Proposition Three, face by face, through the round process.

Each test scripts an attack with no pair, the d6 face, and what follows (the opponent's attack on
the fumbler, the fumbler's next turn), and checks the effect and when it ends; an implementation
that skipped a face, applied it to the wrong combatant, or kept it too long or too short fails.
"""

from __future__ import annotations

import copy

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.prop3.fumbles import FUMBLES, roll_fumble
from sim.scenario.loader import scenario_from_dict
from tests.prop3.scripted import d8
from tests.prop3.scripted import dice as scripted_dice

FUMBLER = {"name": "A", "vigor": 5, "agility": 5, "weapon": {"name": "sword"},
           "armor": {"name": "jack"}, "tactics": {"attack": "bash", "defense": "dodge"}}
OPPONENT = {"name": "D", "vigor": 5, "agility": 5, "weapon": {"name": "sword"},
            "armor": {"name": "jack"}, "tactics": {"attack": "bash", "defense": "dodge"}}
NO_PAIR = [2, 4, 6, 8, 8]  # lowest three 2, 4, 6: nothing, even with 1 wiggle point
PAIR = [1, 1, 3, 5, 7]  # a pair of 1s; triple 1s with 2 wiggle points


def setup(faces, fumbler=FUMBLER, opponent=OPPONENT, options=None):
    data = {"name": "fumbles", "rules": "prop3", "options": options or {},
            "sides": [{"name": "a", "combatants": [copy.deepcopy(fumbler)]},
                      {"name": "d", "combatants": [copy.deepcopy(opponent)]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(faces)
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    rounds = prepared.rounds(combat)
    a, d = combat.fighters
    rounds.set_order([a, d])
    return rounds, a, d, trace, dice


def exchanges(trace):
    return [e for e in trace if e.kind == "exchange"]


def test_the_table_has_six_faces():
    assert len(FUMBLES) == 6


def test_1_weapon_dropped_until_the_next_action_which_picks_it_up():
    fumbler = copy.deepcopy(FUMBLER)
    fumbler["tactics"]["defense"] = "parry"
    faces = [*d8(*NO_PAIR), (1, 6)]
    faces += d8(*PAIR) + d8(2, 4, 6, 8, 8)  # the opponent's attack: she cannot parry now
    rounds, a, d, trace, dice = setup(faces, fumbler)
    rounds.turn(a)
    assert not a.state.armed
    rounds.turn(d)
    declare = [e for e in trace if e.kind == "declare"][-1]
    assert declare.data["defense"] == "dodge"  # no parrying without the weapon in hand
    rounds.turn(a)  # the next action is spent picking it up: no dice are rolled
    assert a.state.armed and a.actions_lost == 1 and a.attacks == 1
    assert [e.kind for e in trace].count("pick_up") == 1
    assert not dice._buffer


@pytest.mark.parametrize("gear", [{"natural": True}, {"secured": True}])
def test_1_is_rolled_again_for_natural_or_secured_weapons(gear):
    fumbler = copy.deepcopy(FUMBLER)
    fumbler["weapon"].update(gear)
    rounds, a, _d, trace, dice = setup([*d8(*NO_PAIR), (1, 6), (6, 6)], fumbler)
    rounds.turn(a)
    assert a.state.armed
    assert [e.data["face"] for e in trace if e.kind == "fumble"] == [6]
    assert not dice._buffer
    assert roll_fumble(Dice.from_faces([(1, 6), (1, 6), (2, 6)]), False) == 2


def test_2_struck_yourself_a_nick():
    rounds, a, d, _, _ = setup([*d8(*NO_PAIR), (2, 6)])
    rounds.turn(a)
    assert (a.state.nicks, a.hp, d.state.nicks) == (1, 5, 0)
    # With one nick a wound, the nick costs a point of Vigor.
    rounds, a, d, _trace, _dice = setup([*d8(*NO_PAIR), (2, 6)], options={"nicks_per_wound": 1})
    rounds.turn(a)
    assert (a.state.nicks, a.hp) == (0, 4)


def test_3_the_opponent_counter_attacks_at_once():
    faces = [*d8(*NO_PAIR), (3, 6), *d8(*PAIR), *d8(2, 4, 6, 8, 8)]
    rounds, a, d, trace, dice = setup(faces)
    rounds.turn(a)
    counter = [e for e in trace if e.kind == "counter"]
    assert [(e.actor, e.target, e.data["automatic"]) for e in counter] == [("D", "A", False)]
    assert exchanges(trace)[-1].actor == "D" and exchanges(trace)[-1].data["outcome"] == "hit"
    assert a.defenses == 1 and a.state.nicks == 1  # she defended, and failed
    assert d.actions_taken == 0  # a free attack, not the opponent's action
    assert not dice._buffer


def test_3_against_a_parry_the_counter_attack_hits_automatically():
    opponent = copy.deepcopy(OPPONENT)
    opponent["tactics"]["defense"] = "parry"  # a one-handed sword parries a slash, not a bash
    fumbler = copy.deepcopy(FUMBLER)
    fumbler["tactics"]["attack"] = "slash"  # poor against a parry: 4 dice
    # The counter-attack rolls only to see whether it is critical: no pair is still a hit.
    faces = [*d8(2, 4, 6, 8), (3, 6), *d8(*NO_PAIR)]
    rounds, a, _, trace, dice = setup(faces, fumbler, opponent)
    rounds.turn(a)
    (auto,) = [e for e in exchanges(trace) if e.data["automatic"]]
    assert auto.data["outcome"] == "hit" and auto.data["d_faces"] is None
    assert a.defenses == 0 and a.state.nicks == 1
    assert not dice._buffer
    faces = [*d8(2, 4, 6, 8), (3, 6), *d8(4, 4, 4, 6, 8)]
    rounds, a, _d, trace, dice = setup(faces, fumbler, opponent)
    rounds.turn(a)
    assert exchanges(trace)[-1].data["outcome"] == "critical_hit" and a.hp == 4


def test_4_stumble_gives_attackers_two_wiggle_until_the_fumblers_next_action():
    # Her next attack has 4 dice: the critical hit took a point of Vigor.
    faces = [*d8(*NO_PAIR), (4, 6), *d8(*PAIR), *d8(*NO_PAIR), *d8(2, 4, 6, 8), (6, 6)]
    rounds, a, d, trace, dice = setup(faces)
    rounds.turn(a)
    assert a.state.exposed == 2
    rounds.turn(d)
    x = exchanges(trace)[-1]
    assert x.data["wiggle"] == 2  # bash vs dodge gives nothing: both points are the stumble's
    assert x.data["result"] == "triple 1s" and x.data["outcome"] == "critical_hit"
    rounds.turn(a)  # she gets up as her next action starts (and just misses)
    assert a.state.exposed == 0
    assert not dice._buffer


def test_5_fall_down_costs_a_defense_die_until_the_fumblers_next_action():
    faces = [*d8(*NO_PAIR), (5, 6), *d8(*PAIR), *d8(2, 4, 6, 8), *d8(*NO_PAIR), (6, 6)]
    rounds, a, d, trace, dice = setup(faces)
    rounds.turn(a)
    assert a.state.shaken == 1
    rounds.turn(d)
    assert exchanges(trace)[-1].data["d_dice"] == 4  # her dodge: 5 dice, one lost
    rounds.turn(a)
    assert a.state.shaken == 0
    assert not dice._buffer


def test_6_just_a_miss():
    rounds, a, _d, trace, dice = setup([*d8(*NO_PAIR), (6, 6)])
    rounds.turn(a)
    body = a.state
    assert (body.armed, body.nicks, body.exposed, body.shaken, a.hp) == (True, 0, 0, 0, 5)
    assert not [e for e in trace if e.kind == "counter"]
    assert not dice._buffer


def test_fumbles_false_makes_every_fumble_a_plain_miss():
    rounds, a, _d, _trace, dice = setup(d8(*NO_PAIR), options={"fumbles": False})
    rounds.turn(a)  # no d6 is rolled
    assert not dice._buffer and a.state.armed


def test_the_defender_does_not_roll_against_a_fumble():
    rounds, a, d, trace, _dice = setup([*d8(*NO_PAIR), (6, 6)])
    rounds.turn(a)
    assert d.defenses == 0 and exchanges(trace)[0].data["d_faces"] is None
