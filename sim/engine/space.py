"""The battlefield: one line on which every combatant has a position.

Position belongs to the engine, not to one rule system:
:class:`~sim.engine.combatant.Fighter` carries ``pos``, and every rule system (Target 10's
paces, Proposition Three's feet, the ACS clock with any resolution) measures, approaches and
retreats with the pure functions here. A rule system says what its unit is (``paces``,
``feet``) and how far a movement goes; this module only knows a line.

- :func:`approach` moves towards a point and stops as soon as it is within reach of it, never
  past it;
- :func:`retreat` moves away from a point (on the same spot, towards the mover's ``home`` side);
- :func:`push` moves someone else, away or towards the pusher;
- :func:`tethered` keeps a held combatant within its holder's reach;
- :func:`nearest` finds the closest able enemy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from sim.engine.combatant import Fighter

F = TypeVar("F", bound=Fighter)


#: Decimals a distance is measured to. Positions are sums of fractional steps (5 feet a round
#: over 12 actions: 5/12 foot each), and their floating-point rounding must never cost an action
#: or a range increment: 10.000000001 feet is 10 feet.
DECIMALS = 6


def distance(a: Fighter, b: Fighter) -> float:
    """How far apart two combatants stand on the line (to a millionth of the unit)."""
    return round(abs(a.pos - b.pos), DECIMALS)


def approach(pos: float, target_pos: float, step: float, reach: float) -> float:
    """Move up to ``step`` towards ``target_pos``, stopping as soon as it is within ``reach``."""
    gap = target_pos - pos
    apart = abs(gap)
    if apart <= reach:
        return pos
    moved = min(step, apart - reach)
    return pos + moved if gap > 0 else pos - moved


def retreat(pos: float, from_pos: float, step: float, home: int) -> float:
    """Move ``step`` away from ``from_pos`` (towards ``home``, -1 or +1, when on the same spot)."""
    if pos > from_pos:
        return pos + step
    if pos < from_pos:
        return pos - step
    return pos + home * step


def push(target_pos: float, attacker_pos: float, step: float, away: bool, home: int) -> float:
    """Where a push moves its target: ``step`` away from the pusher, or towards it.

    Towards the pusher never goes past it; on the same spot, "away" is towards the target's
    own ``home`` side.
    """
    if away:
        return retreat(target_pos, attacker_pos, step, home)
    return approach(target_pos, attacker_pos, step, 0.0)


def tethered(pos: float, holder_pos: float, reach: float) -> float:
    """Where a held combatant that moved to ``pos`` ends: never beyond its holder's reach."""
    if pos > holder_pos + reach:
        return holder_pos + reach
    if pos < holder_pos - reach:
        return holder_pos - reach
    return pos


def nearest(me: Fighter, fighters: Iterable[F]) -> F | None:
    """The able enemy of ``me`` closest to it (the first listed on a tie)."""
    side = me.side
    here = me.pos
    best = None
    gap = 0.0
    for e in fighters:
        if e.out is None and e.side != side:
            d = abs(e.pos - here)
            if best is None or d < gap:
                best, gap = e, d
    return best


def home_side(side: int) -> int:
    """Which way a combatant of ``side`` backs off when it shares a spot with its foe.

    The first side (starting at the lowest position) backs towards -1, the others towards +1.
    """
    return -1 if side == 0 else 1
