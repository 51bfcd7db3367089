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

One attack is :func:`resolve`, a pure function: the attacker's and the defender's stats, the
:class:`Situation` of the moment and the combat's dice in, a :class:`PercentileOutcome` out; the
resolution (:class:`Percentile`) only applies it to the fight. :func:`distribution` is the exact
law of what an attack does, from the same functions over every face of every die.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from sim.engine.dice import Dice, DiceExpr
from sim.engine.distribution import Distribution, rolls
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


class PercentileRules(NamedTuple):
    """The percentile options an attack reads (:class:`~sim.rules.acs.models.PercentileOptions`)."""

    #: ``defense_reduction`` (and the excess not spent on ``more_effect``): the attacker's total
    #: above 100 lowers the defense chance.
    reduction: bool
    #: ``excess_over_100``.
    excess_mode: str
    #: ``excess_per_damage``.
    per_damage: int
    #: ``maneuver_bonus``.
    maneuver_bonus: int

    @classmethod
    def of(cls, options: PercentileOptions) -> PercentileRules:
        """Read the validated options."""
        mode = options.excess_over_100
        return cls(
            reduction=options.defense_reduction and mode != "more_effect",
            excess_mode=mode,
            per_damage=options.excess_per_damage,
            maneuver_bonus=options.maneuver_bonus,
        )


@dataclass(frozen=True, slots=True)
class PercentileStats:
    """A percentile combatant's stats, and the scenario's rules (the same in every combatant's)."""

    to_hit: int
    attack_bonus: int
    defense: int
    damage: DiceExpr
    rules: PercentileRules
    #: Melee reach, range of a ranged attack (0: none) and paces moved in a second.
    reach: float
    range: float
    speed: float


class Situation(NamedTuple):
    """What the moment adds to an attack: whether the target may defend, modifiers, a maneuver.

    ``can_defend`` is the clock's (a defensive action left and the will to use it); the rest is
    this second's: modifiers of named actions (:mod:`sim.rules.acs.spells`) on the attacker's
    total and the defender's chance, and whether the defender is on a defensive maneuver.
    """

    can_defend: bool
    attack_boost: int = 0
    defense_boost: int = 0
    maneuver: bool = False


#: The situations of a second with no modifier and no maneuver, by ``can_defend``: built once.
PLAIN = (Situation(can_defend=False), Situation(can_defend=True))


class Strike(NamedTuple):
    """What an attack total is to the rules (:func:`strike`), what the rest of the attack reads."""

    total: int
    hit: bool
    #: The defender's chance against this total (0 when it cannot defend, or on a miss).
    chance: int
    #: The damage the excess over 100 adds if the attack goes through (``more_effect``).
    extra: int


class PercentileOutcome(NamedTuple):
    """What one percentile attack did, with its dice (what the clock and the replay apply)."""

    #: The attack's d100 face and its total (with the attack bonus and any modifier).
    roll: int
    total: int
    hit: bool
    #: The defender's d100 face (0: no defense rolled) and the chance it was rolled against.
    defense_roll: int
    chance: int
    defended: bool
    #: Hit points the target loses (0 on a miss or a defense).
    damage: int

    @property
    def defense_rolled(self) -> bool:
        """Whether the defender rolled a defense (it spent a defensive action: the clock's)."""
        return self.defense_roll > 0

    @property
    def result(self) -> PercentileResult:
        """What the attack did, without its dice (the outcomes of :func:`distribution`)."""
        return PercentileResult(self.hit, self.defense_rolled, self.defended, self.damage)


class PercentileResult(NamedTuple):
    """What an attack does to the fight, whatever the faces: what the exact engine sums over."""

    hit: bool
    defense_rolled: bool
    defended: bool
    damage: int


#: The result of an attack that misses.
MISS = PercentileResult(hit=False, defense_rolled=False, defended=False, damage=0)
#: The result of a hit that the defender's roll turned aside.
DEFENDED = PercentileResult(hit=True, defense_rolled=True, defended=True, damage=0)


