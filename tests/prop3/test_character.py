"""Characters: stats and sub-stats, race proficiency, size, skills, advantages, disadvantages."""

from __future__ import annotations

import copy

import pytest

from sim.engine.combat import Combat
from sim.rules.prop3.character import (
    ATTACK_FORMS,
    BASH,
    BLOCK,
    DODGE,
    INITIATIVE,
    PARRY,
    THROWN,
    Profile,
    pool_dice,
)
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.models import Prop3Combatant, Prop3Options
from sim.rules.prop3.pool import pool_size
from sim.scenario.loader import scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.prop3.scripted import dice as scripted_dice
from tests.prop3.scripted import pool, pools


def profile(options=None, **stats) -> Profile:
    model = Prop3Combatant.model_validate(stats)
    return Profile(model, Prop3Options.model_validate(options or {}))


def test_rolls_use_the_stat_of_their_sub_stat():
    p = profile(vigor=6, agility=3, mind=9, spirit=2)
    assert [p.base[p.stat[r]] for r in (BASH, DODGE, BLOCK, PARRY, INITIATIVE)] == [6, 3, 6, 3, 3]
    # An option moves parries to Fortitude (Vigor) and thrown weapons to Strength.
    p = profile({"parry_substat": "fortitude", "thrown_substat": "strength"}, vigor=6, agility=3)
    assert p.base[p.stat[PARRY]] == 6 and p.base[p.stat[THROWN]] == 6


def test_size_adds_vigor_dice_only():
    big = profile(vigor=5, agility=5, size_category=2)
    small = profile(vigor=5, agility=5, size_category=-1)
    assert (big.offset[BASH], big.offset[BLOCK], big.offset[DODGE]) == (2, 2, 0)
    assert (small.offset[BASH], small.offset[DODGE]) == (-1, 0)


def test_a_disadvantage_takes_a_die_from_rolls_on_its_sub_stat():
    # Egon's "Portly": one die less on Speed checks (dodging), none on Dexterity (parrying).
    egon = profile(agility=4, disadvantages={"speed": 1})
    assert (egon.offset[DODGE], egon.offset[PARRY], egon.offset[INITIATIVE]) == (-1, 0, -1)


class _Fighter:
    def __init__(self, hp):
        self.hp = hp


@pytest.mark.parametrize("stat", [0, 1, 2, 5])
def test_pool_dice_agrees_with_pool_size(stat):
    p = profile(vigor=6, size_category=2, disadvantages={"strength": 1})
    assert pool_dice(_Fighter(stat), p, BASH) == pool_size(
        stat, size=2, vigor=True, disadvantages=1)


def test_the_skill_sets_the_die_else_the_race_proficiency():
    p = profile(race_proficiency={"vigor": "excellent", "agility": "poor"},
                skills={"bash": "fair", "dodge": "good"})
    assert p.sides[BASH] == 10  # the skill, fair
    assert p.sides[ATTACK_FORMS.index(ATTACK_FORMS[1])] == 4  # slash: no skill, race Vigor
    assert p.sides[DODGE] == 6 and p.sides[PARRY] == 12
    best = profile({"die_source": "best"}, race_proficiency={"vigor": "excellent"},
                   skills={"bash": "fair"})
    assert best.sides[BASH] == 4  # the better of the two


def test_advantages_give_points_to_their_sub_stat_and_focuses_to_their_skills():
    p = profile(advantages={"perception": 1, "strength": 2},
                focuses=[{"skills": ["bash", "slash"], "points": 3}])
    assert p.start_points[:8] == (4, 0, 0, 0, 0, 2, 0, 0)
    assert p.start_points[8] == 3
    assert p.points[BASH] == (8, 0)  # the focus first, then Strength
    assert p.points[DODGE] == (2,)  # Speed only
    doubled = profile({"advantage_points": 3}, advantages={"strength": 1})
    assert doubled.start_points[0] == 3


FIGHTER = {"vigor": 4, "agility": 4, "weapon": {"name": "sword"}, "armor": {"name": "jack"},
           "tactics": {"attack": "bash", "defense": "dodge"}}


