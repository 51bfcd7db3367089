"""Problems found in a scenario file, and the error that carries them.

Every problem names the file, the YAML path and line, what was found and what was expected, so
that ``combatsim validate`` can explain every mistake at once and the other commands can refuse a
bad file with a clear message instead of a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    """One mistake in a scenario file."""

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


class ScenarioError(Exception):
    """A scenario that cannot be run, with every problem found in it."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, format_path(p.path)))
        super().__init__("\n".join(str(p) for p in self.problems))
