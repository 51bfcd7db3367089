"""The one adapter between the workbench and the run API: a run into a folder, progress, cancel.

The page needs two things of a run that the command line does not: the count of combats played
while it plays (the progress bar), and a way to stop it from another thread (the Cancel button,
the server stopping). :func:`sim.run.api.simulate` offers both: ``progress=`` a callable
``(done, total)`` called as combats finish, and ``cancel=`` a :class:`threading.Event`. A cancel
settles the run: no new chunk starts, the chunks under way finish and are kept, and
:class:`~sim.run.api.RunInterrupted` is raised with what was played. The results folder stays
resumable, so the page's "continue" (and ``combatsim run --out DIR --resume``) plays only what
is missing, to the same table as a run never stopped.

Each job of the page plays in a thread of its own; the run API gives a run started from a
thread other than the main one a process pool of its own, so several jobs play side by side
(as many as :data:`sim.web.jobs.MAX_RUNNING` let).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from sim.run.api import RunResult, Storage, simulate
from sim.scenario.schema import Scenario

#: Called as combats finish: (combats done, combats in all).
Progress = Callable[[int, int], None]


class Cancelled(Exception):
    """A job of the page stopped by its Cancel button (or the server stopping) between steps."""


def play(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    out: Path,
    progress: Progress,
    cancel: threading.Event,
    resume: bool = False,
    first: int = 0,
    variant: str = "base",
) -> RunResult:
    """Play combats ``first .. first + runs - 1`` into the results folder ``out``.

    As ``combatsim run --out OUT [--resume]`` does (the folder held by the caller): streamed
    chunk by chunk, so a cancel (or the server stopping) keeps every finished chunk.

    Raises:
        RunInterrupted: ``cancel`` was set; ``result`` holds the combats kept.
        sim.run.store.StoreMismatch: ``resume`` of a folder that holds another run.
    """
    return simulate(
        scenario,
        runs,
        seed,
        first=first,
        variant=variant,
        storage=Storage(out, resume=resume),
        progress=progress,
        cancel=cancel,
    )
