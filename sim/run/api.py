"""The library a designer calls from a notebook; the CLI and the workbench are thin layers over it.

>>> from sim import Execution, Storage, load_scenario, simulate
>>> result = simulate("scenarios/acs-duel.yaml", runs=2000, seed=1)
>>> result.summary["sides"]["red"]["win_rate"]
>>> result.outcomes.head()
>>> simulate("scenarios/acs-duel.yaml", runs=200_000, storage=Storage(out="results/duel"))

A run is its scenario, seed and size; where it is played (:class:`~sim.run.choices.Execution`)
and where it is kept (:class:`~sim.run.choices.Storage`) never change a record.
"""

from __future__ import annotations

import json
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from sim.engine.reading import read_regular
from sim.exact.fight import ExactFight
from sim.run.choices import Execution, Storage
from sim.run.collect import RunCollector, play_into
from sim.run.exact import ExactResult, choose_method, exact_result
from sim.run.interrupts import Halt
from sim.run.narrate import narrate
from sim.run.parallel import RunSpec, executor_for, plan_work
from sim.run.progress import ExecutorCount, ProgressWanted
from sim.run.result import RunInterrupted, RunResult, StoredRunResult
from sim.run.runner import trace_combat
from sim.run.store import MANIFEST, RunStore
from sim.scenario.loader import load_scenario
from sim.scenario.schema import Scenario

__all__ = [
    "ExactResult",
    "Execution",
    "RunInterrupted",
    "RunResult",
    "Storage",
    "StoredRunResult",
    "play_records",
    "replay",
    "simulate",
]

#: The keywords ``simulate`` took before :class:`Execution` and :class:`Storage` (deprecated).
_EXECUTION_KEYWORDS = ("workers", "chunk_size", "scheduler")
_STORAGE_KEYWORDS = ("out", "resume", "force")


def simulate(
    scenario: Scenario | str | Path,
    runs: int | None = None,
    seed: int | None = None,
    *,
    detail: bool = False,
    variant: str = "base",
    first: int = 0,
    execution: Execution | None = None,
    storage: Storage | None = None,
    progress: ProgressWanted = False,
    cancel: threading.Event | None = None,
    method: str = "sample",
    **deprecated: Any,
) -> RunResult:
    """Play ``runs`` combats of a scenario and summarize them, or answer it exactly.

    The combats are played in chunks on every core (or a Dask cluster); the tables are the
    same, row for row, whatever the execution. Left to itself, the run times its first combats
    in this process and chooses from that (:func:`sim.run.runner.choose_plan`): a run one core
    finishes in a couple of seconds stays in this process, a longer one goes to every core in
    chunks of about a second's work. The choice is the result's ``plan``. It may be called from
    any thread; runs in several threads go on side by side, each with its own processes.

    Args:
        scenario: a loaded scenario or the path of its file.
        runs: how many combats (default: the scenario's ``runs``).
        seed: the run's seed (default: the scenario's ``seed``).
        detail: also build the per-combatant table.
        variant: the name written in the tables' ``variant`` column.
        first: the index of the first combat (combats ``first`` .. ``first + runs - 1``).
        execution: workers, chunk size, Dask scheduler (default: all chosen from the work).
        storage: the results folder to stream into, resume, force (default: in memory).
        progress: True for a bar on stderr (drawn only when stderr is a terminal), or a
            function told ``(combats finished, combats in all)`` as the count moves (from a
            thread of the run's; see :class:`~sim.run.progress.CallbackProgress`).
        cancel: set it (from any thread) to stop the run as Ctrl-C does: within a combat here,
            within a fraction of a second on a pool.
        method: ``sample`` (the default, for now: what every run did before), ``exact`` (the
            fight solved as a chain, :mod:`sim.exact`: an :class:`~sim.run.exact.ExactResult`
            whatever ``runs`` and ``seed``) or ``auto`` (exact where a chain applies and fits
            its state cap, sampled otherwise, and sampled with ``detail`` or a results folder).
        **deprecated: ``workers``, ``chunk_size``, ``scheduler``, ``out``, ``resume`` and
            ``force``, as before :class:`Execution` and :class:`Storage`; they still work for
            this release, with a :class:`DeprecationWarning`.

    Raises:
        RunInterrupted: on Ctrl-C or ``cancel``, with the result of the combats finished so far.
        sim.run.store.StoreMismatch: resuming into a folder that holds a different run.
        sim.exact.errors.NotExact, sim.exact.chain.TooManyStates: ``method="exact"`` for a
            fight no chain plays, or one over the state cap.
    """
    started = time.monotonic()  # the bar's final rate: the whole run's wall-clock time
    execution, storage = _choices(execution, storage, deprecated, "simulate")
    scenario = _scenario(scenario)
    if method != "sample":
        fight = _exact(scenario, method, detail or storage.out is not None)
        if fight is not None:
            return exact_result(scenario, fight, variant)
    runs = scenario.runs if runs is None else runs
    seed = scenario.seed if seed is None else seed
    if execution.chunk_size is None and storage.resume and storage.out is not None:
        on_disk = _chunk_size_on_disk(storage.out)
        if on_disk is not None:
            execution = Execution(execution.workers, on_disk, execution.scheduler)

    def collector(chunk_size: int) -> RunCollector:
        store = None
        if storage.out is not None:
            store = RunStore.open(
                storage.out,
                scenario,
                seed,
                first,
                runs,
                chunk_size,
                detail,
                variant,
                storage.resume,
                storage.force,
            )
        return RunCollector(scenario, seed, first, runs, detail, variant, store)

    run: RunCollector | None = None
    halt = Halt(cancel)
    try:
        with halt.counting_ctrl_c():
            if execution.chunk_size is not None:
                run = collector(execution.chunk_size)
            done = run.done if run is not None else set()
            work = plan_work(scenario, seed, detail, first, runs, execution, done, halt)
            if run is None:
                run = collector(work.plan.chunk_size)
            play_into(run, work, execution.scheduler, halt, progress, started)
        result = run.result(complete=True)
        result.plan = work.plan
        return result
    except KeyboardInterrupt:
        if run is None:  # during the first, timed combats: nothing kept yet
            empty = RunCollector(scenario, seed, first, runs, detail, variant)
            raise RunInterrupted(empty.result(), runs) from None
        kept = run.result()
        raise RunInterrupted(kept, runs, _dropped(run.counted, kept.runs)) from None
    finally:
        if run is not None:
            run.close()


