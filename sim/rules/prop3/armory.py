"""Proposition Three's armory: the weapons and armor the text names, rated as it rates them.

``rules/combat-proposition-three.txt``, "(ANOTHER) COMBAT PROPOSAL": "Weapons and armors are
rated as poor, average, or excellent in use for (in the case of weapons) or defense against (in
the case of armor) attacks." The items below are the ones the text names, each with the passage
its ratings come from; where the text names an item without rating it in full, the rest is our
ruling, said in :attr:`~sim.rules.armory.Item.ruling` (and in docs/rules/prop3.md, "Armory").
A scenario names one (``weapon: club``, ``armor: chain mail``, ``missile: bow``) or starts from
one (``weapon: {base: greatsword, thrust: poor}``).
"""

from __future__ import annotations

from sim.rules.armory import Item

#: Melee weapons by name.
WEAPONS: dict[str, Item] = {
    "club": Item(
        {"bash": "excellent", "slash": "average", "thrust": "poor"},
        "A club, for example, is excellent for bashing (and earns you another wiggle point when "
        "used to bash!), average at slashing (no bonus or penalty), and poor at thrusting",
        "one-handed (Kronzer's \"one-handed club\" in the worked example)",
    ),
    "flail": Item(
        {"bash": "excellent", "slash": "excellent", "thrust": "poor"},
        "The flail, for example, is excellent for both bashing (a heavy overhead swing) and "
        "slashing (a wide sweep of the chain), but poor at thrusting",
        "one-handed; thrusting poor rather than impossible (\"may not even be an option\")",
    ),
    "greatsword": Item(
        {"bash": "average", "slash": "excellent", "thrust": "average", "two_handed": True},
        "Polearms, greatswords, flails, and other such well-crafted weapons that require intense "
        "training often are excellent for one attack form and average for the other two",
        "excellent at slashing (the text does not say which form); a two-hander",
    ),
    "polearm": Item(
        {"bash": "average", "slash": "average", "thrust": "excellent", "two_handed": True},
        "Kronzer declares that he'll dodge her specialized polearm, which is an excellent "
        "defense against the thrust he assumes is coming ... bash with the polearm's mallet ... "
        "It is an average attack for this particular type of polearm.",
        "excellent at thrusting (the thrust Kronzer fears), average at slashing; a two-hander",
    ),
    "knife": Item(
        {"bash": "poor", "slash": "average", "thrust": "excellent"},
        "Weapons are usually poor at one attack, average at one attack, and excellent at "
        "another ... Clubs, knives, and shortspears are these kinds of fare.",
        "which form is which: excellent at thrusting, average at slashing, poor at bashing",
    ),
    "shortspear": Item(
        {"bash": "poor", "slash": "average", "thrust": "excellent"},
        "Weapons are usually poor at one attack, average at one attack, and excellent at "
        "another ... Clubs, knives, and shortspears are these kinds of fare.",
        "which form is which: excellent at thrusting, average at slashing, poor at bashing",
    ),
}

#: Armor by name.
ARMORS: dict[str, Item] = {
    "chain mail": Item(
        {"bash": "poor", "slash": "average", "thrust": "excellent"},
        "chain mail is poor against bashes, average against slashes, and excellent against "
        "thrusts",
        "not heavy (the text names no armor that forbids dodging)",
    ),
    "beetle-shell armor": Item(
        {"bash": "average", "slash": "excellent", "thrust": "poor"},
        "Beetle-shell armor is poor against thrusts, average against bashes, and excellent "
        "against slashes.",
        "not heavy",
    ),
    "full plate": Item(
        {"bash": "excellent", "slash": "excellent", "thrust": "average", "heavy": True},
        "Rare, expensive, and difficult to use full plate is average against thrusts and "
        "excellent against slashes and bashes.",
        "heavy (\"difficult to use\": no dodging, \"Dodges require lighter armors\")",
    ),
    "leather armor": Item(
        {"bash": "poor", "slash": "average", "thrust": "average"},
        "Her leather armor is poor against bashes, so it will harm her chances of absorbing the "
        "blow.",
        "average against slashes and thrusts (the text rates only the bash); not heavy",
    ),
}

#: Missile weapons by name.
MISSILES: dict[str, Item] = {
    "bow": Item(
        {"skill": "archery", "range": 5.0, "max_range": 25.0, "ammunition": "arrow"},
        "So, if a bow has a range of 5 feet, the archer loses a die from 6 to 10 feet, two dice "
        "from 11 to 15 feet, etc. Each ranged weapon has a maximum range. The bow, for example, "
        "can fire a maximum of 25 feet.",
    ),
}
