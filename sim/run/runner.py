"""Running combats: combat k of a run is played from its own stream, (seed, k), alone.

A run is cut into chunks of consecutive combat indices; a chunk is the unit a worker plays and
returns. Because a combat's dice depend only on the seed and its index, the records are the same
whatever the chunking or the number of workers. So the cut is chosen from the work
(:class:`Work`, :func:`choose_plan`): the run's first combats are timed in this process
(:func:`probe`; they are the head of its first chunk), and the workers and chunk size follow.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sim.engine.combat import Combat, TraceEvent
from sim.engine.dice import Dice
from sim.rules.base import Prepared
from sim.rules.registry import PluginFailure, plugin_failure
from sim.run.records import combat_record, combatant_records
from sim.scenario.schema import Scenario

DEFAULT_CHUNK = 2000


def play(
    scenario: Scenario, prepared, seed: int, index: int, trace: list[TraceEvent] | None = None
) -> Combat:
    """Play combat ``index`` of a run seeded with ``seed`` to its end.

    A plug-in that fails meanwhile (in ``spawn``, ``start``, its round process or a resolution
    hook) is named with the scenario and this combat (:func:`~sim.rules.registry.plugin_failure`);
    our own code's exceptions pass as they are.
    """
    dice = Dice(seed, index)
    try:
        fighters = prepared.spawn(dice)
        combat = Combat(fighters, scenario.side_names, dice, scenario.time_limit_s, trace)
        return combat.run(prepared.start)
    except (Exception, SystemExit) as exc:
        failure = plugin_failure(prepared, exc)
        if failure is None:
            raise
        raise failure.during(scenario, index) from exc


def prepare(scenario: Scenario) -> Prepared[Any]:
    """``scenario.system.prepare(scenario)``, naming the scenario if a plug-in fails in it."""
    try:
        return scenario.system.prepare(scenario)
    except PluginFailure as exc:
        raise exc.during(scenario) from exc


def trace_combat(scenario: Scenario, seed: int, index: int) -> tuple[Combat, list[TraceEvent]]:
    """Play one combat with every event recorded (for replays and trace tests)."""
    trace: list[TraceEvent] = []
    combat = play(scenario, prepare(scenario), seed, index, trace)
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
    played: Callable[[], None] | None = None,
    enough: Callable[[], bool] | None = None,
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
        played: called after each combat (progress inside a chunk, see :mod:`sim.run.progress`).
        enough: asked after each combat; when it says True the chunk ends there, short of
            ``stop`` (the timed first combats of :func:`probe`).
    """
    prepared = prepare(scenario)
    records = []
    details: list[tuple] = []
    index = start
    while index < stop:
        if interrupted is not None and interrupted():
            raise KeyboardInterrupt
        combat = play(scenario, prepared, seed, index)
        records.append(combat_record(combat, index, seed))
        if detail:
            details.extend(combatant_records(combat, index, seed))
        index += 1
        if played is not None:
            played()
        if enough is not None and enough():
            break
    return ChunkResult(start, index, records, details)


def merged(head: ChunkResult, tail: ChunkResult) -> ChunkResult:
    """One chunk of two that follow each other (``head.stop == tail.start``)."""
    if head.stop != tail.start:
        raise ValueError(f"combats {head.start}..{head.stop} and {tail.start}.. do not meet")
    return ChunkResult(
        head.start, tail.stop, head.records + tail.records, head.combatants + tail.combatants
    )


# -- how a run is cut, chosen from the work ----------------------------------------------------

#: A run that one core plays in about this many seconds is played in this process: starting
#: worker processes and shipping chunks to them would cost as much as it saves.
SERIAL_S = 2.0
#: Seconds of one core's work in a chunk the run sizes itself: short enough for a lively
#: progress count, a prompt Ctrl-C and a small loss when a streamed run is killed; long enough
#: that what each chunk costs besides its combats (setting the scenario up, sending records
#: back, one Parquet file) does not matter.
CHUNK_S = 1.0
#: A pool gets at least this many chunks per worker, so that no worker waits idle at the end.
CHUNKS_PER_WORKER = 4
#: The first combats of a run are timed in this process for about this long (CPU seconds)
#: after the first one (the probe)...
PROBE_S = 0.25
#: ... unless they have taken this long in all: a run so slow needs no finer measure.
PROBE_CAP_S = 2.0


