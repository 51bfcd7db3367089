"""Problems found in a scenario file, and the error that carries them.

Every problem names the file, the YAML path and line, what was found and what was expected, so
that ``combatsim validate`` can explain every mistake at once and the other commands can refuse a
bad file with a clear message instead of a traceback.
"""

from __future__ import annotations

from sim.errors import Problem, format_path


class ScenarioError(Exception):
    """A scenario that cannot be run, with every problem found in it."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, format_path(p.path)))
        super().__init__("\n".join(str(p) for p in self.problems))
