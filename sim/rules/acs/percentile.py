"""ACS's own resolution: percentile to-hit and defense rolls.

ACS text, "To Hit" and "Defenses": attacks are rolled on percentile dice; a total above 100 (from
bonuses) lowers the defender's chance by the excess. RULINGS part A fixes the reading: d100 plus
the attack bonus hits at or above the attacker's to-hit number; a hit defender with a defensive
action left rolls d100 and defends at or below its defense chance. Damage (which ACS leaves to
the game) is a dice roll against hit points; at 0 the combatant is out.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from sim.dice import DiceExpr
from sim.rules.acs.models import PercentileCombatant, PercentileOptions
from sim.rules.acs.narration import PERCENTILE_NARRATION

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter

#: The faces of the percentile dice (ACS "To Hit": "rolled on percentile dice").
D100 = 100


def hits(total: int, to_hit: int) -> bool:
    """Whether an attack total (d100 plus the attack bonus) reaches the to-hit number."""
    return total >= to_hit


def defense_chance(defense: int, attack_total: int, reduction: bool = True) -> int:
    """The defender's chance after an attack total above 100 has lowered it (never below 0)."""
    if reduction and attack_total > D100:
        defense -= attack_total - D100
    return defense if defense > 0 else 0


def defends(roll: int, chance: int) -> bool:
    """Whether a d100 defense roll succeeds: at or below the chance (ACS "Defenses")."""
    return roll <= chance


@cache
def hitting_faces(attack_bonus: int, to_hit: int) -> tuple[bool, ...]:
    """For each face of the d100 (index 1..100; 0 is never rolled), whether it hits.

    :func:`hits` evaluated once per face: the attack looks its roll up here instead of calling
    it on every attack (the hot path), and :func:`hit_chance` counts the same table.
    """
    return (False, *(hits(face + attack_bonus, to_hit) for face in range(1, D100 + 1)))


@cache
def defense_chances(defense: int, reduction: bool = True) -> tuple[int, ...]:
    """For each attack total from 0 up, the defender's chance: :func:`defense_chance` tabulated.

    The table runs to the total that leaves no chance under ``reduction`` (100 + defense): an
    attack reads its total here, and calls :func:`defense_chance` itself for a total beyond it.
    """
    last = D100 + max(defense, 0)
    return tuple(defense_chance(defense, total, reduction) for total in range(last + 1))


@cache
def defending_rolls(chance: int) -> tuple[bool, ...]:
    """For each face of the d100 defense roll (index 1..100; 0 is never rolled), whether it holds.

    :func:`defends` evaluated once per face, as :func:`hitting_faces` does for the attack roll.
    The tables are pure and small: each is built once per process (``functools.cache``), not
    once per chunk for every fighter (a few thousand calls of :func:`defends` each time).
    """
    return (False, *(defends(face, chance) for face in range(1, D100 + 1)))


def hit_chance(attack_bonus: int, to_hit: int) -> Fraction:
    """Exact chance that an attack hits: the faces of :func:`hitting_faces` that hit."""
    return Fraction(sum(hitting_faces(attack_bonus, to_hit)), D100)


def defended_chance(
    attack_bonus: int, to_hit: int, defense: int, reduction: bool = True
) -> Fraction:
    """Exact chance that an attack hits and a defender able to defend then defends.

    Built from the functions an attack calls (:func:`hits`, :func:`defense_chance`,
    :func:`defends`) over every face of both d100 rolls.
    """
    total = Fraction(0)
    hit_on = hitting_faces(attack_bonus, to_hit)
    for face in range(1, D100 + 1):
        attack_total = face + attack_bonus
        if hit_on[face]:
            chance = defense_chance(defense, attack_total, reduction)
            held = sum(1 for roll in range(1, D100 + 1) if defends(roll, chance))
            total += Fraction(held, D100 * D100)
    return total


@dataclass(frozen=True, slots=True)
class PercentileStats:
    """The hot-path copy of a percentile combatant's stats (and of the option it reads)."""

    to_hit: int
    attack_bonus: int
    defense: int
    damage: DiceExpr
    #: ``defense_reduction``: the attacker's total above 100 lowers the defense chance.
    reduction: bool
    #: Whether each d100 face hits (:func:`hitting_faces`).
    hit_on: tuple[bool, ...]
    #: Defending: the chance left by each attack total (:func:`defense_chances`).
    chance_by_total: tuple[int, ...]
    #: Defending: for each chance from 0 to ``defense``, whether each d100 face holds
    #: (:func:`defending_rolls`).
    held_on: tuple[tuple[bool, ...], ...]


class Percentile:
    """The ``percentile`` resolution of the ACS clock (no per-fighter state)."""

    name = "percentile"
    narration = PERCENTILE_NARRATION
    options_model = PercentileOptions
    combatant_model = PercentileCombatant

    def stats(self, model: PercentileCombatant, options: PercentileOptions) -> PercentileStats:
        """Plain stats for the hot path, with the rule tables an attack looks its rolls up in."""
        chances = defense_chances(model.defense, options.defense_reduction)
        return PercentileStats(
            to_hit=model.to_hit,
            attack_bonus=model.attack_bonus,
            defense=model.defense,
            damage=DiceExpr.parse(model.damage),
            reduction=options.defense_reduction,
            hit_on=hitting_faces(model.attack_bonus, model.to_hit),
            chance_by_total=chances,
            held_on=tuple(defending_rolls(chance) for chance in range(max(model.defense, 0) + 1)),
        )

    def begin(self, clock: AcsClock[PercentileStats, None]) -> None:
        """Nothing to set up: a percentile combatant carries no state between attacks."""

    def attack(
        self,
        clock: AcsClock[PercentileStats, None],
        attacker: AcsFighter[PercentileStats, None],
        target: AcsFighter[PercentileStats, None],
        can_defend: bool,
    ) -> bool:
        """Resolve one attack; True when the target rolled a defense."""
        combat = clock.combat
        tracing = combat.trace is not None
        dice = clock.dice
        mine = attacker.stats
        roll = dice.roll(D100)
        total = roll + mine.attack_bonus
        hit = mine.hit_on[roll]
        if tracing:
            combat.emit(
                "attack", attacker, target, roll=roll, total=total, need=mine.to_hit, hit=hit
            )
        if not hit:
            return False
        if can_defend:
            theirs = target.stats
            chances = theirs.chance_by_total
            if 0 <= total < len(chances):
                chance = chances[total]
                defense_roll = dice.roll(D100)
                held = theirs.held_on[chance][defense_roll]
            else:
                # A total the table does not reach (past 100 + defense).
                chance = defense_chance(theirs.defense, total, mine.reduction)
                defense_roll = dice.roll(D100)
                held = defends(defense_roll, chance)
            if tracing:
                combat.emit(
                    "defense", target, attacker, roll=defense_roll, chance=chance, success=held
                )
            if held:
                target.defenses_won += 1
                return True
        attacker.hits += 1
        combat.damage(attacker, target, mine.damage.roll(dice))
        return can_defend


#: The ``percentile`` resolution, offered by the ACS rule system.
PERCENTILE = Percentile()
