"""ACS's own resolution: percentile to-hit and defense rolls.

ACS text, "To Hit" and "Defenses": attacks are rolled on percentile dice; a total above 100 (from
bonuses) lowers the defender's chance by the excess. RULINGS part A fixes the reading: d100 plus
the attack bonus hits at or above the attacker's to-hit number; a hit defender with a defensive
action left rolls d100 and defends at or below its defense chance. Damage (which ACS leaves to
the game) is a dice roll against hit points; at 0 the combatant is out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.dice import DiceExpr
from sim.rules.acs.models import PercentileCombatant, PercentileOptions
from sim.rules.acs.narration import PERCENTILE_NARRATION

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter


def hits(roll: int, attack_bonus: int, to_hit: int) -> bool:
    """Whether a d100 ``roll`` plus ``attack_bonus`` reaches ``to_hit``."""
    return roll + attack_bonus >= to_hit


def defense_chance(defense: int, attack_total: int, reduction: bool = True) -> int:
    """The defender's chance after an attack total above 100 has lowered it (never below 0)."""
    if reduction and attack_total > 100:
        defense -= attack_total - 100
    return max(defense, 0)


def hit_chance(attack_bonus: int, to_hit: int) -> float:
    """Exact chance that d100 + ``attack_bonus`` reaches ``to_hit``."""
    need = to_hit - attack_bonus
    return min(max(101 - need, 0), 100) / 100


@dataclass(frozen=True, slots=True)
class PercentileStats:
    """The hot-path copy of a percentile combatant's stats."""

    to_hit: int
    attack_bonus: int
    defense: int
    damage: DiceExpr


class Percentile:
    """The ``percentile`` resolution of the ACS clock."""

    name = "percentile"
    narration = PERCENTILE_NARRATION
    options_model = PercentileOptions
    combatant_model = PercentileCombatant

    def stats(self, model: PercentileCombatant, options: PercentileOptions) -> PercentileStats:
        """Plain stats for the hot path."""
        return PercentileStats(
            model.to_hit, model.attack_bonus, model.defense, DiceExpr.parse(model.damage)
        )

    def attack(
        self, clock: AcsClock, attacker: AcsFighter, target: AcsFighter, can_defend: bool
    ) -> bool:
        """Resolve one attack; True when the target rolled a defense."""
        combat = clock.combat
        tracing = combat.trace is not None
        dice = clock.dice
        mine = attacker.stats
        roll = dice.roll(100)
        total = roll + mine.attack_bonus
        hit = total >= mine.to_hit
        if tracing:
            combat.emit(
                "attack", attacker, target, roll=roll, total=total, need=mine.to_hit, hit=hit
            )
        if not hit:
            return False
        if can_defend:
            chance = target.stats.defense
            if total > 100:
                chance = defense_chance(chance, total, clock.resolution_options.defense_reduction)
            defense_roll = dice.roll(100)
            held = defense_roll <= chance
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
