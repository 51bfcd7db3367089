"""Combatants as the engine sees them: hit points, side, whether they can still fight, counters.

A :class:`Fighter` is one combatant inside one combat. It is a plain object with ``__slots__``
(no pydantic, no dicts) because it sits on the hot path. Each rule system subclasses it to add
the state its rules need (action segments for ACS, conditions for Target 10, ...). Its position
on the battlefield is the engine's (:mod:`sim.engine.space`), whatever the rule system.
The counters feed the outcome records; they are plain integers that the rules increment.
"""

from __future__ import annotations

from typing import Self

#: How a combatant left the fight. ``down``: at 0 hit points or below where the rules do not
#: say whether that is death (ACS); ``dead``, ``unconscious``, ``fled`` as the rules say.
OUT_REASONS = ("down", "dead", "unconscious", "fled")

#: Counter names, in record order. Each is an int slot on :class:`Fighter`.
COUNTERS = (
    "actions_taken",
    "actions_lost",
    "actions_moved",
    "actions_disrupted",
    "attacks",
    "hits",
    "criticals",
    "defenses",
    "defenses_won",
    "damage_dealt",
    "damage_taken",
)


class Fighter:
    """One combatant in one combat.

    Args:
        name: unique within the scenario (``"goblin 3"``).
        side: index of its side.
        index: index among all combatants of the scenario (its creation order; used for stable
            data layout only, never to order actions).
        hp: starting hit points.
    """

    __slots__ = (
        "actions_disrupted",
        "actions_lost",
        "actions_moved",
        "actions_taken",
        "attacks",
        "criticals",
        "damage_dealt",
        "damage_taken",
        "defenses",
        "defenses_won",
        "hits",
        "hp",
        "index",
        "max_hp",
        "name",
        "out",
        "out_at",
        "pos",
        "side",
        "target",
    )

    def __init__(self, name: str, side: int, index: int, hp: int) -> None:
        self.name = name
        self.side = side
        self.index = index
        self.hp = hp
        self.max_hp = hp
        self.out: str | None = None
        self.out_at: float | None = None
        #: Where it stands on the battlefield's line (:mod:`sim.engine.space`), in its rules' unit.
        self.pos = 0.0
        # Whom it attacks: a fighter of the same rule system (its own class), or nobody.
        self.target: Self | None = None
        self.actions_taken = 0
        self.actions_lost = 0
        self.actions_moved = 0
        self.actions_disrupted = 0
        self.attacks = 0
        self.hits = 0
        self.criticals = 0
        self.defenses = 0
        self.defenses_won = 0
        self.damage_dealt = 0
        self.damage_taken = 0

    @property
    def able(self) -> bool:
        """Still in the fight."""
        return self.out is None

    def __repr__(self) -> str:
        state = f"out:{self.out}" if self.out else f"hp={self.hp}"
        return f"<{type(self).__name__} {self.name} side={self.side} {state}>"
