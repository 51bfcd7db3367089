"""Movement and range on the ACS clock (ACS "Movement"; RULINGS part A; docs/rules/acs.md).

"The ability to move during combat should not be considered a separate action, although it
takes place over the course of actions and segments." Under the percentile resolution the
scenario gives the rates (``speed`` paces a second, ``reach``, ``range``); the clock spreads a
second's distance over the mover's actions. Scripted dice as in ``test_clock_trace``: a script
that is not used up exactly fails the test.
"""

from __future__ import annotations

import pytest

from sim.engine.combatant import Fighter
from sim.engine.space import approach, distance, nearest, push, retreat, tethered
from sim.engine.tactics import nearest_target
from sim.rules.acs.narration import distance_text
from sim.run.api import simulate
from sim.run.choices import Execution
from sim.scenario.loader import scenario_from_dict
from tests.acs.test_clock_trace import NEVER_HITS, d10, d12, d100, fighter
from tests.conftest import acs_scenario, scripted

HOLDS = {"tactics": {"movement": "hold", "defend": "never"}}


def moves(trace):
    return [(e.t, e.actor, e.data["movement"], e.data["end"]) for e in trace if e.kind == "move"]


def attacks(trace):
    return [(e.t, e.actor, e.target) for e in trace if e.kind == "act"]


# -- the line (sim.engine.space) -------------------------------------------------------------------


def test_approach_stops_at_reach_and_never_passes():
    assert approach(0, 10, 4, 1) == 4
    assert approach(8, 10, 4, 1) == 9  # stops at reach, not at 12
    assert approach(9.5, 10, 4, 1) == 9.5  # already in reach: no move
    assert approach(10, 0, 4, 1) == 6  # the other way


def test_retreat_push_and_tether():
    assert retreat(5, 3, 2, -1) == 7 and retreat(1, 3, 2, -1) == -1
    assert retreat(3, 3, 2, -1) == 1 and retreat(3, 3, 2, 1) == 5  # same spot: towards home
    assert push(5, 3, 3, True, 1) == 8 and push(5, 3, 3, False, 1) == 3  # never past the pusher
    assert tethered(9, 4, 2) == 6 and tethered(-1, 4, 2) == 2 and tethered(5, 4, 2) == 5


def test_distance_forgets_the_float_drift_of_fractional_steps():
    a, b = Fighter("a", 0, 0, 5), Fighter("b", 1, 1, 5)
    b.pos = 10.0
    for _ in range(14):  # 5/7 of a foot, 14 times: 9.999999999999998 by a float's rounding
        a.pos += 5 / 7
    assert a.pos != 10.0 and distance(a, b) == 0.0
    b.pos = 20.0
    assert distance(a, b) == 10.0


def test_nearest_enemy_and_nearest_target_break_ties_by_order():
    me = Fighter("me", 0, 0, 5)
    far, near, twin, friend = (
        Fighter(n, s, i, 5)
        for i, (n, s) in enumerate([("far", 1), ("near", 1), ("twin", 1), ("friend", 0)], start=1)
    )
    me.pos, far.pos, near.pos, twin.pos, friend.pos = 0, 9, -3, 3, 1
    assert nearest(me, [far, near, twin, friend]) is near  # first of the two at 3
    assert nearest_target(me, [far, twin, near], [], None) is twin
    near.out = "down"
    assert nearest(me, [far, near, twin, friend]) is twin


def test_distance_text_agrees_in_number():
    assert distance_text(1, "paces") == "1 pace"
    assert distance_text(2.5, "feet") == "2.5 feet"
    assert distance_text(1, "feet") == "1 foot"


# -- on the clock ---------------------------------------------------------------------------------


def test_closing_covers_its_share_on_each_action_stops_at_reach_and_attacks_next_action():
    # A: 1 action, 8 paces a second = 8 an action; B 10 paces away holds its ground. A wins
    # ambition: its free action (segment 1) closes 8 paces, its segment-3 action the last one
    # to reach 1; it attacks on its next action segment, the free action of second 2. B, out
    # of reach on segment 2, holds; in reach on segment 8 of second 2, it attacks.
    a = fighter("A", ambition_bonus=10, speed=8, to_hit=50)
    b = fighter("B", **NEVER_HITS, **HOLDS)
    combat, trace = scripted(
        acs_scenario([a], [b], options={"start_distance": 10}, time_limit=2),
        [
            *(d12(1), d12(1), d10(3), d10(2)),  # second 1: A 11, B 1; A segment 3, B segment 2
            *(d12(1), d12(1), d10(5), d10(8)),  # second 2: A segment 5, B segment 8
            d100(80),  # A's free action: a hit, 1 damage
            d100(10),  # A's segment-5 attack: a miss
            d100(5),  # B's segment-8 attack: a miss
        ],
    )
    assert moves(trace) == [(0, "A", "close", 8), (2, "A", "close", 9)]
    assert attacks(trace) == [(10, "A", "B"), (14, "A", "B"), (17, "B", "A")]
    holds = [(e.t, e.actor, e.data["distance"]) for e in trace if e.kind == "hold"]
    assert holds == [(1, "B", 2)]
    assert combat.fighters[1].hp == 9


