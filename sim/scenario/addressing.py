"""One way to name a place in a scenario, in errors and in overrides alike.

A problem says where it is, and an override (``--set``, a variant's ``set:``, a sweep's
``path:``) says where to write: both use the same address, so that what an error prints can be
pasted into an override. A list item is named by its ``name`` when it has a plain, unique one,
and by its index otherwise::

    sides.knights.combatants.knight.hp      # side "knights", combatant "knight"
    sides.knights.combatants[1].hp          # the second combatant, which has no usable name
    sweep.parameters[0].values[2]           # sweep parameters have no names

Overrides also accept the older form with a bare index step (``sides.0.combatants.1.hp``): a
step into a list picks the item of that name, else the item at that index.
"""

from __future__ import annotations

import re
from typing import Any

#: One dotted step with its ``[index]`` suffixes: ``combatants[1]`` -> ``combatants``, ``[1]``.
_STEP = re.compile(r"^(?P<key>[^\[\]]*)(?P<indices>(?:\[\d+\])*)$")
_INDEX = re.compile(r"\[(\d+)\]")


def split_path(path: str) -> list[str | int]:
    """``"sides.red.combatants[1].hp"`` -> ``["sides", "red", "combatants", 1, "hp"]``.

    A bracketed index is an ``int`` step (an index, never a name); every other step is the text
    between dots (a key, or a list item's name or index).

    Raises:
        ValueError: the path is not text, is empty, has an empty step, or a misplaced bracket.
    """
    example = "like options.duplicates or sides.red.combatants[0].hp"
    if not isinstance(path, str):
        raise ValueError(f"{path!r} is not a dotted path {example}")
    if not path:
        raise ValueError(f"an empty path is not a dotted path {example}")
    steps: list[str | int] = []
    for part in path.split("."):
        match = _STEP.match(part)
        if match is None or not (match["key"] or match["indices"]):
            raise ValueError(f"{path!r} is not a dotted path {example}")
        if match["key"]:
            steps.append(match["key"])
        steps.extend(int(i) for i in _INDEX.findall(match["indices"]))
    return steps


def plain_name(name: Any) -> bool:
    """Whether a list item's name can stand in a dotted path for the item."""
    return (
        isinstance(name, str)
        and bool(name.strip())
        and name == name.strip()
        and not name.isdigit()
        and not any(c in name for c in ".[]")
    )


def address(data: Any, path: tuple) -> tuple:
    """A YAML path (list items by index) with each named list item given by its name.

    The item at ``sides[0]`` becomes ``knights`` when that is its ``name`` and no other item of
    the list has it; an item without a plain, unique name keeps its index. Steps past what
    ``data`` holds are kept as they are.
    """
    out: list = []
    node = data
    for step in path:
        if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            item = node[step]
            name = item.get("name") if isinstance(item, dict) else None
            unique = sum(isinstance(o, dict) and o.get("name") == name for o in node) == 1
            out.append(name if plain_name(name) and unique else step)
            node = item
        else:
            out.append(step)
            node = node.get(step) if isinstance(node, dict) else None
    return tuple(out)
