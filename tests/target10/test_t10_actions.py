"""The seven actions, each with scripted dice that a wrong reading would not survive."""

from __future__ import annotations

import pytest

from sim.rules.target10.actions import subdue_dealt, take_damage
from sim.run.records import combatant_records
from sim.scenario.loader import scenario_from_dict
from sim.scenario.problems import ScenarioError
from tests.target10.t10_helpers import d6, d20, man, of, run, t10


def _modifiers(trace):
    return [(e.actor, e.data["modifier"]) for e in of(trace, "attack")]


def test_defend_adds_the_dex_bonus_or_1():
    _, trace, _ = run(t10([man("A", action="defend", dexterity=14)], [man("B")]),
                      d6(6, 1) + d20(1))
    assert _modifiers(trace) == [("B", -4)]  # FIGHT 1 vs DEFENSE 1 + 2 + 2
    _, trace, _ = run(t10([man("A", action="defend")], [man("B")]), d6(6, 1) + d20(1))
    assert _modifiers(trace) == [("B", -1)]  # FIGHT 1 vs DEFENSE 1 + 0 + 1


def test_disarm_uses_shoot_sends_the_weapon_away_and_costs_its_bonus():
    a = man("A", action="disarm", dexterity=14, weapon={"bonus": 2})
    b = man("B", weapon={"bonus": 3})
    # A: SHOOT 1+2+2 = 5 vs DEFENSE 1: +4 (FIGHT would give +2); success, no damage die; the
    # knife lands on the far side (d2 = 2) 4 paces away. B now fights unarmed: FIGHT 1 vs 3.
    _, trace, f = run(t10([a], [b]), d6(6, 1) + d20(20) + [(2, 2)] + d6(4) + d20(1))
    assert _modifiers(trace) == [("A", 4), ("B", -2)]
    assert f["B"].weapon_at == 5 and f["B"].hp == 10
    assert of(trace, "effect")[0].data["effect"] == "disarm"


def test_a_disarmed_fighter_recovers_its_weapon():
    a = man("A", tactics={"rules": [
        {"if": "opponent_disarmed", "then": {"movement": "hold", "action": "defend"}},
        {"else": {"movement": "hold", "action": "disarm"}}]})
    b = man("B", tactics={"rules": [
        {"if": "disarmed", "then": {"movement": "hold", "action": "recover"}},
        {"else": {"movement": "hold", "action": "kill"}}]})
    dice = d6(6, 1) + d20(20) + [(1, 2)] + d6(2) + d20(1) + d6(6, 1)
    _, trace, f = run(t10([a], [b], time_limit=120), dice)
    assert f["B"].weapon_at is None and f["B"].pos == -1
    assert of(trace, "recover")[0].data["success"]


def test_grapple_pins_minus_1_no_moving_and_a_grapple_breaks_it():
    a = man("A", action="grapple")
    b = man("B", tactics={"rules": [
        {"if": "pinned", "then": {"movement": "withdraw", "action": "grapple"}},
        {"else": {"movement": "hold", "action": "kill"}}]})
    dice = d6(6, 1) + d20(20, 1) + d6(6, 1) + d20(1, 20)
    _, trace, f = run(t10([a], [b], time_limit=120, options={"held_cannot_move": True}), dice)
    # Round 1: A pins B; B attacks at -1. Round 2: A has +1 against the pinned B; B cannot
    # withdraw (held_cannot_move), grapples its holder at -1 and breaks free.
    assert _modifiers(trace) == [("A", 0), ("B", -1), ("A", 1), ("B", -1)]
    assert [e.data["effect"] for e in of(trace, "effect")] == ["grapple", "break"]
    assert of(trace, "declare", "B")[1].data["held"] and f["B"].pos == 1
    assert f["B"].pinned_by is None and f["A"].pinning is None


