"""The form table, weapons, armor and requirements as the combat applies them.

Each case plays one melee attack with fixed forms and scripted dice and reads, from the trace, the
dice and wiggle points that reached both rolls. The expected numbers are written out from the text
(``test_forms.py`` has them for ``forms.melee_pools``; a combat that skipped the table, applied it
the wrong way round, or forgot the weapon or armor fails here).
"""

from __future__ import annotations

import copy

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.missiles import missile_attack
from sim.scenario.loader import scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.prop3.scripted import d8
from tests.prop3.scripted import dice as scripted_dice

# (attack, defense): (attack dice lost, attack wiggle, defense dice lost, defense wiggle)
TABLE = {
    ("bash", "block"): (1, 0, 0, 1),
    ("bash", "dodge"): (0, 0, 0, 0),
    ("bash", "parry"): (0, 1, 1, 0),
    ("slash", "parry"): (1, 0, 0, 1),
    ("slash", "block"): (0, 0, 0, 0),
    ("slash", "dodge"): (0, 1, 1, 0),
    ("thrust", "dodge"): (1, 0, 0, 1),
    ("thrust", "parry"): (0, 0, 0, 0),
    ("thrust", "block"): (0, 1, 1, 0),
}

ATTACKER = {"name": "A", "vigor": 6, "agility": 4, "weapon": {"name": "sword"}}
DEFENDER = {
    "name": "D", "vigor": 5, "agility": 5,
    "weapon": {"name": "staff", "two_handed": True},
    "armor": {"name": "jack"},
}


def play(attacker: dict, defender: dict, n_attack: int, n_defense: int, options=None):
    """One attack with a pair of 1s against a defense roll that cannot pair: a hit."""
    data = {
        "name": "forms", "rules": "prop3", "options": options or {},
        "sides": [{"name": "a", "combatants": [attacker]},
                  {"name": "d", "combatants": [defender]}],
    }
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    attack = [1, 1, *[3, 5, 7, 8, 8, 8, 8, 8, 8, 8][:max(0, n_attack - 2)]]
    defense = [2, 4, 6, 8, 2, 4, 6, 8][:n_defense]
    dice = scripted_dice(d8(*attack) + d8(*defense))
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    rounds = prepared.rounds(combat)
    a, d = combat.fighters
    rounds.set_order([a, d])
    melee_attack(rounds.fight, a, d)
    assert not dice._buffer, "the attack did not roll the dice expected"
    return next(e for e in trace if e.kind == "exchange"), a, d


def tactics(block: dict, **kw) -> dict:
    block = copy.deepcopy(block)
    block["tactics"] = kw
    return block


@pytest.mark.parametrize(("attack", "defense"), list(TABLE))
def test_the_nine_form_pairs_reach_the_rolls(attack, defense):
    lost_a, wiggle_a, lost_d, wiggle_d = TABLE[attack, defense]
    x, _, _ = play(tactics(ATTACKER, attack=attack), tactics(DEFENDER, defense=defense),
                   6 - lost_a, 5 - lost_d)
    assert (x.data["attack"], x.data["defense"]) == (attack, defense)
    assert (x.data["dice"], x.data["wiggle"]) == (6 - lost_a, wiggle_a)
    assert (x.data["d_dice"], x.data["d_wiggle"]) == (5 - lost_d, wiggle_d)
    assert x.data["outcome"] == "hit"


@pytest.mark.parametrize(("rating", "dice", "wiggle"),
                         [("poor", 5, 0), ("average", 6, 0), ("excellent", 6, 1)])
def test_weapon_rating_for_the_attack_form(rating, dice, wiggle):
    attacker = tactics(ATTACKER, attack="bash")
    attacker["weapon"] = {"name": "w", "bash": rating}
    x, _, _ = play(attacker, tactics(DEFENDER, defense="dodge"), dice, 5)
    assert (x.data["dice"], x.data["wiggle"]) == (dice, wiggle)


@pytest.mark.parametrize(
    ("armor", "d_dice", "d_wiggle", "a_wiggle"),
    [({"bash": "poor"}, 4, 0, 1), ({"bash": "average"}, 5, 0, 0),
     ({"bash": "excellent"}, 5, 1, 0), (None, 4, 0, 0)],
)
def test_armor_rating_against_the_attack_form_and_no_armor(armor, d_dice, d_wiggle, a_wiggle):
    defender = tactics(DEFENDER, defense="dodge")
    defender["armor"] = armor
    x, _, _ = play(tactics(ATTACKER, attack="bash"), defender, 6, d_dice)
    assert (x.data["d_dice"], x.data["d_wiggle"], x.data["wiggle"]) == (d_dice, d_wiggle, a_wiggle)


def test_armor_also_helps_attacker_can_be_switched_off_in_combat():
    defender = tactics(DEFENDER, defense="dodge")
    defender["armor"] = {"bash": "poor"}
    x, _, _ = play(tactics(ATTACKER, attack="bash"), defender, 6, 4,
                   {"armor_also_helps_attacker": False})
    assert x.data["wiggle"] == 0


