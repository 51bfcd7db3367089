"""Attack and defense forms, weapon and armor ratings, in Combat Proposition Three.

Implements the "(ANOTHER) COMBAT PROPOSAL" passages of ``rules/combat-proposition-three.txt``:
the rock-paper-scissors table of three attack forms against three defense forms, both ways, the
weapon ratings per attack form, the armor ratings per attack form, "no armor at all always
results in a penalty to your defense", and the requirements of each defense form, as read in
RULINGS part C ("Forms"). Poor costs a die, excellent gives a wiggle point, average does nothing.

Option ``armor_also_helps_attacker`` (default True, RULINGS part C): armor poor against the
attack form also gives the attacker +1 wiggle, as in Moonbelly's bash on Kronzer's chain mail.
Everything here is pure data and pure functions; :func:`melee_pools` applies the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class AttackForm(StrEnum):
    """The three attack forms."""

    BASH = "bash"
    SLASH = "slash"
    THRUST = "thrust"


class DefenseForm(StrEnum):
    """The three defense forms."""

    DODGE = "dodge"
    BLOCK = "block"
    PARRY = "parry"


class Rating(StrEnum):
    """How good a form, weapon or armor is against (or for) an attack form."""

    POOR = "poor"
    AVERAGE = "average"
    EXCELLENT = "excellent"


@dataclass(frozen=True, slots=True)
class Effect:
    """Dice lost and wiggle points gained by one side."""

    dice_lost: int = 0
    wiggle: int = 0


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Dice lost and wiggle points of both sides of an attack (forms and gear, size, ...)."""

    attack_dice_lost: int = 0
    attack_wiggle: int = 0
    defense_dice_lost: int = 0
    defense_wiggle: int = 0


RATING_EFFECT = {
    Rating.POOR: Effect(dice_lost=1),
    Rating.AVERAGE: Effect(),
    Rating.EXCELLENT: Effect(wiggle=1),
}
"""Poor loses one die; excellent earns one wiggle point; average does nothing."""

_A, _D = AttackForm, DefenseForm
_P, _M, _E = Rating.POOR, Rating.AVERAGE, Rating.EXCELLENT

ATTACK_VS_DEFENSE: dict[tuple[AttackForm, DefenseForm], Rating] = {
    (_A.BASH, _D.BLOCK): _P,
    (_A.BASH, _D.DODGE): _M,
    (_A.BASH, _D.PARRY): _E,
    (_A.SLASH, _D.PARRY): _P,
    (_A.SLASH, _D.BLOCK): _M,
    (_A.SLASH, _D.DODGE): _E,
    (_A.THRUST, _D.DODGE): _P,
    (_A.THRUST, _D.PARRY): _M,
    (_A.THRUST, _D.BLOCK): _E,
}
"""How good each attack form is against each defense form (the attacker's dice and wiggle)."""

DEFENSE_VS_ATTACK: dict[tuple[DefenseForm, AttackForm], Rating] = {
    (_D.DODGE, _A.SLASH): _P,
    (_D.DODGE, _A.BASH): _M,
    (_D.DODGE, _A.THRUST): _E,
    (_D.PARRY, _A.BASH): _P,
    (_D.PARRY, _A.THRUST): _M,
    (_D.PARRY, _A.SLASH): _E,
    (_D.BLOCK, _A.THRUST): _P,
    (_D.BLOCK, _A.SLASH): _M,
    (_D.BLOCK, _A.BASH): _E,
}
"""How good each defense form is against each attack form (the defender's dice and wiggle)."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon's rating for each attack form (None: it cannot make that attack).

    Attributes:
        bash: rating for bashing.
        slash: rating for slashing.
        thrust: rating for thrusting.
        two_handed: a two-hander can block, and parry a bash.
    """

    bash: Rating | None = Rating.AVERAGE
    slash: Rating | None = Rating.AVERAGE
    thrust: Rating | None = Rating.AVERAGE
    two_handed: bool = False

    def rating(self, form: AttackForm) -> Rating | None:
        """The weapon's rating for an attack form."""
        return getattr(self, form.value)


@dataclass(frozen=True, slots=True)
class Armor:
    """An armor's rating against each attack form.

    Attributes:
        bash: rating against bashes.
        slash: rating against slashes.
        thrust: rating against thrusts.
        heavy: heavy armor forbids dodging (and lets one block missiles without a shield).
    """

    bash: Rating = Rating.AVERAGE
    slash: Rating = Rating.AVERAGE
    thrust: Rating = Rating.AVERAGE
    heavy: bool = False

    def rating(self, form: AttackForm) -> Rating:
        """The armor's rating against an attack form."""
        return getattr(self, form.value)