def duel(attacker, defender, faces, options=None):
    data = {"name": "adv", "rules": "prop3", "options": options or {},
            "sides": [{"name": "a", "combatants": [attacker]},
                      {"name": "d", "combatants": [defender]}]}
    s = scenario_from_dict(data)
    prepared = s.system.prepare(s)
    dice = scripted_dice(pools(8, 4, faces))  # every pool here has four dice
    trace: list = []
    combat = Combat(prepared.spawn(dice), s.side_names, dice, s.time_limit_s, trace)
    rounds = prepared.rounds(combat)
    a, d = combat.fighters
    rounds.set_order([a, d])
    return rounds, a, d, trace, dice


def named(name, **extra):
    block = copy.deepcopy(FIGHTER)
    block.update(name=name, **extra)
    return block


def test_advantage_points_are_spent_to_turn_a_failure_into_a_success_and_not_regained():
    # 2, 4, 6, 8 has no pair; her two Strength points (one advantage) make 4 -> 2: a pair of 2s,
    # against a dodge with no pair. The points are gone; her next failure stays a failure.
    strong = named("A", advantages={"strength": 1})
    rounds, a, d, trace, _dice = duel(strong, named("D"), [2, 4, 6, 8, 1, 3, 5, 7])
    melee_attack(rounds.fight, a, d)
    x = next(e for e in trace if e.kind == "exchange")
    assert x.data["result"].startswith("pair of 2s") and x.data["outcome"] == "hit"
    assert a.state.points[0] == 0
    assert [e.data["points"] for e in trace if e.kind == "advantage"] == [2]
    rounds.fight.dice._buffer[:0] = [(6 - 0.5) / 6, pool(8, 2, 4, 6, 8)]  # drawn last to first
    melee_attack(rounds.fight, a, d)  # none left: a fumble
    assert [e.data["outcome"] for e in trace if e.kind == "exchange"][-1] == "fumble"


def test_advantage_points_are_kept_when_the_roll_succeeds_anyway():
    strong = named("A", advantages={"strength": 1})
    rounds, a, d, _trace, _dice = duel(strong, named("D"), [1, 1, 3, 5, 2, 4, 6, 8])
    melee_attack(rounds.fight, a, d)
    assert a.state.points[0] == 2


def test_advantage_spending_never_and_always():
    strong = named("A", advantages={"strength": 1})
    rounds, a, d, trace, dice = duel(strong, named("D"), [2, 4, 6, 8],
                                     {"advantage_spending": "never"})
    rounds.fight.dice._buffer.insert(0, (6 - 0.5) / 6)
    melee_attack(rounds.fight, a, d)
    assert a.state.points[0] == 2 and not dice._buffer
    # always: a success is improved too: 1, 3, 3 (a pair of 3s) -> triple 3s for 2 points.
    rounds, a, d, trace, dice = duel(strong, named("D"), [1, 3, 3, 7, 2, 4, 6, 8],
                                     {"advantage_spending": "always"})
    melee_attack(rounds.fight, a, d)
    x = next(e for e in trace if e.kind == "exchange")
    assert x.data["result"] == "triple 3s" and a.state.points[0] == 0


def test_a_defender_spends_advantage_points_to_defend():
    quick = named("D", advantages={"speed": 1})
    # A: a pair of 3s; D's dodge 1, 2, 5, 7: one Speed point (2 -> 1) makes a pair of 1s.
    rounds, a, d, trace, _dice = duel(named("A"), quick, [3, 3, 5, 7, 1, 2, 5, 7])
    melee_attack(rounds.fight, a, d)
    x = next(e for e in trace if e.kind == "exchange")
    assert x.data["outcome"] == "defended" and d.state.points[2] == 1


def test_an_unknown_wiggle_policy_is_a_scenario_error():
    data = {"name": "bad", "rules": "prop3", "options": {"attacker_wiggle": "lucky"},
            "sides": [{"name": "a", "combatants": [named("A")]},
                      {"name": "d", "combatants": [named("D")]}]}
    with pytest.raises(ScenarioError, match="attacker_wiggle"):
        scenario_from_dict(data)
