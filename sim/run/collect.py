"""Collecting a run's chunks as they finish: in memory, or into its results folder.

Chunks finish in any order. In memory they are kept until the run is over and then put in
combat order; streamed, each is written as soon as it is finished (:class:`~sim.run.store.
RunStore`) and only counted (:class:`~sim.run.summary.Tally`), so memory stays flat. Either way
the same rows give the same summary, byte for byte.
"""

from __future__ import annotations

import sys
import time

from sim.run.interrupts import Halt
from sim.run.parallel import RunSpec, executor_for
from sim.run.progress import ExecutorCount, ProgressWanted, run_progress
from sim.run.result import RunResult, StoredRunResult
from sim.run.runner import ChunkResult, Work, run_chunk
from sim.run.store import RunStore
from sim.run.summary import Tally, round_length_s, summarize
from sim.run.tables import combatants_frame, outcomes_frame
from sim.run.watch import RunSize, RunWatch
from sim.scenario.schema import Scenario


class RunCollector:
    """Collects the chunks of one run of ``runs`` combats from ``first``.

    Args:
        scenario: the scenario.
        seed: the run's seed.
        first: the run's first combat.
        runs: how many combats.
        detail: per-combatant records are kept too.
        variant: the name in the tables' ``variant`` column.
        store: the results folder to stream into (already opened), or None to keep in memory.
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        first: int,
        runs: int,
        detail: bool,
        variant: str,
        store: RunStore | None = None,
    ) -> None:
        self.scenario = scenario
        self.seed = seed
        self.first = first
        self.runs = runs
        self.detail = detail
        self.variant = variant
        self.store = store
        self.chunks: dict[int, ChunkResult] = {}
        #: The count of combats played that the progress read, once the chunks are under way.
        self.counted: ExecutorCount | None = None
        self.tally = Tally(scenario.side_names)
        self.done: set[int] = set()
        if store is not None:
            self.done = store.done()
            # The chunks already on disk count in the summary, read back one at a time.
            for start, frame in store.done_frames(self.tally.columns):
                self.tally.add(start, frame)

    def close(self) -> None:
        """Let go of the results folder, if any (its lock)."""
        if self.store is not None:
            self.store.close()

    def add(self, chunk: ChunkResult) -> None:
        """One more finished chunk."""
        if self.store is None:
            self.chunks[chunk.start] = chunk
            return
        frame = self.store.write(chunk, self.scenario.name)
        self.tally.add(chunk.start, frame)

    @property
    def kept(self) -> int:
        """Combats collected so far (on disk before this run included)."""
        if self.store is None:
            return sum(c.stop - c.start for c in self.chunks.values())
        return self.tally.runs

    def result(self, complete: bool = False) -> RunResult:
        """The run's result so far; ``complete`` when every chunk is in (the summary is saved)."""
        scenario = self.scenario
        if self.store is not None:
            tally = self.tally
            if not complete:
                # Interrupted, perhaps between writing a chunk and counting it: count what is
                # on disk, chunk by chunk.
                tally = Tally(scenario.side_names)
                for start, frame in self.store.done_frames(tally.columns):
                    tally.add(start, frame)
            summary = tally.summary(scenario.name, self.seed, round_s=round_length_s(scenario))
            if complete:
                self.store.finish(summary)
            return StoredRunResult(scenario, self.seed, tally.runs, summary, self.store)
        records: list[tuple] = []
        details: list[tuple] = []
        for start in sorted(self.chunks):
            chunk = self.chunks[start]
            records.extend(chunk.records)
            details.extend(chunk.combatants)
        outcomes = outcomes_frame(records, scenario.side_names, scenario.name, self.variant)
        combatants = combatants_frame(details, scenario.name, self.variant) if self.detail else None
        sides, round_s = scenario.side_names, round_length_s(scenario)
        summary = summarize(outcomes, sides, scenario.name, self.seed, round_s=round_s)
        return RunResult(scenario, self.seed, len(records), outcomes, summary, combatants)


def play_into(
    run: RunCollector,
    work: Work,
    scheduler: str | None,
    halt: Halt,
    progress: ProgressWanted,
    started: float | None = None,
) -> None:
    """Play the chunks of ``work`` on the executor it calls for, collecting each into ``run``.

    Args:
        run: where the chunks go.
        work: the chunks left and the plan (:func:`~sim.run.parallel.plan_work`).
        scheduler: the Dask scheduler, if any.
        halt: read while the chunks are played (Ctrl-C, the run's cancel event).
        progress: a bar (True), a function told the count, or nothing.
        started: when the run started (``time.monotonic``), for the bar's final rate.

    The count of combats played that the progress read is left in ``run.counted``.

    Raises:
        KeyboardInterrupt: the run was asked to stop; what finished is in ``run``.
    """
    scenario = run.scenario
    played_before = run.runs - sum(end - start for start, end in work.todo)

    def finish(start: int, stop: int) -> ChunkResult:
        # The rest of the chunk the probe began, here (asked to stop again, it is dropped).
        if halt.now():
            raise KeyboardInterrupt
        return run_chunk(scenario, run.seed, start, stop, run.detail, halt.now)

    chunks = len(work.todo)
    with executor_for(work.workers, scheduler, chunks, scenario) as executor:
        spec = RunSpec.of(scenario, run.seed, run.detail, check=executor.remote)
        playing = executor.play(spec, work.jobs(), halt)
        counted = run.counted = ExecutorCount(executor, played_before + work.probed)
        size = RunSize(
            scenario.name,
            len(scenario.combatants),
            scenario.time_limit_s,
            run.runs,
            played_before,
            work.plan.chunk_size,
            executor.workers,
            work.plan.per_s,
        )
        try:
            shown = run_progress(progress, run.runs, played_before, counted.source())
            lines = _progress_line if progress is True and not shown.active else None
            with shown as bar, RunWatch(size, lines) as watch:
                for chunk in work.whole(playing, finish):
                    run.add(chunk)
                    bar.advance(chunk.stop - chunk.start)
                    if not halt.requested():  # a run that is stopping will not take long
                        watch.advance(chunk.stop - chunk.start)
                bar.finish(time.monotonic() if started is None else started)
        finally:
            playing.close()  # cancels what is left if the loop did not finish


def _progress_line(text: str) -> None:
    """A progress line on stderr (where no bar can be drawn: a log, CI)."""
    print(text, file=sys.stderr, flush=True)
