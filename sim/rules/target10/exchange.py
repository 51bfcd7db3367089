"""One Target 10 attack, the exchange: a pure function of what it reads and of the dice.

Target 10 text, "Combat Tests": the attacker compares FIGHT (fist, feet, hand-held weapons) or
SHOOT (thrown items, pistols, muskets and bows) with the defender's DEFENSE, "rolls 1d20,
applying the modifier. If the roll is a '12' or higher, they succeed" (the modifier and its
clamps: :func:`~sim.rules.target10.combat_rolls.attack_modifier`). "Damage": "1d6, adding the
attacker's Strength modifier if using a melee weapon or Dexterity modifier if using a ranged
weapon" (:func:`~sim.rules.target10.combat_rolls.damage_amount`). "Actions": Kill may take a
target below 0 hit points, Subdue stops at 0 (:func:`~sim.rules.target10.actions.take_damage`);
a pinned grappler "must make a grapple attack of their own to break the hold". "Movements": a
charger "adds double their strength bonus to their attack score"; an attack on a fleer "is
automatically successful"; a maneuvering attacker scores "no damage, but [does] move their
opponent". "Luck Points": a point may be spent "to automatically succeed at any test"
(:func:`~sim.rules.target10.combat_rolls.lucky_hit`) or "to ignore an opponent's success"
(:func:`~sim.rules.target10.luck.spend_on_hit`). RULINGS part B: ground and pin penalties count
as situational modifiers or on the values (``penalties_as``); a Maneuver's edge is a
situational bonus (``maneuver_bonus``); cover is a situational penalty (``cover_against``).

Every path that makes an attack builds an :class:`AttackInput` from the fight as it stands,
calls :func:`resolve_attack` with the combat's dice, and applies the :class:`AttackOutcome`:
the round (:mod:`~sim.rules.target10.attacks`) and the ACS hybrid
(:mod:`~sim.rules.target10.hybrid`). There is no other attack path.

The interface:

- inputs: :class:`AttackInput` (frozen, hashable: equal inputs have equal laws), made of the
  scenario's :class:`ExchangeRules` (read once per scenario), the attacker's :class:`Weapon`
  (made once per combatant) and the situation (action, DEFENSE, a Defend counted apart,
  situational modifier, charge, ground and pin penalties, a Maneuver's edge, cover, an
  automatic hit, a maneuver, a pinned grappler's Grapple, the luck-to-hit tactic). The stakes
  that change with every blow are separate arguments: the attacker's ``luck`` points and the
  defender's ``target_hp`` (which the luck-to-hit tactic weighs).
- ``resolve_attack(attack, dice, luck=0, target_hp=0) -> AttackOutcome``: rolls the d20 (none
  when automatic), may spend one luck point to hit, rolls a damaging hit's damage; nothing
  else is read or changed.
- outcome: :class:`AttackOutcome` (frozen, hashable): the roll, ``hit``, ``lucky`` (the
  caller takes the luck point), ``parried`` (a miss the Defend made), ``effect`` (KILL,
  SUBDUE, TRIP, GRAPPLE, DISARM, BREAK or NONE), ``push``, ``damage``. What a Kill or Subdue
  then does to its target is :func:`blow_lands` (the target's luck point, Subdue stopping at
  0 hit points): a pure function of numbers.
- ``distribution(attack, luck=0, target_hp=0) -> Distribution[AttackOutcome]``: the exact law
  of :func:`resolve_attack`'s outcome (:class:`~sim.engine.distribution.Distribution`, exact
  fractions). It plays :func:`resolve_attack` itself on every face of every die it asks for
  (:func:`dice_law`, which any pure function of the dice can use), so the law is that of what
  the engine samples, from the same tables; ``tests/target10/test_t10_exchange.py`` checks it
  against a brute-force enumeration of the dice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from sim.engine.dice import Dice, DiceExpr
from sim.engine.distribution import Distribution
from sim.rules.target10.actions import (
    BREAK,
    DAMAGING,
    GRAPPLE,
    KILL,
    NONE,
    subdue_dealt,
    take_damage,
)
from sim.rules.target10.combat_rolls import (
    CombatTest,
    attack_modifier,
    cover_modifier,
    damage_amount,
    lucky_hit,
)
from sim.rules.target10.luck import NEVER_SUCCEED, SucceedPolicy, spend_on_hit
from sim.rules.target10.skill_tests import DIE, D20Roll, outcomes

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ExchangeRules:
    """The scenario's options an exchange reads, read once per scenario.

    Attributes:
        test: the combat test (its target, clamps, least damage, reading of 0 hit points).
        cover_all: cover counts against every attack (``cover_against: all``), not shots only.
        penalties_on_values: ground and pin penalties change the values (``penalties_as:
            values``) rather than count as situational modifiers.
        maneuver_bonus: the situational bonus of a Maneuver's edge (``maneuver_bonus``).
        keeps_action: a maneuvering Trip, Grapple or Disarm still lands its effect besides
            the push (``maneuver_keeps_action``).
    """

    test: CombatTest = field(default_factory=CombatTest)
    cover_all: bool = False
    penalties_on_values: bool = False
    maneuver_bonus: int = 0
    keeps_action: bool = True


@dataclass(frozen=True, slots=True)
class Weapon:
    """What an attack is made with: the value it compares, its damage, and how it counts.

    Built once per combatant for each way it can attack (its hand weapon, without it, its
    ranged weapon, a Disarm by SHOOT).

    Attributes:
        value: FIGHT or SHOOT with it.
        damage: the weapon's damage roll.
        bonus: the ability modifier added to the damage (STR in melee, DEX for a shot).
        ranged: a shot or a throw (cover counts against it whatever ``cover_all`` says).
        charge: what a Charge adds to ``value`` (FIGHT's extra STR bonus; 0 for SHOOT).
    """

    value: int
    damage: DiceExpr
    bonus: int
    ranged: bool = False
    charge: int = 0


@dataclass(frozen=True, slots=True)
class AttackInput:
    """Everything one attack reads but the stakes: the attacker's, the defender's, the situation.

    The stakes, the attacker's luck points and the defender's hit points, change with every
    blow of a fight while all this stays the same, so they are :func:`resolve_attack`'s own
    arguments: one input serves every state of a fight (a chain of exchanges over hit points
    reuses it, and the round keeps the inputs it has made, :mod:`~sim.rules.target10.attacks`).

    Attributes:
        rules: the scenario's options (:class:`ExchangeRules`).
        weapon: what the attacker strikes with (:class:`Weapon`).
        action: the attacker's action code (Kill, Subdue, Trip, Grapple, Disarm).
        defense: the defender's DEFENSE as it stands (a Charge's lost DEX bonus, the round's
            Defend, included).
        situational: the attacker's own situational modifier.
        charging: the attacker is charging (``weapon.charge`` counts).
        hampered: the attacker's ground and pin penalties.
        target_hampered: the defender's ground and pin penalties.
        edge: the attacker has a Maneuver's edge on this defender (``rules.maneuver_bonus``).
        cover: the defender's cover.
        automatic: the attack succeeds without a roll (on a fleer: ``flee_auto_hit``).
        maneuver: the attacker maneuvers: a hit pushes and scores no damage.
        pinned_by_target: the attacker is pinned by the defender (its Grapple breaks the pin).
        defend: what a Defend adds to ``defense`` against this attack (the hybrid's ACS
            defense; the round's Defend is in ``defense``), counted apart so that the outcome
            can tell a miss the Defend made.
        succeed: when the attacker spends a luck point to hit (``tactics.luck_to_succeed``).
        rolls: the test's outcome by d20 face (index 0: automatic), worked out from the rest.
        damaging: a hit rolls damage (a Kill or Subdue that does not maneuver).
        table: the outcomes met so far, by d20 face, luck spent to hit and damage rolled
            (:func:`resolve_attack` fills it from :func:`outcome_of`): not part of the value.
    """

    rules: ExchangeRules
    weapon: Weapon
    action: int = KILL
    defense: int = 0
    situational: int = 0
    charging: bool = False
    hampered: int = 0
    target_hampered: int = 0
    edge: bool = False
    cover: int = 0
    automatic: bool = False
    maneuver: bool = False
    pinned_by_target: bool = False
    defend: int = 0
    succeed: SucceedPolicy = NEVER_SUCCEED
    rolls: tuple[D20Roll, ...] = field(init=False, repr=False, compare=False)
    damaging: bool = field(init=False, repr=False, compare=False)
    table: dict[tuple[int, bool, int], AttackOutcome] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        derive = object.__setattr__  # a frozen value's derived fields are set once, here
        derive(self, "rolls", outcomes(modifier_of(self), self.rules.test.need))
        derive(self, "damaging", self.action in DAMAGING and not self.maneuver)
        derive(self, "table", {})

@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """What one attack came to.

    Attributes:
        roll: the attack test: the d20 (face 0 when automatic), its modifier and target.
        hit: the attack succeeded (by the roll, automatically, or by the attacker's luck).
        lucky: the attacker spent a luck point to turn its failed test into a success.
        parried: a miss that the Defend of ``AttackInput.defend`` made (DEFENSE alone would
            not have stopped it).
        effect: what a hit does besides a push: the action's code (KILL or SUBDUE with
            ``damage``), BREAK (a pinned grappler breaks free), or NONE (a miss, or a
            maneuvering hit that only pushes).
        push: a maneuvering hit: it moves the defender and scores no damage.
        damage: a Kill's or Subdue's damage (0 for any other outcome); how it lands on the
            defender is :func:`blow_lands`'s.
    """

    roll: D20Roll
    hit: bool = False
    lucky: bool = False
    parried: bool = False
    effect: int = NONE
    push: bool = False
    damage: int = 0


def modifier_of(attack: AttackInput, with_defend: bool = True) -> int:
    """The attack test's modifier: the values' difference and the situational modifiers.

    The attacker's value is its weapon's, plus the Charge's bonus; the ground and pin penalties
    (the defender's less the attacker's) count on the values or as situational modifiers; a
    Maneuver's edge and the defender's cover are situational. ``with_defend``: the defender's
    Defend counts (False: DEFENSE alone, to tell a miss the Defend made).
    """
    rules = attack.rules
    weapon = attack.weapon
    value = weapon.value + weapon.charge if attack.charging else weapon.value
    situational = attack.situational
    penalty = attack.target_hampered - attack.hampered
    if rules.penalties_on_values:
        value += penalty
    else:
        situational += penalty
    if attack.edge:
        situational += rules.maneuver_bonus
    situational += cover_modifier(attack.cover, weapon.ranged, rules.cover_all)
    defense = attack.defense + attack.defend if with_defend else attack.defense
    return attack_modifier(value, defense, situational, rules.test)


def resolve_attack(
    attack: AttackInput, dice: Dice, luck: int = 0, target_hp: int = 0
) -> AttackOutcome:
    """Resolve one attack: the test's d20 (none when automatic), then a damaging hit's damage.

    The dice are drawn from ``dice`` in that order, and only those: an automatic attack rolls
    no d20, a miss and a hit without damage roll no damage.

    Args:
        attack: the attack (:class:`AttackInput`).
        dice: the combat's dice.
        luck: the attacker's luck points; with one left, ``attack.succeed`` may spend it to
            turn a failed test into a success (:func:`~sim.rules.target10.combat_rolls.
            lucky_hit`).
        target_hp: the defender's hit points, which that tactic weighs.
    """
    face = 0 if attack.automatic else dice.roll(DIE)
    hit = attack.rolls[face].success
    lucky = not hit and luck > 0 and attack.succeed.spends and spends_to_hit(attack, target_hp)
    rolled = attack.weapon.damage.roll(dice) if attack.damaging and (hit or lucky) else 0
    key = (face, lucky, rolled)
    outcome = attack.table.get(key)
    if outcome is None:
        outcome = attack.table[key] = outcome_of(attack, face, lucky, rolled)
    return outcome


def spends_to_hit(attack: AttackInput, target_hp: int) -> bool:
    """Whether the attacker turns its failed test with a luck point (by ``attack.succeed``).

    The "take out" readings weigh the hit's damage against ``target_hp``; an attack that deals
    no damage never takes out.
    """
    test = attack.rules.test
    modifier = attack.rolls[0].modifier
    weapon = attack.weapon
    damage = weapon.damage if attack.damaging else None
    return lucky_hit(
        attack.succeed, modifier, test.need, target_hp, damage, weapon.bonus, test.min_damage
    )


def outcome_of(attack: AttackInput, face: int, lucky: bool, rolled: int) -> AttackOutcome:
    """The outcome of ``attack`` for its d20 ``face``, luck spent to hit and damage ``rolled``.

    A miss (a failed test, no luck spent) may be one the Defend made; a hit pushes (a
    maneuver, keeping a Trip's, Grapple's or Disarm's effect by ``keeps_action``), or scores
    damage (the weapon's roll plus the ability modifier, at least ``min_damage``), or lands
    its action's effect (a pinned grappler's Grapple breaks the pin). ``rolled`` is the
    weapon's damage roll (0 when it rolled none); the damage is that plus the ability modifier,
    at least ``min_damage`` (:func:`~sim.rules.target10.combat_rolls.damage_amount`).
    """
    roll = attack.rolls[face]
    if not (roll.success or lucky):
        plain = outcomes(modifier_of(attack, with_defend=False), roll.need)
        return AttackOutcome(roll, parried=attack.defend != 0 and plain[face].success)
    action = attack.action
    if attack.maneuver:
        kept = attack.rules.keeps_action and action not in DAMAGING
        return AttackOutcome(roll, True, lucky, effect=_effect(attack) if kept else NONE, push=True)
    if not attack.damaging:
        return AttackOutcome(roll, True, lucky, effect=_effect(attack))
    amount = damage_amount(rolled, attack.weapon.bonus, attack.rules.test.min_damage)
    return AttackOutcome(roll, True, lucky, effect=action, damage=amount)


def _effect(attack: AttackInput) -> int:
    """A hit's effect without damage: its action, or breaking the holder's pin."""
    if attack.action == GRAPPLE and attack.pinned_by_target:
        return BREAK
    return attack.action


@dataclass(frozen=True, slots=True)
class Landing:
    """What one Kill or Subdue does to its target when it lands alone.

    Attributes:
        ignored: the target spends a luck point to ignore it (then nothing else happens).
        hp: the target's hit points after it.
        out: how the target leaves the fight (``dead``, ``unconscious``), or None.
        dealt: the damage it counts as dealt (a Subdue stops at 0 hit points).
    """

    ignored: bool
    hp: int
    out: str | None
    dealt: int


@lru_cache(maxsize=1 << 14)
def blow_lands(action: int, amount: int, hp: int, luck: int, policy: str, zero_hp: str) -> Landing:
    """A Kill or Subdue of ``amount`` landing alone on a target with ``hp`` and ``luck``.

    The target ignores it with a luck point by its ``policy`` (``save``: when it would leave it
    at 0 or below); otherwise Kill damage may go below 0 and Subdue damage stops at 0
    (:func:`~sim.rules.target10.actions.take_damage`, reading 0 hit points by ``zero_hp``).
    A pure function of a few numbers, so each answer is kept and shared (its values are
    frozen).
    """
    if luck > 0 and spend_on_hit(policy, hp - amount <= 0):
        return Landing(True, hp, None, 0)
    if action == KILL:
        after, how = take_damage(hp, amount, 0, zero_hp)
        return Landing(False, after, how, amount)
    after, how = take_damage(hp, 0, amount, zero_hp)
    return Landing(False, after, how, subdue_dealt(amount, hp))


# -- the exact law ------------------------------------------------------------------------------


class _Wanted(Exception):
    """A die asked for beyond the faces given (its number of sides)."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Faces(Dice):
    """A dice stream that hands out given faces in order and names the next die asked for."""

    __slots__ = ("faces", "used")

    def __init__(self, faces: tuple[int, ...]) -> None:  # no random stream behind it
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        """The next given face, or :class:`_Wanted` when they are all used."""
        if self.used == len(self.faces):
            raise _Wanted(sides)
        face = self.faces[self.used]
        self.used += 1
        return face


def dice_law(play: Callable[[Dice], T]) -> Distribution[T]:
    """The exact law of ``play(dice)`` over every face of every die it asks for.

    ``play`` must be a pure function of the faces it is handed. It is played once for each
    sequence of faces that it asks for (a die it does not roll on a branch is not enumerated
    there), each sequence weighted by the chance of its faces.
    """
    weighted: list[tuple[T, Fraction]] = []

    def walk(faces: tuple[int, ...], weight: Fraction) -> None:
        try:
            weighted.append((play(_Faces(faces)), weight))
        except _Wanted as wanted:
            share = weight / wanted.sides
            for face in range(1, wanted.sides + 1):
                walk((*faces, face), share)

    walk((), Fraction(1))
    return Distribution.of(weighted)


def distribution(
    attack: AttackInput, luck: int = 0, target_hp: int = 0
) -> Distribution[AttackOutcome]:
    """The exact law of :func:`resolve_attack`'s outcome at these stakes (every die enumerated).

    ``luck`` and ``target_hp`` matter only to an attacker that may spend a luck point to hit.
    """
    return dice_law(lambda dice: resolve_attack(attack, dice, luck, target_hp))
