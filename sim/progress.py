"""A progress bar for long runs, on stderr: combats done, combats per second, time left.

It is drawn with rich only when stderr is a terminal (and the caller did not ask for quiet), so
piped or logged output, CI, and ``--json`` consumers never see it; stdout is never touched.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


def wanted(enabled: bool = True, stream: IO[str] | None = None) -> bool:
    """Whether to draw a bar: asked for, and ``stream`` (default stderr) is a terminal."""
    if not enabled:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class _Rate(ProgressColumn):
    """Combats per second over the last few updates."""

    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} combats/s", style="progress.data.speed")


class NoProgress:
    """What callers get when no bar is drawn: the same methods, doing nothing."""

    active = False

    def __enter__(self) -> NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def advance(self, combats: int) -> None:
        """Nothing to draw."""


class RunProgress:
    """A bar over ``total`` combats, ``done`` of them already finished (a resumed run)."""

    active = True

    def __init__(
        self, total: int, done: int = 0, stream: IO[str] | None = None, label: str = "combats"
    ) -> None:
        console = Console(file=sys.stderr if stream is None else stream)
        self._progress = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            _Rate(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            refresh_per_second=4,
        )
        self._task = self._progress.add_task(label, total=total, completed=done)

    def __enter__(self) -> RunProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def advance(self, combats: int) -> None:
        """Count ``combats`` more finished."""
        self._progress.advance(self._task, combats)


def progress_bar(
    total: int,
    done: int = 0,
    enabled: bool = True,
    stream: IO[str] | None = None,
    label: str = "combats",
) -> RunProgress | NoProgress:
    """A bar for a run of ``total`` combats (a do-nothing one unless :func:`wanted`).

    Use it as a context manager and call ``advance(n)`` as combats finish.
    """
    if not wanted(enabled, stream):
        return NoProgress()
    return RunProgress(total, done, stream, label)
