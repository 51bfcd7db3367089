"""ACS's own resolution: percentile to-hit and defense rolls.

ACS text, "To Hit" and "Defenses": attacks are rolled on percentile dice; "any score above 100,
decreases the defense, by that amount or increases the events affectivity" (option
``excess_over_100``: lower the defense, add damage at ``excess_per_damage``, or the attacker's
choice). RULINGS part A fixes the reading: d100 plus the attack bonus hits at or above the
attacker's to-hit number; a hit defender with a defensive action left rolls d100 and defends at
or below its defense chance. Damage (which ACS leaves to the game) is a dice roll against hit
points; at 0 the combatant is out. A defensive maneuver (``lost_action: defensive_maneuver``)
adds ``maneuver_bonus`` to the defense chance for the rest of the second; a named action's
modifier (:mod:`sim.rules.acs.spells`) adds to attack totals and defense chances.

The hot path reads tables built from the rule functions once per scenario; in a second where a
maneuver or a modifier was taken (``AcsClock.marked``) it calls the same functions directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from sim.engine.dice import DiceExpr
from sim.rules.acs.models import PercentileCombatant, PercentileOptions
from sim.rules.acs.movement import per_action
from sim.rules.acs.narration import PERCENTILE_NARRATION
from sim.rules.acs.resolution import Defaults
from sim.rules.acs.spells import ALL_EFFECTS

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter

#: The faces of the percentile dice (ACS "To Hit": "rolled on percentile dice").
D100 = 100


def hits(total: int, to_hit: int) -> bool:
    """Whether an attack total (d100 plus the attack bonus) reaches the to-hit number."""
    return total >= to_hit


def excess_damage(total: int, per: int) -> int:
    """Extra damage of an attack total above 100 under ``more_effect``: +1 per ``per`` points."""
    return (total - D100) // per if total > D100 else 0


def takes_more_effect(mode: str, reduction: bool, can_defend: bool, defense: int) -> bool:
    """Whether the excess over 100 adds damage instead of lowering the defense.

    ``attacker_chooses``: the attacker lowers the defense when the target may defend (it has a
    defensive action left and a defense chance above 0, and ``defense_reduction`` is on), and
    takes the extra damage otherwise, where a lower defense would gain it nothing.
    """
    if mode == "lower_defense":
        return False
    if mode == "more_effect":
        return True
    return not (reduction and can_defend and defense > 0)


def maneuver_defense(defense: int, bonus: int) -> int:
    """The defense of a combatant on a defensive maneuver this second (at most 100)."""
    defense += bonus
    return defense if defense < D100 else D100


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


@cache
def excess_damage_faces(attack_bonus: int, per: int) -> tuple[int, ...]:
    """For each face of the d100 (index 1..100), :func:`excess_damage` of its total.

    Built once per process, as the other tables are.
    """
    return (0, *(excess_damage(face + attack_bonus, per) for face in range(1, D100 + 1)))


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
    #: ``defense_reduction`` (and the excess not spent on ``more_effect``): the attacker's
    #: total above 100 lowers the defense chance.
    reduction: bool
    #: ``excess_over_100``, and whether it can ever add damage (not ``lower_defense``).
    excess_mode: str
    more_effect: bool
    #: ``excess_per_damage``.
    per_damage: int
    #: The extra damage of each d100 face's total (:func:`excess_damage_faces`).
    extra_on: tuple[int, ...]
    #: ``maneuver_bonus``.
    maneuver_bonus: int
    #: Whether each d100 face hits (:func:`hitting_faces`).
    hit_on: tuple[bool, ...]
    #: Melee reach, range of a ranged attack (0: none) and paces moved in a second.
    reach: float
    range: float
    speed: float
    #: Defending: the chance left by each attack total (:func:`defense_chances`).
    chance_by_total: tuple[int, ...]
    #: Defending: for each chance from 0 to ``defense``, whether each d100 face holds
    #: (:func:`defending_rolls`).
    held_on: tuple[tuple[bool, ...], ...]


class Percentile(Defaults[PercentileStats, None]):
    """The ``percentile`` resolution of the ACS clock (no per-fighter state)."""

    name = "percentile"
    narration = PERCENTILE_NARRATION
    options_model = PercentileOptions
    combatant_model = PercentileCombatant

    def stats(self, model: PercentileCombatant, options: PercentileOptions) -> PercentileStats:
        """Plain stats for the hot path, with the rule tables an attack looks its rolls up in."""
        mode = options.excess_over_100
        reduction = options.defense_reduction and mode != "more_effect"
        chances = defense_chances(model.defense, reduction)
        return PercentileStats(
            to_hit=model.to_hit,
            attack_bonus=model.attack_bonus,
            defense=model.defense,
            damage=DiceExpr.parse(model.damage),
            reduction=reduction,
            excess_mode=mode,
            more_effect=mode != "lower_defense",
            per_damage=options.excess_per_damage,
            extra_on=excess_damage_faces(model.attack_bonus, options.excess_per_damage),
            maneuver_bonus=options.maneuver_bonus,
            hit_on=hitting_faces(model.attack_bonus, model.to_hit),
            reach=model.reach,
            range=model.range,
            speed=model.speed,
            chance_by_total=chances,
            held_on=tuple(defending_rolls(chance) for chance in range(max(model.defense, 0) + 1)),
        )

    #: Every effect of a named action: percentile reads the modifiers.
    action_effects = ALL_EFFECTS

    def begin(self, clock: AcsClock[PercentileStats, None]) -> None:
        """Nothing to set up: a percentile combatant carries no state between attacks."""

    # -- movement and range (:mod:`sim.rules.acs.movement`): ACS gives no rates of its own, so
    # the scenario does (``reach``, ``range``, ``speed``); a shot is an attack like any other.

    distance_unit = "paces"

    def reach(self, stats: PercentileStats) -> float:
        """The stat ``reach``."""
        return stats.reach

    def shot_range(
        self, clock: AcsClock[PercentileStats, None], me: AcsFighter[PercentileStats, None]
    ) -> float:
        """The stat ``range`` (0: no ranged attack)."""
        return me.stats.range

    def step(
        self,
        clock: AcsClock[PercentileStats, None],
        me: AcsFighter[PercentileStats, None],
        movement: str,
    ) -> float:
        """``speed`` paces a second, spread evenly over its actions: any movement alike."""
        return per_action(me.stats.speed, 1.0, me.actions)

    def defensive_maneuver(
        self, clock: AcsClock[PercentileStats, None], fighter: AcsFighter[PercentileStats, None]
    ) -> None:
        """Percentile's defensive maneuver: ``maneuver_bonus`` on the defense chance this second.

        The clock has marked the fighter's maneuver (``fighter.maneuver``); :meth:`attack` reads
        the mark. Unlike the clock's default (``on_guard``) it leaves the per-segment count of
        defensive actions as it is.
        """

    def attack(
        self,
        clock: AcsClock[PercentileStats, None],
        attacker: AcsFighter[PercentileStats, None],
        target: AcsFighter[PercentileStats, None],
        can_defend: bool,
    ) -> bool:
        """Resolve one attack; True when the target rolled a defense."""
        tracing = clock.tracing
        dice = clock.dice
        mine = attacker.stats
        roll = dice.roll(D100)
        marked = clock.marked
        if marked:
            # A maneuver or a modifier this second: the rule functions, not the tables.
            second = clock.second
            boost = attacker.boost_attack if attacker.boost_second == second else 0
            total = roll + mine.attack_bonus + boost
            hit = hits(total, mine.to_hit)
        else:
            total = roll + mine.attack_bonus
            hit = mine.hit_on[roll]
        if tracing:
            clock.combat.emit(
                "attack", attacker, target, roll=roll, total=total, need=mine.to_hit, hit=hit
            )
        if not hit:
            return False
        if can_defend:
            theirs = target.stats
            chances = theirs.chance_by_total
            if marked:
                defense = theirs.defense
                if target.boost_second == second:
                    defense += target.boost_defense
                if target.maneuver == second:
                    defense = maneuver_defense(defense, theirs.maneuver_bonus)
                chance = defense_chance(defense, total, mine.reduction)
                defense_roll = dice.roll(D100)
                held = defends(defense_roll, chance)
            elif 0 <= total < len(chances):
                chance = chances[total]
                defense_roll = dice.roll(D100)
                held = theirs.held_on[chance][defense_roll]
            else:
                # A total the table does not reach (past 100 + defense).
                chance = defense_chance(theirs.defense, total, mine.reduction)
                defense_roll = dice.roll(D100)
                held = defends(defense_roll, chance)
            if tracing:
                clock.combat.emit(
                    "defense", target, attacker, roll=defense_roll, chance=chance, success=held
                )
            if held:
                target.defenses_won += 1
                return True
        attacker.hits += 1
        amount = mine.damage.roll(dice)
        if mine.more_effect and takes_more_effect(
            mine.excess_mode, mine.reduction, can_defend, target.stats.defense
        ):
            amount += excess_damage(total, mine.per_damage) if marked else mine.extra_on[roll]
        clock.combat.damage(attacker, target, amount)
        return can_defend


#: The ``percentile`` resolution, offered by the ACS rule system.
PERCENTILE = Percentile()
