"""Problems found in a scenario file, and the error that carries them.

Every problem names the file, the YAML path and line, what was found and what was expected, so
that ``combatsim validate`` can explain every mistake at once and the other commands can refuse a
bad file with a clear message instead of a traceback.
"""

from __future__ import annotations

from sim.engine.errors import Problem, format_path

#: Most problems listed in one error; the rest are counted (see :class:`ScenarioError`).
MAX_PROBLEMS_LISTED = 100


class ScenarioError(Exception):
    """A scenario that cannot be run, with every problem found in it.

    A file with thousands of mistakes (a pasted list of unknown keys) would bury the first ones:
    at most :data:`MAX_PROBLEMS_LISTED` problems are kept, sorted by line,
    and one last problem says how many more there are.
    """

    def __init__(self, problems: list[Problem]) -> None:
        ordered = sorted(problems, key=lambda p: (p.file, p.line or 0, format_path(p.path)))
        if len(ordered) > MAX_PROBLEMS_LISTED:
            more = len(ordered) - MAX_PROBLEMS_LISTED
            first = ordered[0]
            rest = Problem(
                first.file,
                (),
                None,
                f"{more:,} more problems, not listed",
                "a file with fewer mistakes: fix those listed and validate again",
            )
            ordered = [*ordered[:MAX_PROBLEMS_LISTED], rest]
        self.problems = ordered
        super().__init__("\n".join(str(p) for p in self.problems))
