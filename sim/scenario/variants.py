"""A scenario's named variants: the base scenario with a few values changed by path.

A rule tweak, in the sense of RULINGS ("every ruling is a default, never a constant"), is a named
variant of a scenario: a set of overrides by dotted path (see :mod:`sim.scenario.overrides`) of
rule options, stats, equipment or tactics::

    variants:
      - name: red-plus3
        description: Red's sword gets +3 to hit.
        set:
          sides.red.combatants.0.attack_bonus: 3
      - name: reroll
        set:
          options.duplicates: reroll

``combatsim compare`` plays the base and every variant on the same per-combat seeds, so the
comparison is paired combat by combat. Every variant is checked when the file is loaded, with the
file's other problems: each path must resolve, each variant must give a valid scenario, and it
must keep the base's sides (a paired comparison is side by side). A variant may not set ``seed``
or ``runs`` (that would break the pairing) nor hold variants of its own.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from sim.scenario.problems import Problem, ScenarioError, format_path

if TYPE_CHECKING:
    from sim.scenario.schema import Scenario
    from sim.scenario.yamlsource import Source

#: The name of the unchanged scenario among the arms of a comparison.
BASE = "base"
#: Top-level keys a variant may not set: the pairing needs the base's seed and run count.
FIXED_KEYS = ("seed", "runs", "variants")
#: Mappings a variant may fill in when the file leaves them out (everything at its default).
#: The same pattern as :data:`sim.scenario.schema.NAME_PATTERN` (which imports this module, so
#: it cannot be imported from there; a test keeps the two equal).
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_\-]{0,39}$"


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


# -- using variants ---------------------------------------------------------------------------


def variant_names(scenario: Scenario) -> list[str]:
    """The names of a scenario's variants, in file order (the base not included)."""
    return [entry["name"] for entry in _entries(scenario.data)]


def variant_overrides(scenario: Scenario, name: str) -> dict[str, Any]:
    """The overrides of one variant (empty for the base)."""
    if name == BASE:
        return {}
    for entry in _entries(scenario.data):
        if entry["name"] == name:
            return dict(entry.get("set") or {})
    raise _unknown(scenario, name)


def variant_data(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict:
    """A scenario's data with ``overrides`` applied and its ``variants:`` taken out.

    Raises:
        ScenarioError: a path does not resolve.
    """
    from sim.scenario.overrides import apply_overrides

    base = {k: copy.deepcopy(v) for k, v in data.items() if k != "variants"}
    return apply_overrides(base, overrides)


def variant_scenario(scenario: Scenario, name: str) -> Scenario:
    """The scenario of one variant (the scenario itself for :data:`BASE`)."""
    if name == BASE:
        return scenario
    from sim.scenario.loader import scenario_from_dict

    data = variant_data(scenario.data, variant_overrides(scenario, name))
    return scenario_from_dict(data, file=scenario.file)


def arms(scenario: Scenario, names: Sequence[str] | None = None) -> dict[str, Scenario]:
    """The base and the chosen variants (default: all of them), by name, base first.

    Raises:
        ScenarioError: a name is not a variant of the scenario.
    """
    chosen = variant_names(scenario) if names is None else [n for n in names if n != BASE]
    known = set(variant_names(scenario))
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise _unknown(scenario, unknown[0])
    result = {BASE: scenario}
    for name in dict.fromkeys(chosen):
        result[name] = variant_scenario(scenario, name)
    return result


# -- checking variants while a file is loaded -------------------------------------------------


def check_variants(source: Source, data: Mapping[str, Any], scenario: Scenario) -> list[Problem]:
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
            variant = _build(source, data, overrides)
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


def _build(source: Source, data: Mapping[str, Any], overrides: Mapping[str, Any]) -> Scenario:
    from sim.scenario.loader import build_scenario
    from sim.scenario.yamlsource import Source

    return build_scenario(Source(source.file, variant_data(data, overrides)))


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


def _entries(data: Mapping[str, Any]) -> Iterable[dict]:
    entries = data.get("variants") or []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("name"), str)]


def _unknown(scenario: Scenario, name: str) -> ScenarioError:
    known = ", ".join(variant_names(scenario)) or "the scenario has none"
    return ScenarioError(
        [
            Problem(
                scenario.file,
                ("variants",),
                None,
                f"no variant named {name!r}",
                f"one of its variants ({known})",
            )
        ]
    )
