"""Errors a command explains in one sentence instead of a traceback.

A :class:`CommandError` is a request that cannot be carried out as asked: a results directory
that holds no results, a damaged baseline, a run to resume that is not the same run. The command
line prints its message and exits with its ``exit_code`` (2 for bad input, as for a bad
scenario). Scenario files have their own, richer error (:class:`sim.scenario.problems.
ScenarioError`), which lists every problem with its file, path and line.
"""

from __future__ import annotations

#: Exit code for bad input.
EXIT_BAD_INPUT = 2


class CommandError(Exception):
    """A request that cannot be carried out; the message says why and what to do."""

    exit_code = EXIT_BAD_INPUT
