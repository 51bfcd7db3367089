"""How big a scenario file may be, so that no file can make loading crash or hang.

A scenario is typed by a person; the largest bundled one is under 6 KB. These limits sit far
above anything a designer writes and far below what would exhaust memory, time or the numeric
types of NumPy, pandas and Arrow. Each is checked where it is cheapest: the file's size before
reading it, nesting and aliases while the YAML is composed (before any alias is expanded, so a
"billion laughs" file is refused in milliseconds), and the numbers and texts before any rule
model sees them. docs/scenarios.md lists them under "Limits".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from sim.engine.text import ANY_CONTROL, CONTROL, escape, first_control, visible
from sim.scenario.problems import MAX_PROBLEMS_LISTED, Problem

__all__ = ["MAX_PROBLEMS_LISTED", "value_problems"]

#: Largest file read, in bytes (1 MiB).
MAX_FILE_BYTES = 1024 * 1024
#: Deepest nesting of mappings and lists, aliases expanded.
MAX_DEPTH = 40
#: Most alias uses (``*name``) in one file.
MAX_ALIASES = 1000
#: Most values (mappings, lists and scalars) in the document, aliases expanded.
MAX_NODES = 50_000
#: Most keys in one mapping.
MAX_KEYS = 1000
#: Longest text value or key, in characters.
MAX_TEXT = 10_000
#: Longest number as written (digits, sign, point and exponent).
MAX_NUMBER_CHARS = 40
#: Largest magnitude of any number in a scenario (a rule model may ask for less). Sums of
#: thousands of such values stay exact in a 64-bit float and inside a 64-bit integer.
MAX_NUMBER = 10**12
#: Keys whose value may exceed :data:`MAX_NUMBER` (the seed is any 64-bit value).
LARGE_NUMBER_KEYS = ("seed",)
#: Largest seed (a 64-bit signed integer, as the tables store it).
MAX_SEED = 2**63 - 1


def value_problems(data: Any, file: str, line_of: Callable[[tuple], int | None]) -> list[Problem]:
    """Numbers, texts, keys and sizes past the limits, anywhere in a scenario's data.

    YAML read by :mod:`sim.scenario.yamlsource` is already inside the size limits and keyed by
    text; data given as a dict (the API, overrides, sweep values) is checked here the same way.
    The walk is iterative and stops at :data:`MAX_NODES` values, so even a dict that contains
    itself is refused rather than followed. A NaN or an infinity is never a sensible stat,
    option or time, and a control character never belongs in a scenario's text (see
    :func:`text_problem`).
    """
    problems: list[Problem] = []

    def add(path: tuple, found: str, expected: str) -> None:
        problems.append(Problem(file, path, line_of(path), found, expected))

    stack: list[tuple[tuple, Any]] = [((), data)]
    count = 0
    while stack:
        path, value = stack.pop()
        count += 1
        if count > MAX_NODES:
            add((), f"more than {MAX_NODES:,} values", f"at most {MAX_NODES:,} values")
            break
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            problem = _number_problem(path, value)
        elif isinstance(value, str):
            problem = text_problem(value, "a name" if path and path[-1] == "name" else "a text")
        elif isinstance(value, (dict, list, tuple)):
            if len(path) >= MAX_DEPTH:
                add(path, f"values nested more than {MAX_DEPTH} deep", f"at most {MAX_DEPTH}")
                continue
            if isinstance(value, dict):
                problem = _mapping_problem(path, value, add)
                if problem is None:
                    stack.extend(((*path, str(key)), item) for key, item in value.items())
            else:
                problem = None
                stack.extend(((*path, i), item) for i, item in enumerate(value))
        else:
            problem = None
        if problem:
            add(path, *problem)
    return problems


def _number_problem(path: tuple, value: int | float) -> tuple[str, str] | None:
    if path in ((key,) for key in LARGE_NUMBER_KEYS):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value), "a finite number"
    if abs(value) > MAX_NUMBER:
        return f"{value:.3g}", f"a number from -{MAX_NUMBER:,} to {MAX_NUMBER:,}"
    return None


def _mapping_problem(
    path: tuple, mapping: dict, add: Callable[[tuple, str, str], None]
) -> tuple[str, str] | None:
    """The problem of a mapping too big to walk, else None, with each bad key ``add``-ed."""
    if len(mapping) > MAX_KEYS:
        return f"a mapping of {len(mapping):,} keys", f"at most {MAX_KEYS:,} keys"
    for key in mapping:
        if isinstance(key, str) and len(key) > MAX_TEXT:
            add(path, f"a key of {len(key):,} characters", f"at most {MAX_TEXT:,}")
            continue
        problem = _key_problem(key)
        if problem:
            add((*path, str(key)), *problem)
    return None


def text_problem(text: str, kind: str = "a text") -> tuple[str, str] | None:
    r"""``(found, expected)`` for a text too long or holding a control character, else None.

    A control character (ESC, BEL, CR...: YAML lets a double-quoted text write them as ``\e``,
    ``\a``, ``\r``) would make the terminal that shows the name do something (set its
    title, rewrite a line) instead of showing it. A text (a description) may hold tabs and
    newlines; ``kind`` "a name" or "a key" is one line of printable text.
    """
    if len(text) > MAX_TEXT:
        return f"a text of {len(text):,} characters", f"at most {MAX_TEXT:,}"
    one_line = kind != "a text"
    control = first_control(text, ANY_CONTROL if one_line else CONTROL)
    if control is None:
        return None
    shown = visible(text[:60], ANY_CONTROL)
    return (
        f'{kind} holding the control character {escape(control)} ("{shown}")',
        f"{kind} of printable characters" + (" on one line" if one_line else ""),
    )


def _key_problem(key: Any) -> tuple[str, str] | None:
    if not isinstance(key, str):
        return f"the key {key!r}", "a key that is text"
    return text_problem(key, "a key")
