"""Runs of the page: each in a thread of its own, with its progress, a cancel, and one folder.

The page asks for a run (or a comparison, sweep, ...) and gets a :class:`Job` back at once; the
job plays in a thread while the page keeps answering, and the page reads its progress from
:meth:`Jobs.get`. Several jobs play at once (at most :data:`MAX_RUNNING`; more wait their turn).

**One writer per results folder.** A job writes one results folder, as the command line does,
under that folder's lock (:mod:`sim.run.outdir`), which keeps out any other process (a
``combatsim`` in a terminal). The lock is shared within one process, so the jobs of this server
are kept apart here: a job whose folder another unfinished job writes is refused.

**Stopping.** :meth:`Jobs.shutdown` (the server stopping) sets every job's cancel event and waits
for the threads: a run stops at its next block or chunk, what it wrote stays (resumable where the
run API makes it so), and no thread is left behind.
"""

from __future__ import annotations

import itertools
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.engine.errors import CommandError
from sim.run.api import RunInterrupted
from sim.scenario.problems import ScenarioError
from sim.web.runapi import Cancelled

#: Jobs playing at once; the others wait.
MAX_RUNNING = 4
#: Seconds :meth:`Jobs.shutdown` waits for each job to stop.
STOP_WAIT_S = 30.0
#: Finished jobs kept in the list.
KEPT = 50


class FolderInUse(CommandError):
    """Another job of this server writes the same results folder."""


@dataclass
class Job:
    """One run of the page and how it is going.

    Attributes:
        id: its number, as the page names it.
        kind: run, compare, sweep, balance, tournament, sensitivity or tweak.
        title: what the page shows.
        scenario: the scenario file, as the page names it.
        out: the results folder, relative to the working folder.
        state: waiting, running, done, failed or cancelled.
        done: combats played so far.
        total: combats in all (None while not known).
        message: why it failed or what a cancel kept.
        problems: the scenario's problems, when it failed on them.
        step: what it is doing now, in words (a sweep's point, a tournament's pairing).
    """

    id: str
    kind: str
    title: str
    scenario: str
    out: str
    state: str = "waiting"
    done: int = 0
    total: int | None = None
    message: str = ""
    problems: list[str] = field(default_factory=list)
    step: str = ""
    started: float = field(default_factory=time.time)
    finished: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event, repr=False)
    updates: int = 0
    #: What a cancel leaves behind, in words (the work says it: a streamed run is resumable).
    kept: str = "nothing was saved"
    #: The results folder, resolved (one unfinished job per folder).
    key: str = field(default="", repr=False)
    thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def active(self) -> bool:
        """Waiting or running."""
        return self.state in ("waiting", "running")

    def advance(self, done: int, total: int | None = None) -> None:
        """Progress: ``done`` combats played (of ``total``, when it is known)."""
        self.done = done
        if total is not None:
            self.total = total
        self.updates += 1

    def to_dict(self) -> dict[str, Any]:
        """What the page reads."""
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "scenario": self.scenario,
            "out": self.out,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "message": self.message,
            "problems": self.problems,
            "step": self.step,
            "started": self.started,
            "finished": self.finished,
            "updates": self.updates,
            "cancelling": self.cancel.is_set() and self.active,
        }


#: What a job does: plays, writes its folder, and returns a sentence for the page.
Work = Callable[[Job], str]


class Jobs:
    """The jobs of one server."""

    def __init__(self, max_running: int = MAX_RUNNING) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._turns = threading.Semaphore(max_running)
        self._numbers = itertools.count(1)
        self._closed = False

    def start(self, kind: str, title: str, scenario: str, out: Path, shown: str, work: Work) -> Job:
        """Start a job that writes ``out`` (shown to the page as ``shown``).

        Raises:
            FolderInUse: another unfinished job writes ``out``.
        """
        key = str(out.resolve())
        with self._lock:
            if self._closed:
                raise CommandError("the workbench is stopping")
            for other in self._jobs.values():
                if other.active and other.key == key:
                    raise FolderInUse(
                        f"{shown} is being written by job {other.id} ({other.title}); wait for "
                        "it to finish, or choose another folder"
                    )
            job = Job(str(next(self._numbers)), kind, title, scenario, shown, key=key)
            self._jobs[job.id] = job
            self._forget_old()
        job.thread = threading.Thread(
            target=self._play, args=(job, work), name=f"combatsim-job-{job.id}", daemon=True
        )
        job.thread.start()
        return job

    def _play(self, job: Job, work: Work) -> None:
        with self._turns:
            if job.cancel.is_set():
                self._end(job, "cancelled", "cancelled before it started")
                return
            job.state = "running"
            job.started = time.time()
            try:
                said = work(job)
            except ScenarioError as exc:
                job.problems = [str(p) for p in exc.problems]
                self._end(
                    job,
                    "failed",
                    f"the scenario cannot be used ({len(exc.problems)} "
                    f"problem{'s' * (len(exc.problems) != 1)})",
                )
            except (Cancelled, RunInterrupted, KeyboardInterrupt) as exc:
                self._end(job, "cancelled", _kept(job, exc))
            except CommandError as exc:
                self._end(job, "failed", str(exc))
            except Exception as exc:  # a bug: the page says what, the server's log says where
                traceback.print_exc()
                self._end(job, "failed", f"the run failed: {type(exc).__name__}: {exc}")
            else:
                self._end(job, "done", said)

    def _end(self, job: Job, state: str, message: str) -> None:
        job.message = message
        job.finished = time.time()
        job.state = state

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if not j.active]
        for job in finished[: max(0, len(finished) - KEPT)]:
            del self._jobs[job.id]

    def get(self, number: str) -> Job | None:
        """A job by its number."""
        return self._jobs.get(number)

    def all(self) -> list[Job]:
        """Every job kept, the newest first."""
        with self._lock:
            return sorted(self._jobs.values(), key=lambda j: -int(j.id))

    def cancel(self, number: str) -> Job | None:
        """Ask a job to stop (at its next block, chunk or step)."""
        job = self._jobs.get(number)
        if job is not None and job.active:
            job.cancel.set()
            job.updates += 1
        return job

    def shutdown(self, wait_s: float = STOP_WAIT_S) -> list[Job]:
        """Stop every job and wait for their threads; the jobs that did not stop in time."""
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel.set()
        late = []
        for job in jobs:
            if job.thread is not None:
                job.thread.join(wait_s)
                if job.thread.is_alive():
                    late.append(job)
        return late


def _kept(job: Job, exc: BaseException) -> str:
    """What a cancelled job kept, in words."""
    if isinstance(exc, RunInterrupted):
        played = exc.result.runs
        return f"cancelled after {played:,} of {exc.total:,} combats; {job.kept}"
    return f"cancelled; {job.kept}"
