"""A scenario's ``variants:`` section: its model, and its checks when the file is loaded.

Each variant is a name and a set of overrides by dotted path (see :mod:`sim.scenario.variants`
for what a variant is and how ``combatsim compare`` plays them). When a file is loaded every
variant is checked with the file's other problems: each path must resolve, each variant must
give a valid scenario, and it must keep the base's sides (a paired comparison is side by side).
A variant may not set ``seed`` or ``runs`` (that would break the pairing) nor hold variants of
its own.

Building a variant's scenario is the loader's work, and the loader calls these checks: so the
loader hands its ``build`` function in, and this module never imports the loader.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from sim.rules.wording import counted
from sim.scenario.addressing import address, split_path
from sim.scenario.names import NAME_PATTERN
from sim.scenario.overrides import apply_overrides
from sim.scenario.problems import MAX_PROBLEMS_LISTED, Problem, format_path
from sim.scenario.yamlsource import Source

if TYPE_CHECKING:
    from sim.scenario.schema import Scenario


@dataclass(frozen=True)
class Checked:
    """A scenario checked in full: the scenario (None if it has problems) and every problem.

    Attributes:
        scenario: the scenario, when it has no problem.
        problems: every problem, paths by index as in the YAML (not yet by name).
        data: the data that was checked (overrides applied), to name the paths by.
    """

    scenario: Scenario | None
    problems: list[Problem]
    data: Any


#: Checks a scenario from a source and overrides (the loader's ``check_source``).
Build = Callable[[Source, Mapping[str, Any] | None], Checked]
#: Builds a scenario from a source and overrides, raising its problems (the loader's
#: ``build_scenario``): what the tournament and sensitivity checks apply each alternative with.
BuildScenario = Callable[[Source, Mapping[str, Any] | None], "Scenario"]
#: The problems of the base, as ``(path, found, expected)``: a variant's or a sweep value's
#: build finds them again, and they are not the variant's.
Known = set[tuple[tuple, str, str]]

#: The name of the unchanged scenario among the arms of a comparison.
BASE = "base"
#: Top-level keys a variant may not set: the pairing needs the base's seed and run count.
FIXED_KEYS = ("seed", "runs", "variants")


class VariantModel(BaseModel):
    """One entry of a scenario's ``variants:`` list."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., pattern=NAME_PATTERN, description="A short name (letters, digits, _ -).")
    description: str = ""
    set: dict[str, Any] = Field(
        default_factory=dict,
        description="Values to change, by dotted path: options.duplicates, "
        "sides.red.combatants.knight.attack_bonus, templates.goblin.hp ...",
    )