def strike(
    to_hit: int, defense: int, situation: Situation, rules: PercentileRules, total: int
) -> Strike:
    """An attack total against a defender's ``defense``: whether it hits, and what it leaves.

    The defender's chance is its defense with this second's modifier and maneuver
    (:func:`maneuver_defense`), lowered by the total above 100 (:func:`defense_chance`); the
    extra damage is :func:`excess_damage` when :func:`takes_more_effect`.
    """
    if not hits(total, to_hit):
        return Strike(total, hit=False, chance=0, extra=0)
    can_defend = situation.can_defend
    chance = 0
    if can_defend:
        boosted = defense + situation.defense_boost
        if situation.maneuver:
            boosted = maneuver_defense(boosted, rules.maneuver_bonus)
        chance = defense_chance(boosted, total, rules.reduction)
    extra = 0
    if takes_more_effect(rules.excess_mode, rules.reduction, can_defend, defense):
        extra = excess_damage(total, rules.per_damage)
    return Strike(total, hit=True, chance=chance, extra=extra)


#: How many :func:`strikes` tables a process keeps (about 8 kB each): a duel uses a handful, a
#: sweep of many stat values would otherwise keep one per value for the life of a worker.
STRIKE_TABLES = 1024


@lru_cache(maxsize=STRIKE_TABLES)
def strikes(
    to_hit: int, attack_bonus: int, defense: int, situation: Situation, rules: PercentileRules
) -> tuple[Strike, ...]:
    """:func:`strike` for each face of the attack d100, in order (face ``f`` at ``f - 1``).

    The total of a face adds the attack bonus and this second's modifier. This is the table
    :func:`resolve` reads and :func:`distribution` sums over, built once per distinct input
    (the inputs are plain values) and kept for the next attack with the same ones.
    """
    offset = attack_bonus + situation.attack_boost
    return tuple(
        strike(to_hit, defense, situation, rules, face + offset) for face in range(1, D100 + 1)
    )


def wound(rolled: int, extra: int) -> int:
    """Hit points a hit takes: its damage roll plus the extra of the excess (never below 0)."""
    amount = rolled + extra
    return amount if amount > 0 else 0


def resolve(
    attacker: PercentileStats, defender: PercentileStats, situation: Situation, dice: Dice
) -> PercentileOutcome:
    """One percentile attack: the attack d100, then a defense d100, then the damage dice.

    A die is rolled only when the rules call for it (the defense roll after a hit on a target
    that may defend, the damage after a hit not defended), in that order on the combat's stream.
    """
    roll = dice.roll(D100)
    struck = strikes(
        attacker.to_hit, attacker.attack_bonus, defender.defense, situation, attacker.rules
    )[roll - 1]
    total = struck.total
    if not struck.hit:
        return PercentileOutcome(
            roll, total, hit=False, defense_roll=0, chance=0, defended=False, damage=0
        )
    chance = struck.chance
    defense_roll = 0
    if situation.can_defend:
        defense_roll = dice.roll(D100)
        if defends(defense_roll, chance):
            return PercentileOutcome(
                roll,
                total,
                hit=True,
                defense_roll=defense_roll,
                chance=chance,
                defended=True,
                damage=0,
            )
    damage = wound(attacker.damage.roll(dice), struck.extra)
    return PercentileOutcome(
        roll,
        total,
        hit=True,
        defense_roll=defense_roll,
        chance=chance,
        defended=False,
        damage=damage,
    )


def damage_law(damage: DiceExpr) -> Distribution[int]:
    """The exact law of a damage roll: every face of each die, added as ``DiceExpr.roll`` does."""
    die = rolls(damage.sides)
    law = Distribution.certain(damage.modifier)
    for _ in range(damage.count):
        law = law.bind(lambda total: die.map(lambda faces: total + faces[0]))
    return law


