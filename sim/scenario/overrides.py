"""Setting values in a scenario by path, before it is validated.

Sweeps, variants and the command line change a scenario by naming a value with a dotted path:
``options.duplicates``, ``templates.goblin.hp``, ``sides.monsters.combatants.goblin.count``,
``seed``. A path step into a list picks the item whose ``name`` is that step, or the item at that
index (``sides.0.combatants.1.hp``); a bracketed index is always an index
(``sides.red.combatants[1].hp``), which is how errors print an item without a usable name (see
:mod:`sim.scenario.addressing`). The value is then validated with the rest of the file, so a bad
override gets the same clear error as a bad file.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from sim.rules.wording import counted
from sim.scenario.addressing import split_path
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.yamlsource import Source

__all__ = ["apply_overrides", "get_value", "resolve_path", "split_path"]


def resolve_path(data: Any, path: str, create: bool = False) -> tuple[Any, Any]:
    """The container holding ``path``'s last step, and that step as a key or index.

    Args:
        data: the scenario's data.
        path: a dotted path.
        create: add an empty mapping for a missing mapping key on the way (so that
            ``options.duplicates`` can be set in a file without ``options:``); the result is
            validated like any scenario, so a misspelt key is still reported.

    Raises:
        KeyError: with a sentence, when a step does not exist.
    """
    steps = split_path(path)
    node = data
    walked: list[str | int] = []
    for step in steps[:-1]:
        if create and isinstance(node, dict) and isinstance(step, str) and node.get(step) is None:
            node[step] = {}
        node = _step(node, step, walked)
        walked.append(step)
    last = steps[-1]
    if isinstance(node, list):
        return node, _index(node, last, walked)
    if isinstance(node, dict):
        return node, _key(node, last)
    raise KeyError(f"{_shown(walked) or 'the top level'} is not a mapping or a list")


def get_value(data: Any, path: str) -> Any:
    """The value at ``path`` (raises KeyError when absent)."""
    container, key = resolve_path(data, path)
    if isinstance(container, dict) and key not in container:
        raise KeyError(f"{path} is not set in the scenario")
    return container[key]


def apply_overrides(data: Any, overrides: Mapping[str, Any], source: Source | None = None) -> Any:
    """A deep copy of ``data`` with each ``path: value`` of ``overrides`` set.

    Missing mapping keys on the way and a missing last key are added (so an option left at its
    default can be set in a file that has no ``options:``).

    Raises:
        ScenarioError: naming the override that does not fit the scenario.
    """
    result = copy.deepcopy(data)
    problems = []
    file = source.file if source else "<overrides>"
    for path, value in overrides.items():
        try:
            container, key = resolve_path(result, path, create=True)
            container[key] = copy.deepcopy(value)
        except (KeyError, ValueError, IndexError) as exc:
            message = exc.args[0] if exc.args else str(exc)
            problems.append(
                Problem(
                    file,
                    ("override", path),
                    None,
                    str(message),
                    "a path to a value of the scenario",
                )
            )
    if problems:
        raise ScenarioError(problems)
    return result


def _shown(walked: list[str | int]) -> str:
    return ".".join(f"[{s}]" if isinstance(s, int) else s for s in walked).replace(".[", "[")


def _key(node: dict, step: str | int) -> Any:
    """A mapping's key for ``step``: an index step ``[1]`` names the key ``1`` or ``"1"``."""
    if isinstance(step, int) and step not in node and str(step) in node:
        return str(step)
    return step


def _step(node: Any, step: str | int, walked: list[str | int]) -> Any:
    if isinstance(node, dict):
        key = _key(node, step)
        if key not in node:
            where = _shown(walked) or "the top level"
            raise KeyError(f"no key {str(step)!r} under {where}")
        return node[key]
    if isinstance(node, list):
        return node[_index(node, step, walked)]
    raise KeyError(f"{_shown(walked)} is a value, not a mapping or a list")


def _index(node: list, step: str | int, walked: list[str | int]) -> int:
    """The item a step picks: by index for ``[i]``, else by name, else by a bare index."""
    if isinstance(step, int):
        if step < len(node):
            return step
        raise KeyError(f"no item [{step}] under {_shown(walked)} ({counted(len(node), 'item')})")
    for i, item in enumerate(node):
        if isinstance(item, dict) and item.get("name") == step:
            return i
    if step.isdigit() and int(step) < len(node):
        return int(step)
    names = [str(item.get("name")) for item in node if isinstance(item, dict)]
    raise KeyError(
        f"no item named {step!r} under {_shown(walked)} (names: {', '.join(names) or 'none'})"
    )
