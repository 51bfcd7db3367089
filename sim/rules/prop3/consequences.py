"""What a critical defense or a fumble does, as data: one value the fight applies.

The tables of ``rules/combat-proposition-three.txt``, "CRITICAL HITS, DODGES, AND FAILURES"
(:mod:`~sim.rules.prop3.criticals`, :mod:`~sim.rules.prop3.fumbles`), say what each face or form
does as one of these values, naming the combatants by their part in the attack
(:data:`ATTACKER`, :data:`DEFENDER`). The fight applies a value to the combatants
(``Fight.apply``); the exact duel (:mod:`sim.exact.prop3`) reads the same values, so each table
is written once.
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

ATTACKER, DEFENDER = 0, 1
"""The parts in an attack (the fumbler is the attacker, the critical defender the defender)."""


class Mark(NamedTuple):
    """An effect until the owner's next action (``Fight.mark``).

    Attributes:
        owner: whose next action ends it (a part).
        victim: who suffers it (a part).
        exposed: wiggle points everyone attacking the victim gets.
        shaken: dice the victim loses on every defense.
        after: it ends when the owner's next action is over, not when it starts.
    """

    owner: int
    victim: int
    exposed: int = 0
    shaken: int = 0
    after: bool = False


class Counter(NamedTuple):
    """An immediate free counter-attack by ``by`` on the other part (``automatic``: it hits)."""

    by: int
    automatic: bool


class Harm(NamedTuple):
    """Nicks and wounds on ``victim``'s damage track, dealt by nobody (a fumbler's own blow)."""

    victim: int
    nicks: int
    wounds: int = 0


class Drop(NamedTuple):
    """The attacker drops its weapon: its missile weapon (``missile``) or its melee weapon."""

    missile: bool


#: What a critical defense or a fumble does (None: nothing, just a miss).
Consequence: TypeAlias = "Mark | Counter | Harm | Drop | None"
