"""The pieces of a combat test and its damage, which the exchange puts together.

Target 10 text, "Combat Tests": "one compares two values to determine if there is a bonus or
penalty on the roll and then rolls 1d20, applying the modifier. If the roll is a '12' or higher,
they succeed." The values are FIGHT or SHOOT against DEFENSE; "a bonus cannot be higher than +10
and a penalty cannot be lower than -10", and situational modifiers "should not amount to more
than a total modifier of +3 or -3" (options ``combat_target``, ``value_clamp``,
``situational_clamp``).
"Movements", Flee: an attack on a fleeing character "is automatically successful": no die is
rolled. "Damage": "1d6, adding the attacker's Strength modifier if using a melee weapon or
Dexterity modifier if using a ranged weapon ... an ability penalty cannot reduce damage below 1"
(``min_damage``).

Which value an attack uses: "When attacking with fist, feet, claws, bites or hand held weapons,
the attacker compares their FIGHT ...; When attacking with thrown items, spittle, pistols, muskets
and bows, the attacker compares their SHOOT" -- the weapon decides, not the distance, so a ranged
weapon in hand shoots at any distance within its range, unless the combatant chooses to fight
hand to hand (``tactics.point_blank: fight``): :func:`weapon_for`. Flee: "If they go after their
attacking opponent in combat, their opponent's attack is automatically successful"
(``flee_auto_hit``, :func:`flee_auto`). "Luck Points": a point may be spent "to automatically
succeed at any test" (:func:`lucky_hit`). Cover (not in the text: a situational modifier the
scenario sets per combatant, ``cover``): :func:`cover_modifier`.

The roll itself is a test's (:func:`~sim.rules.target10.skill_tests.outcomes`) with ``need`` =
``combat_target`` ("Combat tests work like other tests"). Everything here is pure: dice in,
numbers out, no clock and no fighter state; :func:`~sim.rules.target10.exchange.resolve_attack`
puts the pieces together, for the round and the ACS hybrid alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sim.engine.dice import DiceExpr
from sim.rules.target10.luck import SucceedPolicy, spend_to_succeed
from sim.rules.target10.skill_tests import DIE, success_faces
from sim.rules.target10.values import clamp

if TYPE_CHECKING:
    from sim.rules.target10.models import AttackOptions


@dataclass(frozen=True, slots=True)
class CombatTest:
    """The numbers of a combat test under a scenario's options.

    Attributes:
        need: a test succeeds on d20 + modifier of this or more (``combat_target``).
        value_clamp: (FIGHT or SHOOT) - DEFENSE counts at most this much, either way.
        situational_clamp: situational modifiers count at most this much, either way.
        min_damage: damage is never below this.
        zero_dead: a Kill that leaves exactly 0 hit points kills (``zero_hp: dead``).
        zero_hp: the same, as :func:`~sim.rules.target10.actions.take_damage` reads it
            (``dead`` or ``unconscious``).
    """

    need: int = 12
    value_clamp: int = 10
    situational_clamp: int = 3
    min_damage: int = 1
    zero_dead: bool = False
    zero_hp: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "zero_hp", "dead" if self.zero_dead else "unconscious")

    @classmethod
    def of(cls, options: AttackOptions) -> CombatTest:
        """The combat test of a scenario's options (round or hybrid alike)."""
        return cls(
            need=options.combat_target,
            value_clamp=options.value_clamp,
            situational_clamp=options.situational_clamp,
            min_damage=options.min_damage,
            zero_dead=options.zero_hp == "dead",
        )


def attack_modifier(value: int, defense: int, situational: int, test: CombatTest) -> int:
    """The modifier of a combat test: the values' difference plus the situational modifiers.

    (``value`` - ``defense``) counts within +/-10 and the situational modifiers within +/-3
    (the limits are ``test``'s).

    Args:
        value: the attacker's FIGHT or SHOOT, as it stands for this attack.
        defense: the defender's DEFENSE, as it stands for this attack.
        situational: the situational modifiers, before their clamp.
        test: the scenario's combat test (its clamps).
    """
    modifier = clamp(value - defense, test.value_clamp)
    if situational:
        modifier += clamp(situational, test.situational_clamp)
    return modifier


def damage_amount(rolled: int, ability_mod: int, minimum: int) -> int:
    """A hit's damage from its weapon's roll: plus the ability modifier, never below ``minimum``."""
    amount = rolled + ability_mod
    return amount if amount > minimum else minimum


#: Which weapon an attack uses (:func:`weapon_for`).
MELEE, RANGED = 1, 2


def weapon_for(distance: float, reach: float, ready_range: float, point_blank: bool) -> int | None:
    """The weapon of an attack at ``distance``: :data:`RANGED`, :data:`MELEE`, or None (none can).

    Args:
        distance: paces to the target.
        reach: the melee weapon's reach.
        ready_range: the range of a ranged weapon in hand, loaded and with ammunition (0: none).
        point_blank: within reach, shoot (True, the text's "pistols, muskets and bows ... SHOOT")
            or fight hand to hand (False, ``tactics.point_blank: fight``).
    """
    if ready_range > 0 and distance <= ready_range and (point_blank or distance > reach):
        return RANGED
    if distance <= reach:
        return MELEE
    return None


#: Readings of Flee's automatic hit (option ``flee_auto_hit``).
FLEE_AUTO = ("always", "if_after", "never")


def flee_auto(mode: str, attacker_init: int, fleer_init: int) -> bool:
    """Whether an attack on a fleeing combatant succeeds without a roll.

    ``always`` (RULINGS): every attack on a fleer; ``if_after``: only when the fleer "goes after"
    its attacker in the round (a lower initiative score); ``never``: rolled as usual.
    """
    if mode == "always":
        return True
    if mode == "if_after":
        return fleer_init < attacker_init
    return False


def cover_modifier(cover: int, ranged: bool, all_attacks: bool) -> int:
    """The situational modifier a target's ``cover`` gives an attack on it (a penalty).

    Cover counts against ranged attacks (``cover_against: ranged``, default) or every attack
    (``all``); it adds to the other situational modifiers, within their +/-3.
    """
    if cover and (ranged or all_attacks):
        return -cover
    return 0


def lucky_hit(
    policy: SucceedPolicy,
    modifier: int,
    need: int,
    hp: int,
    damage: DiceExpr | None,
    ability_mod: int,
    minimum: int,
) -> bool:
    """Whether an attacker spends a luck point to turn its failed attack test into a success.

    Args:
        policy: the attacker's ``tactics.luck_to_succeed``.
        modifier: the attack test's modifier.
        need: the attack test's target number.
        hp: the target's hit points.
        damage: the hit's damage roll (None: an attack that deals no damage).
        ability_mod: the modifier added to the damage.
        minimum: the least damage (``min_damage``).
    """
    chance = success_faces(modifier, need) / DIE
    if damage is None:
        return spend_to_succeed(policy, chance)
    least = damage.minimum + ability_mod
    most = damage.maximum + ability_mod
    least = least if least > minimum else minimum
    most = most if most > minimum else minimum
    return spend_to_succeed(policy, chance, hp - least <= 0, hp - most <= 0)
