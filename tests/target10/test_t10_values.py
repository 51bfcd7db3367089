"""Target 10's worked examples: ability modifiers, FIGHT, SHOOT, DEFENSE, the combat modifier.

The functions checked here are the ones the exchange (the round's and the ACS hybrid's attack)
calls.
"""

from __future__ import annotations

import itertools

import pytest

from sim.engine.dice import Dice, DiceExpr
from sim.rules.target10.combat_rolls import (
    CombatTest,
    attack_modifier,
    damage_amount,
)
from sim.rules.target10.combatant import Stats
from sim.rules.target10.exchange import AttackInput, ExchangeRules, Weapon, resolve_attack
from sim.rules.target10.skill_tests import roll_test
from sim.rules.target10.values import ability_modifier, clamp, defense, fight
from sim.scenario.loader import load_scenario
from tests.conftest import SCENARIOS
from tests.target10.t10_helpers import d6, d20, man, of, run, t10

TEST = CombatTest()  # the defaults: 12 to hit, +/-10 and +/-3


@pytest.mark.parametrize(("score", "modifier"), [(12, 1), (14, 2), (15, 3), (18, 4)])
def test_the_texts_modifiers(score, modifier):
    assert ability_modifier(score) == modifier


def test_modifier_formula_both_ways():
    assert [ability_modifier(s) for s in (3, 8, 9, 10, 11)] == [-3, -1, 0, 0, 1]
    assert [ability_modifier(s, "floor_half") for s in (3, 9, 11, 15)] == [-4, -1, 0, 2]


def test_cole_and_francois_values_and_bonuses():
    scenario = load_scenario(SCENARIOS / "t10-cole-vs-francois.yaml")
    cole, francois = (Stats.of(c.stats, scenario.options, c.side) for c in scenario.combatants)
    assert (cole.fight, cole.defense) == (11, 7)
    assert (francois.fight, francois.defense) == (10, 10)
    assert attack_modifier(cole.fight, francois.defense, 0, TEST) == 1
    assert attack_modifier(francois.fight, cole.defense, 0, TEST) == 3
    assert fight(6, 3, 2) == 11 and defense(7, 3, 0) == 10


def test_cole_and_francois_bonuses_in_a_played_round():
    scenario = load_scenario(SCENARIOS / "t10-cole-vs-francois.yaml")
    data = scenario.data
    for side in data["sides"]:
        side["combatants"][0]["hp"] = 30
    data["time_limit"] = 60
    # Cole d6=1 (+1), Francois d6=6 (+3): Francois first; both miss.
    _combat, trace, _ = run(data, d6(1, 6) + d20(1, 1))
    assert [(e.actor, e.data["modifier"]) for e in of(trace, "attack")] == [
        ("Francois", 3), ("Captain Cole", 1)]


def test_clamps():
    assert attack_modifier(30, 0, 0, TEST) == 10 and attack_modifier(0, 30, 0, TEST) == -10
    assert attack_modifier(0, 0, 7, TEST) == 3 and attack_modifier(0, 0, -7, TEST) == -3
    assert attack_modifier(25, 0, 5, TEST) == 13 and clamp(-4, 3) == -3
    wide = CombatTest(value_clamp=20, situational_clamp=5)
    assert attack_modifier(25, 0, 7, wide) == 25 and attack_modifier(-25, 0, -7, wide) == -25


def test_the_combat_test_rolls_one_d20_unless_automatic():
    roll = roll_test(Dice.from_faces([(12, 20)]), -1, TEST.need)
    assert (roll.face, roll.total, roll.success, roll.automatic) == (12, 11, False, False)
    roll = roll_test(Dice.from_faces([(13, 20)]), -1, TEST.need)
    assert roll.success and roll.total == 12
    dice = Dice.from_faces([])
    roll = roll_test(dice, -30, TEST.need, automatic=True)  # a fleeing target: no die
    assert roll.success and roll.automatic and roll.face == 0


def test_damage_amount_adds_the_modifier_and_floors_at_the_minimum():
    assert damage_amount(4, 2, 1) == 6
    assert damage_amount(1, -3, 1) == 1
    assert damage_amount(1, -3, 0) == 0
    assert damage_amount(2, -3, -5) == -1  # a minimum below 0 is the modifier's to reach


@pytest.mark.parametrize("expr", ["1d6", "1d4+1", "1d8-2", "2d6"])
@pytest.mark.parametrize("mod", [-3, 0, 2])
@pytest.mark.parametrize("minimum", [0, 1, 3])
def test_a_hits_damage_is_the_weapons_roll_plus_the_modifier_never_below_minimum(
    expr, mod, minimum
):
    # The exchange rolls the d20 (20: a hit), then the weapon's dice, and adds the modifier.
    damage = DiceExpr.parse(expr)
    attack = AttackInput(ExchangeRules(CombatTest(min_damage=minimum)), Weapon(0, damage, mod))
    for faces in itertools.product(range(1, damage.sides + 1), repeat=damage.count):
        dice = Dice.from_faces([(20, 20)] + [(face, damage.sides) for face in faces])
        rolled = sum(faces) + damage.modifier
        assert resolve_attack(attack, dice).damage == max(rolled + mod, minimum)
        assert damage_amount(rolled, mod, minimum) == max(rolled + mod, minimum)


def test_combat_test_succeeds_on_12_and_options_move_it():
    red = [man("A", hp=30)]
    blue = [man("B", action="none", hp=30)]
    _, trace, _ = run(t10(red, blue), d6(6, 1) + d20(12) + d6(1))
    assert of(trace, "attack")[0].data["hit"]
    _, trace, _ = run(t10(red, blue), d6(6, 1) + d20(11))
    assert not of(trace, "attack")[0].data["hit"]
    _, trace, _ = run(t10(red, blue, options={"combat_target": 10}), d6(6, 1) + d20(11) + d6(1))
    assert of(trace, "attack")[0].data["hit"]


def test_damage_is_1d6_plus_str_never_below_1():
    red = [man("A", strength=18, hp=30), man("W", strength=3, hp=30)]
    blue = [man("B", action="none", hp=40)]
    # A (+4) and W (-3) both hit B: 2+4 = 6, and 1-3 -> 1.
    _, trace, fighters = run(t10(red, blue), d6(6, 5, 1) + d20(20) + d6(2) + d20(20) + d6(1))
    assert [e.data["amount"] for e in of(trace, "damage")] == [6, 1]
    assert fighters["B"].hp == 33
