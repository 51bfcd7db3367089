"""Named gear a scenario can take from a rule system's armory: ``weapon: greatsword``.

A rule text names weapons and armor and rates some of them (Proposition Three's club is
"excellent for bashing ..., average at slashing ..., and poor at thrusting"; Target 10's Captain
Cole fights "using a Saber (+2)"). Each rule system keeps its own armory
(:mod:`sim.rules.prop3.armory`, :mod:`sim.rules.target10.armory`): every item with the fields it
sets and the passage they come from, or the word "ruling" where the text names the item without
the number. A scenario names an item instead of writing its stat block, or starts from one and
changes some fields (``weapon: {base: greatsword, thrust: poor}``); :func:`from_armory` turns
either into the plain mapping the gear's model validates, and :func:`armory_schema` tells an
editor about both spellings.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The key that names the armory item a stat block starts from.
BASE = "base"


@dataclass(frozen=True)
class Item:
    """One named piece of gear: the fields it sets, and where they come from.

    Attributes:
        fields: the stat block (its model's keys).
        passage: the rule text's words for it, quoted.
        ruling: what the text leaves open and combatsim decided ("" when the text says it all).
    """

    fields: Mapping[str, Any]
    passage: str
    ruling: str = ""


def from_armory(value: Any, armory: Mapping[str, Item], what: str) -> Any:
    """The stat block a scenario's gear stands for (a ``mode="before"`` model validator).

    ``"greatsword"`` is the item; ``{base: greatsword, thrust: poor}`` is the item with the
    fields given changed; anything else is passed on unchanged for the model to validate.

    Raises:
        ValueError: a name the armory does not hold (with the closest one).
    """
    if isinstance(value, str):
        return {"name": value, **_item(value, armory, what).fields}
    if isinstance(value, Mapping) and BASE in value:
        base = value[BASE]
        item = _item(base, armory, what)
        rest = {k: v for k, v in value.items() if k != BASE}
        return {"name": base, **item.fields, **rest}
    return value


def _item(name: Any, armory: Mapping[str, Item], what: str) -> Item:
    if isinstance(name, str) and name in armory:
        return armory[name]
    close = difflib.get_close_matches(str(name).lower(), list(armory), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(
        f"a {what} of the armory ({', '.join(armory)}), or a mapping of its fields{hint}"
    )


def armory_schema(armory: Mapping[str, Item], what: str) -> Any:
    """A ``json_schema_extra`` for the gear's model: a name of the armory, or the mapping.

    The mapping may start from an item with ``base``. The model's own schema is the mapping's.
    """
    names = list(armory)

    def extend(schema: dict[str, Any]) -> None:
        mapping = dict(schema)
        base = {
            "type": "string",
            "enum": names,
            "description": f"Start from this {what} of the armory; the keys given change it.",
        }
        mapping["properties"] = {BASE: base, **mapping.get("properties", {})}
        named = {"type": "string", "enum": names, "description": f"A {what} of the armory."}
        schema.clear()
        schema["anyOf"] = [named, mapping]

    return extend
