"""Watching a long run: say early when it will take long, and show it moving without a terminal.

A valid scenario can still be huge (a thousand combatants a side, hit points of a billion): a
run of it would otherwise play for minutes without a word. :class:`RunWatch` measures the run as
its chunks finish and says, on stderr, once:

- when no chunk has finished after :data:`FIRST_NOTICE_S`: that one combat takes long, with the
  size of the scenario (combatants, time limit) and the way to see it sooner (a smaller
  ``--chunk-size``);
- at once, when the run timed its first combats and they say it will take more than
  :data:`LONG_RUN_S`: the time the whole run will take, from that speed of one core and the
  workers;
- otherwise as soon as a first chunk has finished, when the wall clock says the run will take
  more than :data:`LONG_RUN_S`: the timed combats measure processor time on one core, and a
  busy machine (or a scenario at the combatant cap, a thousand a side) can take several times
  longer, which the first chunk shows.

Where stderr is not a terminal (so no progress bar is drawn: CI, a log file), it also prints a
progress line every :data:`PERIOD_S` seconds: combats done, elapsed, time left. A run shorter
than that prints nothing. The clock is read only by :meth:`RunWatch.tick`, which a background
thread calls every :data:`TICK_S`; tests call it with a clock of their own.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from sim.rules.wording import counted
from sim.run.ticker import Ticker

#: Seconds without a finished chunk before saying that the combats are slow (long enough that
#: a bundled scenario's run on a busy machine never trips it).
FIRST_NOTICE_S = 60.0
#: A run expected to take longer than this (seconds) is announced with its estimate.
LONG_RUN_S = 60.0
#: Seconds between two progress lines when stderr is not a terminal.
PERIOD_S = 30.0
#: How often the background thread looks at the clock (seconds).
TICK_S = 0.5


class RunWarning(UserWarning):
    """News about a run the user should read (a results folder set right, workers capped)."""


@dataclass(frozen=True)
class RunSize:
    """What a run is, for the messages: its scenario's size and its plan."""

    scenario: str
    combatants: int
    time_limit_s: float
    total: int
    done: int
    chunk_size: int
    workers: int
    #: Combats per second of one core, measured on the run's first combats (None: not measured).
    per_s: float | None = None


def duration(seconds: float) -> str:
    """Seconds in words a designer reads at a glance: ``45 s``, ``12 min``, ``3.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


class RunWatch:
    """Says when a run will take long, and how far it is (see the module docstring).

    Args:
        size: the run.
        line: prints a progress line on stderr, or None for none (a terminal shows a bar
            instead, and ``--quiet`` asks for neither).
        warn: says that the run will take long (default: a :class:`RunWarning`, which the
            command line prints in one line).
        clock: the time in seconds (monotonic).
    """

    def __init__(
        self,
        size: RunSize,
        line: Callable[[str], None] | None = None,
        warn: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.size = size
        self.line = line
        self.warn = warn or _warn
        self.clock = clock
        self.started = clock()
        self.played = 0
        self._first_finished: float | None = None
        self._noticed = False
        self._timed = False  # the estimate from the timed first combats was looked at
        self._estimated = False  # an estimate was said
        self._next_line = self.started + PERIOD_S
        self._lock = threading.Lock()
        self._ticker = Ticker(self.tick, TICK_S, "combatsim-watch")

    def advance(self, combats: int) -> None:
        """Count ``combats`` more finished (a chunk)."""
        with self._lock:
            self.played += combats
            if self._first_finished is None:
                self._first_finished = self.clock()
        self.tick()

    def tick(self) -> None:
        """Look at the clock; say what is due."""
        with self._lock:
            now = self.clock()
            elapsed = now - self.started
            size = self.size
            left = size.total - size.done - self.played
            if self.played == 0 and not self._noticed and elapsed >= FIRST_NOTICE_S:
                self._noticed = True
                chunk = min(size.chunk_size, size.total - size.done)
                self.warn(
                    f"no chunk of {counted(chunk, 'combat', grouped=True)} of {size.scenario} has "
                    f"finished after {duration(elapsed)}: its combats are slow "
                    f"({size.combatants:,} combatants, a time limit of {size.time_limit_s:g} s "
                    "of game time); a smaller --chunk-size shows results sooner, and with "
                    "--out Ctrl-C keeps what is finished"
                )
            if size.per_s and not self._timed and left > 0:
                # Measured before the chunks started: say it at once.
                self._timed = True
                expected = left / (size.per_s * size.workers)
                if expected > LONG_RUN_S:
                    self._estimated = True
                    self.warn(
                        f"this run will take about {duration(expected)} "
                        f"({size.per_s:,.3g} combats a second on one core, "
                        f"{counted(left, 'combat', grouped=True)} left, "
                        f"{counted(size.workers, 'worker')})"
                    )
            if self.played and not self._estimated and left > 0:
                self._estimated = True
                # The workers started their first chunks together: one chunk took `elapsed`.
                chunks_left = -(-left // size.chunk_size)
                rounds = -(-chunks_left // size.workers)
                expected = elapsed * rounds
                if expected > LONG_RUN_S:
                    self.warn(
                        f"this run will take about {duration(expected)} more "
                        f"({duration(elapsed)} per chunk of "
                        f"{counted(size.chunk_size, 'combat', grouped=True)}, "
                        f"{counted(left, 'combat', grouped=True)} left, "
                        f"{counted(size.workers, 'worker')})"
                    )
            if self.line is not None and now >= self._next_line:
                self._next_line = now + PERIOD_S
                played = size.done + self.played
                share = played / size.total if size.total else 1.0
                text = f"progress: {played:,} of {counted(size.total, 'combat', grouped=True)} "
                text += f"({share:.0%}), "
                text += f"{duration(elapsed)} elapsed"
                if self.played and left > 0:
                    text += f", about {duration(elapsed / self.played * left)} left"
                self.line(text)

    def __enter__(self) -> RunWatch:
        self._ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._ticker.stop()


def _warn(text: str) -> None:
    warnings.warn(text, RunWarning, stacklevel=4)
