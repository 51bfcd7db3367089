"""Running combats: combat k of a run is played from its own stream, (seed, k), alone.

A run is cut into chunks of consecutive combat indices; a chunk is the unit a worker plays and
returns. Because a combat's dice depend only on the seed and its index, the records are the same
whatever the chunking or the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from sim.dice import Dice
from sim.engine import Combat, TraceEvent
from sim.records import combat_record, combatant_records
from sim.scenario.schema import Scenario

DEFAULT_CHUNK = 2000


def play(
    scenario: Scenario, prepared, seed: int, index: int, trace: list[TraceEvent] | None = None
) -> Combat:
    """Play combat ``index`` of a run seeded with ``seed`` to its end."""
    dice = Dice(seed, index)
    fighters = prepared.spawn(dice)
    combat = Combat(fighters, scenario.side_names, dice, scenario.time_limit_s, trace)
    return combat.run(prepared.start)


def trace_combat(scenario: Scenario, seed: int, index: int) -> tuple[Combat, list[TraceEvent]]:
    """Play one combat with every event recorded (for replays and trace tests)."""
    trace: list[TraceEvent] = []
    combat = play(scenario, scenario.system.prepare(scenario), seed, index, trace)
    return combat, trace


@dataclass
class ChunkResult:
    """The records of combats ``start`` .. ``stop - 1``."""

    start: int
    stop: int
    records: list[tuple]
    combatants: list[tuple] = field(default_factory=list)


def run_chunk(
    scenario: Scenario,
    seed: int,
    start: int,
    stop: int,
    detail: bool = False,
    interrupted: Callable[[], bool] | None = None,
) -> ChunkResult:
    """Play combats ``start`` .. ``stop - 1`` and return their records.

    Args:
        scenario: the scenario.
        seed: the run's seed.
        start: the first combat.
        stop: one past the last combat.
        detail: also return one record per combatant per combat.
        interrupted: asked before each combat; when it says True, the chunk is abandoned with
            :class:`KeyboardInterrupt` (how Ctrl-C reaches a run between two combats rather
            than inside SimPy, which would take it for the failure of a process).
    """
    prepared = scenario.system.prepare(scenario)
    records = []
    details: list[tuple] = []
    for index in range(start, stop):
        if interrupted is not None and interrupted():
            raise KeyboardInterrupt
        combat = play(scenario, prepared, seed, index)
        records.append(combat_record(combat, index, seed))
        if detail:
            details.extend(combatant_records(combat, index, seed))
    return ChunkResult(start, stop, records, details)


def range_records(scenario: Scenario, seed: int, start: int, stop: int) -> list[tuple]:
    """The records of combats ``start`` .. ``stop - 1``, played in this process, in order."""
    return run_chunk(scenario, seed, start, stop).records


def chunk_bounds(
    runs: int, chunk_size: int = DEFAULT_CHUNK, first: int = 0
) -> list[tuple[int, int]]:
    """``(start, stop)`` of each chunk of a run of ``runs`` combats starting at ``first``."""
    if chunk_size < 1:
        raise ValueError("chunk size must be at least 1")
    return [(s, min(s + chunk_size, first + runs)) for s in range(first, first + runs, chunk_size)]


def iter_chunks(
    scenario: Scenario,
    seed: int,
    runs: int,
    chunk_size: int = DEFAULT_CHUNK,
    detail: bool = False,
    first: int = 0,
) -> Iterator[ChunkResult]:
    """Play a run chunk by chunk, in order, in this process."""
    for start, stop in chunk_bounds(runs, chunk_size, first):
        yield run_chunk(scenario, seed, start, stop, detail)
