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
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from sim.scenario.names import NAME_PATTERN
from sim.scenario.overrides import apply_overrides
from sim.scenario.problems import Problem, ScenarioError, format_path
from sim.scenario.yamlsource import Source

if TYPE_CHECKING:
    from sim.scenario.schema import Scenario

#: Builds and validates a scenario from a source and overrides (the loader's ``build_scenario``).
Build = Callable[[Source, Mapping[str, Any] | None], "Scenario"]

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
        "sides.red.combatants.0.attack_bonus, templates.goblin.hp ...",
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
    source: Source, data: Mapping[str, Any], scenario: Scenario, build: Build
) -> list[Problem]:
    """Problems of the ``variants:`` section of an otherwise valid scenario.

    Called by the loader once the base scenario is built (the section's shape is checked with the
    rest of the top level by :class:`~sim.scenario.schema.ScenarioModel`). A problem inside a
    variant is reported at the line of the override that causes it.
    """
    entries = data.get("variants")
    if not isinstance(entries, list) or not entries:
        return []
    problems: list[Problem] = []
    base_checks = {(p.path, p.found, p.expected) for p in scenario.system.check(scenario)}
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        where: tuple = ("variants", i)

        def add(path: tuple, found: str, expected: str, where: tuple = where) -> None:
            full = (*where, *path)
            problems.append(Problem(source.file, full, source.line_of(full), found, expected))

        name = entry.get("name")
        if name == BASE:
            add(("name",), "the name 'base'", "another name: 'base' is the scenario itself")
        elif name in seen:
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
        try:
            variant = build(Source(source.file, variant_data(data, overrides)), None)
        except ScenarioError as exc:
            for problem in exc.problems:
                if (problem.path, problem.found, problem.expected) in base_checks:
                    continue
                path, found = _locate(problem, overrides, data)
                add(("set", *path), f"{found} (in variant {name!r})", problem.expected)
            continue
        if variant.side_names != scenario.side_names:
            add(
                ("set",),
                f"sides {', '.join(variant.side_names)}",
                f"the base's sides ({', '.join(scenario.side_names)}): a variant is compared "
                "with the base side by side",
            )
    return problems


def _locate(problem: Problem, overrides: Mapping[str, Any], data: Mapping[str, Any]):
    """The override a variant's problem comes from (as a one-step path) and what was found."""
    if problem.path[:1] == ("override",):
        return (problem.path[1],), problem.found
    where = f", at {format_path(problem.path)}"
    variant = variant_data(data, overrides)
    for path in overrides:
        steps = _tuple_path(variant, path)
        if steps is None:
            continue
        size = min(len(steps), len(problem.path))
        if size and steps[:size] == tuple(problem.path[:size]):
            shown = "" if steps == tuple(problem.path) else where
            return (path,), problem.found + shown
    return (), problem.found + where


def _tuple_path(data: Any, dotted: str) -> tuple | None:
    """A dotted path as the loader's YAML path (list items by index), or None if it is absent."""
    node = data
    steps: list = []
    for step in dotted.split("."):
        if isinstance(node, dict):
            if step not in node:
                return (*steps, step)
            node = node[step]
            steps.append(step)
        elif isinstance(node, list):
            index = _list_index(node, step)
            if index is None:
                return None
            node = node[index]
            steps.append(index)
        else:
            return None
    return tuple(steps)


def _list_index(node: list, step: str) -> int | None:
    for i, item in enumerate(node):
        if isinstance(item, dict) and item.get("name") == step:
            return i
    if step.isdigit() and int(step) < len(node):
        return int(step)
    return None
