"""Ability modifiers and the three combat values: FIGHT, SHOOT, DEFENSE.

Target 10 text, "Combat Tests": FIGHT = Hit Dice + Strength modifier + weapon bonus, SHOOT = Hit
Dice + Dexterity modifier + weapon bonus, DEFENSE = Hit Dice + Dexterity modifier + armor bonus.
The attacker compares FIGHT (hand-held weapons) or SHOOT (thrown and missile weapons) with the
defender's DEFENSE; the difference is the bonus or penalty, never beyond +/-10, and situational
modifiers add at most +/-3 more (:func:`~sim.rules.target10.combat_rolls.attack_modifier`, with
:func:`clamp`).

RULINGS part B: the modifier of an ability score is ``ceil((score - 10) / 2)`` (option
``ability_modifier: ceil_half``), which gives every modifier the text prints (12 -> +1,
14 -> +2, 15 -> +3, 18 -> +4); ``floor_half`` is the other common reading.
"""

from __future__ import annotations

#: Ways to turn an ability score into its modifier (option ``ability_modifier``).
MODIFIER_FORMULAS = ("ceil_half", "floor_half")


def ability_modifier(score: int, formula: str = "ceil_half") -> int:
    """The modifier of an ability score: ``ceil((score - 10) / 2)`` by default."""
    if formula == "ceil_half":
        return -((10 - score) // 2)
    if formula == "floor_half":
        return (score - 10) // 2
    raise ValueError(f"unknown ability modifier formula {formula!r}")


def clamp(value: int, limit: int) -> int:
    """``value`` kept within ``[-limit, +limit]``."""
    return -limit if value < -limit else limit if value > limit else value


def fight(hit_dice: int, strength_mod: int, weapon_bonus: int) -> int:
    """Melee attack value (FIGHT)."""
    return hit_dice + strength_mod + weapon_bonus


def shoot(hit_dice: int, dexterity_mod: int, weapon_bonus: int) -> int:
    """Ranged attack value (SHOOT)."""
    return hit_dice + dexterity_mod + weapon_bonus


def defense(hit_dice: int, dexterity_mod: int, armor_bonus: int) -> int:
    """Defense value (DEFENSE)."""
    return hit_dice + dexterity_mod + armor_bonus


def charge_fight_bonus(strength_mod: int, factor: int) -> int:
    """What a Charge adds to FIGHT: the STR bonus once more (``factor`` 2), never a penalty.

    Text, "Movements", Charge: the charger "adds double their strength bonus to their attack
    score" (option ``charge_str_factor``); FIGHT already holds the bonus once.
    """
    return max(strength_mod, 0) * (factor - 1)


def charge_defense_loss(dexterity_mod: int, drops_dex: bool) -> int:
    """What a Charge takes off DEFENSE: the DEX bonus (a penalty is kept: it is not a bonus).

    Text, "Movements", Charge: the charger "does not add their dexterity bonus to their defense
    score" (option ``charge_drops_dex``).
    """
    return max(dexterity_mod, 0) if drops_dex else 0
