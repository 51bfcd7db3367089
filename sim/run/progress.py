"""A progress bar for long runs, on stderr: combats done, combats per second, time left.

It is drawn with rich only when stderr is a terminal (and the caller did not ask for quiet), so
piped or logged output, CI, and ``--json`` consumers never see it; stdout is never touched.

The count moves combat by combat, whatever the chunk size: workers add the combats they finish
to a counter shared with the run's process (:class:`Reporter`, a few times a second), and the
bar reads it every :data:`POLL_S`. The rate is smoothed (:class:`SteadyRate`), so the time left
does not jump; once the run is over, the rate shown is the honest one: combats played by this
run over its wall-clock time.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
)
from rich.text import Text

from sim.run.ticker import Ticker


def wanted(enabled: bool = True, stream: IO[str] | None = None) -> bool:
    """Whether to draw a bar: asked for, and ``stream`` (default stderr) is a terminal."""
    if not enabled:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


#: Seconds between two looks at the count of combats played.
POLL_S = 0.25
#: Seconds a worker keeps its count before adding it to the shared counter.
FLUSH_S = 0.1
#: Time constant (seconds) of the smoothed rate: how long a change of speed takes to show.
SMOOTHING_S = 10.0


class LocalCounter:
    """A count kept in this process (the chunks it plays itself)."""

    def __init__(self) -> None:
        self.value = 0

    def add(self, combats: int = 1) -> None:
        """Count ``combats`` more."""
        self.value += combats


class Reporter:
    """Counts a worker's combats and adds them to a shared counter every :data:`FLUSH_S`.

    A counter shared between processes takes a lock; a combat takes far longer than reading the
    clock, so each combat costs one clock reading and the lock is taken a few times a second.

    Args:
        shared: a ``multiprocessing.Value`` of an integer type.
        clock: the time in seconds.
    """

    def __init__(self, shared: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.shared = shared
        self.clock = clock
        self.pending = 0
        self.last = clock()

    def played(self) -> None:
        """One more combat finished."""
        self.pending += 1
        if self.clock() - self.last >= FLUSH_S:
            self.flush()

    def flush(self) -> None:
        """Add what is pending to the shared counter now (the end of a chunk)."""
        if self.pending:
            with self.shared.get_lock():
                self.shared.value += self.pending
            self.pending = 0
        self.last = self.clock()


class SteadyRate:
    """Combats per second, smoothed, and the time left at that rate.

    The rate moves only when the count does: for the first :data:`SMOOTHING_S` seconds it is
    the average since the start, then each new count moves it towards the speed since the
    previous one by a share ``1 - exp(-dt / SMOOTHING_S)``. A count that arrives in bunches
    (whole chunks) therefore gives the speed of the bunches, not a rate that sags between
    them; and the time left counts down from the last count rather than standing still.

    Args:
        played: combats already played when the run started (not counted in its rate).
        now: the time the run started (seconds).
    """

    def __init__(self, played: int, now: float) -> None:
        self.start_played = played
        self.started = now
        self.last_played = played
        self.last = now
        self.now = now
        self.rate: float | None = None

    def update(self, played: int, now: float) -> float | None:
        """Take a reading (combats played, time); return the smoothed rate."""
        self.now = max(self.now, now)
        if played <= self.last_played or now <= self.started:
            return self.rate
        if self.rate is None or now - self.started < SMOOTHING_S:
            self.rate = (played - self.start_played) / (now - self.started)
        elif now > self.last:
            speed = (played - self.last_played) / (now - self.last)
            self.rate += (1 - math.exp(-(now - self.last) / SMOOTHING_S)) * (speed - self.rate)
        self.last_played, self.last = played, now
        return self.rate

    def overall(self, played: int, now: float) -> float | None:
        """The honest average: combats played since the start over the wall-clock time."""
        elapsed = now - self.started
        return (played - self.start_played) / elapsed if elapsed > 0 else None

    def left(self, total: int) -> float | None:
        """Seconds left at the smoothed rate, from the last count on; None before a rate."""
        if not self.rate:
            return None
        return max((total - self.last_played) / self.rate - (self.now - self.last), 0.0)


class _Rate(ProgressColumn):
    """Combats per second: smoothed while running, the run's average at the end."""

    def render(self, task: Any) -> Text:
        speed = task.fields.get("rate")
        return Text("" if speed is None else f"{speed:,.0f} combats/s", style="progress.data.speed")


