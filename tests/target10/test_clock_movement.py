"""Target 10's movements on the ACS clock: Charge, Advance, Flee, Withdraw, reach, escapes.

Each test shows on the clock a rule the pure round plays with movement
(``test_t10_movements.py``), with every die scripted: a round's paces spread over
``round_seconds`` seconds and the mover's actions; the Charge's double STR bonus and lost DEX
bonus; the automatic hit on a fleer; closing that stops at reach and strikes on the next action
segment; an attack under way lost when its target runs out of reach. Last, a duel that starts in
reach plays the same with the space machinery on as with it off.
"""

from __future__ import annotations

import pytest

from sim.rules.acs.movement import per_action
from sim.rules.target10 import values
from sim.run.runner import run_chunk
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.conftest import SCENARIOS, scripted
from tests.target10.clock_builders import clock, d6, d20, fighter, of, second, segment

HOLD = {"movement": "hold"}


def test_paces_per_action_spreads_a_round_over_its_seconds_and_actions():
    # A human's Charge, 30 paces a round of 6 s: 5 paces a second, 2.5 an action with two.
    assert per_action(30, 6, 1) == 5
    assert per_action(30, 6, 2) == 2.5
    assert per_action(3, 6, 1) == 0.5


def _charge_duel(close, options=None):
    # A (STR 14, DEX 14: +2 each) closes on B 5 paces off, who holds. One action covers 5 paces
    # (a Charge: 3 x 10 / 6 s; an Advance with advance_paces 30 the same), stopping at reach 1
    # after 4. B strikes A on segment 6 of second 1; A strikes on segment 2 of seconds 2 and 3.
    a = fighter("A", strength=14, dexterity=14, tactics={"close": close})
    b = fighter("B", position=5, tactics=dict(HOLD))
    faces = [
        *second((10, 5), [2], [6]),
        *d20(1),
        *second((10, 5), [2], [6]),
        *d20(1, 1),
        *second((10, 5), [2], [6]),
        *d20(1, 1),
    ]
    return scripted(clock(a, b, options, time_limit=3), faces)


def test_a_charge_doubles_the_str_bonus_and_drops_the_dex_bonus_until_its_blow():
    _combat, trace = _charge_duel("charge")
    (move,) = of(trace, "move", "A")
    assert move.data["how"] == "charges" and move.data["end"] == 4 and move.data["distance"] == 1
    # FIGHT 1 + 2 = 3 (+2 more on the charge's blow) against B's DEFENSE 1.
    charge = values.charge_fight_bonus(2, 2)
    assert [e.data["modifier"] for e in of(trace, "t10_attack", "A")] == [2 + charge, 2]
    assert [e.data["charge"] for e in of(trace, "t10_attack", "A")] == [charge, 0]
    # B's FIGHT 1 against A's DEFENSE 3, without its DEX bonus while charging (1): 0, then -2.
    assert [e.data["modifier"] for e in of(trace, "t10_attack", "B")] == [0, -2, -2]


def test_an_advance_keeps_the_guard_up_and_adds_nothing():
    _combat, trace = _charge_duel("advance", {"advance_paces": 30})
    (move,) = of(trace, "move", "A")
    assert move.data["how"] == "advances" and move.data["end"] == 4
    assert [e.data["modifier"] for e in of(trace, "t10_attack", "A")] == [2, 2]
    assert [e.data["modifier"] for e in of(trace, "t10_attack", "B")] == [-2, -2, -2]


def test_charge_drops_dex_false_keeps_the_dex_bonus():
    _combat, trace = _charge_duel("charge", {"charge_drops_dex": False, "charge_str_factor": 1})
    assert [e.data["modifier"] for e in of(trace, "t10_attack", "A")] == [2, 2]
    assert [e.data["modifier"] for e in of(trace, "t10_attack", "B")] == [-2, -2, -2]


def test_the_default_advance_moves_three_paces_a_round():
    # No tactic: Advance, 3 paces a round of 6 s, 0.5 a one-action second.
    a = fighter("A")
    b = fighter("B", position=10, tactics=dict(HOLD))
    _combat, trace = scripted(clock(a, b), second((10, 5), [2], [6]))
    (move,) = of(trace, "move", "A")
    assert move.data["how"] == "advances" and move.data["end"] == 0.5


def test_closing_stops_at_reach_and_strikes_on_the_next_action_segment():
    # A (reach 2, two actions) advances 10 paces an action (advance_paces 120) on B 8 paces off:
    # it stops at 6, B within its reach, on segment 3, and strikes on segment 7 of that second.
    a = fighter("A", actions=2, weapon={"name": "spear", "reach": 2})
    b = fighter("B", position=8, tactics=dict(HOLD))
    data = clock(a, b, {"advance_paces": 120})
    combat, trace = scripted(data, [*second((10, 5), [3, 7], [6]), *d20(12), *d6(5)])
    (move,) = of(trace, "move", "A")
    assert move.data["end"] == 6 and segment(move) == (1, 3)
    (blow,) = of(trace, "t10_attack", "A")
    assert segment(blow) == (1, 7) and blow.data["hit"]
    assert combat.fighters[1].hp == 5
    # B, reach 1, held on segment 6: A stood 2 paces off.
    assert [segment(e) for e in of(trace, "hold", "B")] == [(1, 6)]