def test_a_one_handed_parry_declared_against_a_bash_leaves_the_defender_undefended():
    # The defender is lower in initiative and declares a parry first; the attacker bashes, which a
    # one-handed weapon cannot parry: no defense roll (impossible_defense: undefended).
    defender = tactics(DEFENDER, defense="parry")
    defender["weapon"] = {"name": "sword"}
    attacker = tactics(ATTACKER, attack="bash")
    x, _, d = play(attacker, defender, 6, 0)
    assert x.data["defense"] is None and x.data["d_faces"] is None
    assert x.data["outcome"] == "hit" and d.defenses == 0


def test_impossible_defense_redeclare_lets_the_defender_choose_again():
    defender = tactics(DEFENDER, defense="parry")
    defender["weapon"] = {"name": "sword"}
    x, _, d = play(tactics(ATTACKER, attack="bash"), defender, 6, 5,
                   {"impossible_defense": "redeclare"})
    assert x.data["defense"] == "dodge"  # the only defense left against a bash
    assert d.defenses == 1


@pytest.mark.parametrize(
    ("gear", "allowed"),
    [
        ({"armor": {"heavy": True}, "shield": True}, {"block", "parry"}),  # heavy: no dodge
        ({"weapon": {"name": "fists", "natural": True}}, {"dodge"}),  # no weapon to parry
        ({"weapon": {"name": "sword"}, "shield": True}, {"dodge", "block", "parry"}),
        ({"weapon": {"name": "sword"}}, {"dodge", "parry"}),  # no shield, one-handed
    ],
)
def test_defense_requirements_in_combat(gear, allowed):
    # Random defenses against slashes: over many attacks every allowed form shows up, no other.
    defender = {**copy.deepcopy(DEFENDER), **gear, "tactics": {"defense": "random"}}
    data = {"name": "req", "rules": "prop3",
            "sides": [{"name": "a", "combatants": [tactics(ATTACKER, attack="slash")]},
                      {"name": "d", "combatants": [defender]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    seen = set()
    for k in range(60):
        dice = Dice(1, k)
        trace: list = []
        combat = Combat(prepared.spawn(dice), s.side_names, dice, 600, trace)
        rounds = prepared.rounds(combat)
        a, d = combat.fighters
        rounds.set_order([a, d])
        melee_attack(rounds.fight, a, d)
        seen.add(next(e for e in trace if e.kind == "declare").data["defense"])
    assert seen == allowed


def test_a_fixed_defense_the_gear_never_allows_is_a_scenario_error():
    defender = tactics(DEFENDER, defense="block")
    defender["weapon"] = {"name": "sword"}
    data = {"name": "req", "rules": "prop3",
            "sides": [{"name": "a", "combatants": [ATTACKER]},
                      {"name": "d", "combatants": [defender]}]}
    with pytest.raises(ScenarioError, match="block needs a shield or a two-handed weapon"):
        scenario_from_dict(data)


def test_a_fixed_defense_not_allowed_right_now_falls_back_to_the_best():
    # A parry needs the weapon in hand: after dropping it, the fixed parry falls back.
    defender = tactics(DEFENDER, defense="parry")
    data = {"name": "req", "rules": "prop3",
            "sides": [{"name": "a", "combatants": [tactics(ATTACKER, attack="slash")]},
                      {"name": "d", "combatants": [defender]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(d8(1, 1, 3, 5, 7, 8) + d8(2, 4, 6, 8))
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, 600, trace)
    rounds = prepared.rounds(combat)
    a, d = combat.fighters
    rounds.set_order([a, d])
    d.state.armed = False
    melee_attack(rounds.fight, a, d)
    assert next(e for e in trace if e.kind == "declare").data["defense"] == "dodge"


@pytest.mark.parametrize(("defense", "dice"), [("dodge", 5), ("block", 4), ("parry", 4)])
def test_missile_defense_table_in_combat(defense, dice):
    shooter = {"name": "A", "agility": 6,
               "missile": {"range": 50, "max_range": 100, "ammunition": "arrow"}}
    target = tactics(DEFENDER, defense=defense)
    target["shield"] = True
    target["armor"] = {"name": "jack", "thrust": "poor"}  # armor plays no part in the roll
    data = {"name": "m", "rules": "prop3", "options": {"start_distance": 30},
            "sides": [{"name": "a", "combatants": [shooter]},
                      {"name": "d", "combatants": [target]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice_stream = scripted_dice(d8(1, 1, 3, 5, 7, 8) + d8(*[2, 4, 6, 8, 2][:dice]))
    trace: list = []
    combat = Combat(prepared.spawn(dice_stream), s.side_names, dice_stream, 600, trace)
    rounds = prepared.rounds(combat)
    a, d = combat.fighters
    rounds.set_order([a, d])
    missile_attack(rounds.fight, a, d)
    x = next(e for e in trace if e.kind == "exchange")
    assert (x.data["defense"], x.data["d_dice"], x.data["d_wiggle"]) == (defense, dice, 0)
    assert (x.data["dice"], x.data["wiggle"]) == (6, 0)  # no +1 for armor poor against thrusts
