"""Simulated rates of the ACS percentile resolution against their exact values."""

from __future__ import annotations

from fractions import Fraction

from sim.rules.acs.percentile import (
    defended_chance,
    defending_rolls,
    defends,
    defense_chance,
    defense_chances,
    hit_chance,
    hits,
    hitting_faces,
)
from sim.run.runner import trace_combat
from sim.scenario.loader import scenario_from_dict
from tests.conftest import acs_scenario, within


def test_an_attack_hits_at_or_above_the_to_hit_number_and_a_defense_at_or_below_the_chance():
    assert hits(50, 50) and not hits(49, 50)
    assert defends(40, 40) and not defends(41, 40)


def test_the_hit_table_the_attack_reads_is_hits_for_every_face():
    table = hitting_faces(25, 60)  # d100 + 25 against 60: faces 35 and up hit
    assert len(table) == 101 and table[0] is False  # index 0 is never rolled
    assert [face for face in range(1, 101) if table[face]] == list(range(35, 101))
    assert all(table[face] == hits(face + 25, 60) for face in range(1, 101))


def test_the_defense_tables_the_attack_reads_are_the_rule_for_every_total_and_face():
    table = defense_chances(40)  # totals 0..140: 40 up to 100, then one less a point, then 0
    assert len(table) == 141
    assert table[100] == 40 and table[115] == 25 and table[140] == 0
    assert all(table[total] == defense_chance(40, total) for total in range(141))
    flat = defense_chances(40, reduction=False)
    assert all(flat[total] == 40 == defense_chance(40, total, False) for total in range(141))
    held = defending_rolls(25)
    assert len(held) == 101 and held[0] is False  # index 0 is never rolled
    assert [face for face in range(1, 101) if held[face]] == list(range(1, 26))
    assert all(held[face] == defends(face, 25) for face in range(1, 101))


def test_an_attack_total_past_the_defense_table_still_lowers_the_chance_to_nothing():
    # d100 + 200 against a defense of 30: every total (201..300) is past 100 + 30.
    attacker = {"name": "A", "hp": 10_000, "to_hit": 1, "attack_bonus": 200, "damage": 1}
    defender = {"name": "B", "hp": 10_000, "actions": 3, "defense": 30, "to_hit": 300}
    scenario = scenario_from_dict(acs_scenario([attacker], [defender], time_limit=5))
    _, trace = trace_combat(scenario, 3, 0)
    defenses = [event for event in trace if event.kind == "defense"]
    assert defenses and all(e.data["chance"] == 0 and not e.data["success"] for e in defenses)


def test_hit_chance_over_the_d100():
    assert hit_chance(0, 50) == Fraction(51, 100)
    assert hit_chance(25, 60) == Fraction(66, 100)
    assert hit_chance(0, 101) == 0
    assert hit_chance(100, 1) == 1
    assert hit_chance(-10, 95) == 0  # needs 105 on the d100


def test_defense_chance_drops_by_the_total_above_100():
    assert defense_chance(40, 100) == 40
    assert defense_chance(40, 115) == 25
    assert defense_chance(40, 150) == 0
    assert defense_chance(40, 115, reduction=False) == 40


def test_defended_chance_by_hand():
    # to_hit 60, bonus 25: faces 35..100 hit (66 of them); totals 60..100 (faces 35..75)
    # leave the chance at 40, totals 101..125 (faces 76..100) lower it to 39..15.
    by_hand = Fraction(41 * 40 + sum(40 - excess for excess in range(1, 26)), 100 * 100)
    assert defended_chance(25, 60, 40) == by_hand
    assert defended_chance(25, 60, 40, reduction=False) == Fraction(66 * 40, 100 * 100)


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
    p_hit, p_defended = hit_chance(25, 60), defended_chance(25, 60, 40)
    assert attacks > 5000
    assert within(hits, attacks, float(p_hit))
    assert within(defended, attacks, float(p_defended))
