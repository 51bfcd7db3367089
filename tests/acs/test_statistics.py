"""Simulated rates of the ACS percentile resolution against their exact values."""

from __future__ import annotations

from fractions import Fraction

from sim.rules.acs.percentile import defense_chance, hit_chance
from sim.runner import trace_combat
from sim.scenario.loader import scenario_from_dict
from tests.conftest import acs_scenario, within


def test_hit_chance_formula():
    assert hit_chance(0, 50) == 0.51
    assert hit_chance(25, 60) == 0.66
    assert hit_chance(0, 101) == 0.0
    assert hit_chance(100, 1) == 1.0


def test_defense_chance_drops_by_the_total_above_100():
    assert defense_chance(40, 100) == 40
    assert defense_chance(40, 115) == 25
    assert defense_chance(40, 150) == 0
    assert defense_chance(40, 115, reduction=False) == 40


def exact_rates(to_hit: int, bonus: int, defense: int) -> tuple[Fraction, Fraction]:
    """P(hit) and P(hit and defended) for one attack on a defender able to defend."""
    hit = defended = Fraction(0)
    for roll in range(1, 101):
        total = roll + bonus
        if total >= to_hit:
            hit += Fraction(1, 100)
            defended += Fraction(1, 100) * Fraction(defense_chance(defense, total), 100)
    return hit, defended


def test_simulated_hit_and_defense_rates_match_exact_values():
    attacker = {"name": "A", "hp": 10_000, "to_hit": 60, "attack_bonus": 25, "damage": 1}
    defender = {"name": "B", "hp": 10_000, "actions": 3, "defense": 40, "to_hit": 101}
    scenario = scenario_from_dict(acs_scenario([attacker], [defender], time_limit=30))
    attacks = hits = defended = 0
    for k in range(150):
        _, trace = trace_combat(scenario, 5, k)
        for i, event in enumerate(trace):
            if event.kind == "attack" and event.actor == "A":
                attacks += 1
                hits += event.data["hit"]
                follow = trace[i + 1] if i + 1 < len(trace) else None
                if follow is not None and follow.kind == "defense" and follow.data["success"]:
                    defended += 1
    p_hit, p_defended = exact_rates(60, 25, 40)
    assert attacks > 5000
    assert within(hits, attacks, float(p_hit))
    assert within(defended, attacks, float(p_defended))
