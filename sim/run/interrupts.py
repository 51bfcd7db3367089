"""How a run is stopped before its end: Ctrl-C, or its cancel event, and what is kept then.

A first Ctrl-C (or the run's ``cancel`` event, set from any thread) asks the run to stop: no new
chunk is started, the chunks under way finish (a chunk is about a second of one core's work) and
are kept, and the run ends with :class:`KeyboardInterrupt`, so that every combat a progress bar
has counted is in the result. A second Ctrl-C stops at once: the chunks under way are dropped,
and the result says how many combats that was.

SimPy takes any exception raised inside a process, Ctrl-C's ``KeyboardInterrupt`` too, for that
process's failure, and other processes may run on before it surfaces; so Ctrl-C is never raised
while a combat is played here: the handler only counts the presses, which the run reads between
two combats (:func:`~sim.run.runner.run_chunk`) and a few times a second while a pool plays.
Off the main thread (a notebook's worker thread, the workbench) no signal handler can be set,
and only the cancel event is read. A process whose Ctrl-C was ignored when it started (a
background job of a script) keeps ignoring it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Halt:
    """Whether a run has been asked to stop, and how urgently.

    Args:
        cancel: an event that asks the run to stop as a first Ctrl-C does.
    """

    def __init__(self, cancel: threading.Event | None = None) -> None:
        self.cancel = cancel
        self.presses = 0

    def requested(self) -> bool:
        """Asked to stop: start no new chunk, finish and keep those under way."""
        return self.presses >= 1 or (self.cancel is not None and self.cancel.is_set())

    def now(self) -> bool:
        """Asked twice: stop at once, dropping the chunks under way."""
        return self.presses >= 2

    @contextmanager
    def counting_ctrl_c(self) -> Iterator[Halt]:
        """Count Ctrl-C presses meanwhile instead of raising them (main thread only)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = signal.getsignal(signal.SIGINT)
        if previous == signal.SIG_IGN:  # ignored by whoever started us: so be it
            yield self
            return

        def pressed(signum: int, frame: object) -> None:
            self.presses += 1

        signal.signal(signal.SIGINT, pressed)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)