def _fleeing(options=None, ambition=(5, 10)):
    # B (10 hp, flees at 10 or less) stands a pace from A; on its action it flees 5 paces
    # (Flee: 3 x 10 a round of 6 s); A, with a bow, then shoots it.
    a = fighter("A", ranged={"name": "bow", "range": 30}, tactics=dict(HOLD))
    b = fighter("B", position=1, tactics={"flee_below_hp": 10})
    return clock(a, b, options), [*second(ambition, [6], [2])]


def test_an_attack_on_a_fleer_succeeds_without_a_roll():
    data, faces = _fleeing()
    combat, trace = scripted(data, [*faces, *d6(3)])
    (move,) = of(trace, "move", "B")
    assert move.data["how"] == "flees" and move.data["end"] == 6
    (shot,) = of(trace, "t10_attack", "A")
    assert shot.data["auto"] and shot.data["d20"] == 0 and shot.data["hit"]
    assert combat.fighters[1].hp == 10 - 3


def test_flee_auto_hit_never_rolls_the_attack():
    data, faces = _fleeing({"flee_auto_hit": "never"})
    _combat, trace = scripted(data, [*faces, *d20(1)])
    (shot,) = of(trace, "t10_attack", "A")
    assert not shot.data["auto"] and shot.data["d20"] == 1


@pytest.mark.parametrize(("ambition", "auto"), [((5, 10), False), ((10, 5), True)])
def test_flee_auto_hit_if_after_reads_the_ambition_order(ambition, auto):
    # if_after: only an attacker the fleer acts after (higher in ambition) hits without a roll.
    # A ranked first shoots on segment 6; B fled on segment 2 either way.
    data, faces = _fleeing({"flee_auto_hit": "if_after"}, ambition)
    _combat, trace = scripted(data, [*faces, *(d6(3) if auto else d20(1))])
    (shot,) = of(trace, "t10_attack", "A")
    assert shot.data["auto"] is auto


def test_a_fleer_beyond_escape_distance_has_fled():
    data, faces = _fleeing({"escape_distance": 5})
    combat, trace = scripted(data, faces)
    assert combat.fighters[1].out == "fled" and not of(trace, "t10_attack")


def test_a_shooter_keeping_its_distance_withdraws_withdraw_paces_a_round():
    # A (bow, keep_distance 5) with B 3 paces off steps back instead of shooting: a Withdraw,
    # withdraw_paces (12) a round of 6 s: 2 paces on its one action.
    a = fighter("A", ranged={"name": "bow", "range": 30}, tactics={"keep_distance": 5})
    b = fighter("B", position=3, tactics=dict(HOLD))
    combat, trace = scripted(clock(a, b, {"withdraw_paces": 12}), second((10, 5), [2], [6]))
    (move,) = of(trace, "move", "A")
    assert move.data["how"] == "withdraws" and move.data["end"] == -2
    assert combat.fighters[0].moving == "withdraw" and not of(trace, "t10_attack")


def test_a_target_running_out_of_reach_escapes_an_attack_under_way():
    # A's attack takes 3 segments: begun on segment 2, it completes on segment 4. B flees on
    # segment 3, 5 paces: out of A's reach 1, so the attack is lost (no die rolled). Without
    # flight the attack completes and is rolled.
    a = fighter("A", attack_segments=3, tactics=dict(HOLD))
    b = fighter("B", position=1, tactics={"flee_below_hp": 10, "movement": "hold"})
    _, trace = scripted(clock(a, b), second((10, 5), [2], [3]))
    assert [e.actor for e in of(trace, "escaped")] == ["A"] and not of(trace, "t10_attack")
    b["tactics"]["flee_below_hp"] = 0
    _combat, trace = scripted(clock(a, b), [*second((10, 5), [2], [3]), *d20(1, 1)])
    assert [e.actor for e in of(trace, "t10_attack")] == ["B", "A"] and not of(trace, "escaped")


def test_a_duel_in_reach_plays_the_same_with_the_space_machinery_on():
    # The bundled hybrid duel, and the same with Francois half a pace off (within both reaches,
    # so the clock asks movement.engage before every attack): the same records, combat by combat.
    scenario = load_scenario(SCENARIOS / "t10-hybrid-acs-duel.yaml")
    data = dict(scenario.data)
    data["sides"] = [dict(side) for side in data["sides"]]
    blue = dict(data["sides"][1]["combatants"][0], position=0.5)
    data["sides"][1] = dict(data["sides"][1], combatants=[blue])
    spaced = scenario_from_dict(data)
    assert scenario.system.prepare(scenario).space is None
    assert spaced.system.prepare(spaced).space is not None
    plain = run_chunk(scenario, 3, 0, 300, detail=True)
    moved = run_chunk(spaced, 3, 0, 300, detail=True)
    assert plain.records == moved.records and plain.combatants == moved.combatants
