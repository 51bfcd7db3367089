"""Starter scenarios for a new file: ``combatsim new``'s, one per rule system and per hybrid.

The page opens a starter as ``starter:RULES`` (read-only, as a bundled scenario is) and the
designer saves it under a name of their own. The text is :func:`sim.scenario.starters.starter`'s,
the one ``combatsim new RULES`` writes, so the two never differ.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.scenario.starters import STARTERS

#: How a starter is named in the page (it is no file).
STARTER_PREFIX = "starter:"

#: The rules of each starter as the page shows them, by the name ``combatsim new`` takes.
LABELS = {
    "acs": "ACS (The Ambition Combat System)",
    "target10": "Target 10",
    "prop3": "Combat Proposition Three",
    "target10-on-acs": "Target 10 attacks on the ACS clock",
    "prop3-on-acs": "Proposition Three attacks on the ACS clock",
}


@dataclass(frozen=True)
class Starter:
    """A starter: what the page calls it and the name it opens (``starter:RULES``)."""

    label: str
    path: str


def starters() -> list[Starter]:
    """Every starter of ``combatsim new``, in its order."""
    return [Starter(LABELS.get(rules, rules), STARTER_PREFIX + rules) for rules in STARTERS]
