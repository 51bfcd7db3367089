"""Errors a command explains in one sentence instead of a traceback, and scenario problems.

A :class:`CommandError` is a request that cannot be carried out as asked: a results directory
that holds no results, a damaged baseline, a run to resume that is not the same run, a rule
system plug-in that cannot be loaded. The command line prints its message and exits with its
``exit_code`` (2 for bad input, as for a bad scenario).

A :class:`Problem` is one mistake in a scenario file. It lives here, in the lowest layer, because
both the scenario loader and the rule systems (whose ``check`` finds the problems that involve
several fields) report problems, and the rule systems sit below the scenario layer. The error
that carries a scenario's problems is :class:`sim.scenario.problems.ScenarioError`.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Exit code for bad input.
EXIT_BAD_INPUT = 2


class CommandError(Exception):
    """A request that cannot be carried out; the message says why and what to do."""

    exit_code = EXIT_BAD_INPUT


def format_path(path: tuple) -> str:
    """``("sides", 0, "combatants", 1, "hp")`` -> ``sides[0].combatants[1].hp``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


@dataclass(frozen=True)
class Problem:
    """One mistake in a scenario file: where it is, what was found and what was expected."""

    file: str
    path: tuple
    line: int | None
    found: str
    expected: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {format_path(self.path)}: found {self.found}; expected {self.expected}"

    def to_dict(self) -> dict:
        """A JSON-ready form."""
        return {
            "file": self.file,
            "path": format_path(self.path),
            "line": self.line,
            "found": self.found,
            "expected": self.expected,
        }