def test_a_shooter_closes_to_its_range_then_shoots():
    # A shoots at 5 paces; B starts 8 away. A's step is 2 paces: 8 -> 6 -> 5 (stops at its
    # range), then it shoots.
    a = fighter("A", ambition_bonus=10, speed=2, range=5, to_hit=50)
    b = fighter("B", **NEVER_HITS, **HOLDS)
    _, trace = scripted(
        acs_scenario([a], [b], options={"start_distance": 8}, time_limit=2),
        [
            *(d12(1), d12(1), d10(3), d10(6)),
            *(d12(1), d12(1), d10(5), d10(6)),
            *(d100(80), d100(80)),  # second 2: two shots, both hit for 1
        ],
    )
    assert moves(trace) == [(0, "A", "close", 2), (2, "A", "close", 3)]
    assert attacks(trace) == [(10, "A", "B"), (14, "A", "B")]
    assert [e.data["shot"] for e in trace if e.kind == "act"] == [5, 5]  # shots, from 5 paces


def test_ranged_close_ignores_the_bow_and_closes_to_melee():
    a = fighter("A", ambition_bonus=10, speed=4, range=5, to_hit=50, tactics={"ranged": "close"})
    b = fighter("B", **NEVER_HITS, **HOLDS)
    _, trace = scripted(
        acs_scenario([a], [b], options={"start_distance": 4}, time_limit=1),
        [d12(1), d12(1), d10(3), d10(6), d100(10), d100(5)],
    )
    assert moves(trace) == [(0, "A", "close", 3)]  # to reach 1, although within range 5
    assert attacks(trace) == [(2, "A", "B"), (5, "B", "A")]


def test_a_target_that_steps_out_of_reach_escapes_a_multi_segment_attack():
    # A begins a 3-segment attack on B (1 pace away) on segment 1; on segment 2 B, a shooter
    # keeping 3 paces, steps back 10 paces; A's attack completes on segment 3 out of reach.
    a = fighter("A", ambition_bonus=10, attack_segments=3, speed=0, to_hit=50)
    b = fighter(
        "B", **NEVER_HITS, range=20, speed=10, tactics={"keep_distance": 3, "defend": "never"}
    )
    _, trace = scripted(
        acs_scenario([a], [b], options={"start_distance": 1}, time_limit=1),
        [d12(1), d12(1), d10(7), d10(2)],  # A: free action (segment 1) and segment 7; B: 2
    )
    assert moves(trace) == [(1, "B", "withdraw", 11)]
    escaped = [(e.t, e.actor, e.target) for e in trace if e.kind == "escaped"]
    assert escaped == [(2, "A", "B")]
    assert not [e for e in trace if e.kind == "attack"]  # no attack roll was made
    # On segment 7 A has nothing in reach and cannot move (speed 0): its action is spent.
    assert [e.t for e in trace if e.kind == "move" and e.actor == "A"] == []


def test_a_fleer_runs_from_the_nearest_enemy_and_is_out_beyond_the_escape_distance():
    a = fighter("A", **NEVER_HITS, **HOLDS)
    b = fighter("B", ambition_bonus=10, speed=12, tactics={"flee_below_hp": 10})
    combat, trace = scripted(
        acs_scenario([a], [b], options={"start_distance": 1, "escape_distance": 5}),
        [d12(1), d12(1), d10(4), d10(6)],  # B wins: its free action is its flight
    )
    assert moves(trace) == [(0, "B", "flee", 13)]
    assert combat.fighters[1].out == "fled"
    assert combat.end_reason == "victory" and combat.winner == 0


def test_a_fleer_within_the_escape_distance_stays_in_the_fight():
    a = fighter("A", **NEVER_HITS, **HOLDS)
    b = fighter("B", ambition_bonus=10, speed=2, tactics={"flee_below_hp": 10})
    combat, trace = scripted(
        acs_scenario([a], [b], options={"start_distance": 1, "escape_distance": 5}),
        [d12(1), d12(1), d10(4), d10(6)],  # B: free action and segment 6; A: segment 4
    )
    assert moves(trace) == [(0, "B", "flee", 3), (5, "B", "flee", 5)]
    assert combat.fighters[1].out is None and combat.end_reason == "time_limit"


def test_positions_come_from_start_distance_or_the_stat_block():
    data = acs_scenario(
        [fighter("A"), fighter("A2", position=-4)],
        [fighter("B")],
        [fighter("C")],
        options={"start_distance": 12},
    )
    scenario = scenario_from_dict(data)
    prepared = scenario.system.prepare(scenario)
    assert [entry.pos for entry in prepared.roster] == [0, -4, 12, 24]
    assert prepared.space is not None


def test_everyone_on_one_spot_leaves_positions_out_of_the_clock():
    scenario = scenario_from_dict(acs_scenario([fighter("A")], [fighter("B")]))
    assert scenario.system.prepare(scenario).space is None


@pytest.mark.parametrize("positions", [(0, 0.5), (3, 3.75)])
def test_a_duel_in_reach_plays_the_same_with_positions_on(positions):
    # Positions differ, so the clock asks movement.engage before every attack, but the two
    # stand within reach and never move: the outcome table is the one of a duel on one spot.
    def duel(pos_a, pos_b):
        red = {
            "name": "Red",
            "hp": 20,
            "actions": 2,
            "to_hit": 45,
            "defense": 35,
            "damage": "1d8",
            "position": pos_a,
        }
        blue = {
            "name": "Blue",
            "hp": 20,
            "actions": 2,
            "to_hit": 45,
            "defense": 35,
            "damage": "1d8",
            "position": pos_b,
        }
        data = acs_scenario([red], [blue], time_limit=60)
        scenario = scenario_from_dict(data)
        return simulate(scenario, runs=300, seed=5, execution=Execution(workers=1)).outcomes

    on_one_spot = duel(0, 0)
    apart = duel(*positions)
    assert len(on_one_spot) == 300
    assert on_one_spot.equals(apart)
