"""The damage track of Combat Proposition Three: nicks, wounds, Vigor, out.

The text only says that a critical hit "deals wound" and that "if your Vigor ... fall[s] to zero,
there's a good chance that you'll die"; RULINGS part C ("Damage track") fills the gap: a standard
hit (or a critical cut to one) deals ``hit_nicks`` nick (1), ``nicks_per_wound`` nicks (2) make a
wound, a critical hit deals ``critical_wounds`` wound (1), each wound lowers Vigor by one, and at
Vigor 0 the combatant is out. A fighter's ``hp`` *is* its Vigor, so a lowered Vigor also shrinks
its Vigor pools, and at Vigor 2 and 1 the stat rules of ``pool`` (no criticals, only ones) apply.
"""

from __future__ import annotations


def track(nicks: int, new_nicks: int, new_wounds: int, nicks_per_wound: int) -> tuple[int, int]:
    """Add nicks and wounds to a track that holds ``nicks``.

    Returns:
        The nicks left over and the wounds dealt (each lowers Vigor by one).
    """
    if nicks_per_wound < 1:
        raise ValueError("a wound needs at least one nick")
    total = nicks + new_nicks
    return total % nicks_per_wound, new_wounds + total // nicks_per_wound


def out(vigor: int) -> bool:
    """Whether a combatant with this Vigor is out of the fight (Vigor 0 or less)."""
    return vigor <= 0
