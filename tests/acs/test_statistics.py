"""The ACS percentile exchange: its rules, its exact law against brute force, and the engine."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.engine.dice import DiceExpr
from sim.engine.distribution import Distribution
from sim.rules.acs.percentile import (
    D100,
    DEFENDED,
    MISS,
    PLAIN,
    PercentileOutcome,
    PercentileResult,
    PercentileRules,
    PercentileStats,
    Situation,
    Strike,
    damage_law,
    defends,
    defense_chance,
    distribution,
    hits,
    resolve,
    strike,
    strikes,
)
from sim.run.runner import trace_combat
from sim.scenario.loader import scenario_from_dict
from tests.acs.every_face import brute_law, every_script
from tests.conftest import acs_scenario, within

LOWER = PercentileRules(
    reduction=True, excess_mode="lower_defense", per_damage=10, maneuver_bonus=20
)


def stats(to_hit=50, attack_bonus=0, defense=30, damage="1d4", rules=LOWER) -> PercentileStats:
    """A percentile combatant's stats (reach, range and speed play no part in an attack)."""
    return PercentileStats(
        to_hit=to_hit,
        attack_bonus=attack_bonus,
        defense=defense,
        damage=DiceExpr.parse(damage),
        rules=rules,
        reach=1,
        range=0,
        speed=4,
    )


def scripts(
    attacker: PercentileStats, defender: PercentileStats, situation: Situation
) -> dict[tuple[int, ...], PercentileOutcome]:
    """What :func:`resolve` returns on every script of faces it can meet."""
    done, left = every_script(lambda dice: resolve(attacker, defender, situation, dice))  # type: ignore[arg-type]
    assert left == 0  # an attack rolls at most its d100, a d100 and its damage dice
    return {tuple(faces): outcome for faces, _, outcome in done}


def brute_force(
    attacker: PercentileStats, defender: PercentileStats, situation: Situation
) -> Distribution[PercentileResult]:
    """The law of :func:`resolve`'s results over every face of every die it rolls."""
    law, left = brute_law(lambda dice: resolve(attacker, defender, situation, dice).result)  # type: ignore[arg-type]
    assert left == 0
    return Distribution.of(law.items())


def test_an_attack_hits_at_or_above_the_to_hit_number_and_a_defense_at_or_below_the_chance():
    assert hits(50, 50) and not hits(49, 50)
    assert defends(40, 40) and not defends(41, 40)


def test_defense_chance_drops_by_the_total_above_100():
    assert defense_chance(40, 100) == 40
    assert defense_chance(40, 115) == 25
    assert defense_chance(40, 150) == 0
    assert defense_chance(40, 115, reduction=False) == 40


MORE = PercentileRules(reduction=False, excess_mode="more_effect", per_damage=10, maneuver_bonus=20)
CHOOSES = PercentileRules(
    reduction=True, excess_mode="attacker_chooses", per_damage=7, maneuver_bonus=20
)

CASES = {
    # d100 + 25 against 60, defense 40 lowered by totals above 100.
    "lower defense": (stats(60, 25, damage="1d3"), stats(defense=40), PLAIN[True]),
    "no defense": (stats(60, 25, damage="1d3"), stats(defense=40), PLAIN[False]),
    # The excess adds 1 damage per 10 points; the defense stays.
    "more effect": (stats(40, 30, damage="1d2", rules=MORE), stats(defense=50), PLAIN[True]),
    # The attacker takes the damage where the target cannot defend.
    "attacker chooses": (
        stats(40, 45, damage="2d2-3", rules=CHOOSES),
        stats(defense=20, rules=CHOOSES),
        PLAIN[False],
    ),
    # This second's modifiers and a defensive maneuver (+20, at most 100).
    "modifiers and maneuver": (
        stats(70, 10, damage="2"),
        stats(defense=85),
        Situation(can_defend=True, attack_boost=15, defense_boost=-5, maneuver=True),
    ),
}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_exact_law_is_resolve_over_every_face_of_every_die(case):
    attacker, defender, situation = CASES[case]
    exact = distribution(attacker, defender, situation)
    assert exact == brute_force(attacker, defender, situation)
    assert sum(p for _, p in exact) == 1


def test_resolve_rolls_attack_then_defense_then_damage_and_reports_every_roll():
    attacker, defender = stats(60, 25, damage="1d3"), stats(defense=40)
    outcomes = scripts(attacker, defender, PLAIN[True])
    # A miss rolls one die; a defended hit two; a hit that goes through three.
    assert outcomes[(34,)] == PercentileOutcome(34, 59, False, 0, 0, False, 0)
    # Face 90: total 115 lowers the defense 40 to 25; 25 holds, 26 does not.
    assert outcomes[(90, 25)] == PercentileOutcome(90, 115, True, 25, 25, True, 0)
    assert outcomes[(90, 26, 3)] == PercentileOutcome(90, 115, True, 26, 25, False, 3)
    assert outcomes[(90, 26, 3)].result == PercentileResult(True, True, False, 3)
    # A target that cannot defend rolls nothing: the damage is the second die.
    no_defense = scripts(attacker, defender, PLAIN[False])
    assert no_defense[(90, 2)] == PercentileOutcome(90, 115, True, 0, 0, False, 2)
    assert not no_defense[(90, 2)].defense_rolled


