"""The engine's SimPy shortcuts against SimPy's public path, on every bundled scenario.

:class:`sim.engine.combat.SimPyInternals` runs a combat with SimPy's ``step`` inlined and pushes
wake-ups straight onto SimPy's queue, reading SimPy's private attributes. These tests hold it to
what it claims: every bundled scenario plays the same events, in the same order, with the same
records, as through plain ``env.run(until=end)`` and ``env.schedule``; a traced run gives the
same records as an untraced one; a wake-up in the past is refused; and what is still queued
when a fight ends is dropped, with the processes sleeping on it.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator
from types import GeneratorType

import pytest
import simpy

import sim.rules.acs.clock as acs_clock
from sim import load_scenario
from sim.engine.combat import FIRST_RULE_PRIORITY, Combat, SimPyInternals, TraceEvent, WakeUp
from sim.engine.combatant import Fighter
from sim.engine.dice import Dice
from sim.run.records import combat_record, combatant_records
from sim.run.runner import run_chunk, trace_combat
from sim.scenario.schema import Scenario
from tests.conftest import SCENARIOS

SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
SEED = 5
COMBATS = 30


def played(scenario: Scenario) -> Iterator[tuple[list[TraceEvent], tuple, list[tuple]]]:
    """Trace, combat record and combatant records of the first combats of a scenario."""
    for k in range(COMBATS):
        combat, trace = trace_combat(scenario, SEED, k)
        yield trace, combat_record(combat, k, SEED), combatant_records(combat, k, SEED)


def run_through_public_simpy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, combats run on SimPy's public path; counts the runs and the wake-ups.

    The loop is SimPy's own ``env.run(until=end)``, a wake-up goes onto the queue through
    ``env.schedule``, with no guard, and the ACS clock reads the time as ``env.now``.
    """
    calls = [0, 0, 0]

    def run_until(env: simpy.Environment, end: simpy.Event) -> None:
        calls[0] += 1
        env.run(until=end)

    def wake_up(self: WakeUp, env: simpy.Environment, time: float, priority: int) -> None:
        calls[1] += 1
        self.env = env
        self.callbacks = []
        self._ok, self._value = True, None  # born triggered, as SimPy's Timeout is
        env.schedule(self, priority, time - env.now)

    def now(env: simpy.Environment) -> float:
        calls[2] += 1
        return env.now

    monkeypatch.setattr(SimPyInternals, "run_until", staticmethod(run_until))
    monkeypatch.setattr(WakeUp, "__init__", wake_up)
    monkeypatch.setattr(acs_clock, "now_of", now)
    return calls


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_the_shortcuts_play_every_scenario_as_public_simpy_does(path, monkeypatch):
    scenario = load_scenario(path)
    inlined = list(played(scenario))
    calls = run_through_public_simpy(monkeypatch)
    public = list(played(scenario))
    assert calls[0] > 0, "the public path was not taken"
    if scenario.rules == "acs":
        assert calls[1] > 0, "the ACS clock's wake-ups did not go through env.schedule"
        assert calls[2] > 0, "the ACS clock did not read the time through env.now"
    assert len(public) == len(inlined) == COMBATS
    for k, (ours, simpys) in enumerate(zip(inlined, public, strict=True)):
        assert ours == simpys, f"combat {k} of {path.name} differs"
    # Real fights are compared, not empty traces.
    assert all(any(e.kind == "end" for e in trace) for trace, _, _ in inlined)


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

    with pytest.raises(RuntimeError, match="combat stalled"):
        _combat().run(start)


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_a_finished_combat_leaves_no_process_to_the_garbage_collector(path):
    # What is still queued when a fight ends is dropped with its sleeping processes: nothing
    # of a combat's processes is left in a reference cycle for the collector to find.
    scenario = load_scenario(path)
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what any collection finds, to look at it
    try:
        records = run_chunk(scenario, SEED, 0, 5).records
        gc.collect()
        cyclic = [o for o in gc.garbage if isinstance(o, simpy.Process | GeneratorType)]
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
    assert len(records) == 5
    assert cyclic == []


def test_the_events_left_when_a_combat_ends_are_dropped_and_never_counted_as_processed():
    def start(combat: Combat[Fighter]) -> None:
        env = combat.env
        WakeUp(env, 1, FIRST_RULE_PRIORITY).callbacks.append(
            lambda _e: combat.finish("time_limit", 0.1)
        )
        WakeUp(env, 2, FIRST_RULE_PRIORITY).callbacks.append(lambda _e: pytest.fail("fired"))
        WakeUp(env, 3, FIRST_RULE_PRIORITY)

    combat = _combat().run(start)
    assert combat.end_reason == "time_limit"
    assert combat.env.peek() == math.inf
    assert combat.env.dropped == 2
    # The first wake-up, and the end event it triggered.
    assert SimPyInternals.events_processed(combat.env) == 2
