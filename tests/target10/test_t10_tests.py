"""Tests outside combat and the chance of a test: exact values, simulated rates, the example."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from sim.engine.dice import Dice
from sim.rules.target10.skill_tests import (
    contest_chance,
    extended_chance,
    success_chance,
    turn_order,
    tv_of,
)
from sim.run.api import simulate
from sim.run.runner import run_chunk
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.conftest import SCENARIOS, within
from tests.target10.t10_helpers import d20, of, run


def test_juan_and_susan_have_equal_tvs():
    # Juan: skill 9, CHA 12 (+1); Susan: skill 6, CHA 18 (+4): TV 10 each, no modifier.
    assert tv_of(1, 9) == tv_of(4, 6) == 10
    assert tv_of(4) == 4  # without the skill, the ability modifier alone


def test_success_chance_has_no_natural_rolls():
    assert success_chance(0, 10) == Fraction(11, 20)
    assert success_chance(0, 12) == Fraction(9, 20)
    assert success_chance(-9, 12) == 0 and success_chance(-8, 12) == Fraction(1, 20)
    assert success_chance(11, 12) == 1 and success_chance(10, 12) == Fraction(19, 20)


# (FIGHT - DEFENSE, situational): every clamped modifier from -13 to +13, and past the clamps.
GRID = [(d, 0) for d in range(-10, 11)] + [
    (-10, -3), (-10, -2), (-10, -1), (10, 1), (10, 2), (10, 3),
    (-14, 0), (15, 0), (0, -6), (0, 5), (12, 4), (-12, -5),
]


def _duel(diff: int, situational: int) -> dict:
    """An attacker whose FIGHT - DEFENSE is ``diff`` against a defender who never acts."""
    attack_hd = max(diff, 0)
    armor = max(-diff, 0)
    return {
        "name": f"hit chance {diff} {situational}",
        "rules": "target10",
        "time_limit": 3600,
        "sides": [
            {"name": "a", "combatants": [{
                "name": "A", "hp": 10, "hit_dice": attack_hd, "situational": situational,
                "tactics": {"declare": {"movement": "hold", "action": "kill"}}}]},
            {"name": "b", "combatants": [{
                "name": "B", "hp": 100000, "hit_dice": 0, "armor": armor,
                "tactics": {"declare": {"movement": "hold", "action": "none"}}}]},
        ],
    }


@pytest.mark.parametrize(("diff", "situational"), GRID)
def test_simulated_hit_rate_matches_the_exact_chance(diff, situational):
    scenario = scenario_from_dict(_duel(diff, situational))
    chunk = run_chunk(scenario, seed=7, start=0, stop=60)  # 60 combats x 60 rounds
    attacks_col = 5 + 2 * 2 + 4
    attacks = sum(r[attacks_col] for r in chunk.records)
    hits = sum(r[attacks_col + 1] for r in chunk.records)
    modifier = max(-10, min(10, diff)) + max(-3, min(3, situational))
    exact = success_chance(modifier, 12)
    assert attacks == 3600
    if exact in (0, 1):
        assert hits == exact * attacks
    else:
        assert within(hits, attacks, float(exact))


def _negative_binomial(p: Fraction, successes: int, failures: int) -> Fraction:
    q = 1 - p
    return sum(comb(successes - 1 + f, f) * p**successes * q**f for f in range(failures))


def test_juan_and_susan_exact_chance():
    p = success_chance(10 - 10, 10)
    exact = extended_chance([p, p], 3, 4)
    assert exact == _negative_binomial(p, 3, 4)
    # p^3 (1 + 3q + 6q^2 + 10q^3) with p = 11/20: 1331/8000 * 35810/8000.
    assert exact == Fraction(4766311, 6400000)


def test_extended_chance_against_brute_force_with_unequal_testers():
    a, b = Fraction(3, 4), Fraction(1, 4)

    def brute(s: int, f: int, turn: int) -> Fraction:
        if s == 2:
            return Fraction(1)
        if f == 2:
            return Fraction(0)
        p = (a, b)[turn]
        return p * brute(s + 1, f, 1 - turn) + (1 - p) * brute(s, f + 1, 1 - turn)

    assert extended_chance([a, b], 2, 2) == brute(0, 0, 0)
    assert extended_chance([b, a], 2, 2) != extended_chance([a, b], 2, 2)


def test_apache_chief_simulated_rate_matches_the_markov_chain():
    scenario = load_scenario(SCENARIOS / "t10-apache-chief.yaml")
    result = simulate(scenario, runs=20000, seed=3)
    exact = float(extended_chance([Fraction(11, 20)] * 2, 3, 4))
    wins = result.summary["sides"]["venturers"]["wins"]
    assert within(wins, 20000, exact)
    low, high = result.summary["sides"]["venturers"]["ci95"]
    assert low < exact < high or within(wins, 20000, exact)


def test_the_printed_rolls_replayed():
    scenario = load_scenario(SCENARIOS / "t10-apache-chief.yaml")
    # Juan 4, Susan 11, Juan 7, Susan 9, Juan 13, Susan 8: four failures before three successes.
    combat, trace, _ = run(scenario.data, d20(4, 11, 7, 9, 13, 8))
    rolls = of(trace, "test")
    assert [(e.actor, e.data["roll"], e.data["success"]) for e in rolls] == [
        ("Juan", 4, False), ("Susan", 11, True), ("Juan", 7, False),
        ("Susan", 9, False), ("Juan", 13, True), ("Susan", 8, False)]
    assert [e.data["modifier"] for e in rolls] == [0] * 6
    assert rolls[-1].data["failures"] == 4 and rolls[-1].data["successes"] == 2
    assert combat.side_names[combat.winner] == "chief" and combat.duration_s == 360


def test_tester_order_ties_go_to_skill_then_ability_then_a_coin():
    juan, susan = (10, 9, 12), (10, 6, 18)
    assert turn_order([susan, juan], Dice.from_faces([])) == [1, 0]
    assert turn_order([(10, 6, 12), (10, 6, 18)], Dice.from_faces([])) == [1, 0]
    assert turn_order([(11, 0, 10), (10, 9, 18)], Dice.from_faces([])) == [0, 1]
    # Full tie: coins (2 = heads goes first); a tied flip is flipped again.
    assert turn_order([(5, 1, 10), (5, 1, 10)], Dice.from_faces([(1, 2), (2, 2)])) == [1, 0]
    assert turn_order([(5, 1, 10)] * 2, Dice.from_faces([(2, 2), (2, 2), (2, 2), (1, 2)])) == [
        0, 1]


def test_man_vs_nature_default_tv_and_luck_in_the_chain():
    data = {
        "name": "boulder", "rules": "target10",
        "options": {"kind": "test", "successes": 2, "failures": 2},
        "sides": [
            {"name": "strongmen", "combatants": [
                {"name": "Ox", "ability": 16, "skill_level": "low"},
            ]},
            {"name": "nature", "combatants": [{"name": "boulder", "nature": True}]},
        ],
    }
    scenario = scenario_from_dict(data)
    p = success_chance(3 - 5, 10)  # TV +3 against nature's default 5
    exact = extended_chance([p], 2, 2, luck=[3], policies=["save"])
    assert exact > extended_chance([p], 2, 2)
    result = simulate(scenario, runs=20000, seed=5)
    assert within(result.summary["sides"]["strongmen"]["wins"], 20000, float(exact))


def test_contest_exact_and_simulated():
    data = {
        "name": "race", "rules": "target10",
        "options": {"kind": "test", "mode": "contest", "successes": 2},
        "sides": [
            {"name": "quick", "combatants": [{"name": "Quick", "tv": 4}]},
            {"name": "slow", "combatants": [{"name": "Slow", "tv": 2}]},
        ],
    }
    scenario = scenario_from_dict(data)
    exact = contest_chance([success_chance(2, 10), success_chance(-2, 10)], [0, 1], 2)
    result = simulate(scenario, runs=20000, seed=9)
    assert within(result.summary["sides"]["quick"]["wins"], 20000, float(exact))


def test_contest_chance_by_hand():
    # One success each: first roller wins with p1 / (1 - (1-p1)(1-p2)).
    p1, p2 = Fraction(1, 2), Fraction(1, 3)
    assert contest_chance([p1, p2], [0, 1]) == p1 / (1 - (1 - p1) * (1 - p2))
