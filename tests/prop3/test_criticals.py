"""Critical defenses (block, dodge, parry), their effects and how long they last.

Through the round process with scripted dice: each test makes a defender roll a triple against an
attack, then plays the turns that follow and checks the effect on the dice and wiggle points that
reach the next rolls, and that it ends when the rules say.
"""

from __future__ import annotations

import copy

from sim.engine.combat import Combat
from sim.scenario.loader import scenario_from_dict
from tests.prop3.scripted import d8
from tests.prop3.scripted import dice as scripted_dice

A = {"name": "A", "vigor": 5, "agility": 5, "weapon": {"name": "sword"},
     "armor": {"name": "jack"}, "tactics": {"attack": "slash", "defense": "dodge"}}
D = {"name": "D", "vigor": 5, "agility": 5, "weapon": {"name": "staff", "two_handed": True},
     "armor": {"name": "jack"}, "tactics": {"attack": "bash", "defense": "block"}}


def setup(faces, fighters, options=None):
    data = {"name": "crits", "rules": "prop3", "options": options or {},
            "sides": [{"name": "a", "combatants": [fighters[0]]},
                      {"name": "d", "combatants": fighters[1:]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(faces)
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    rounds = prepared.rounds(combat)
    rounds.set_order(combat.fighters)
    return rounds, combat.fighters, trace, dice


def exchanges(trace):
    return [e for e in trace if e.kind == "exchange"]


def test_critical_block_costs_the_attacker_a_defense_die_until_the_blockers_action_is_over():
    # A slashes (pair of 2s); D blocks with triple 1s. On D's turn, D bashes A, whose dodge has 4
    # dice instead of 5; once D's action is over, A has all 5 again.
    faces = d8(2, 2, 4, 6, 8) + d8(1, 1, 1, 5, 7)
    faces += d8(1, 1, 3, 5, 7) + d8(2, 4, 6, 8)
    rounds, (a, d), trace, dice = setup(faces, [A, D])
    rounds.turn(a)
    assert [e.data["form"] for e in trace if e.kind == "critical_defense"] == ["block"]
    assert a.state.shaken == 1 and d.defenses_won == 1
    rounds.turn(d)
    assert exchanges(trace)[-1].data["d_dice"] == 4
    assert a.state.shaken == 0
    assert not dice._buffer


def test_critical_block_with_block_effect_ends_at_next_action():
    faces = d8(2, 2, 4, 6, 8) + d8(1, 1, 1, 5, 7)
    faces += d8(1, 1, 3, 5, 7) + d8(2, 4, 6, 8, 8)
    rounds, (a, d), trace, dice = setup(faces, [A, D], {"block_effect_ends": "at_next_action"})
    rounds.turn(a)
    assert a.state.shaken == 1
    rounds.turn(d)  # the effect ended as D's action started
    assert exchanges(trace)[-1].data["d_dice"] == 5
    assert not dice._buffer


def test_critical_dodge_gives_everyone_attacking_the_attacker_two_wiggle():
    # A slashes D, who dodges with triple 1s. D's ally C then bashes A with 2 more wiggle points;
    # when D's next action starts the bonus is gone (D's own bash has none).
    dodger = copy.deepcopy(D)
    dodger["tactics"]["defense"] = "dodge"
    ally = copy.deepcopy(D)
    ally["name"] = "C"
    # A's slash against a dodge: 5 dice, +1 wiggle; D's dodge, poor against a slash: 4 dice.
    faces = d8(2, 2, 4, 6, 8) + d8(1, 1, 1, 7)
    faces += d8(3, 5, 7, 8, 8) + d8(1, 1, 4, 6, 8)  # C: pair of 3s with the 2 points; A: 1s
    faces += [*d8(3, 5, 7, 8, 8), (6, 6)]  # D: no pair, no points to make one: a fumble
    rounds, (a, d, c), trace, dice = setup(faces, [A, dodger, ally])
    rounds.set_order([a, c, d])
    rounds.turn(a)
    assert [e.data["form"] for e in trace if e.kind == "critical_defense"] == ["dodge"]
    assert a.state.exposed == 2
    rounds.turn(c)
    assert exchanges(trace)[-1].actor == "C" and exchanges(trace)[-1].data["wiggle"] == 2
    assert exchanges(trace)[-1].data["outcome"] == "defended"
    rounds.turn(d)
    assert exchanges(trace)[-1].actor == "D" and exchanges(trace)[-1].data["wiggle"] == 0
    assert a.state.exposed == 0
    assert not dice._buffer


def test_critical_parry_is_an_automatic_counter_attack():
    parrier = copy.deepcopy(D)
    parrier["tactics"]["defense"] = "parry"
    # A's slash is poor against a parry (4 dice); D's parry is excellent against it (+1 wiggle).
    faces = d8(2, 2, 4, 6) + d8(1, 1, 1, 5, 7)
    faces += d8(3, 5, 7, 8, 8)  # D's counter-bash: no pair, still a hit
    rounds, (a, d), trace, dice = setup(faces, [A, parrier])
    rounds.turn(a)
    auto = exchanges(trace)[-1]
    assert (auto.actor, auto.data["automatic"], auto.data["outcome"]) == ("D", True, "hit")
    assert a.defenses == 0 and a.state.nicks == 1 and d.attacks == 1
    assert not dice._buffer


def test_critical_parry_counter_attack_is_critical_on_a_triple():
    parrier = copy.deepcopy(D)
    parrier["tactics"]["defense"] = "parry"
    faces = d8(2, 2, 4, 6) + d8(1, 1, 1, 5, 7) + d8(4, 4, 4, 6, 8)
    rounds, (a, d), trace, dice = setup(faces, [A, parrier])
    rounds.turn(a)
    assert exchanges(trace)[-1].data["outcome"] == "critical_hit"
    assert a.hp == 4 and d.criticals == 1
    assert not dice._buffer


def test_effects_of_a_combatant_who_leaves_the_fight_end_with_it():
    faces = d8(2, 2, 4, 6, 8) + d8(1, 1, 1, 5, 7)
    rounds, (a, d), _trace, _dice = setup(faces, [A, D])
    rounds.turn(a)
    assert a.state.shaken == 1
    rounds.fight.lose_vigor(None, d, 5)
    assert d.out == "down" and a.state.shaken == 0
