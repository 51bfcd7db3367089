"""Counter-attacks of Combat Proposition Three: free attacks after a fumble or a critical parry.

``rules/combat-proposition-three.txt``, "CRITICAL HITS, DODGES, AND FAILURES": a fumble's 3 is
"your opponent receives an immediate counter-attack (if your opponent was parrying in the first
place, she automatically hits)", and a critical parry means "you automatically hit with your
counter-attack. You may roll normally to see if you can critically hit". RULINGS part C: a
counter-attack is a free attack, not an action.

In melee range the counter-attacker strikes with its weapon in hand; further away only with a
missile weapon in hand, with a shot left, within the distance it would shoot from (its maximum
range, and ``min_shot_dice``); otherwise there is no counter-attack.

This module sits above :mod:`~sim.rules.prop3.melee` and :mod:`~sim.rules.prop3.missiles`, whose
outcomes (fumbles, critical parries) call back into the fight: the round process and the hybrid
hand :func:`counter_attack` to their :class:`~sim.rules.prop3.fight.Fight`, so no module of the
attack imports one above it.
"""

from __future__ import annotations

from sim.rules.prop3.character import F
from sim.rules.prop3.fight import Fight
from sim.rules.prop3.melee import auto_hit, melee_attack
from sim.rules.prop3.missiles import missile_attack, missile_auto_hit, shot_reach


def counter_attack(fight: Fight[F], fighter: F, target: F, automatic: bool) -> None:
    """``fighter``'s immediate free counter-attack on ``target``.

    Args:
        fight: the fight.
        fighter: who counter-attacks.
        target: the fumbler, or the attacker whose attack was critically parried.
        automatic: it hits, and is rolled only to see whether it is critical.
    """
    if fighter.out is not None or target.out is not None or fight.combat.end_reason:
        return
    mode = counter_mode(fight, fighter, target)
    if fight.tracing:
        fight.combat.emit("counter", fighter, target, mode=mode, automatic=automatic)
    if mode is None:
        return
    fighter.attacks += 1
    if mode == MELEE:
        if automatic:
            auto_hit(fight, fighter, target)
        else:
            melee_attack(fight, fighter, target)
    elif automatic:
        missile_auto_hit(fight, fighter, target)
    else:
        missile_attack(fight, fighter, target)


MELEE, MISSILE = "melee", "missile"
"""How a counter-attack strikes."""


def counter_mode(fight: Fight[F], fighter: F, target: F) -> str | None:
    """How ``fighter``, in the fight, can counter-attack ``target``: :data:`MELEE`, :data:`MISSILE`.

    None: it cannot reach ``target`` (not with a weapon in hand in melee range, nor with a missile
    weapon within its reach).
    """
    body = fighter.state
    distance = fight.distance(fighter, target)
    missile = body.profile.missile
    if distance <= fight.rules.melee_range and body.armed:
        return MELEE
    if (
        missile is not None
        and (reach := shot_reach(fighter, target)) is not None
        and (distance <= reach)
    ):
        return MISSILE
    return None
