"""The seven movements: Advance, Charge, Flee, Hold, Maneuver, Stand, Withdraw.

Target 10 text, "Movements", as RULINGS part B reads it. Positions are paces on a line; a
combatant moves towards or away from its opponent (its target), never past it:

- Advance: keeps its guard up and moves 3 paces towards its opponent (``advance_paces``),
  stopping once the opponent is within its melee reach.
- Charge: triple speed (``run_multiplier`` x ``speed``: 30 paces for humans) towards the opponent,
  stopping within reach; no DEX bonus to DEFENSE this round, double STR bonus on the attack.
- Flee: full speed (30 paces) away from the nearest enemy, back turned: attacks on it succeed
  automatically (``flee_auto_hit``: always, or only from attackers it acts after), and it still
  takes its declared action (``fleer_acts``); a fleer that gets away (option ``escape``) is out
  of the fight, ``fled``.
- Hold: no move, unless pushed by a maneuvering opponent.
- Maneuver: no move of its own; a successful attack this round deals no damage but moves the
  opponent 3 paces (``maneuver_paces``) the way the attacker likes (``tactics.push``); a Trip,
  Grapple or Disarm still has its effect (``maneuver_keeps_action``).
- Stand: gets up off the ground; fails while being attacked (option ``stand_blocked_by``).
- Withdraw: keeps its guard up and moves 3 paces back (``withdraw_paces``); it may still attack,
  but only an opponent who is advancing (option ``withdraw_attacks``), and it strikes before
  stepping back (a fighting retreat).

Pinned and grounded combatants: the text gives only "a -1 penalty to attack and defend" and "a
-2 penalty to attack and defend" (Actions, Grapple and Trip), so by default they move like anyone
(RULINGS part B: ``held_cannot_move``, default false). A pin is broken only by "a grapple attack
of their own", so a pinned combatant that moves stays within its holder's reach
(:func:`tethered`). With ``held_cannot_move: true`` their other movements are held (a grounded
combatant may still stand).
"""

from __future__ import annotations

MOVEMENTS = ("advance", "charge", "flee", "hold", "maneuver", "stand", "withdraw")
ADVANCE, CHARGE, FLEE, HOLD, MANEUVER, STAND, WITHDRAW = range(len(MOVEMENTS))
#: Movements that change the mover's own position (held when pinned or on the ground).
TRAVEL = frozenset({ADVANCE, CHARGE, FLEE, WITHDRAW})


def approach(pos: float, target_pos: float, paces: float, reach: float) -> float:
    """Move up to ``paces`` towards ``target_pos``, stopping as soon as it is within ``reach``."""
    gap = target_pos - pos
    distance = abs(gap)
    if distance <= reach:
        return pos
    step = min(paces, distance - reach)
    return pos + step if gap > 0 else pos - step


def retreat(pos: float, from_pos: float, paces: float, home: int) -> float:
    """Move ``paces`` away from ``from_pos`` (towards ``home``, -1 or +1, when on the same spot)."""
    if pos > from_pos:
        return pos + paces
    if pos < from_pos:
        return pos - paces
    return pos + home * paces


def push(target_pos: float, attacker_pos: float, paces: float, away: bool, home: int) -> float:
    """Where a maneuvering attacker's hit moves its opponent: ``paces`` away or towards it.

    Towards the attacker never goes past it; on the same spot, "away" is towards the target's
    own ``home`` side.
    """
    if away:
        return retreat(target_pos, attacker_pos, paces, home)
    return approach(target_pos, attacker_pos, paces, 0.0)


def tethered(pos: float, holder_pos: float, reach: float) -> float:
    """Where a pinned combatant that moved to ``pos`` ends: never beyond its holder's reach."""
    if pos > holder_pos + reach:
        return holder_pos + reach
    if pos < holder_pos - reach:
        return holder_pos - reach
    return pos
