"""Why the exact engine does not answer a scenario (it is sampled instead, or refused)."""

from __future__ import annotations

from collections.abc import Iterable


class NotExact(ValueError):
    """A scenario whose fight is not one of the chains of :mod:`sim.exact` (the reason says why)."""


def require_duel(sides: Iterable[int], chain: str) -> None:
    """Refuse a roster (its combatants' sides) that is not one combatant on each of two sides.

    Raises:
        NotExact: naming the ``chain`` that plays duels only.
    """
    sides = list(sides)
    if len(sides) != 2 or set(sides) != {0, 1}:
        raise NotExact(f"the {chain} chain plays a duel: one combatant on each of two sides")
