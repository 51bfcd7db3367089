"""The library a designer calls from a notebook; the CLI is a thin layer over it.

>>> from sim import load_scenario, simulate
>>> result = simulate("scenarios/acs-duel.yaml", runs=2000, seed=1)
>>> result.summary["sides"]["red"]["win_rate"]
>>> result.outcomes.head()
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.run.files import write_text
from sim.run.narrate import narrate
from sim.run.outdir import FolderLock
from sim.run.parallel import RunSpec, available_cores, executor_for, probe_here
from sim.run.progress import progress_bar
from sim.run.runner import ChunkResult, Work, WorkPlan, trace_combat
from sim.run.store import COMBATANTS, MANIFEST, RunStore, write_scenario
from sim.run.summary import Tally, round_length_s, summarize
from sim.run.tables import combatants_frame, outcomes_frame, save_frame
from sim.run.watch import RunSize, RunWatch
from sim.scenario.loader import load_scenario
from sim.scenario.schema import Scenario

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class RunResult:
    """What a run gives back: the outcome tables and their summary."""

    scenario: Scenario
    seed: int
    runs: int
    outcomes: pd.DataFrame
    summary: dict[str, Any]
    combatants: pd.DataFrame | None = field(default=None)
    #: How the run was played (workers, chunk size and why; not part of the results).
    plan: WorkPlan | None = field(default=None, compare=False)

    def save(self, directory: str | Path, csv: bool = True) -> list[Path]:
        """Write the tables, ``summary.json`` and ``scenario.yaml`` into ``directory``.

        The tables are ``outcomes.parquet``/``.csv`` and ``combatants.*`` (if any); the scenario
        is kept as it was run, for reports.
        """
        out = Path(directory)
        with FolderLock(out):
            written = save_frame(self.outcomes, out, "outcomes", csv)
            if self.combatants is not None:
                written += save_frame(self.combatants, out, "combatants", csv)
            written.append(
                write_text(out / "summary.json", json.dumps(self.summary, indent=2) + "\n")
            )
            written.append(write_scenario(out, self.scenario))
        return written


class StoredRunResult(RunResult):
    """A run streamed to a directory (``simulate(out=...)``).

    Its summary is at hand; its tables are read back from the directory the first time they are
    asked for (they hold every row: for millions of combats, read the Parquet dataset in parts).
    """

    def __init__(
        self, scenario: Scenario, seed: int, runs: int, summary: dict[str, Any], store: RunStore
    ) -> None:
        # Not the dataclass's __init__: the tables are properties, read on first use.
        self.scenario = scenario
        self.seed = seed
        self.runs = runs
        self.summary = summary
        self.store = store
        self.plan = None
        self._outcomes: pd.DataFrame | None = None
        self._combatants: pd.DataFrame | None = None

    @property
    def outcomes(self) -> pd.DataFrame:
        """One row per combat, read from ``outcomes.parquet/``."""
        if self._outcomes is None:
            self._outcomes = self.store.read()
        return self._outcomes

    @outcomes.setter
    def outcomes(self, value: pd.DataFrame | None) -> None:
        self._outcomes = value

    @property
    def combatants(self) -> pd.DataFrame | None:
        """One row per combatant per combat (with ``detail``), read from the directory."""
        if self._combatants is None and self.store.detail:
            self._combatants = self.store.read(COMBATANTS)
        return self._combatants

    @combatants.setter
    def combatants(self, value: pd.DataFrame | None) -> None:
        self._combatants = value

    def save(self, directory: str | Path, csv: bool = True) -> list[Path]:
        """Copy the run's tables and summary to ``directory`` (nothing to do for its own)."""
        if Path(directory).resolve() == self.store.directory.resolve():
            return self.store.finish(self.summary, csv)
        return super().save(directory, csv)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`simulate`; ``result`` holds the combats finished before it.

    With ``out``, every finished chunk is on disk and ``simulate(..., resume=True)`` plays only
    the rest. Without, ``result`` is all that is left of the run.
    """

    def __init__(self, result: RunResult, total: int) -> None:
        super().__init__(f"interrupted after {result.runs} of {total} combats")
        self.result = result
        self.total = total


def _scenario(scenario: Scenario | str | Path) -> Scenario:
    return scenario if isinstance(scenario, Scenario) else load_scenario(scenario)


def simulate(
    scenario: Scenario | str | Path,
    runs: int | None = None,
    seed: int | None = None,
    *,
    detail: bool = False,
    chunk_size: int | None = None,
    variant: str = "base",
    first: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    force: bool = False,
    progress: bool = False,
) -> RunResult:
    """Play ``runs`` combats of a scenario and summarize them.

    The combats are played in chunks on every core (or a Dask cluster); the tables are the
    same, row for row, whatever the workers, the chunk size or the scheduler. Left to itself
    (``workers`` and ``chunk_size`` None), the run times its first combats in this process and
    chooses from that (:func:`sim.run.runner.choose_plan`): a run one core finishes in a couple of
    seconds stays in this process, a longer one goes to every core in chunks of about a
    second's work. The choice is the result's ``plan``.

    Args:
        scenario: a loaded scenario or the path of its file.
        runs: how many combats (default: the scenario's ``runs``).
        seed: the run's seed (default: the scenario's ``seed``).
        detail: also build the per-combatant table.
        chunk_size: combats per chunk (does not change any result); None to choose it from
            the work (on ``resume``: the chunk size of the run on disk).
        variant: the name written in the tables' ``variant`` column.
        first: the index of the first combat (combats ``first`` .. ``first + runs - 1``).
        workers: processes on this machine (None: chosen from the work; 1 plays in this
            process). With ``scheduler="local"``, the size of the local Dask cluster.
        scheduler: a Dask scheduler address (``tcp://host:8786``) to play the chunks on its
            workers, or ``"local"`` to start a local Dask cluster.
        out: a directory to stream the run into, chunk by chunk (see :mod:`sim.run.store`): memory
            stays flat, and the result's tables are read back from there when asked for.
        resume: with ``out``, play only the chunks not already there (same scenario, seed,
            runs and chunk size as the run that wrote them).
        force: with ``out``, write into a directory that holds files combatsim did not write.
        progress: draw a progress bar on stderr (only when stderr is a terminal).

    Raises:
        RunInterrupted: on Ctrl-C, with the result of the combats finished so far.
        sim.run.store.StoreMismatch: ``resume`` into a directory that holds a different run.
    """
    started = time.monotonic()  # the bar's final rate: the whole run's wall-clock time
    scenario = _scenario(scenario)
    runs = scenario.runs if runs is None else runs
    seed = scenario.seed if seed is None else seed
    if resume and out is None:
        raise ValueError("resume needs out: the directory of the run to finish")
    if chunk_size is None and resume and out is not None:
        chunk_size = _chunk_size_on_disk(Path(out))

    def open_run(size: int) -> _StreamedRun:
        return _StreamedRun(scenario, seed, detail, variant, out, resume, first, runs, size, force)

    run: _StreamedRun | None = None
    try:
        if chunk_size is not None:
            run = open_run(chunk_size)
        work = _work(scenario, seed, detail, first, runs, workers, scheduler, chunk_size, run)
        if run is None:
            run = open_run(work.plan.chunk_size)
        played_before = runs - _count(work.todo)
        with executor_for(work.workers, scheduler, len(work.todo), scenario) as executor:
            spec = RunSpec.of(scenario, seed, detail, check=executor.remote)
            playing = executor.play(spec, work.jobs())
            counted = _Counted(executor, played_before + work.probed)
            try:
                size = RunSize(
                    scenario.name,
                    len(scenario.combatants),
                    scenario.time_limit_s,
                    runs,
                    played_before,
                    work.plan.chunk_size,
                    executor.workers,
                    work.plan.per_s,
                )
                with (
                    progress_bar(runs, played_before, progress, source=counted.source()) as bar,
                    RunWatch(
                        size, _progress_line if progress and not bar.active else None
                    ) as watch,
                ):
                    for chunk in work.whole(playing):
                        run.add(chunk)
                        bar.advance(chunk.stop - chunk.start)
                        watch.advance(chunk.stop - chunk.start)
                    bar.finish(started)
            finally:
                playing.close()  # cancels what is left if the loop did not finish
        result = run.result(complete=True)
        result.plan = work.plan
        return result
    except KeyboardInterrupt:
        if run is None:  # during the first, timed combats: nothing kept yet
            empty = _StreamedRun(scenario, seed, detail, variant, None, False, first, runs, 1)
            raise RunInterrupted(empty.result(), runs) from None
        raise RunInterrupted(run.result(), runs) from None
    finally:
        if run is not None:
            run.close()


def play_records(
    scenario: Scenario,
    seed: int,
    start: int,
    stop: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk_size: int | None = None,
) -> list[tuple]:
    """The per-combat records of combats ``start`` .. ``stop - 1``, played on every core.

    The same records, in combat order, as playing them in this process: the runner of
    comparisons, baselines and checks (``play=`` in :mod:`analysis.compare`). Workers and chunk
    size left None are chosen from the work, as in :func:`simulate`.
    """
    work = _work(scenario, seed, False, start, stop - start, workers, scheduler, chunk_size)
    chunks = {}
    with executor_for(work.workers, scheduler, len(work.todo), scenario) as executor:
        spec = RunSpec.of(scenario, seed, False, check=executor.remote)
        playing = executor.play(spec, work.jobs())
        try:
            for chunk in work.whole(playing):
                chunks[chunk.start] = chunk.records
        finally:
            playing.close()
    return [record for begin in sorted(chunks) for record in chunks[begin]]


def _work(
    scenario: Scenario,
    seed: int,
    detail: bool,
    first: int,
    runs: int,
    workers: int | None,
    scheduler: str | None,
    chunk_size: int | None,
    run: _StreamedRun | None = None,
) -> Work:
    """The work of a run: its first combats timed here, then the plan (see :class:`Work`)."""

    def probe(start: int, stop: int) -> tuple[ChunkResult, float]:
        return probe_here(scenario, seed, start, stop, detail)

    done = run.done if run is not None else set()
    return Work.make(first, runs, workers, scheduler, chunk_size, done, available_cores(), probe)


def _chunk_size_on_disk(out: Path) -> int | None:
    """The chunk size of the run in ``out`` (to resume it), or None if there is none to read."""
    try:
        size = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["chunk_size"]
    except (OSError, ValueError, KeyError, TypeError):
        return None  # no run there, or a damaged one: opening the store says which
    return size if isinstance(size, int) and size >= 1 else None


class _Counted:
    """Combats finished so far in a run, for the bar: those before, then the executor's count."""

    def __init__(self, executor: Any, start: int) -> None:
        self.executor = executor
        self.start = start
        self.base = executor.played()

    def source(self) -> Callable[[], int] | None:
        """What the bar reads, or None when the executor cannot count (Dask: whole chunks)."""
        if self.base is None:
            return None
        return lambda: self.start + self.executor.played() - self.base


def _progress_line(text: str) -> None:
    """A progress line on stderr (where no bar can be drawn: a log, CI)."""
    print(text, file=sys.stderr, flush=True)


def _count(bounds: list[tuple[int, int]]) -> int:
    return sum(stop - start for start, stop in bounds)


class _StreamedRun:
    """Collects the chunks of a run as they finish: in memory, or into a :class:`RunStore`."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        detail: bool,
        variant: str,
        out: str | Path | None,
        resume: bool,
        first: int,
        runs: int,
        chunk_size: int,
        force: bool = False,
    ) -> None:
        self.scenario = scenario
        self.seed = seed
        self.detail = detail
        self.variant = variant
        self.chunks: dict[int, ChunkResult] = {}
        self.store: RunStore | None = None
        self.tally = Tally(scenario.side_names)
        self.done: set[int] = set()
        if out is not None:
            self.store = RunStore.open(
                out, scenario, seed, first, runs, chunk_size, detail, variant, resume, force
            )
            self.done = self.store.done()
            # The chunks already on disk count in the summary, read back one at a time.
            for start, frame in self.store.done_frames(self.tally.columns):
                self.tally.add(start, frame)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    def add(self, chunk: ChunkResult) -> None:
        if self.store is None:
            self.chunks[chunk.start] = chunk
            return
        frame = self.store.write(chunk, self.scenario.name)
        self.tally.add(chunk.start, frame)

    def result(self, complete: bool = False) -> RunResult:
        scenario = self.scenario
        if self.store is not None:
            tally = self.tally
            if not complete:
                # Interrupted, perhaps between writing a chunk and counting it: count what is
                # on disk, chunk by chunk.
                tally = Tally(scenario.side_names)
                for start, frame in self.store.done_frames(tally.columns):
                    tally.add(start, frame)
            summary = tally.summary(
                scenario.name, self.seed, round_s=round_length_s(scenario)
            )
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


def replay(scenario: Scenario | str | Path, combat: int, seed: int | None = None) -> str:
    """The narration of one combat of a run, segment by segment."""
    scenario = _scenario(scenario)
    seed = scenario.seed if seed is None else seed
    _result, trace = trace_combat(scenario, seed, combat)
    return narrate(scenario, trace, combat, seed)