def test_by_default_a_pinned_fighter_moves_but_stays_in_its_holders_reach():
    # The text gives a pin only "-1 to attack and defend" and a grapple to break it: B may
    # withdraw, but the hold goes with it (1 pace from A at most). A withdrawer attacks only an
    # advancing opponent, so B's grapple is not rolled.
    a = man("A", action="grapple", weapon={"reach": 2})
    b = man("B", tactics={"rules": [
        {"if": "pinned", "then": {"movement": "withdraw", "action": "grapple"}},
        {"else": {"movement": "hold", "action": "kill"}}]})
    _, trace, f = run(t10([a], [b], time_limit=120), d6(6, 1) + d20(20, 1) + d6(6, 1) + d20(1))
    assert not of(trace, "declare", "B")[1].data["held"]
    assert f["B"].pos == 2 and f["B"].pinned_by is f["A"]


def test_a_grounded_fighter_moves_with_its_penalty_unless_held_cannot_move():
    lying = man("A", "advance", "none", on_ground=True)
    data = t10([lying], [man("B", action="none")], options={"start_distance": 10})
    _, trace, f = run(data, d6(6, 1))
    assert f["A"].pos == 3 and f["A"].on_ground and not of(trace, "declare", "A")[0].data["held"]
    data["options"]["held_cannot_move"] = True
    _, trace, f = run(data, d6(6, 1))
    assert f["A"].pos == 0 and of(trace, "declare", "A")[0].data["held"]


def test_kill_below_zero_is_dead_exactly_zero_unconscious():
    victim = man("B", action="none", hp=3)
    combat, _, f = run(t10([man("A")], [victim]), d6(6, 1) + d20(20) + d6(4))
    assert f["B"].out == "dead" and f["B"].hp == -1 and combat.end_reason == "victory"
    _, trace, f = run(t10([man("A")], [victim]), d6(6, 1) + d20(20) + d6(3) + d6(2))
    assert f["B"].out == "unconscious" and of(trace, "sleep")[0].data["rounds"] == 2
    _, _, f = run(t10([man("A")], [victim], options={"zero_hp": "dead"}),
                  d6(6, 1) + d20(20) + d6(3))
    assert f["B"].out == "dead"


def test_subdue_never_below_zero_and_unconscious():
    _, trace, f = run(t10([man("A", action="subdue")], [man("B", action="none", hp=3)]),
                      d6(6, 1) + d20(20) + d6(6) + d6(5))
    assert f["B"].hp == 0 and f["B"].out == "unconscious"
    assert of(trace, "damage")[0].data["amount"] == 3 and f["B"].damage_taken == 3


def test_a_subdue_deals_only_the_hit_points_left():
    assert [subdue_dealt(5, left) for left in (8, 5, 3, 0, -2)] == [5, 5, 3, 0, 0]
    # Alone in its step (the hit lands as it is rolled), the subduer is credited what it dealt.
    _, _, f = run(t10([man("A", action="subdue")], [man("B", action="none", hp=3)]),
                  d6(6, 1) + d20(20) + d6(6) + d6(5))
    assert f["A"].damage_dealt == 3 and f["B"].damage_taken == 3


def test_hits_of_one_step_land_together_kill_first_then_subdue():
    # Equal initiative: A's Kill (4) and C's Subdue (6) land together on B (5 hp): the Kill
    # first leaves 1, the Subdue deals that 1 and stops at 0.
    red = [man("A"), man("C", action="subdue")]
    blue = [man("B", action="none", hp=5)]
    _, trace, f = run(t10(red, blue), d6(3, 3, 1) + d20(20) + d6(4) + d20(20) + d6(6) + d6(2))
    assert f["B"].hp == 0 and f["B"].out == "unconscious"
    assert f["A"].damage_dealt == 4 and f["C"].damage_dealt == 1
    assert of(trace, "damage")[0].data["by"] == ["A", "C"]


