"""A function called every few seconds on a thread of its own, for as long as a run lasts.

The bar (:mod:`sim.run.progress`) reads the executor's count four times a second and the watch
(:mod:`sim.run.watch`) looks at the run's pace once a second, each while the run's own thread
waits on its chunks: both are a :class:`Ticker` started when the run begins and stopped, and
joined, when it ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Ticker:
    """``tick()`` every ``period`` seconds on a daemon thread named ``name``, until :meth:`stop`.

    The first call comes one period after :meth:`start`; :meth:`stop` returns once the thread
    has finished, so nothing is told after it.
    """

    def __init__(self, tick: Callable[[], object], period: float, name: str) -> None:
        self.tick = tick
        self.period = period
        self.name = name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin ticking."""
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop ticking and wait for the thread (a no-op if it never started)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            self.tick()
