"""Loading one fuzzed file: it loads, or it is refused with located problems, within a bound.

The bound is a hang detector, not a speed test: a case that is still loading after
:data:`HANG_S` seconds is interrupted (``SIGALRM``) and reported as a hang. Most fuzzed files
load in milliseconds and the largest the limits let through (50,000 values) in about a second;
the bound is generous so that a machine shared by many jobs never trips it.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sim.scenario.loader import load_scenario
from sim.scenario.problems import Problem, ScenarioError

#: Seconds after which loading one file counts as a hang.
HANG_S = 20.0


class Hang(Exception):
    """Loading took longer than the hang bound."""


@contextmanager
def hang_guard(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the block if it runs longer than ``seconds`` (main thread only)."""

    def expire(signum, frame):
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Outcome:
    """What loading one file did."""

    loaded: bool
    seconds: float
    problems: tuple[Problem, ...]


def unlocated(problems: tuple[Problem, ...], file: str) -> list[Problem]:
    """Problems that do not name the file, or name no line where the file has one.

    Only a problem about the file as a whole may lack a line: it is too big or empty, or the
    count of problems not listed.
    """
    whole_file = ("a file of more than", "more problems, not listed", "an empty file")
    return [
        p
        for p in problems
        if p.file != file
        or (p.line is None and not any(p.found.startswith(w) or w in p.found for w in whole_file))
        or not p.found
        or not p.expected
    ]


def load_case(path: Path) -> Outcome:
    """Load ``path`` under the hang guard.

    Raises:
        Hang: the load ran past :data:`HANG_S`.
        Exception: any error other than a :class:`ScenarioError` (a bug in the loader).
    """
    start = time.perf_counter()
    with hang_guard(HANG_S):
        try:
            load_scenario(path)
        except ScenarioError as exc:
            return Outcome(False, time.perf_counter() - start, tuple(exc.problems))
    return Outcome(True, time.perf_counter() - start, ())