class _Left(ProgressColumn):
    """Time left at the smoothed rate (``-:--:--`` until a first combat is counted)."""

    def render(self, task: Any) -> Text:
        left = task.fields.get("left")
        if left is None:
            return Text("-:--:--", style="progress.remaining")
        minutes, seconds = divmod(round(left), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"{hours:d}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


class NoProgress:
    """What callers get when no bar is drawn: the same methods, doing nothing."""

    active = False

    def __enter__(self) -> NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def advance(self, combats: int) -> None:
        """Nothing to draw."""

    def finish(self, started: float | None = None) -> None:
        """Nothing to draw."""


class RunProgress:
    """A bar over ``total`` combats, ``done`` of them already finished (a resumed run).

    Args:
        total: combats of the whole run.
        done: combats finished before this process started on it.
        stream: where to draw (default stderr).
        label: the bar's description.
        source: combats finished so far (``done`` included), read every :data:`POLL_S` by a
            thread of its own; None to count only what :meth:`advance` is told.
        clock: the time in seconds.
    """

    active = True

    def __init__(
        self,
        total: int,
        done: int = 0,
        stream: IO[str] | None = None,
        label: str = "combats",
        source: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        console = Console(file=sys.stderr if stream is None else stream)
        self._progress = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            _Rate(),
            _Left(),
            console=console,
            transient=True,
            refresh_per_second=4,
        )
        self.total = total
        self.source = source
        self.clock = clock
        self.done = done
        self.played = done
        self.counted = done
        self.rate = SteadyRate(done, clock())
        self._task = self._progress.add_task(label, total=total, completed=done)
        self._lock = threading.Lock()
        self._ticker = Ticker(self.look, POLL_S, "combatsim-bar")

    def __enter__(self) -> RunProgress:
        if self.source is not None:  # what was played before the bar (a probe) is no rate
            self.played = max(self.played, min(self.source(), self.total))
        self.rate = SteadyRate(self.played, self.clock())
        self._progress.start()
        if self.source is not None:
            self._ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._ticker.stop()
        self._progress.stop()

    def advance(self, combats: int) -> None:
        """Count ``combats`` more finished (a chunk; the source, if any, may have counted them)."""
        with self._lock:
            self.counted += combats
        self.look()

    def look(self) -> None:
        """Read the source, if any, and show the count, the smoothed rate and the time left."""
        with self._lock:
            found = self.counted if self.source is None else max(self.counted, self.source())
            self.played = max(self.played, min(found, self.total))
            rate = self.rate.update(self.played, self.clock())
            left = self.rate.left(self.total)
            self._progress.update(self._task, completed=self.played, rate=rate, left=left)

    def finish(self, started: float | None = None) -> None:
        """The run is over: show every combat, and the run's own average rate.

        Args:
            started: when the run started, on this bar's clock (default: when the bar did);
                the rate is then every combat the run played over all its wall-clock time.
        """
        with self._lock:
            self.played = self.total
            now = self.clock()
            if started is None:
                rate = self.rate.overall(self.played, now)
            else:
                rate = (self.total - self.done) / (now - started) if now > started else None
            self._progress.update(self._task, completed=self.played, rate=rate, left=0.0)


class CallbackProgress:
    """Progress told to a function instead of drawn: ``report(done, total)``.

    What a notebook or the workbench asks for (``simulate(..., progress=report)``): the same
    count the bar shows, combat by combat. ``report`` is called from a thread of the run's own
    (the one that reads ``source`` every :data:`POLL_S`), and once more from the caller's thread
    when the run is over, with ``done == total``; it should return quickly.

    Args:
        report: told ``(combats finished, combats of the whole run)`` when the count moves.
        total: combats of the whole run.
        done: combats finished before (a resumed run).
        source: combats finished so far (``done`` included), or None to count only what
            :meth:`advance` is told.
    """

    active = False  # nothing is drawn: a caller may still print its own lines

    def __init__(
        self,
        report: Callable[[int, int], None],
        total: int,
        done: int = 0,
        source: Callable[[], int] | None = None,
    ) -> None:
        self.report = report
        self.total = total
        self.source = source
        self.counted = done
        self.told = -1
        self._lock = threading.Lock()
        self._ticker = Ticker(self.look, POLL_S, "combatsim-count")

    def __enter__(self) -> CallbackProgress:
        self.look()
        if self.source is not None:
            self._ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._ticker.stop()

    def advance(self, combats: int) -> None:
        """Count ``combats`` more finished."""
        with self._lock:
            self.counted += combats
        self.look()

    def look(self) -> None:
        """Tell the count if it moved."""
        with self._lock:
            found = self.counted if self.source is None else max(self.counted, self.source())
            found = min(found, self.total)
            if found <= self.told:
                return
            self.told = found
        self.report(found, self.total)

    def finish(self, started: float | None = None) -> None:
        """The run is over: tell the whole count."""
        with self._lock:
            self.counted = self.total
        self.look()


class ExecutorCount:
    """Combats finished so far in a run: those before it, then what its executor has counted.

    Args:
        executor: the run's executor (its ``played()`` is the count of all its runs, or None
            when it cannot count combat by combat: Dask, whose chunks count whole).
        start: combats finished before the executor began on this run (on disk, probed).
    """

    def __init__(self, executor: Any, start: int) -> None:
        self.executor = executor
        self.start = start
        self.base = executor.played()

    def source(self) -> Callable[[], int] | None:
        """What a bar reads, or None when the executor cannot count."""
        if self.base is None:
            return None
        return lambda: self.start + self.executor.played() - self.base


#: What a run may be asked to show: a bar on a terminal (True), nothing (False), or the count
#: told to a function (:class:`CallbackProgress`).
ProgressWanted = bool | Callable[[int, int], None]


def run_progress(
    wanted_: ProgressWanted, total: int, done: int, source: Callable[[], int] | None
) -> RunProgress | NoProgress | CallbackProgress:
    """The progress of a run as asked for: a bar, a function told the count, or nothing."""
    if callable(wanted_):
        return CallbackProgress(wanted_, total, done, source)
    return progress_bar(total, done, bool(wanted_), source=source)


def progress_bar(
    total: int,
    done: int = 0,
    enabled: bool = True,
    stream: IO[str] | None = None,
    label: str = "combats",
    source: Callable[[], int] | None = None,
) -> RunProgress | NoProgress:
    """A bar for a run of ``total`` combats (a do-nothing one unless :func:`wanted`).

    Use it as a context manager; the count comes from ``source`` (read a few times a second),
    or from ``advance(n)`` calls as combats finish. Call ``finish()`` when the run is complete.
    """
    if not wanted(enabled, stream):
        return NoProgress()
    return RunProgress(total, done, stream, label, source)
