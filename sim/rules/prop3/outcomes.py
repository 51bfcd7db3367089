"""What the outcome of a Proposition Three attack does: damage, a critical defense, a fumble.

``rules/combat-proposition-three.txt``, "(ANOTHER) COMBAT PROPOSAL" and "CRITICAL HITS, DODGES,
AND FAILURES", as RULINGS part C ("Resolving an attack", "Damage track", "Many opponents") reads
them: a hit deals ``hit_nicks`` nicks and a critical hit ``critical_wounds`` wounds
(:mod:`~sim.rules.prop3.damage`); a critical defense has its effect
(:mod:`~sim.rules.prop3.criticals`); a fumble rolls the d6 (:mod:`~sim.rules.prop3.fumbles`); a
melee hit counts for the attacker's allies in the cluster, a missile that strikes ends the focused
fire of the target's side (:mod:`~sim.rules.prop3.cluster`). Melee and missiles settle alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.rules.prop3.character import DODGE, PARRY, F
from sim.rules.prop3.criticals import critical_defense
from sim.rules.prop3.fumbles import fumble
from sim.rules.prop3.pool import CRITICAL_DEFENSE, CRITICAL_HIT, DEFENDED, FUMBLE

if TYPE_CHECKING:
    from sim.rules.prop3.exchange import ExchangeOutcome
    from sim.rules.prop3.fight import Fight

_PARRY = PARRY - DODGE
"""The parry's defense form index."""


def settle(
    fight: Fight[F],
    attacker: F,
    defender: F,
    exchange: ExchangeOutcome,
    defense: int | None,
    *,
    missile: bool,
) -> None:
    """Apply an attack's outcome.

    Args:
        fight: the fight.
        attacker: who attacked.
        defender: its target.
        exchange: the exchange (its outcome, and the nicks and wounds it deals).
        defense: the defender's defense form index (None: it had none).
        missile: the attack was a missile attack.
    """
    rules = fight.rules
    outcome = exchange.outcome
    if outcome == FUMBLE:
        fumble(fight, attacker, defender, defense == _PARRY, missile)
    elif outcome == DEFENDED:
        defender.defenses_won += 1
    elif outcome == CRITICAL_DEFENSE:
        defender.defenses_won += 1
        if defense is not None:  # a critical defense needs a defense roll
            critical_defense(fight, attacker, defender, defense)
    else:
        attacker.hits += 1
        if missile:
            if rules.focused_fire:
                fight.cluster.struck(defender.side)
        elif rules.cluster:
            fight.cluster.hit(attacker, defender)
        if outcome == CRITICAL_HIT:
            attacker.criticals += 1
        fight.harm(attacker, defender, exchange.nicks, exchange.wounds)
