"""Target 10 resolution on the ACS clock."""

from __future__ import annotations

from sim.rules import RESOLUTIONS
from sim.rules.target10.skill_tests import success_chance
from sim.run.api import simulate
from sim.run.records import COMBATANT_COLUMNS
from sim.run.runner import run_chunk
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.conftest import SCENARIOS, scripted, within


def _hybrid(options=None, a=None, b=None, time_limit=1):
    first = {"name": "A", "hp": 30, "hit_dice": 4, "strength": 14, "actions": 1}
    second = {"name": "B", "hp": 30, "hit_dice": 2, "dexterity": 14, "actions": 1}
    first.update(a or {})
    second.update(b or {})
    return {
        "name": "hybrid", "rules": "acs", "time_limit": time_limit,
        "options": {"resolution": "target10", **(options or {})},
        "sides": [{"name": "red", "combatants": [first]}, {"name": "blue", "combatants": [second]}],
    }


def test_registered_and_the_scenario_runs():
    assert "target10" in RESOLUTIONS
    result = simulate(load_scenario(SCENARIOS / "t10-hybrid-acs-duel.yaml"), runs=200, seed=1)
    assert result.summary["runs"] == 200


def test_defend_is_the_acs_defense():
    # Second 1: ambition d12 A=12, B=1 (A wins: a free action on segment 1); action dice: both
    # on segment 5. Free action: A's FIGHT 4+2 = 6 against B's DEFENSE 2+2 = 4 plus Defend
    # max(2, 1): modifier 0; a hit for 3+2. Segment 5: A (first) again against B's Defend; that
    # defense costs B its own action on segment 5, which slides to segment 6, where B attacks
    # A's DEFENSE 4 + Defend 1 with FIGHT 2: -3.
    faces = [(12, 12), (1, 12), (5, 10), (5, 10), (20, 20), (3, 6), (1, 20), (1, 20)]
    combat, trace = scripted(_hybrid(), faces)
    attacks = [e for e in trace if e.kind == "t10_attack"]
    assert [(e.actor, e.data["modifier"], e.data["defend"]) for e in attacks] == [
        ("A", 0, True), ("A", 0, True), ("B", -3, True)]
    lost = [e for e in trace if e.kind == "action_lost"]
    assert [(e.actor, e.data["moved_to"]) for e in lost] == [("B", 6)]
    a, b = combat.fighters
    assert b.hp == 30 - 5 and b.defenses == 2 and a.defenses == 1


def test_passive_defense_rolls_no_acs_defense():
    faces = [(12, 12), (1, 12), (5, 10), (5, 10), (20, 20), (3, 6), (1, 20), (1, 20)]
    combat, trace = scripted(_hybrid({"hybrid_defense": "passive"}), faces)
    attacks = [e for e in trace if e.kind == "t10_attack"]
    assert [(e.actor, e.data["modifier"]) for e in attacks] == [("A", 2), ("A", 2), ("B", -2)]
    assert all(f.defenses == 0 for f in combat.fighters)
    assert not [e for e in trace if e.kind == "action_lost"]


def test_simulated_hit_rates_on_the_acs_clock():
    data = _hybrid({"hybrid_defense": "passive"}, a={"hp": 10000}, b={"hp": 10000},
                   time_limit=30)
    chunk = run_chunk(scenario_from_dict(data), 3, 0, 100, detail=True)
    attacks = COMBATANT_COLUMNS.index("attacks")
    for name, modifier in (("A", 2), ("B", -2)):
        rows = [r for r in chunk.combatants if r[2] == name]
        tried = sum(r[attacks] for r in rows)
        hit = sum(r[attacks + 1] for r in rows)
        assert tried > 2000
        assert within(hit, tried, float(success_chance(modifier, 12)))


def test_luck_saves_on_the_acs_clock():
    # A's free action hits for 6+2 = 8 against B's 5 hit points: B's one luck point (mid skill)
    # ignores it; then both miss on segment 5.
    faces = [(12, 12), (1, 12), (5, 10), (5, 10), (20, 20), (6, 6), (1, 20), (1, 20)]
    data = _hybrid({"hybrid_defense": "passive"}, b={"hp": 5, "skill_level": "mid"})
    combat, trace = scripted(data, faces)
    assert [e.actor for e in trace if e.kind == "t10_luck"] == ["B"]
    assert combat.fighters[1].hp == 5 and combat.fighters[1].state.luck == 0


def test_luck_to_succeed_on_the_acs_clock():
    # A (low skill, 3 points, always) misses its free action with d20 = 1 and spends a point:
    # a hit for 3 + 2; on segment 5 both miss and A spends again (B misses: no luck).
    faces = [(12, 12), (1, 12), (5, 10), (5, 10), (1, 20), (3, 6), (1, 20), (3, 6), (1, 20)]
    data = _hybrid({"hybrid_defense": "passive"},
                   a={"skill_level": "low", "tactics": {"luck_to_succeed": "always"}})
    combat, trace = scripted(data, faces)
    assert [e.actor for e in trace if e.kind == "t10_luck_hit"] == ["A", "A"]
    assert [e.data["hit"] for e in trace if e.kind == "t10_attack"] == [True, True, False]
    a, b = combat.fighters
    assert a.state.luck == 1 and b.hp == 30 - 10