def test_the_law_by_hand():
    # to_hit 60, bonus 25: faces 35..100 hit (66 of them); totals 60..100 (faces 35..75) leave
    # the chance at 40, totals 101..125 (faces 76..100) lower it to 39..15.
    attacker, defender = stats(60, 25, damage="1d3"), stats(defense=40)
    law = distribution(attacker, defender, PLAIN[True])
    defended = Fraction(41 * 40 + sum(40 - excess for excess in range(1, 26)), D100 * D100)
    assert law.probability(MISS) == Fraction(34, 100)
    assert law.probability(DEFENDED) == defended
    through = (Fraction(66, 100) - defended) / 3
    assert law.probability(PercentileResult(True, True, False, 2)) == through
    assert law.expectation(lambda r: r.damage) == through * (1 + 2 + 3)


def test_more_effect_adds_a_point_per_step_above_100_and_attacker_chooses_where_undefended():
    # d100 + 30 against 40: faces 71..100 (totals 101..130) add 0..3 to the d2.
    attacker, defender = stats(40, 30, damage="1d2", rules=MORE), stats(defense=0)
    law = distribution(attacker, defender, PLAIN[False])
    assert law.probability(lambda r: r.damage == 5) == Fraction(1, 100) / 2  # face 100, a 2
    assert max(r.damage for r in law.outcomes) == 5
    chooser = stats(40, 30, damage="1d2", rules=CHOOSES)
    # Against a target that may defend the excess lowers the defense instead: no extra damage.
    assert (
        max(r.damage for r in distribution(chooser, stats(defense=30), PLAIN[True]).outcomes) == 2
    )


def test_the_damage_law_adds_every_face():
    assert damage_law(DiceExpr.parse("2d3+1")) == Distribution.of(
        [(3, 1), (4, 2), (5, 3), (6, 2), (7, 1)]
    )
    assert damage_law(DiceExpr.parse("4")) == Distribution.certain(4)


def test_inputs_and_results_are_hashable_values():
    attacker, _, situation = CASES["modifiers and maneuver"]
    assert hash(attacker) == hash(stats(70, 10, damage="2"))
    assert {situation: 1}[Situation(True, 15, -5, True)] == 1
    assert hash(MISS) == hash(PercentileResult(False, False, False, 0))


def test_simulated_hit_and_defense_rates_match_the_exact_law():
    # The engine's attacks (the trace of real combats) against the law of the same exchange.
    attacker = {"name": "A", "hp": 10_000, "to_hit": 60, "attack_bonus": 25, "damage": 1}
    defender = {"name": "B", "hp": 10_000, "actions": 3, "defense": 40, "to_hit": 101}
    scenario = scenario_from_dict(acs_scenario([attacker], [defender], time_limit=30))
    law = distribution(stats(60, 25, damage="1"), stats(defense=40), PLAIN[True])
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
    assert attacks > 5000
    assert within(hits, attacks, float(law.probability(lambda r: r.hit)))
    assert within(defended, attacks, float(law.probability(DEFENDED)))


def test_an_attack_total_past_100_plus_the_defense_lowers_the_chance_to_nothing():
    # d100 + 200 against a defense of 30: every total (201..300) is past 100 + 30.
    attacker = {"name": "A", "hp": 10_000, "to_hit": 1, "attack_bonus": 200, "damage": 1}
    defender = {"name": "B", "hp": 10_000, "actions": 3, "defense": 30, "to_hit": 300}
    scenario = scenario_from_dict(acs_scenario([attacker], [defender], time_limit=5))
    _, trace = trace_combat(scenario, 3, 0)
    defenses = [event for event in trace if event.kind == "defense"]
    assert defenses and all(e.data["chance"] == 0 and not e.data["success"] for e in defenses)


def test_the_table_resolve_reads_is_strike_for_every_face():
    rules = CHOOSES
    situation = Situation(can_defend=True, attack_boost=5, defense_boost=3, maneuver=True)
    table = strikes(40, 45, 20, situation, rules)
    assert len(table) == D100
    for face in range(1, D100 + 1):
        assert table[face - 1] == strike(40, 20, situation, rules, face + 45 + 5)
    # Face 60: total 110 against 40 hits; the defense 20 + 3 + 20 (maneuver) drops by 10.
    assert table[59] == Strike(total=110, hit=True, chance=33, extra=0)