def distribution(
    attacker: PercentileStats, defender: PercentileStats, situation: Situation
) -> Distribution[PercentileResult]:
    """The exact law of what one attack does: :func:`resolve` over every face of every die.

    Each face of the attack d100 is read in :func:`strikes` (the table :func:`resolve` reads),
    each face of the defense d100 goes through :func:`defends`, each damage total through
    :func:`wound`, as in :func:`resolve`: the law is that of the attacks the clock plays (a test
    enumerates :func:`resolve` itself over scripted dice and finds the same).
    """
    table = strikes(
        attacker.to_hit, attacker.attack_bonus, defender.defense, situation, attacker.rules
    )
    # Faces whose totals differ but lead to the same hit, chance and extra go the same way.
    faces = Distribution.uniform(struck._replace(total=0) for struck in table)
    damage = damage_law(attacker.damage)
    can_defend = situation.can_defend

    def after(struck: Strike) -> Distribution[PercentileResult]:
        if not struck.hit:
            return Distribution.certain(MISS)
        wounds = damage.map(
            lambda rolled: PercentileResult(True, can_defend, False, wound(rolled, struck.extra))
        )
        if not can_defend:
            return wounds
        held = Distribution.uniform(defends(face, struck.chance) for face in range(1, D100 + 1))
        return held.bind(lambda ok: Distribution.certain(DEFENDED) if ok else wounds)

    return faces.bind(after)


class Percentile(Defaults[PercentileStats, None]):
    """The ``percentile`` resolution of the ACS clock (no per-fighter state)."""

    name = "percentile"
    narration = PERCENTILE_NARRATION
    options_model = PercentileOptions
    combatant_model = PercentileCombatant

    def stats(self, model: PercentileCombatant, options: PercentileOptions) -> PercentileStats:
        """A stat block's numbers, with the scenario's percentile rules."""
        return PercentileStats(
            to_hit=model.to_hit,
            attack_bonus=model.attack_bonus,
            defense=model.defense,
            damage=DiceExpr.parse(model.damage),
            rules=PercentileRules.of(options),
            reach=model.reach,
            range=model.range,
            speed=model.speed,
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
        return per_action(me.stats.speed, 1.0, me.timing.actions)

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
        """Resolve one attack (:func:`resolve`) and apply it; True when a defense was rolled."""
        mine = attacker.stats
        now = situation(clock, attacker, target, can_defend)
        outcome = resolve(mine, target.stats, now, clock.dice)
        combat = clock.combat
        if clock.tracing:
            combat.emit(
                "attack",
                attacker,
                target,
                roll=outcome.roll,
                total=outcome.total,
                need=mine.to_hit,
                hit=outcome.hit,
            )
            if outcome.defense_rolled:
                combat.emit(
                    "defense",
                    target,
                    attacker,
                    roll=outcome.defense_roll,
                    chance=outcome.chance,
                    success=outcome.defended,
                )
        if outcome.defended:
            target.defenses_won += 1
            return True
        if not outcome.hit:
            return False
        attacker.hits += 1
        combat.damage(attacker, target, outcome.damage)
        return can_defend


def situation(
    clock: AcsClock[PercentileStats, None],
    attacker: AcsFighter[PercentileStats, None],
    target: AcsFighter[PercentileStats, None],
    can_defend: bool,
) -> Situation:
    """The situation of an attack now: this second's modifiers and the defender's maneuver."""
    second = clock.second
    attack_boost = attacker.boost_attack if attacker.boost_second == second else 0
    defense_boost = target.boost_defense if target.boost_second == second else 0
    maneuver = target.maneuver == second
    if attack_boost or defense_boost or maneuver:
        return Situation(can_defend, attack_boost, defense_boost, maneuver)
    return PLAIN[can_defend]


#: The ``percentile`` resolution, offered by the ACS rule system.
PERCENTILE = Percentile()
