"""The seven movements: Advance, Charge, Flee, Hold, Maneuver, Stand, Withdraw.

Target 10 text, "Movements", as RULINGS part B reads it. Positions are paces on the engine's
line (:mod:`sim.engine.space`, which does the geometry); a combatant moves towards or away from its
opponent (its target), never past it:

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
(:func:`sim.engine.space.tethered`). With ``held_cannot_move: true`` their other movements are
held (a grounded combatant may still stand).
"""

from __future__ import annotations

MOVEMENTS = ("advance", "charge", "flee", "hold", "maneuver", "stand", "withdraw")
ADVANCE, CHARGE, FLEE, HOLD, MANEUVER, STAND, WITHDRAW = range(len(MOVEMENTS))
#: Movements that change the mover's own position (held when pinned or on the ground).
TRAVEL = frozenset({ADVANCE, CHARGE, FLEE, WITHDRAW})


def run_paces(speed: float, multiplier: float) -> float:
    """Paces of a Charge or a Flight in one round: "triple their normal speed" (``run_multiplier``).

    The round (:mod:`~sim.rules.target10.moving`) and the ACS hybrid both measure runs here.
    """
    return speed * multiplier
