"""Target 10's armory: the weapons its text names with their bonus.

``rules/target-10.txt``, "Combat": "Captain Cole ... is fighting using a Saber (+2). Francois ...
is fighting using a Knife (+1)", and "Damage is rolled with 1d6". The text names pistols,
muskets and bows too, but gives them no bonus or range, so they are not here: a scenario writes
their stat block (``ranged: {name: pistol, bonus: 1, range: 30}``). A scenario names an item
(``weapon: saber``) or starts from one (``weapon: {base: saber, reach: 2}``).
"""

from __future__ import annotations

from sim.rules.armory import Item

#: Melee weapons by name.
WEAPONS: dict[str, Item] = {
    "saber": Item(
        {"bonus": 2, "damage": "1d6"},
        "he is fighting using a Saber (+2) ... Damage is rolled with 1d6",
    ),
    "knife": Item(
        {"bonus": 1, "damage": "1d6"},
        "he is fighting using a Knife (+1) ... Damage is rolled with 1d6",
    ),
}