def test_unconscious_wakes_after_its_rounds_while_the_fight_goes_on():
    red = [man("A", action="subdue")]
    blue = [man("B", action="none", hp=3), man("C", action="none", hp=50)]
    dice = (d6(6, 1, 1) + d20(20) + d6(6) + d6(2)   # round 1: B out for 2 rounds
            + d6(6, 1) + d20(1) + d6(6, 1) + d20(1)  # rounds 2 and 3: A against C
            + d6(6, 1, 1) + d20(1))                  # round 4: B is back
    combat, trace, f = run(t10(red, blue, time_limit=240), dice)
    assert [e.t // 600 for e in of(trace, "declare", "B")] == [0, 3]
    assert of(trace, "wake")[0].t == 1800
    assert f["B"].out is None and f["B"].on_ground and combat.end_reason == "time_limit"


def test_a_side_all_unconscious_has_lost_for_good():
    combat, _, f = run(t10([man("A", action="subdue")], [man("B", action="none", hp=3)],
                           time_limit=600), d6(6, 1) + d20(20) + d6(6) + d6(1))
    assert combat.end_reason == "victory" and combat.duration_s == 60
    assert f["B"].out == "unconscious"
    record = combatant_records(combat, 0, 0)[1]
    assert record[6] == "unconscious" and record[7] == 60.0


def test_trip_puts_on_the_ground_minus_2_to_attack_and_defend():
    dice = d6(6, 1) + d20(20, 1) + d6(6, 1) + d20(1, 1)
    _, trace, f = run(t10([man("A", action="trip")], [man("B")], time_limit=120), dice)
    assert _modifiers(trace) == [("A", 0), ("B", -2), ("A", 2), ("B", -2)]
    assert f["B"].on_ground and f["B"].hp == 10


def test_ground_penalty_as_values_meets_the_value_clamp():
    a = man("A", action="trip", hit_dice=11)
    dice = d6(6, 1) + d20(20) + d6(6, 1) + d20(1)
    data = t10([a], [man("B", action="none", hit_dice=0)], time_limit=120)
    _, trace, _ = run(data, dice)
    assert _modifiers(trace) == [("A", 10), ("A", 12)]  # situational +2 beyond the clamp
    data["options"] = {"penalties_as": "values"}
    _, trace, _ = run(data, dice)
    assert _modifiers(trace) == [("A", 10), ("A", 10)]  # DEFENSE -2, clamped at +10


def _venturer(**extra):
    return man("Susan", action="negotiate", venturer=True, skill=6, charisma=18, **extra)


def test_negotiate_holds_off_the_opponents():
    # Susan: TV 6 + 4 = 10 against the opponents' best 0; d20 = 1 succeeds (11 >= 10).
    _, trace, _ = run(t10([_venturer()], [man("B"), man("C")]), d6(6, 1, 1) + d20(1))
    assert of(trace, "negotiate")[0].data["success"]
    assert not of(trace, "attack")
    assert [e.data["why"] for e in of(trace, "no_attack")] == ["held off by a negotiation"] * 2


def test_negotiation_fails_if_the_negotiator_was_attacked_first():
    _, trace, _ = run(t10([_venturer()], [man("B"), man("C")]), d6(1, 6, 1) + d20(1, 1))
    assert of(trace, "negotiate")[0].data["spoiled"]
    assert [e.actor for e in of(trace, "attack")] == ["B", "C"]


def test_negotiate_hold_one_round_and_broken_by_any_attack():
    data = t10([_venturer()], [man("B"), man("C")], time_limit=120,
               options={"negotiate_hold": "one_round"})
    _, trace, _ = run(data, d6(6, 1, 1) + d20(1) + d6(1, 6, 6) + d20(1))
    assert not of(trace, "attack") and len(of(trace, "negotiate")) == 2
    red = [_venturer(), man("D")]
    dice = d6(6, 3, 1, 1) + d20(1) + d20(1)
    _, trace, _ = run(t10(red, [man("B"), man("C")]), dice)
    assert [e.actor for e in of(trace, "attack")] == ["D"]
    data = t10(red, [man("B"), man("C")], options={"negotiate_broken_by": "any_attack"})
    _, trace, _ = run(data, dice + d20(1, 1))
    assert [e.actor for e in of(trace, "attack")] == ["D", "B", "C"]


def test_only_venturers_negotiate():
    with pytest.raises(ScenarioError, match="not a venturer"):
        scenario_from_dict(t10([man("A", action="negotiate")], [man("B")]))


def test_take_damage_kill_lands_before_subdue():
    assert take_damage(8, 5, 4) == (0, "unconscious")
    assert take_damage(8, 9, 4) == (-1, "dead")
    assert take_damage(8, 0, 20) == (0, "unconscious")
    assert take_damage(8, 8, 0, "dead") == (0, "dead")
    assert take_damage(8, 3, 2) == (3, None)
