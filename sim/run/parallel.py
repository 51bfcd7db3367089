"""Where chunks of a run are played: in this process, on a local process pool, or on Dask.

A run is cut into chunks of consecutive combat indices (:mod:`sim.run.runner`). An *executor* takes
the chunks of a run and hands back each chunk's records as soon as it is finished, in whatever
order they finish; the caller puts them back in combat order (or writes each where it belongs).
Because combat k's dice depend only on the seed and k, where and in which order the chunks are
played never changes a record.

What a worker receives is a :class:`RunSpec`: the scenario's data as validated (frozen in the
scenario when it was made, so nobody validates it again to prove it can be rebuilt), the seed and
whether per-combatant records are wanted. The worker validates the scenario itself (once per
process, then from a small cache), so nothing but plain data crosses a process or machine
boundary, and nothing depends on a shared filesystem.

- :class:`SerialExecutor`: this process, chunk after chunk (``workers=1``, or a single chunk).
- :class:`PoolExecutor`: a pool of local worker processes, one per core by default; the pool is
  kept for the next run of the same size (a sweep runs many).
- :class:`DaskExecutor`: an existing ``dask.distributed`` scheduler (``scheduler="tcp://..."``) or
  a :class:`~distributed.LocalCluster` started for the run (``scheduler="local"``). The workers
  need combatsim installed, nothing else.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sim.engine.errors import CommandError
from sim.run.choices import Execution
from sim.run.interrupts import Halt
from sim.run.progress import LocalCounter, Reporter
from sim.run.runner import ChunkResult, Work, probe, run_chunk
from sim.run.watch import RunWarning
from sim.scenario.loader import scenario_from_dict

if TYPE_CHECKING:
    from sim.scenario.schema import Scenario

#: Chunks kept in flight per worker: enough to keep every worker busy, few enough that finished
#: chunks waiting to be put back in order never pile up.
IN_FLIGHT_PER_WORKER = 2
#: Seconds between two looks at a run's :class:`~sim.run.interrupts.Halt` while a pool plays.
STOP_POLL_S = 0.2


class SchedulerError(CommandError):
    """A Dask scheduler that cannot be reached or whose address is not one."""


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# -- what a worker needs --------------------------------------------------------------------------


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to play chunks of one run, as plain picklable data.

    Attributes:
        data: the scenario's data as validated, frozen (:attr:`Scenario.frozen_data`).
        file: the file the scenario came from (for its messages only).
        seed: the run's seed.
        detail: also return one record per combatant per combat.
        key: a digest of the above, naming the scenario in a worker's cache.
    """

    data: bytes
    file: str
    seed: int
    detail: bool = False
    key: str = field(default="", compare=False)

    @classmethod
    def of(cls, scenario: Scenario, seed: int, detail: bool = False, check: bool = True) -> RunSpec:
        """The spec of a run of ``scenario``.

        Args:
            scenario: the scenario.
            seed: the run's seed.
            detail: also return per-combatant records.
            check: make sure the scenario is still the one its data was validated into, so a
                worker rebuilding it from its data gets the same one (not needed when the chunks
                are played in this process).

        Raises:
            ValueError: the scenario was changed after it was made (``dataclasses.replace``),
                so its data no longer describes it and workers could not rebuild it.
        """
        if check and not scenario.unchanged():
            raise ValueError(
                f"scenario {scenario.name!r} was changed after it was loaded, so workers cannot "
                "rebuild it from its data; build changed scenarios with scenario_from_dict, or "
                "run with workers=1"
            )
        digest = hashlib.sha256(scenario.frozen_data + scenario.file.encode("utf-8"))
        return cls(scenario.frozen_data, scenario.file, seed, detail, digest.hexdigest()[:20])


_SCENARIOS: OrderedDict[str, Scenario] = OrderedDict()
_SCENARIOS_KEPT = 16


def _scenario_of(spec: RunSpec) -> Scenario:
    """The scenario of a spec, validated once per process."""
    scenario = _SCENARIOS.get(spec.key) if spec.key else None
    if scenario is None:
        scenario = scenario_from_dict(pickle.loads(spec.data), spec.file)
        if spec.key:
            _SCENARIOS[spec.key] = scenario
            while len(_SCENARIOS) > _SCENARIOS_KEPT:
                _SCENARIOS.popitem(last=False)
    return scenario