def play_records(
    scenario: Scenario,
    seed: int,
    start: int,
    stop: int,
    *,
    execution: Execution | None = None,
    cancel: threading.Event | None = None,
    **deprecated: Any,
) -> list[tuple]:
    """The per-combat records of combats ``start`` .. ``stop - 1``, played on every core.

    The same records, in combat order, as playing them in this process: the runner of
    comparisons, baselines and checks (``play=`` in :mod:`analysis.compare`). What
    ``execution`` leaves None is chosen from the work, as in :func:`simulate`; ``workers``,
    ``scheduler`` and ``chunk_size`` keywords still work for this release (deprecated).

    Raises:
        KeyboardInterrupt: on Ctrl-C or ``cancel``.
    """
    execution, _ = _choices(execution, None, deprecated, "play_records")
    halt = Halt(cancel)
    chunks = {}
    with halt.counting_ctrl_c():
        work = plan_work(scenario, seed, False, start, stop - start, execution, halt=halt)
        with executor_for(work.workers, execution.scheduler, len(work.todo), scenario) as runner:
            spec = RunSpec.of(scenario, seed, False, check=runner.remote)
            playing = runner.play(spec, work.jobs(), halt)
            try:
                for chunk in work.whole(playing):
                    chunks[chunk.start] = chunk.records
            finally:
                playing.close()
    return [record for begin in sorted(chunks) for record in chunks[begin]]


def replay(scenario: Scenario | str | Path, combat: int, seed: int | None = None) -> str:
    """The narration of one combat of a run, segment by segment."""
    scenario = _scenario(scenario)
    seed = scenario.seed if seed is None else seed
    _result, trace = trace_combat(scenario, seed, combat)
    return narrate(scenario, trace, combat, seed)


def _exact(scenario: Scenario, method: str, keeps_combats: bool) -> ExactFight | None:
    """The fight solved exactly when ``method`` says so (None: sample it).

    Under ``auto`` a run that keeps its combats (``detail``, a results folder) is sampled.
    """
    if method == "exact" and keeps_combats:
        raise ValueError("an exact run plays no combat: no per-combatant table, no results folder")
    if method == "auto" and keeps_combats:
        return None
    _choice, fight = choose_method(scenario, method)
    return fight


def _scenario(scenario: Scenario | str | Path) -> Scenario:
    return scenario if isinstance(scenario, Scenario) else load_scenario(scenario)


def _choices(
    execution: Execution | None,
    storage: Storage | None,
    deprecated: dict[str, Any],
    caller: str,
) -> tuple[Execution, Storage]:
    """The execution and storage of a call, the deprecated keywords folded in (with a warning)."""
    allowed = _EXECUTION_KEYWORDS + (_STORAGE_KEYWORDS if caller == "simulate" else ())
    unknown = sorted(set(deprecated) - set(allowed))
    if unknown:
        raise TypeError(f"{caller}() got an unexpected keyword argument {unknown[0]!r}")
    old_execution = {k: v for k, v in deprecated.items() if k in _EXECUTION_KEYWORDS}
    old_storage = {k: v for k, v in deprecated.items() if k in _STORAGE_KEYWORDS}
    for given, value_type, name in (
        (old_execution, execution, "execution=Execution"),
        (old_storage, storage, "storage=Storage"),
    ):
        if not given:
            continue
        if value_type is not None:
            raise TypeError(f"{caller}(): give {', '.join(given)} in {name}(...), not beside it")
        warnings.warn(
            f"{caller}({', '.join(f'{k}=' for k in given)}...) is deprecated and will be removed "
            f"in the next release: pass {name}({', '.join(f'{k}=...' for k in given)})",
            DeprecationWarning,
            stacklevel=3,
        )
    execution = execution if execution is not None else Execution(**old_execution)
    storage = storage if storage is not None else Storage(**old_storage)
    return execution, storage


def _dropped(counted: ExecutorCount | None, kept: int) -> int:
    """Combats a progress count had shown that a stop at once did not keep (chunks dropped)."""
    source = counted.source() if counted is not None else None
    return max(0, source() - kept) if source is not None else 0


def _chunk_size_on_disk(out: Path) -> int | None:
    """The chunk size of the run in ``out`` (to resume it), or None if there is none to read."""
    try:
        size = json.loads(read_regular(out / MANIFEST))["chunk_size"]
    except (OSError, ValueError, KeyError, TypeError):
        return None  # no run there, or a damaged one: opening the store says which
    return size if isinstance(size, int) and size >= 1 else None
