"""Critical failures of an attack: the fumble d6 of Combat Proposition Three.

``rules/combat-proposition-three.txt``, "CRITICAL HITS, DODGES, AND FAILURES": an attack with no
matching numbers is a critical failure, and a d6 says what happens (RULINGS part C, "Resolving an
attack", for the durations):

1. weapon dropped: re-rolled if the attacker fights unarmed (natural weapons) or has the weapon
   secured; otherwise it is weaponless (no parrying or blocking with it, no attack) until its next
   action, which is spent picking the weapon up or drawing another;
2. struck yourself: the fumbler takes a nick (``hit_nicks``);
3. the opponent gets an immediate counter-attack (a free attack, not an action), which hits
   automatically if the opponent was parrying (rolled only to see whether it is critical);
4. stumble: everyone attacking the fumbler gets 2 wiggle points until the fumbler's next action
   starts;
5. fall down: the fumbler loses one die on all its defense rolls until its next action starts;
6. just a miss.

With ``fumbles: false`` a critical failure is always a plain miss. A fumbled missile drops the
missile weapon (re-rolled if it is ``secured``); its counter-attack needs the opponent to reach
the fumbler (melee range, or a missile weapon of its own in range).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from sim.engine.distribution import Distribution
from sim.rules.prop3.character import F, Profile
from sim.rules.prop3.consequences import ATTACKER, DEFENDER, Consequence, Counter, Drop, Harm, Mark

if TYPE_CHECKING:
    from sim.engine.dice import Dice
    from sim.rules.prop3.fight import Fight

WEAPON_DROPPED, STRUCK_SELF, COUNTER_ATTACK, STUMBLE, FALL, JUST_MISS = range(1, 7)
"""The faces of the fumble d6."""

FUMBLES = {
    WEAPON_DROPPED: "weapon dropped",
    STRUCK_SELF: "struck yourself",
    COUNTER_ATTACK: "counter-attack",
    STUMBLE: "stumble",
    FALL: "fall down",
    JUST_MISS: "just a miss",
}
"""What each face of the fumble d6 does."""

STUMBLE_WIGGLE = 2
"""Wiggle points everyone attacking a stumbling fumbler gets (the text: 2)."""

FALL_DICE = 1
"""Defense dice a fallen fumbler loses (the text: one)."""


def can_drop(profile: Profile, missile: bool) -> bool:
    """Whether a fumble can drop the weapon of the attack (not one secured, nor natural)."""
    bow = profile.missile if missile else None
    return not (bow.secured if bow is not None else profile.secured)


@lru_cache(maxsize=2)
def fumble_faces(can_drop: bool) -> tuple[int, ...]:
    """The faces a fumble can come to: a 1 counts only when the weapon can be dropped."""
    return tuple(face for face in FUMBLES if can_drop or face != WEAPON_DROPPED)


def roll_fumble(dice: Dice, can_drop: bool) -> int:
    """Roll the fumble d6; a face that does not count (:func:`fumble_faces`) is re-rolled."""
    faces = fumble_faces(can_drop)
    face = dice.roll(6)
    while face not in faces:
        face = dice.roll(6)
    return face


def fumble_law(can_drop: bool) -> Distribution[int]:
    """The exact law of :func:`roll_fumble`: each face that counts equally likely."""
    return Distribution.uniform(fumble_faces(can_drop))


@lru_cache(maxsize=256)
def fumble_effect(face: int, parrying: bool, missile: bool, hit_nicks: int) -> Consequence:
    """What the fumble d6's ``face`` does to the fumbler (the attacker) and its opponent.

    Args:
        face: the fumble d6.
        parrying: the opponent had declared a parry against the fumbled attack.
        missile: the fumbled attack was a missile attack.
        hit_nicks: nicks a standard hit deals (the fumbler strikes itself so).
    """
    if face == WEAPON_DROPPED:
        return Drop(missile)
    if face == STRUCK_SELF:
        return Harm(ATTACKER, hit_nicks)
    if face == COUNTER_ATTACK:
        return Counter(DEFENDER, parrying)
    if face == STUMBLE:
        return Mark(ATTACKER, ATTACKER, exposed=STUMBLE_WIGGLE)
    if face == FALL:
        return Mark(ATTACKER, ATTACKER, shaken=FALL_DICE)
    return None


def fumble(fight: Fight[F], attacker: F, opponent: F, parrying: bool, missile: bool) -> None:
    """Roll and apply the fumble table to ``attacker``, whose attack on ``opponent`` failed.

    Args:
        fight: the fight (see :class:`~sim.rules.prop3.fight.Fight`).
        attacker: the fumbler.
        opponent: the target of the fumbled attack.
        parrying: the opponent had declared a parry against it.
        missile: the fumbled attack was a missile attack.
    """
    if not fight.rules.fumbles:
        if fight.tracing:
            fight.combat.emit("fumble", attacker, opponent, face=0, effect="just a miss")
        return
    face = roll_fumble(fight.dice, can_drop(attacker.state.profile, missile))
    if fight.tracing:
        fight.combat.emit("fumble", attacker, opponent, face=face, effect=FUMBLES[face])
    fight.apply(fumble_effect(face, parrying, missile, fight.rules.hit_nicks), attacker, opponent)
