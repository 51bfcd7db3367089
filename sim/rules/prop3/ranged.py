"""Ranged combat in Combat Proposition Three: range, aiming, size and missile defense.

Implements the ranged passages of "(ANOTHER) COMBAT PROPOSAL" in
``rules/combat-proposition-three.txt``, as read in RULINGS part C ("Ranged"): an attack loses a
die per range increment beyond the first and cannot reach past the weapon's maximum range, the
target gains a wiggle point per increment beyond the first; a round spent aiming gives a wiggle
point; size differences trade dice and wiggle points; a missile is defended against with dodge
(average), block (poor; needs a shield or heavy armor) or parry (poor), and armor plays no part
unless the defense fails, when armor excellent against the ammunition's form gives one more
wiggle point that may still save the defender.

The bow of the text (range 5 ft) loses one die from 6 to 10 ft and two from 11 to 15 ft.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, TypeVar

from sim.rules.prop3.forms import (
    RATING_EFFECT,
    Armor,
    AttackForm,
    DefenseForm,
    Modifiers,
    Pools,
    Rating,
    Weapon,
)
from sim.rules.prop3.pool import FAILED_DEFENSES, Result, resolve
from sim.rules.prop3.wiggle import Defense, best_response

MISSILE_DEFENSE: dict[DefenseForm, Rating] = {
    DefenseForm.DODGE: Rating.AVERAGE,
    DefenseForm.BLOCK: Rating.POOR,
    DefenseForm.PARRY: Rating.POOR,
}
"""How good each defense form is against a missile."""

AMMUNITION_FORM: dict[str, AttackForm] = {
    "arrow": AttackForm.THRUST,
    "javelin": AttackForm.THRUST,
    "stone": AttackForm.BASH,
    "sling bullet": AttackForm.BASH,
    "throwing hammer": AttackForm.BASH,
    "hand-axe": AttackForm.SLASH,
    "boomerang": AttackForm.SLASH,
}
"""The attack form each ammunition of the text counts as against armor."""


def range_increments(distance: float, weapon_range: float) -> int:
    """How many multiples of the weapon's range the target is at (1 up to the range itself)."""
    if distance < 0 or weapon_range <= 0:
        raise ValueError("distance must be 0 or more and the weapon's range more than 0")
    return max(1, math.ceil(distance / weapon_range))


def in_range(distance: float, max_range: float) -> bool:
    """Whether a target at ``distance`` can be shot at all."""
    return distance <= max_range


SizeEffect = Modifiers
"""What a size difference does to a ranged attack, both sides."""


@lru_cache(maxsize=256)
def size_effect(attacker_size: int, target_size: int) -> SizeEffect:
    """Size categories: a larger target gives the attacker wiggle and costs the target dice.

    Per category the target is larger: attacker +1 wiggle, target -1 defense die. Per category
    it is smaller: attacker -1 die, target +1 wiggle.
    """
    larger = target_size - attacker_size
    if larger >= 0:
        return SizeEffect(attack_wiggle=larger, defense_dice_lost=larger)
    return SizeEffect(attack_dice_lost=-larger, defense_wiggle=-larger)


def missile_defense_allowed(
    defense: DefenseForm,
    *,
    armor: Armor | None = None,
    shield: bool = False,
    weapon: Weapon | None = None,
) -> bool:
    """Whether a target can use a defense form against a missile.

    Dodge needs light armor or none (as in melee); Block needs a shield or heavy armor; Parry
    needs a weapon.
    """
    if defense == DefenseForm.DODGE:
        return armor is None or not armor.heavy
    if defense == DefenseForm.BLOCK:
        return shield or (armor is not None and armor.heavy)
    return weapon is not None


def ranged_pools(
    attack_dice: int,
    defense_dice: int,
    defense: DefenseForm,
    *,
    distance: float,
    weapon_range: float,
    max_range: float,
    aimed: bool = False,
    attacker_size: int = 0,
    target_size: int = 0,
    attack_wiggle: int = 0,
    defense_wiggle: int = 0,
) -> Pools:
    """Both sides' dice and wiggle points for a missile attack.

    Args:
        attack_dice: the attacker's pool (stat and skill) before range and size.
        defense_dice: the target's pool before size and the missile-defense table.
        defense: the target's defense form.
        distance: the distance to the target.
        weapon_range: the weapon's range (one increment).
        max_range: the weapon's maximum range.
        aimed: whether the attacker spent a round aiming (+1 wiggle).
        attacker_size: the attacker's size category.
        target_size: the target's size category.
        attack_wiggle: the attacker's wiggle points from elsewhere.
        defense_wiggle: the target's wiggle points from elsewhere.

    Raises:
        ValueError: if the target is beyond the maximum range (check :func:`in_range` first).
    """
    if not in_range(distance, max_range):
        raise ValueError(f"a target at {distance} is beyond the maximum range {max_range}")
    beyond = range_increments(distance, weapon_range) - 1
    size = size_effect(attacker_size, target_size)
    form = RATING_EFFECT[MISSILE_DEFENSE[defense]]
    return Pools(
        attack_dice=max(0, attack_dice - beyond - size.attack_dice_lost),
        attack_wiggle=attack_wiggle + int(aimed) + size.attack_wiggle,
        defense_dice=max(0, defense_dice - size.defense_dice_lost - form.dice_lost),
        defense_wiggle=defense_wiggle + beyond + size.defense_wiggle + form.wiggle,
    )


def armor_save_points(armor: Rating | None) -> int:
    """Wiggle points armor gives a target whose missile defense failed (its rating vs the ammo)."""
    return 1 if armor == Rating.EXCELLENT else 0


@dataclass(frozen=True, slots=True)
class MissileDefense:
    """A target's answer to a missile: its defense, and whether armor points were used."""

    defense: Defense
    armor_used: bool


class _Answer(Protocol):
    @property
    def result(self) -> Result: ...


A = TypeVar("A", bound=_Answer)


def armored(
    attack: Result, answer: Callable[[int], A], points: int, save_points: int, cuts: str = "cut"
) -> tuple[A, bool]:
    """A target's answer to a missile with ``points``, answered again with armor's if it fails.

    "Armor does not affect the defense roll against a ranged weapon unless the defense fails"
    (the ranged passage): if the attack lands (hit, critical hit or reduced critical) and armor
    gives ``save_points``, the same roll is answered again with ``points + save_points``.

    Args:
        attack: the attacker's result.
        answer: the defender's answer with a number of wiggle points.
        points: its wiggle points.
        save_points: armor's points (``armor_save_points``).
        cuts: how a defender pair meets an attacking triple (``pool.CUTS``).

    Returns:
        The answer counted, and whether armor's points were used.
    """
    first = answer(points)
    if save_points <= 0 or resolve(attack, first.result, cuts) not in FAILED_DEFENSES:
        return first, False
    return answer(points + save_points), True


def missile_defense(
    attack: Result,
    faces: Sequence[int],
    sides: int,
    points: int,
    *,
    save_points: int = 0,
    keep: str = "lowest_three",
    crit_allowed: bool = True,
    only_ones: bool = False,
    cuts: str = "cut",
) -> MissileDefense:
    """The target's best response to a missile (``wiggle.best_response``), with :func:`armored`."""

    def answer(points: int) -> Defense:
        return best_response(
            attack,
            faces,
            sides,
            points,
            keep=keep,
            crit_allowed=crit_allowed,
            only_ones=only_ones,
            cuts=cuts,
        )

    defense, used = armored(attack, answer, points, save_points, cuts)
    return MissileDefense(defense, armor_used=used)
