"""The one adapter between the workbench and the run API: progress, cancel, and nothing else.

The page needs two things of a run that the command line does not: the count of combats played
while it plays (for the progress bar), and a way to stop it from another thread (the Cancel
button, and the server stopping). The run API's contract for them (issue 22, the narrowed
:func:`sim.run.api.simulate`) is ``progress=`` a callable ``(done, total)`` called as combats
finish, and ``cancel=`` a :class:`threading.Event` that stops the run at the next chunk as Ctrl-C
does, raising :class:`~sim.run.api.RunInterrupted` with the partial result (with ``out``, the
folder stays resumable); it is safe to call from a worker thread.

**Seam.** Until that contract is on main (:data:`HAS_CONTRACT` says whether the ``simulate`` at
hand takes ``cancel``), :func:`play` keeps the same promise with what ``simulate`` offers today:
it plays the run in consecutive blocks of combat indices (``first=``), which gives the same
records as one run because combat k's dice depend only on the seed and k, reports progress after
each block and looks at ``cancel`` between blocks, then writes the results folder as ``run
--precision --out`` does (:meth:`sim.run.api.RunResult.save`). What the seam cannot do is leave a
cancelled run resumable: it says so.

**Taking turns.** Today's run API shares one process pool per process and is not safe to call
from several threads at once (a second run can close the pool the first is using). Until the
contract says it is, every call of the page into the run API takes :func:`turn`: the blocks of
several runs interleave, each block on every core, and a study (a sweep, a tournament...) holds
its turn while it plays. The page itself never waits for a turn: only the jobs' threads do.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sim.run.api import RunInterrupted, RunResult, play_records, simulate
from sim.run.summary import summarize
from sim.run.tables import outcomes_frame
from sim.scenario.schema import Scenario

#: Called as combats finish: (combats done, combats in all).
Progress = Callable[[int, int], None]

#: Whether ``simulate`` takes the contract's ``progress`` callable and ``cancel`` event.
HAS_CONTRACT = "cancel" in inspect.signature(simulate).parameters

#: Blocks of a run played by the seam (a block reports progress and may be cancelled after it).
SEAM_BLOCKS = 20
#: The smallest block the seam plays (a block costs a little besides its combats).
SEAM_MIN_BLOCK = 200
#: The largest block (a second or two of every core's work on the bundled duels): progress moves
#: and a cancel is seen at least that often.
SEAM_MAX_BLOCK = 5000

_TURNS = threading.RLock()


@contextmanager
def turn() -> Iterator[None]:
    """Hold the run API for this thread meanwhile (see "Taking turns" above)."""
    if HAS_CONTRACT:
        yield
        return
    with _TURNS:
        yield


class Cancelled(Exception):
    """A run of the page stopped by its Cancel button (or the server stopping)."""


def blocks(start: int, stop: int, count: int = SEAM_BLOCKS) -> list[tuple[int, int]]:
    """``start .. stop`` cut into at most ``count`` consecutive blocks of combat indices."""
    size = min(max(SEAM_MIN_BLOCK, -(-(stop - start) // count)), SEAM_MAX_BLOCK)
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def play(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    out: Path,
    progress: Progress,
    cancel: threading.Event,
    resume: bool = False,
) -> RunResult:
    """Play a run into the results folder ``out`` (held by the caller), as ``combatsim run --out``.

    Raises:
        RunInterrupted: ``cancel`` was set; ``result`` holds the combats played.
    """
    if HAS_CONTRACT:
        contract: Any = simulate  # typed as today's simulate until the contract lands
        storage = _storage(out, resume)
        return contract(scenario, runs=runs, seed=seed, progress=progress, cancel=cancel, **storage)
    return _play_in_blocks(scenario, runs, seed, out, progress, cancel)


def _storage(out: Path, resume: bool) -> dict[str, Any]:
    """The contract's storage choice (``Storage`` once it exists; the keywords before)."""
    parameters = inspect.signature(simulate).parameters
    if "storage" in parameters:
        storage_type = parameters["storage"].annotation
        module = inspect.getmodule(simulate)
        made = getattr(module, "Storage", None) if isinstance(storage_type, str) else storage_type
        if made is not None:
            return {"storage": made(out=out, resume=resume, force=False)}
    return {"out": out, "resume": resume}


def _play_in_blocks(
    scenario: Scenario,
    runs: int,
    seed: int,
    out: Path,
    progress: Progress,
    cancel: threading.Event,
) -> RunResult:
    """The seam: blocks of ``simulate(first=...)``, then the folder written whole."""
    frames: list[Any] = []
    done = 0
    progress(0, runs)
    for start, stop in blocks(0, runs):
        if cancel.is_set():
            raise RunInterrupted(_joined(scenario, seed, frames), runs)
        with turn():
            frames.append(simulate(scenario, runs=stop - start, seed=seed, first=start).outcomes)
        done = stop
        progress(done, runs)
    result = _joined(scenario, seed, frames)
    result.save(out)
    return result


def _joined(scenario: Scenario, seed: int, frames: list) -> RunResult:
    """One run's result of consecutive blocks of its combats (the summary computed once)."""
    import pandas as pd  # deferred: heavy third-party package (the seam only)

    if frames:
        table = pd.concat(frames, ignore_index=True)
    else:
        table = outcomes_frame([], scenario.side_names, scenario.name, "base")
    summary = summarize(table, scenario.side_names, scenario.name, seed)
    return RunResult(scenario, seed, len(table), table, summary)


def range_player(
    progress: Callable[[int], None], cancel: threading.Event
) -> Callable[[Scenario, int, int, int], list[tuple]]:
    """What plays an arm of a comparison (``play=`` of :mod:`analysis.compare`) for the page.

    It plays combats ``start .. stop - 1`` as :func:`sim.run.api.play_records` does, in blocks,
    telling ``progress`` how many more combats are done after each and stopping with
    :class:`Cancelled` at the first block after ``cancel`` is set. The records are those of one
    call: combat k's dice depend only on the seed and k.
    """

    def play_range(scenario: Scenario, seed: int, start: int, stop: int) -> list[tuple]:
        records: list[tuple] = []
        for a, b in blocks(start, stop):
            if cancel.is_set():
                raise Cancelled
            with turn():
                records += play_records(scenario, seed, a, b)
            progress(b - a)
        return records

    return play_range