#: A pool worker's share of the pool's counter of combats played (set when the worker starts).
_COUNTER: Any = None


def play_chunk(spec: RunSpec, start: int, stop: int) -> ChunkResult:
    """Play combats ``start`` .. ``stop - 1`` of a run (what every worker runs).

    In a pool worker, the combats are counted as they finish, for the progress bar.
    """
    if _COUNTER is None:
        return run_chunk(_scenario_of(spec), spec.seed, start, stop, spec.detail)
    reporter = Reporter(_COUNTER)
    try:
        return run_chunk(
            _scenario_of(spec), spec.seed, start, stop, spec.detail, played=reporter.played
        )
    finally:
        reporter.flush()


# -- executors ------------------------------------------------------------------------------------


class Executor(Protocol):
    """Plays the chunks of a run somewhere and yields each result as it finishes."""

    #: How many chunks it plays at once.
    workers: int

    #: Whether chunks are played outside this process (from the spec's data).
    remote: bool

    def play(
        self, spec: RunSpec, bounds: Sequence[tuple[int, int]], halt: Halt | None = None
    ) -> Iterator[ChunkResult]:
        """Yield the result of every chunk in ``bounds``, in the order they finish.

        Closing the iterator before the end (an error in the caller) cancels the chunks not yet
        finished. ``halt`` is read between combats here and a few times a second on a pool:
        asked to stop, no new chunk is started, those under way are yielded as they finish,
        and then :class:`KeyboardInterrupt` is raised; asked twice, it is raised at once
        (:mod:`sim.run.interrupts`).
        """

    def close(self) -> None:
        """Release what the executor started (processes, a cluster, a connection)."""

    def played(self) -> int | None:
        """Combats played so far by this executor (all its runs), or None if it cannot tell.

        It moves while chunks are under way, a few times a second: what the progress bar reads.
        """


class SerialExecutor:
    """Plays the chunks in this process, one after the other, in order.

    Args:
        scenario: the scenario at hand (else it is rebuilt from the spec's data).
    """

    workers = 1
    remote = False

    def __init__(self, scenario: Scenario | None = None) -> None:
        self.scenario = scenario
        self.counter = LocalCounter()

    def play(
        self, spec: RunSpec, bounds: Sequence[tuple[int, int]], halt: Halt | None = None
    ) -> Iterator[ChunkResult]:
        """Yield the result of every chunk, in order (a chunk under way finishes on a stop)."""
        scenario = self.scenario if self.scenario is not None else _scenario_of(spec)
        for start, end in bounds:
            if halt is not None and halt.requested():
                raise KeyboardInterrupt
            yield run_chunk(
                scenario,
                spec.seed,
                start,
                end,
                spec.detail,
                halt.now if halt is not None else None,
                played=self.counter.add,
            )

    def close(self) -> None:
        """Nothing to release."""

    def played(self) -> int:
        """Combats played so far in this process, counted one by one."""
        return self.counter.value


def probe_here(
    scenario: Scenario,
    seed: int,
    start: int,
    end: int,
    detail: bool = False,
    halt: Halt | None = None,
) -> tuple[ChunkResult, float]:
    """:func:`sim.run.runner.probe` here; asked to stop, it ends between two combats."""
    interrupted = halt.requested if halt is not None else None
    return probe(scenario, seed, start, end, detail, interrupted=interrupted)


def _worker_init(counter: Any) -> None:
    """Set up a pool worker: Ctrl-C is the parent's business, die with the parent, count."""
    global _COUNTER
    _COUNTER = counter
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    # A worker whose run was killed outright (SIGKILL) would otherwise wait for work forever.
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(1)