def variant_data(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict:
    """A scenario's data with ``overrides`` applied and its ``variants:`` taken out.

    Raises:
        ScenarioError: a path does not resolve.
    """
    base = {k: copy.deepcopy(v) for k, v in data.items() if k != "variants"}
    return apply_overrides(base, overrides)


# -- checking variants while a file is loaded -------------------------------------------------


def check_variants(
    source: Source, data: Mapping[str, Any], build: Build, known: Known
) -> list[Problem]:
    """Problems of the ``variants:`` section: those the base (``known``) does not have.

    Called by the loader after the base is checked, valid or not (the section's shape is
    checked with the rest of the top level by :class:`~sim.scenario.schema.ScenarioModel`). A
    problem inside a variant is reported at the line of the override that causes it. Once
    :data:`MAX_PROBLEMS_LISTED` problems are found the remaining variants are counted, not
    checked.
    """
    entries = data.get("variants")
    if not isinstance(entries, list) or not entries:
        return []
    problems: list[Problem] = []
    owners: list[int] = []  # the variant of each problem, to say where the checks stopped
    room = MAX_PROBLEMS_LISTED - len(known) - 1
    side_names = _side_names(data)
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        where: tuple = ("variants", i)

        def add(path: tuple, found: str, expected: str, where: tuple = where) -> None:
            full = (*where, *path)
            problems.append(Problem(source.file, full, source.line_of(full), found, expected))
            owners.append(where[1])

        if len(problems) >= room:
            break
        name = entry.get("name")
        if name == BASE:
            add(("name",), "the name 'base'", "another name: 'base' is the scenario itself")
        elif isinstance(name, str) and name in seen:
            again = f"variant name {name!r} again"
            add(("name",), again, f"a name not used by variant {seen[name]}")
        if isinstance(name, str):
            seen.setdefault(name, i)
        overrides = entry.get("set") or {}
        if not isinstance(overrides, dict):
            continue
        fixed = [p for p in overrides if isinstance(p, str) and p.split(".")[0] in FIXED_KEYS]
        for path in fixed:
            add(
                ("set", path),
                f"a variant setting {path.split('.')[0]!r}",
                "rule options, stats, equipment or tactics: every variant plays the base's "
                "seed and number of combats, which is what pairs them",
            )
        if fixed:
            continue
        base = {k: copy.deepcopy(v) for k, v in data.items() if k != "variants"}
        checked = build(Source(source.file, base), overrides)
        label = f"variant {name!r}" if isinstance(name, str) else f"variant {i}"
        for problem in checked.problems:
            if (problem.path, problem.found, problem.expected) in known:
                continue
            path, found = _locate(problem, overrides, checked.data)
            add(("set", *path), f"{found} (in {label})", problem.expected)
        variant_sides = _side_names(checked.data)
        if not checked.problems and variant_sides != side_names:
            add(
                ("set",),
                f"sides {', '.join(variant_sides)}",
                f"the base's sides ({', '.join(side_names)}): a variant is compared "
                "with the base side by side",
            )
    if len(problems) > room:
        first = owners[room]
        where = ("variants", first)
        problems[room:] = [
            Problem(
                source.file,
                where,
                source.line_of(where),
                f"{counted(len(entries) - first, 'variant')} from here on not all checked: the "
                "list of problems is full",
                "a file with fewer mistakes: fix those listed and validate again",
            )
        ]
    return problems


def _side_names(data: Any) -> list[str]:
    sides = data.get("sides") if isinstance(data, dict) else None
    if not isinstance(sides, list):
        return []
    return [str(side.get("name")) for side in sides if isinstance(side, dict)]


def _locate(problem: Problem, overrides: Mapping[str, Any], variant: Any):
    """The override a variant's problem comes from (as a one-step path) and what was found."""
    if problem.path[:1] == ("override",):
        return (problem.path[1],), problem.found
    where = f", at {format_path(address(variant, problem.path))}"
    for path in overrides:
        steps = _tuple_path(variant, path)
        if steps is None:
            continue
        size = min(len(steps), len(problem.path))
        if size and steps[:size] == tuple(problem.path[:size]):
            shown = "" if steps == tuple(problem.path) else where
            return (path,), problem.found + shown
    return (), problem.found + where


def _tuple_path(data: Any, dotted: Any) -> tuple | None:
    """A dotted path as the loader's YAML path (list items by index), or None if it is absent."""
    try:
        steps = split_path(dotted) if isinstance(dotted, str) else None
    except ValueError:
        return None
    if steps is None:
        return None
    node = data
    out: list = []
    for step in steps:
        if isinstance(node, dict):
            key = str(step) if isinstance(step, int) and str(step) in node else step
            if key not in node:
                return (*out, key)
            node = node[key]
            out.append(key)
        elif isinstance(node, list):
            index = _list_index(node, step)
            if index is None:
                return None
            node = node[index]
            out.append(index)
        else:
            return None
    return tuple(out)


def _list_index(node: list, step: str | int) -> int | None:
    if isinstance(step, int):
        return step if step < len(node) else None
    for i, item in enumerate(node):
        if isinstance(item, dict) and item.get("name") == step:
            return i
    if step.isdigit() and int(step) < len(node):
        return int(step)
    return None