@dataclass(frozen=True)
class WorkPlan:
    """How a run is played: by how many workers, in chunks of how many combats, and why.

    Attributes:
        workers: worker processes (1: this process plays every chunk).
        chunk_size: combats per chunk.
        per_s: combats per second of one core, measured on the run's first combats (None
            when nothing was measured: workers and chunk size were both given).
        reason: why, in a few words (shown by ``combatsim bench``).
    """

    workers: int
    chunk_size: int
    per_s: float | None
    reason: str

    def describe(self) -> str:
        """``2 workers, chunks of 1,500 combats (a run of about 14 s on one core)``."""
        who = "this process" if self.workers == 1 else f"{self.workers} workers"
        return f"{who}, chunks of {self.chunk_size:,} combats ({self.reason})"


def choose_plan(
    combats: int,
    per_s: float | None,
    cores: int,
    workers: int | None = None,
    chunk_size: int | None = None,
    probed: int = 0,
) -> WorkPlan:
    """The workers and chunk size of a run of ``combats`` combats, from its measured speed.

    What is given wins; the rest follows from ``per_s`` (see ``docs`` and the README):

    - workers: one (this process) when one core plays the run in :data:`SERIAL_S` seconds or
      less, or when there is one core; else every core, but never more than there are chunks;
    - chunk size: :data:`CHUNK_S` seconds of one core's work, made smaller when that would
      leave fewer than :data:`CHUNKS_PER_WORKER` chunks per worker, and never smaller than
      ``probed`` (the probe's combats open the first chunk).

    Args:
        combats: combats left to play (after the probe's).
        per_s: combats per second of one core (None: not measured; both must then be given).
        cores: the cores this process may use.
        workers: the workers asked for, or None to choose.
        chunk_size: the chunk size asked for, or None to choose.
        probed: combats the probe played at the start of the first chunk.
    """
    if per_s is None or per_s <= 0:
        if workers is None or chunk_size is None:
            raise ValueError("without a measured speed, give both workers and chunk_size")
        return WorkPlan(workers, chunk_size, None, "as given")
    seconds = combats / per_s
    why = [f"a run of about {seconds:.3g} s on one core"]
    chosen = workers
    if chosen is None:
        if cores <= 1 or seconds <= SERIAL_S:
            chosen = 1
            why.append("one core" if cores <= 1 else f"{SERIAL_S:g} s or less: no pool")
        else:
            chosen = cores
    size = chunk_size
    if size is None:
        size = max(1, round(per_s * CHUNK_S))
        if chosen > 1:
            size = min(size, -(-combats // (chosen * CHUNKS_PER_WORKER)))
        size = max(size, probed, 1)
    if workers is None and chosen > 1:
        chosen = max(1, min(chosen, -(-combats // size)))
    if workers is not None or chunk_size is not None:
        why.append("workers given" if chunk_size is None else "chunk size given")
    return WorkPlan(chosen, size, per_s, "; ".join(why))


def probe(
    scenario: Scenario,
    seed: int,
    start: int,
    stop: int,
    detail: bool = False,
    seconds: float = PROBE_S,
    clock: Callable[[], float] = time.process_time,
    interrupted: Callable[[], bool] | None = None,
) -> tuple[ChunkResult, float]:
    """Play the first combats from ``start`` in this process for about ``seconds``: the speed.

    The time is this process's CPU time, as in ``combatsim bench``: the speed of one core of
    the machine, not of how busy other programs keep it, so a run is cut the same way on a
    loaded machine. It runs from the end of the first combat (its warm-up is not the run's
    speed), and the probe stops after :data:`PROBE_CAP_S` in all. At least one combat is
    played, at most ``stop - start``. Their records are the run's own (a probe is the head of
    the first chunk), so the measure costs nothing.

    Returns:
        The combats played, and combats per second of this core (0.0 when none was played).
    """
    began = clock()
    marks: list[float] = []

    def enough() -> bool:
        # Timed from the end of the first combat, which pays once per process for warming up
        # (caches of roll tables, the scenario's set-up) and would make the run look slow.
        marks.append(clock())
        warmed = len(marks) >= 2 and marks[-1] - marks[0] >= seconds
        return warmed or marks[-1] - began >= PROBE_CAP_S

    head = run_chunk(scenario, seed, start, stop, detail, interrupted, enough=enough)
    if len(marks) >= 2:
        # From the end of the first combat: the first pays for warming up (caches, the
        # scenario's set-up), which the run's chunks pay once each, not per combat.
        return head, (len(marks) - 1) / max(marks[-1] - marks[0], 1e-9)
    return head, len(marks) / max(marks[-1] - began, 1e-9) if marks else 0.0


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


@dataclass
class Work:
    """The chunks of a run still to play, and how: the plan, and the probe's head if any.

    The probe's combats open the first chunk to play; the rest of that chunk is played as a
    job of its own and joined to them (:meth:`whole`) before anyone sees the chunk.
    """

    plan: WorkPlan
    todo: list[tuple[int, int]]
    head: ChunkResult | None
    #: What to ask :func:`~sim.run.parallel.executor_for` for (None: its default).
    workers: int | None

    @property
    def probed(self) -> int:
        """Combats the probe played."""
        return 0 if self.head is None else self.head.stop - self.head.start

    @classmethod
    def make(
        cls,
        first: int,
        runs: int,
        workers: int | None,
        scheduler: str | None,
        chunk_size: int | None,
        done: set[int],
        cores: int,
        probe: Callable[[int, int], tuple[ChunkResult, float]],
    ) -> Work:
        """Time the first combats when something is left to choose, and choose it.

        Args:
            first: the run's first combat.
            runs: its combats.
            workers: the workers asked for, or None to choose.
            scheduler: a Dask scheduler (its size is its own: only the chunk size is set).
            chunk_size: the chunk size asked for (or of the run on disk), or None to choose.
            done: first combats of the chunks already on disk (a resumed run).
            cores: the cores this process may use.
            probe: plays combats ``start`` .. at most ``stop - 1`` in this process for a
                moment; returns them and the combats per second (:func:`probe`).
        """
        if scheduler or (workers is not None and chunk_size is not None):
            # A Dask cluster's size is its own; a run that is told everything measures nothing.
            size = chunk_size or DEFAULT_CHUNK
            why = "a Dask cluster" if scheduler else "as given"
            plan = WorkPlan(workers or 1, size, None, why)
            todo = [b for b in chunk_bounds(runs, size, first) if b[0] not in done]
            return cls(plan, todo, None, workers)
        if chunk_size is not None:
            todo = [b for b in chunk_bounds(runs, chunk_size, first) if b[0] not in done]
            if not todo:
                return cls(WorkPlan(1, chunk_size, None, "nothing left"), todo, None, 1)
            head, per_s = probe(*todo[0])
            left = sum(stop - start for start, stop in todo) - (head.stop - head.start)
            plan = choose_plan(left, per_s, cores, workers, chunk_size)
            return cls(plan, todo, head, plan.workers)
        head, per_s = probe(first, first + runs)
        left = runs - (head.stop - head.start)
        plan = choose_plan(left, per_s, cores, workers, None, head.stop - head.start)
        return cls(plan, chunk_bounds(runs, plan.chunk_size, first), head, plan.workers)

    def jobs(self) -> list[tuple[int, int]]:
        """What the executor plays: the chunks, the first without the probe's combats."""
        if self.head is None:
            return list(self.todo)
        (_, end), rest = self.todo[0], self.todo[1:]
        return rest if self.head.stop >= end else [(self.head.stop, end), *rest]

    def whole(
        self,
        played: Iterator[ChunkResult],
        finish: Callable[[int, int], ChunkResult] | None = None,
    ) -> Iterator[ChunkResult]:
        """The chunks as they finish, the first one whole (the probe's combats joined in).

        The probe began the first chunk, so a stop asked for (``KeyboardInterrupt`` from
        ``played``) before its rest was played finishes it with ``finish(start, stop)`` and
        yields it before the stop goes on, as every chunk under way is finished and kept.
        """
        head = self.head
        if head is not None and head.stop >= self.todo[0][1]:
            yield head
            head = None
        try:
            for chunk in played:
                if head is not None and chunk.start == head.stop:
                    chunk, head = merged(head, chunk), None
                yield chunk
        except KeyboardInterrupt:
            if head is not None and finish is not None:
                yield merged(head, finish(head.stop, self.todo[0][1]))
            raise