def _pool_context(private: bool = False) -> multiprocessing.context.BaseContext:
    """Fork on Linux, spawn elsewhere (the platforms' defaults); a fork server off the main thread.

    Forked workers start at once and never re-import the caller's script or notebook, so a
    designer's script needs no ``if __name__ == "__main__"`` guard there. They are forked before
    the progress bar starts its thread (:meth:`PoolExecutor.start`), and kept for later runs.
    A run started from another thread (the workbench runs several at once) may not fork a
    process whose other threads hold locks: its workers come from a fork server, a process of
    one thread started afresh.
    """
    if private and sys.platform.startswith("linux"):
        return multiprocessing.get_context("forkserver")
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class PoolExecutor:
    """Plays chunks on a pool of local worker processes.

    Args:
        workers: how many processes.
        private: a pool of one run started off the main thread (see :func:`_pool_context`).
    """

    remote = True

    def __init__(self, workers: int, private: bool = False) -> None:
        self.workers = workers
        self.private = private
        self._pool: ProcessPoolExecutor | None = None
        #: Combats played by the workers, shared with them (made when they start).
        self._counter: Any = None
        #: Set when a run was abandoned and its workers ended: the executor cannot be reused.
        self.broken = False

    def start(self) -> ProcessPoolExecutor:
        """Start the worker processes now (it is cheap to call again)."""
        if self.broken:
            raise RuntimeError("this pool was stopped")
        if self._pool is None:
            context = _pool_context(self.private)
            self._counter = context.Value("q", 0)
            with _sigint_ignored():  # the workers start with Ctrl-C ignored
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=_worker_init,
                    initargs=(self._counter,),
                )
                # Every worker process is created on the first submission.
                self._pool.submit(os.getpid).result()
        return self._pool

    def play(
        self, spec: RunSpec, bounds: Sequence[tuple[int, int]], halt: Halt | None = None
    ) -> Iterator[ChunkResult]:
        """Yield the result of every chunk, in the order they finish."""
        pool = self.start()
        todo = list(reversed(bounds))
        running: set[Future] = set()
        window = self.workers * IN_FLIGHT_PER_WORKER
        finished = settling = False
        try:
            while todo or running:
                if halt is not None and halt.requested() and not settling:
                    settling = True  # start nothing more; what a worker has begun finishes
                    todo.clear()
                    running = {future for future in running if not future.cancel()}
                while todo and len(running) < window:
                    start, end = todo.pop()
                    running.add(pool.submit(play_chunk, spec, start, end))
                if not running:
                    break
                done, running = wait(running, timeout=STOP_POLL_S, return_when=FIRST_COMPLETED)
                if halt is not None and halt.now():
                    raise KeyboardInterrupt  # the workers busy with the rest are ended
                for future in sorted(done, key=_start_of):
                    yield future.result()
            finished = True
            if settling:
                raise KeyboardInterrupt
        except BrokenProcessPool as exc:  # a worker died: say which, and how
            raise WorkerLost.of(pool) from exc
        finally:
            if not finished:
                self._abandon(running)

    def played(self) -> int:
        """Combats the workers have played so far (each adds its count a few times a second)."""
        return 0 if self._counter is None else int(self._counter.value)

    def _abandon(self, running: set[Future]) -> None:
        """Stop at once: cancel what is queued and end the workers busy with the rest."""
        for future in running:
            future.cancel()
        self.broken = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()

    def close(self) -> None:
        """Shut the pool down."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


class WorkerLost(BrokenProcessPool):
    """A worker process died while the run was under way: killed, most often for want of memory.

    The pool's own error says only that "a process ... was terminated abruptly"; this one says
    which worker and how, so the command line can say what happened and what is kept.

    Attributes:
        killed: whether it was killed outright (``SIGKILL``: what the out-of-memory killer sends).
    """

    def __init__(self, worker: str, killed: bool = False) -> None:
        super().__init__(worker)
        self.killed = killed

    @classmethod
    def of(cls, pool: ProcessPoolExecutor) -> WorkerLost:
        """The worker of a broken pool that died, and how (read from the pool's processes)."""
        worker = _who_died(pool)
        return cls(worker, worker.endswith(f"killed by {signal.SIGKILL.name}"))


#: Seconds to wait for a dead worker's exit status (the pool's own thread may be reaping it).
EXIT_STATUS_S = 2.0


def _who_died(pool: ProcessPoolExecutor) -> str:
    """Which worker of a broken pool died, and how.

    The pool's thread ends the other workers itself (SIGTERM) once one has died, and reaps
    them all; until it has, a dead worker's status may read as unknown. So this looks again for
    a moment until a worker ended otherwise than by the pool's SIGTERM, and names that one.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    deadline = time.monotonic() + EXIT_STATUS_S
    while True:
        ended = [(p.pid, p.exitcode) for p in processes if p.exitcode not in (None, 0)]
        ended.sort(key=lambda pid_code: pid_code[1] == -signal.SIGTERM)
        if (ended and ended[0][1] != -signal.SIGTERM) or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    if not ended:
        return "a worker process ended abruptly (how, the system did not say)"
    pid, code = ended[0]
    if code is not None and code < 0:
        try:
            how = f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"was killed by signal {-code}"
    else:
        how = f"exited with code {code}"
    return f"worker process {pid} {how}"


def _start_of(future: Future) -> int:
    exc = future.exception()
    return -1 if exc is not None else future.result().start


class DaskExecutor:
    """Plays chunks on a ``dask.distributed`` cluster.

    Args:
        scheduler: the scheduler's address (``tcp://host:8786``), or ``"local"`` to start a
            :class:`~distributed.LocalCluster` of ``workers`` single-threaded processes.
        workers: the size of a local cluster (ignored for an existing scheduler).
    """

    remote = True

    def __init__(self, scheduler: str, workers: int | None = None) -> None:
        from distributed import Client, LocalCluster  # deferred: optional, heavy (dask)

        self._cluster = None
        if scheduler == "local":
            # Its worker processes start with Ctrl-C ignored (it is this process's business:
            # it cancels the run and closes the cluster).
            with _sigint_ignored():
                self._cluster = LocalCluster(
                    n_workers=workers or available_cores(),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(scheduler, timeout="20s")
            except (ValueError, TypeError, OSError, TimeoutError) as exc:
                raise SchedulerError(
                    f"cannot use the Dask scheduler {scheduler!r}: {exc}; give its address "
                    "(tcp://host:8786), or 'local' to start one on this machine"
                ) from None
        self.workers = max(sum(self._client.nthreads().values()), 1)

    def play(
        self, spec: RunSpec, bounds: Sequence[tuple[int, int]], halt: Halt | None = None
    ) -> Iterator[ChunkResult]:
        """Yield the result of every chunk, in the order they finish (``halt`` read between)."""
        from distributed import as_completed  # deferred: optional, heavy (dask)

        client = self._client
        todo = list(reversed(bounds))
        window = self.workers * IN_FLIGHT_PER_WORKER
        [shared] = client.scatter([spec], broadcast=True, hash=False)
        submitted = []

        def submit() -> Any:
            start, stop = todo.pop()
            future = client.submit(play_chunk, shared, start, stop, pure=False)
            submitted.append(future)
            return future

        running = as_completed([submit() for _ in range(min(window, len(todo)))])
        finished = False
        try:
            for future in running:
                if halt is not None and halt.requested():
                    raise KeyboardInterrupt  # Dask's chunks count whole: nothing to settle
                result = future.result()
                future.release()
                if todo:
                    running.add(submit())
                yield result
            finished = True
        finally:
            if not finished:
                client.cancel([f for f in submitted if not f.done()])

    def played(self) -> None:
        """Not known: Dask workers share no counter with this process (chunks count whole)."""
        return None

    def close(self) -> None:
        """Close the connection (and the local cluster, if one was started)."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C meanwhile, so that processes started now inherit it ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# -- choosing one ---------------------------------------------------------------------------------

_POOL: PoolExecutor | None = None


def _shared_pool(workers: int) -> PoolExecutor:
    """The pool kept between runs (a sweep runs many), restarted when the size changes."""
    global _POOL
    if _POOL is not None and (_POOL.workers != workers or _POOL.broken):
        _POOL.close()
        _POOL = None
    if _POOL is None:
        _POOL = PoolExecutor(workers)
    return _POOL


@atexit.register
def close_shared_pool() -> None:
    """Stop the pool kept between runs (the next run that wants one starts it afresh)."""
    global _POOL
    if _POOL is not None:
        _POOL.close()
        _POOL = None


class _Borrowed:
    """An executor lent for one run, closed or kept afterwards."""

    def __init__(self, executor: Any, keep: bool) -> None:
        self.executor = executor
        self.keep = keep

    def __enter__(self) -> Any:
        start = getattr(self.executor, "start", None)
        if start is not None:
            start()  # fork the workers now, before any other thread starts
        return self.executor

    def __exit__(self, *exc: object) -> None:
        if not self.keep:
            self.executor.close()


#: Memory a worker process may take (measured: about 55 MB each on the reference duels; the
#: margin covers the largest bundled scenarios' records and Python's own growth).
WORKER_MEMORY_BYTES = 200 * 2**20


def available_memory() -> int | None:
    """Bytes of memory free for new processes now, or None where the system does not say."""
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def memory_cap(workers: int, free: int | None) -> int:
    """How many of ``workers`` fit in ``free`` bytes (at least one: this process plays then)."""
    if free is None:
        return workers
    return max(1, min(workers, free // WORKER_MEMORY_BYTES))


def executor_for(
    workers: int | None, scheduler: str | None, chunks: int, scenario: Scenario | None = None
) -> _Borrowed:
    """The executor for a run of ``chunks`` chunks, as a context manager.

    Args:
        workers: processes on this machine (None: every core; 1: this process only). With
            ``scheduler="local"``, the size of the local Dask cluster.
        scheduler: a Dask scheduler address, ``"local"``, or None for this machine.
        chunks: how many chunks the run has (one chunk is played in this process).
        scenario: the scenario, for playing in this process without rebuilding it.
    """
    if workers is not None and workers < 1:
        raise ValueError("workers must be at least 1")
    if scheduler:
        return _Borrowed(DaskExecutor(scheduler, workers), keep=False)
    if workers is not None and workers > max(chunks, 1) > 1:
        warnings.warn(
            f"{workers} workers for {chunks} chunks: {chunks} workers are started (a worker "
            "plays one chunk at a time; a smaller --chunk-size makes more chunks)",
            RunWarning,
            stacklevel=2,
        )
    workers = available_cores() if workers is None else min(workers, max(chunks, 1))
    free = available_memory()
    if memory_cap(workers, free) < workers:
        capped = memory_cap(workers, free)
        warnings.warn(
            f"{workers} workers would need about {workers * WORKER_MEMORY_BYTES // 2**20} MB and "
            f"{(free or 0) // 2**20} MB is free: {capped} worker(s) are started",
            RunWarning,
            stacklevel=2,
        )
        workers = capped
    if workers == 1 or chunks <= 1:
        return _Borrowed(SerialExecutor(scenario), keep=False)
    if threading.current_thread() is not threading.main_thread():
        # Runs may go on side by side in other threads: each has a pool of its own.
        return _Borrowed(PoolExecutor(workers, private=True), keep=False)
    return _Borrowed(_shared_pool(workers), keep=True)


def plan_work(
    scenario: Scenario,
    seed: int,
    detail: bool,
    first: int,
    runs: int,
    execution: Execution,
    done: set[int] | frozenset[int] = frozenset(),
    halt: Halt | None = None,
) -> Work:
    """The work of a run: its first combats timed here, then the plan (see :class:`Work`).

    Args:
        scenario: the scenario.
        seed: the run's seed.
        detail: per-combatant records too.
        first: the run's first combat.
        runs: its combats.
        execution: the workers, chunk size and scheduler asked for (None ones are chosen).
        done: first combats of the chunks already on disk (a resumed run).
        halt: read between the timed combats (Ctrl-C, the run's cancel event).
    """

    def timed(start: int, end: int) -> tuple[ChunkResult, float]:
        return probe_here(scenario, seed, start, end, detail, halt)

    return Work.make(
        first,
        runs,
        execution.workers,
        execution.scheduler,
        execution.chunk_size,
        set(done),
        available_cores(),
        timed,
    )
