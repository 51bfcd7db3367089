"""Form choice: fixed, random, and best by the exact odds (maximin when declaring first)."""

from __future__ import annotations

import itertools

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.prop3.declaring import form_values, matchup
from sim.rules.prop3.exact import attack_odds
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.pool import Outcome, Pool
from sim.rules.prop3.tactics import (
    first_attack,
    first_defense,
    melee_value,
    reply_attack,
    reply_defense,
)
from sim.scenario.loader import scenario_from_dict
from tests.prop3.scripted import d8
from tests.prop3.scripted import dice as scripted_dice

ALL = ((True, True, True),) * 3


def test_melee_value_is_the_exact_expected_damage_in_nicks():
    odds = attack_odds(6, 8, 2, 4, 8, 1).outcomes
    expected = odds[Outcome.HIT] + odds[Outcome.CRIT_REDUCED] + 2 * odds[Outcome.CRITICAL_HIT]
    attack = Pool(roll=0, dice=6, sides=8, wiggle=2, crit_allowed=True, only_ones=False)
    defense = Pool(roll=3, dice=4, sides=8, wiggle=1, crit_allowed=True, only_ones=False)
    assert melee_value(attack, defense, "lowest_three", 1, 2) == pytest.approx(expected)


def brute_first_attack(values, allowed):
    return max(range(3), key=lambda a: (min(values[a][d] for d in range(3) if allowed[a][d]), -a))


@pytest.mark.parametrize("seed", range(20))
def test_choices_against_brute_force(seed):
    import random

    rng = random.Random(seed)
    values = [[rng.choice([0.1, 0.2, 0.3, 0.5]) for _ in range(3)] for _ in range(3)]
    undefended = [1.0, 1.0, 1.0]
    attacks = [0, 1, 2]
    a = first_attack(values, undefended, attacks, ALL)
    assert a == brute_first_attack(values, ALL)
    d = reply_defense(values, a, ALL)
    assert values[a][d] == min(values[a])
    d = first_defense(values, undefended, attacks, ALL, [0, 1, 2], False)
    worst = {e: max(values[x][e] for x in range(3)) for e in range(3)}
    assert worst[d] == min(worst.values())
    a = reply_attack(values, undefended, d, attacks, ALL, False)
    assert values[a][d] == max(values[x][d] for x in range(3))


def test_an_impossible_declared_defense_counts_as_undefended_or_redeclared():
    values = [[0.1, 0.1, 0.9], [0.2, 0.2, 0.2], [0.2, 0.2, 0.2]]
    undefended = [1.5, 1.0, 1.0]
    allowed = ((True, True, False), (True, True, True), (True, True, True))  # no parry vs a bash
    # Declaring a parry first: a bash answers it, and finds the defender undefended (1.5).
    assert reply_attack(values, undefended, 2, [0, 1, 2], allowed, False) == 0
    assert first_defense(values, undefended, [0, 1, 2], allowed, [0, 1, 2], False) in (0, 1)
    # Redeclaring, the parry against a bash becomes the best other defense (0.1).
    assert reply_attack(values, undefended, 2, [0, 1, 2], allowed, True) in (1, 2)


def duel(a_tactics, d_tactics, faces):
    data = {
        "name": "t",
        "rules": "prop3",
        "sides": [
            {
                "name": "a",
                "combatants": [
                    {
                        "name": "A",
                        "vigor": 5,
                        "weapon": {"name": "spear", "thrust": "excellent"},
                        "tactics": a_tactics,
                    }
                ],
            },
            {
                "name": "d",
                "combatants": [
                    {
                        "name": "D",
                        "vigor": 5,
                        "agility": 5,
                        "shield": True,
                        "weapon": {"name": "sword"},
                        "armor": {"name": "mail", "slash": "poor"},
                        "tactics": d_tactics,
                    }
                ],
            },
        ],
    }
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(faces)
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, 600, trace)
    rounds = prepared.rounds(combat)
    a, d = combat.fighters
    rounds.set_order([d, a])  # the attacker is lower: it declares first
    melee_attack(rounds.fight, a, d)
    return next(e for e in trace if e.kind == "declare").data, rounds, a, d


NO_PAIR = (1, 4, 7, 8, 8, 8)


def test_best_against_best_is_the_maximin_of_the_exact_table():
    data, rounds, a, d = duel({"attack": "best"}, {"defense": "best"}, [*d8(*NO_PAIR[:5]), (6, 6)])
    m = matchup(a.state.profile, d.state.profile, True, rounds.fight.rules)
    values = form_values(rounds.fight, a, d, m, 0, 0).values
    forms = {"bash": 0, "slash": 1, "thrust": 2}
    defenses = {"dodge": 0, "block": 1, "parry": 2}
    chosen_a, chosen_d = forms[data["attack"]], defenses[data["defense"]]
    worst = {x: min(values[x][y] for y in range(3) if m.allowed[x][y]) for x in m.attacks}
    assert worst[chosen_a] == max(worst.values())
    assert values[chosen_a][chosen_d] == min(
        values[chosen_a][y] for y in range(3) if m.allowed[chosen_a][y]
    )
    # The table is cached on the attacker's profile.
    assert form_values(rounds.fight, a, d, m, 0, 0) is form_values(rounds.fight, a, d, m, 0, 0)


def test_random_forms_are_drawn_from_the_combats_dice():
    seen = set()
    rest = Dice(5, 0)  # the pools and the fumble after the two forms, whatever they come to
    for attack, defense in itertools.product((1, 2, 3), (1, 2, 3)):
        faces = [(attack, 3), (defense, 3), *[rest.uniform() for _ in range(8)]]
        data, *_ = duel({"attack": "random"}, {"defense": "random"}, faces)
        seen.add((data["attack"], data["defense"]))
    assert {a for a, _ in seen} == {"bash", "slash", "thrust"}
    assert {d for _, d in seen} == {"dodge", "block", "parry"}
