"""Simulated attacks through the combat code against the exact calculator (fixed seeds).

Each case plays many single attacks with the combat's own code (declarations, pools, rolls,
wiggling, tie re-rolls), from fresh combatants every time, and compares the frequency of every
outcome with ``exact.attack_odds`` for the same pools, within 4 standard errors.
"""

from __future__ import annotations

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.prop3.exact import attack_odds
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.missiles import missile_attack
from sim.rules.prop3.pool import Outcome
from sim.scenario.loader import scenario_from_dict
from tests.conftest import within

KRONZER = {"name": "Kronzer", "vigor": 6, "agility": 4, "size_category": 1,
           "weapon": {"name": "club", "bash": "excellent", "slash": "average", "thrust": "poor"},
           "tactics": {"attack": "bash"}}
MOONBELLY = {"name": "Moonbelly", "vigor": 5, "agility": 6, "shield": True,
             "armor": {"name": "leather", "bash": "poor"}, "tactics": {"defense": "block"},
             "missile": {"name": "bow", "range": 5, "max_range": 25}}
RAT = {"name": "Kronzer", "vigor": 6, "agility": 4, "size_category": 1,
       "skills": {"dodge": "good"}, "armor": {"name": "mail", "thrust": "excellent"},
       "tactics": {"defense": "dodge"}}


def outcomes(attacker, defender, n, missile=False, options=None, seed=7):
    data = {"name": "stats", "rules": "prop3", "options": options or {},
            "sides": [{"name": "a", "combatants": [attacker]},
                      {"name": "d", "combatants": [defender]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    counts = dict.fromkeys(Outcome, 0)
    dice = Dice(seed, 0)
    for _ in range(n):
        trace: list = []
        combat = Combat(prepared.spawn(dice), s.side_names, dice, 600, trace)
        rounds = prepared.rounds(combat)
        a, d = combat.fighters
        rounds.set_order([d, a])
        (missile_attack if missile else melee_attack)(rounds.fight, a, d)
        # The attack's exchanges come first: ties re-rolled, then its outcome (a counter-attack
        # after a fumble or a critical parry comes later).
        first = next(e for e in trace if e.kind == "exchange" and e.data["outcome"] != "tie")
        assert first.actor == a.name
        counts[Outcome(first.data["outcome"])] += 1
    return counts


def check(counts, odds, n):
    assert counts[Outcome.TIE] == 0
    for outcome, p in odds.outcomes.items():
        assert within(counts[outcome], n, p), (outcome, counts[outcome] / n, p)


@pytest.mark.parametrize("keep", ["lowest_three", "best_set"])
def test_kronzer_bashing_moonbelly_matches_the_exact_odds(keep):
    n = 6000
    counts = outcomes(KRONZER, MOONBELLY, n, options={"keep": keep})
    # 6d8 with 2 wiggle points against a 4d8 block with 1 (the worked example's pools).
    check(counts, attack_odds(6, 8, 2, 4, 8, 1, keep=keep), n)


def test_moonbelly_shooting_kronzer_matches_the_exact_odds_with_armor_points():
    # 15 ft, bow range 5: 3 increments: 6 - 2 = 4d8 +1 wiggle (a larger target); Kronzer dodges
    # 4 - 1 = 3d6 +2 wiggle (increments); his mail is excellent against arrows: +1 if he fails.
    n = 6000
    counts = outcomes(MOONBELLY, RAT, n, missile=True, options={"start_distance": 15})
    check(counts, attack_odds(4, 8, 1, 3, 6, 2, defense_save_points=1), n)
