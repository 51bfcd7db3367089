"""The seven actions: Defend, Disarm, Grapple, Kill, Negotiate, Subdue, Trip.

Target 10 text, "Actions", as RULINGS part B reads it:

- Defend: DEFENSE + the DEX bonus or +1, whichever is higher, for the whole round.
- Disarm: a combat test with SHOOT (the RAV) instead of FIGHT (option ``disarm_value``); no
  damage; the target's weapon lands 1d6 paces away (``disarm_paces``) on a random side, and the
  target fights without its weapon bonus, and cannot shoot, until it recovers it.
- Grapple: no damage; the target is pinned: -1 to attack and defend (``pin_penalty``), stays
  within its holder's reach (or cannot move at all with ``held_cannot_move``), and must grapple
  its holder to break free (a pinned grappler always grapples its holder).
- Kill: normal damage; hit points below 0 kill. Exactly 0 leaves the target unconscious (option
  ``zero_hp``), as Subdue's 0 does.
- Negotiate: venturers only. A successful skill test (TV: skill + CHA modifier against the best
  opposing CHA-based TV) keeps the opponents from attacking (option ``negotiate_hold``), unless
  the negotiator has been attacked (this round before it speaks, or while the hold lasts).
- Subdue: normal damage, but never below 0 hit points; at 0 the target is unconscious for 1d6
  rounds (``unconscious_rounds``).
- Trip: no damage; the target is on the ground: -2 to attack and defend (``ground_penalty``)
  until it stands.

Three more words, in the spirit of "Other actions are certainly possible": ``none`` (no action),
``recover`` (a disarmed combatant goes to its weapon, up to its speed, and picks it up) and
``reload`` (a round spent reloading a firearm, option ``firearm_reload``).

Damage (text, "Damage"): 1d6 + STR modifier (melee) or + DEX modifier (ranged), never below 1
(:func:`~sim.rules.target10.combat_rolls.damage_amount`).
"""

from __future__ import annotations

ACTIONS = ("defend", "disarm", "grapple", "kill", "negotiate", "subdue", "trip")
DEFEND, DISARM, GRAPPLE, KILL, NEGOTIATE, SUBDUE, TRIP = range(len(ACTIONS))
#: Extra action words: no action, picking up a lost weapon, reloading a firearm.
EXTRA_ACTIONS = ("none", "recover", "reload")
NONE, RECOVER, RELOAD = len(ACTIONS), len(ACTIONS) + 1, len(ACTIONS) + 2
ACTION_WORDS = ACTIONS + EXTRA_ACTIONS
#: Actions that make a combat test against an opponent.
ATTACKS = frozenset({DISARM, GRAPPLE, KILL, SUBDUE, TRIP})
#: Attacks that roll damage.
DAMAGING = frozenset({KILL, SUBDUE})
#: What a pinned grappler's successful Grapple on its holder does: the pin is broken.
BREAK = 101

#: How a combatant leaves the fight, as the rules say (``Fighter.out``).
DEAD, UNCONSCIOUS, FLED = "dead", "unconscious", "fled"


def defend_bonus(dexterity_mod: int, minimum: int = 1) -> int:
    """What Defend adds to DEFENSE: the DEX bonus or ``minimum``, whichever is higher."""
    return dexterity_mod if dexterity_mod > minimum else minimum


def subdue_dealt(amount: int, left: int) -> int:
    """What a Subdue of ``amount`` deals to a combatant with ``left`` hit points: it stops at 0."""
    return amount if amount < left else (left if left > 0 else 0)


def take_damage(
    hp: int, kill: int, subdue: int, zero_hp: str = "unconscious"
) -> tuple[int, str | None]:
    """Hit points after Kill damage ``kill`` and Subdue damage ``subdue`` land together.

    Kill damage lands first and may go below 0; Subdue damage then stops at 0 (a combatant
    already at 0 or below takes none). Returns the new hit points and how the combatant leaves
    the fight (``dead`` below 0, ``unconscious`` at 0; with ``zero_hp: dead`` a Kill that leaves
    exactly 0 kills), or None while it stays in.
    """
    if kill <= 0 and subdue <= 0:
        return hp, None
    after = hp - kill
    if after > 0 and subdue > 0:
        after = after - subdue if after > subdue else 0
    if after < 0:
        return after, DEAD
    if after == 0:
        if kill > 0 and subdue <= 0 and zero_hp == "dead":
            return after, DEAD
        return after, UNCONSCIOUS
    return after, None