EXAMPLE_WEAPONS = {
    "club": Weapon(bash=_E, slash=_M, thrust=_P),
    "flail": Weapon(bash=_E, slash=_E, thrust=_P, two_handed=True),
}
"""The weapons the text rates in full (the flail's thrust "may not even be an option")."""

EXAMPLE_ARMORS = {
    "chain mail": Armor(bash=_P, slash=_M, thrust=_E),
    "beetle-shell": Armor(bash=_M, slash=_E, thrust=_P),
    "full plate": Armor(bash=_E, slash=_E, thrust=_M, heavy=True),
}
"""The armors the text rates in full; chain mail is light (Kronzer dodges in his)."""


def attack_allowed(attack: AttackForm, weapon: Weapon) -> bool:
    """Whether a weapon can make an attack form at all."""
    return weapon.rating(attack) is not None


def defense_allowed(
    defense: DefenseForm,
    attack: AttackForm,
    *,
    armor: Armor | None = None,
    shield: bool = False,
    weapon: Weapon | None = None,
    bash_needs_two_hands: bool = True,
) -> bool:
    """Whether a defender can use a defense form against an attack form.

    Dodge needs light armor or none; Parry needs a weapon, a two-hander to parry a Bash (the
    text: "usually a two-hander to parry a bash", option ``parry_bash_needs_two_hands``); Block
    needs a shield or a two-handed weapon.

    Args:
        defense: the defense form.
        attack: the attack form being defended against.
        armor: the defender's armor, or None.
        shield: whether the defender carries a shield.
        weapon: the defender's weapon, or None.
        bash_needs_two_hands: a parry against a bash needs a two-handed weapon (default True).
    """
    if defense == DefenseForm.DODGE:
        return armor is None or not armor.heavy
    if defense == DefenseForm.PARRY:
        if weapon is None:
            return False
        return attack != AttackForm.BASH or weapon.two_handed or not bash_needs_two_hands
    return shield or (weapon is not None and weapon.two_handed)


@dataclass(frozen=True, slots=True)
class Pools:
    """The dice and wiggle points of both sides of an attack."""

    attack_dice: int
    attack_wiggle: int
    defense_dice: int
    defense_wiggle: int


def melee_pools(
    attack_dice: int,
    defense_dice: int,
    attack: AttackForm,
    defense: DefenseForm,
    weapon: Rating,
    armor: Rating | None,
    *,
    attack_wiggle: int = 0,
    defense_wiggle: int = 0,
    armor_also_helps_attacker: bool = True,
) -> Pools:
    """Apply the form table, the weapon and the armor to both sides' pools.

    Args:
        attack_dice: the attacker's pool before forms (see ``pool.pool_size``).
        defense_dice: the defender's pool before forms.
        attack: the attack form.
        defense: the defense form.
        weapon: the attacker's weapon rating for ``attack``.
        armor: the defender's armor rating against ``attack``, or None for no armor (which
            costs a defense die).
        attack_wiggle: the attacker's wiggle points from elsewhere.
        defense_wiggle: the defender's wiggle points from elsewhere.
        armor_also_helps_attacker: armor poor against the attack also gives the attacker +1
            wiggle (RULINGS default True).

    Returns:
        Both sides' dice (never below 0) and wiggle points.
    """
    effects_attack = [RATING_EFFECT[ATTACK_VS_DEFENSE[attack, defense]], RATING_EFFECT[weapon]]
    effects_defense = [RATING_EFFECT[DEFENSE_VS_ATTACK[defense, attack]]]
    if armor is None:
        effects_defense.append(Effect(dice_lost=1))
    else:
        effects_defense.append(RATING_EFFECT[armor])
        if armor == Rating.POOR and armor_also_helps_attacker:
            effects_attack.append(Effect(wiggle=1))
    return Pools(
        attack_dice=max(0, attack_dice - sum(e.dice_lost for e in effects_attack)),
        attack_wiggle=attack_wiggle + sum(e.wiggle for e in effects_attack),
        defense_dice=max(0, defense_dice - sum(e.dice_lost for e in effects_defense)),
        defense_wiggle=defense_wiggle + sum(e.wiggle for e in effects_defense),
    )
