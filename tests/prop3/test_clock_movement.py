"""Proposition Three movement on the ACS clock: closing in over segments, escaping, reach.

ACS "Movement": movement "takes place over the course of actions and segments"; Proposition
Three says how far (``speed`` feet a round: Kronzer closes 15 ft to 10 ft in the ranged
example), the clock spreads a round's distance over ``round_seconds`` seconds and the mover's
actions. Scripted dice as in ``test_clock_range``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sim import simulate
from sim.run.choices import Execution
from sim.run.narrate import narrate
from sim.run.runner import trace_combat
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.conftest import SCENARIOS
from tests.prop3.clock_helpers import TARGET, clock, d8, events, kinds, second, with_
from tests.prop3.scripted import scripted

RUNNER = {"name": "K", "vigor": 4, "agility": 4, "actions": 2, "speed": 60,
          "tactics": {"attack": "bash", "defend": "never"}}
"""A melee fighter moving 60 ft a round: 10 ft a second, 5 ft an action with 2 actions."""


def test_closing_stops_at_melee_range_and_the_next_action_segment_attacks():
    # K starts 8 ft from T (melee range 5): its action on segment 2 closes 3 ft and stops at
    # 5 ft, not 5 ft further; its action on segment 7 of the same second is a melee attack.
    target = with_(TARGET, tactics={"defend": "never"})
    faces = second((10, [2, 7]), (1, [1])) + d8(1, 1, 5, 6)
    combat, trace = scripted(clock(RUNNER, target, 8, {"melee_range": 5}), faces)
    k, t = combat.fighters
    (move,) = events(trace, "move")
    assert move.t == 1 and move.data["end"] == pytest.approx(3)
    assert t.pos - k.pos == pytest.approx(5)
    (declare,) = events(trace, "declare")
    assert declare.t == 6 and declare.actor == "K"  # segment 7 of second 1
    assert [e.data["amount"] for e in events(trace, "damage")] == [] and t.state.nicks == 1
    assert kinds(trace) == ["hold", "move", "declare"]  # T on segment 1 held: K out of reach


def test_a_target_moving_out_of_reach_escapes_a_multi_segment_attack():
    # K starts a 3-segment attack on segment 2 (done on segment 4); T, fleeing at 10 ft an
    # action, runs on segment 3: the attack completes on nobody.
    slow = with_(RUNNER, actions=1, attack_segments=3)
    fleer = with_(TARGET, speed=60, tactics={"flee_below_hp": 99})
    faces = second((10, [2]), (1, [3]))
    combat, trace = scripted(clock(slow, fleer, 3, {"melee_range": 5}), faces)
    assert [e.kind for e in trace if e.kind in ("begin", "move", "escaped")] == [
        "begin", "move", "escaped"]
    (move,) = events(trace, "move")
    assert move.data["movement"] == "flee" and move.data["end"] == pytest.approx(13)
    assert not events(trace, "exchange") and combat.fighters[1].out is None


def _duel_at(positions: tuple[float, float]) -> dict:
    data = yaml.safe_load(Path(SCENARIOS / "p3-hybrid-duel.yaml").read_text(encoding="utf-8"))
    for side, pos in zip(data["sides"], positions, strict=True):
        side["combatants"][0]["position"] = pos
    return data


@pytest.mark.parametrize("positions", [(0, 2), (1, 6)])
def test_a_hybrid_duel_in_reach_plays_the_same_with_positions_on(positions):
    # Positions differ, so the clock asks movement.engage before every attack, but the two stand
    # within melee range (5 ft) and never move: the outcome table is the one of the duel on one
    # spot, as the bundled scenario has it (space off).
    apart = scenario_from_dict(_duel_at(positions))
    assert apart.system.prepare(apart).space is not None
    one_spot = scenario_from_dict(_duel_at((0, 0)))
    assert one_spot.system.prepare(one_spot).space is None
    here = simulate(one_spot, runs=300, seed=7, execution=Execution(workers=1)).outcomes
    there = simulate(apart, runs=300, seed=7, execution=Execution(workers=1)).outcomes
    assert len(here) == 300 and here.equals(there)


RANGE_ACS = SCENARIOS / "p3-moonbelly-vs-kronzer-range-acs.yaml"


def test_the_ranged_rematch_on_the_clock_replays_in_feet_with_increments_and_aim():
    scenario = load_scenario(RANGE_ACS)
    _combat, trace = trace_combat(scenario, scenario.seed, 3)
    positions = events(trace, "positions")[0].data
    assert positions == {"at": {"Moonbelly": 0, "Kronzer": 15}, "unit": "feet"}
    assert events(trace, "aim")[0].actor == "Moonbelly"
    shots = events(trace, "shoot")
    assert shots[0].data["aimed"] and shots[0].data["increments"] == 3
    moves = [e for e in events(trace, "move") if e.actor == "Kronzer"]
    assert moves and all(e.data["unit"] == "feet" for e in moves)
    assert moves[0].data["end"] - moves[0].data["start"] == pytest.approx(-5 / 6 / 2)
    text = narrate(scenario, trace, 3, scenario.seed)
    assert "positions: Moonbelly at 0 feet; Kronzer at 15 feet" in text
    assert "Moonbelly aims at Kronzer (action 1 of 1 of a round of aim)" in text
    assert "Moonbelly shoots at Kronzer (15 feet away)" in text
    assert "  Moonbelly's bow at 15 feet: 3 increments, aimed; Kronzer dodges" in text
    assert "Kronzer closes 0.4 feet (now at 14.6): 14.6 feet from Moonbelly" in text
