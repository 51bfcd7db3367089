"""The engine on SimPy: wake-ups, the run to the end of a fight, tracing that changes nothing.

A combat runs on SimPy's public path (``env.run(until=end)``, ``env.schedule``, ``env.now``);
the one event type of the engine, :class:`sim.engine.combat.WakeUp`, fires at a time with a
priority. These tests hold it to what it claims: wake-ups fire by time, then priority, then
creation; one in the past is refused; a round process that stops early or fails says so; and a
traced run gives the same records as an untraced one, on every bundled scenario.
"""

from __future__ import annotations

import math

import pytest
import simpy

from sim import load_scenario
from sim.engine.combat import FIRST_RULE_PRIORITY, Combat, TraceEvent, WakeUp
from sim.engine.combatant import Fighter
from sim.engine.dice import Dice
from sim.run.records import combat_record, combatant_records
from sim.run.runner import run_chunk, trace_combat
from sim.scenario.schema import Scenario
from tests.conftest import SCENARIOS

SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
SEED = 5
COMBATS = 30


def played(scenario: Scenario) -> list[tuple[list[TraceEvent], tuple, list[tuple]]]:
    """Trace, combat record and combatant records of the first combats of a scenario."""
    out = []
    for k in range(COMBATS):
        combat, trace = trace_combat(scenario, SEED, k)
        out.append((trace, combat_record(combat, k, SEED), combatant_records(combat, k, SEED)))
    return out


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_tracing_does_not_change_a_combat(path):
    scenario = load_scenario(path)
    untraced = run_chunk(scenario, SEED, 0, COMBATS, detail=True)
    traced = list(played(scenario))
    assert untraced.records == [record for _, record, _ in traced]
    assert untraced.combatants == [row for _, _, rows in traced for row in rows]


def _combat() -> Combat[Fighter]:
    fighters = [Fighter("a", 0, 0, 5), Fighter("b", 1, 1, 5)]
    return Combat(fighters, ("red", "blue"), Dice(1, 0), time_limit_s=10.0)


def test_a_wake_up_in_the_past_is_refused_and_queues_nothing():
    env = simpy.Environment(initial_time=5)
    with pytest.raises(ValueError, match="before the current time"):
        WakeUp(env, 4, FIRST_RULE_PRIORITY)
    assert env.peek() == math.inf
    WakeUp(env, 5, FIRST_RULE_PRIORITY)
    assert env.peek() == 5


def test_a_round_process_asking_for_the_past_fails_the_combat():
    def start(combat: Combat[Fighter]) -> None:
        def rounds():
            yield WakeUp(combat.env, 3, FIRST_RULE_PRIORITY)
            yield WakeUp(combat.env, 2, FIRST_RULE_PRIORITY)
            combat.finish("time_limit", 1.0)

        combat.env.process(rounds())

    combat = _combat()
    with pytest.raises(ValueError, match="a wake-up at 2 is before the current time 3") as info:
        combat.run(start)
    assert combat.env.now == 3
    assert not combat.over
    assert isinstance(info.value.__cause__, ValueError)


def test_wake_ups_fire_by_time_then_priority_then_creation():
    fired: list[str] = []

    def start(combat: Combat[Fighter]) -> None:
        env = combat.env
        for name, time, priority in (
            ("late", 2, FIRST_RULE_PRIORITY),
            ("low", 1, FIRST_RULE_PRIORITY + 1),
            ("high", 1, FIRST_RULE_PRIORITY),
            ("high again", 1, FIRST_RULE_PRIORITY),
        ):
            WakeUp(env, time, priority).callbacks.append(lambda _e, n=name: fired.append(n))
        WakeUp(env, 3, FIRST_RULE_PRIORITY).callbacks.append(
            lambda _e: combat.finish("time_limit", 0.3)
        )

    combat = _combat().run(start)
    assert fired == ["high", "high again", "low", "late"]
    assert combat.end_reason == "time_limit"
    assert combat.env.now == 3


def test_a_round_process_that_stops_early_stalls_the_combat():
    def start(combat: Combat[Fighter]) -> None:
        def rounds():
            yield WakeUp(combat.env, 1, FIRST_RULE_PRIORITY)

        combat.env.process(rounds())

    with pytest.raises(RuntimeError, match="No scheduled events left"):
        _combat().run(start)


def test_the_events_left_when_a_combat_ends_never_fire():
    def start(combat: Combat[Fighter]) -> None:
        env = combat.env
        WakeUp(env, 1, FIRST_RULE_PRIORITY).callbacks.append(
            lambda _e: combat.finish("time_limit", 0.1)
        )
        WakeUp(env, 2, FIRST_RULE_PRIORITY).callbacks.append(lambda _e: pytest.fail("fired"))
        WakeUp(env, 3, FIRST_RULE_PRIORITY)

    combat = _combat().run(start)
    assert combat.end_reason == "time_limit"
    # The run stopped at the end: the wake-up at 2 (which would fail the test) never fired.
    assert combat.env.now == 1
