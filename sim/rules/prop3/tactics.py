"""Form choice in Combat Proposition Three: fixed, random, or best by the exact odds.

"The character with lower initiative declares which type of attack or defense they intend to
use. Generally, it will be whatever attack or defense gives them the greatest advantage. Then the
character with the higher initiative makes his or her choice" (``rules/combat-proposition-three.
txt``; RULINGS part C, "Declaring"). A tactic is named in the stat block (``attack``, ``defense``):

- a form (``bash``, ``block``, ...): always that form when the gear allows it, else ``best``;
- ``random``: uniformly among the forms allowed, on the combat's dice;
- ``best``: by the exact expected damage of the attack (``exact.attack_odds``; nicks, a critical
  hit counting ``critical_wounds * nicks_per_wound``), the attacker maximising and the defender
  minimising it. Declaring first, a side does not know the other's form, and assumes the best
  answer to its own (maximin); choosing second, it takes the best answer to the declared form.

The values are cached: :func:`melee_value` and friends by ``functools.lru_cache``, and the whole
3x3 table of an attacker against a defender in a given state on the attacker's profile.
"""

from __future__ import annotations

from functools import lru_cache

from sim.rules.prop3.character import ATTACK_FORMS, DEFENSE_FORMS
from sim.rules.prop3.exact import attack_odds, class_probabilities
from sim.rules.prop3.forms import (
    Armor,
    Effect,
    Modifiers,
    Rating,
    Weapon,
    defense_allowed,
    melee_pools,
)
from sim.rules.prop3.pool import Kind, Outcome, Pool
from sim.rules.prop3.ranged import missile_defense_allowed

_BIG = 100
"""Pool size used to read dice lost off ``forms.melee_pools`` (which stops at zero dice)."""


FormTable = tuple[tuple[Modifiers, ...] | None, ...]
"""``[attack][defense]``: the modifiers of each attack form against each defense form (None:
the weapon cannot make that attack form)."""


@lru_cache(maxsize=4096)
def form_effects(weapon: Weapon, armor: Armor | None, armor_helps: bool) -> FormTable:
    """The form table with a weapon against armor: ``[attack][defense]`` modifiers.

    Each entry is what ``forms.melee_pools`` does to both pools (forms, weapon rating, armor
    rating or no armor), or None when the weapon cannot make that attack form. Attack and
    defense forms are indexed as in :mod:`~sim.rules.prop3.character`.
    """
    table: list[tuple[Modifiers, ...] | None] = []
    for attack in ATTACK_FORMS:
        rating = weapon.rating(attack)
        if rating is None:
            table.append(None)
            continue
        row = []
        for defense in DEFENSE_FORMS:
            pools = melee_pools(
                _BIG,
                _BIG,
                attack,
                defense,
                rating,
                None if armor is None else armor.rating(attack),
                armor_also_helps_attacker=armor_helps,
            )
            row.append(
                Modifiers(
                    attack_dice_lost=_BIG - pools.attack_dice,
                    attack_wiggle=pools.attack_wiggle,
                    defense_dice_lost=_BIG - pools.defense_dice,
                    defense_wiggle=pools.defense_wiggle,
                )
            )
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=4096)
def weapon_effect(weapon: Weapon, armor: Armor | None, armor_helps: bool, attack: int) -> Effect:
    """The attacker's dice lost and wiggle when no one defends: weapon rating and armor.

    Used for automatic hits (a counter-attack after a critical parry) and undefended attacks:
    there is no defense form, so the form table plays no part; poor armor still helps.
    """
    form = ATTACK_FORMS[attack]
    rating = weapon.rating(form)
    lost = 1 if rating == Rating.POOR else 0
    wiggle = 1 if rating == Rating.EXCELLENT else 0
    if armor is not None and armor_helps and armor.rating(form) == Rating.POOR:
        wiggle += 1
    return Effect(dice_lost=lost, wiggle=wiggle)


_NO_DEFENSE = Pool(roll=-1, dice=0, sides=2, wiggle=0, crit_allowed=True, only_ones=False)
"""The defense of an undefended attack: no dice (the attack is compared with nothing)."""


def _odds(
    attack: Pool, defense: Pool, keep: str, save: int, cuts: str = "cut"
) -> dict[Outcome, float] | None:
    a, d = attack.dice, defense.dice
    while True:
        try:
            return attack_odds(
                a,
                attack.sides,
                attack.wiggle,
                d,
                defense.sides,
                defense.wiggle,
                keep=keep,
                attack_crit_allowed=attack.crit_allowed,
                attack_only_ones=attack.only_ones,
                defense_crit_allowed=defense.crit_allowed,
                defense_only_ones=defense.only_ones,
                defense_save_points=save,
                cuts=cuts,
            ).outcomes
        except ValueError as exc:
            # Pools too large to enumerate: estimate with one die fewer on the larger side.
            if "sorted rolls" not in str(exc):
                return None
            if a >= d:
                a -= 1
            else:
                d -= 1


@lru_cache(maxsize=65536)
def melee_value(
    attack: Pool,
    defense: Pool | None,
    keep: str,
    hit: int,
    crit: int,
    save: int = 0,
    cuts: str = "cut",
) -> float:
    """Exact expected damage, in nicks, of an attack (both sides spending wiggle "best").

    A standard or reduced hit counts ``hit`` nicks, a critical hit ``crit``; ties are re-rolled.
    A defender with no pool (None) or no dice cannot defend. Pools too large for the exact
    calculator are estimated with fewer dice. ``save``: armor points against a missile.
    ``cuts``: how a defender pair meets an attacking triple (``pool.CUTS``).
    """
    odds = _odds(attack, _NO_DEFENSE if defense is None else defense, keep, save, cuts)
    if odds is None:
        return 0.0
    return (
        hit * (odds[Outcome.HIT] + odds[Outcome.CRIT_REDUCED]) + crit * odds[Outcome.CRITICAL_HIT]
    )


@lru_cache(maxsize=65536)
def auto_hit_value(attack: Pool, keep: str, hit: int, crit: int) -> float:
    """Expected damage of an automatic hit: critical on a triple, a standard hit otherwise."""
    p = class_probabilities(
        attack.dice,
        attack.sides,
        attack.wiggle,
        keep=keep,
        crit_allowed=attack.crit_allowed,
        only_ones=attack.only_ones,
    )[Kind.TRIPLE]
    return hit + (crit - hit) * p


# -- choosing ------------------------------------------------------------------------------------

#: ``[attack][defense]`` expected damage of each pair of forms (``declaring.FormValues``).
Values = list[list[float]]
#: ``[attack][defense]``: the defender's gear allows that defense (:func:`allowed_table`).
Allowed = tuple[tuple[bool, ...], ...]


def first_attack(
    values: Values, undefended: list[float], attacks: list[int], allowed: Allowed
) -> int:
    """Attack form declared first: the best worst case over the defender's best answers."""
    best, choice = None, attacks[0]
    for a in attacks:
        answers = [values[a][d] for d in range(3) if allowed[a][d]]
        worst = min(answers) if answers else undefended[a]
        if best is None or worst > best:
            best, choice = worst, a
    return choice


def reply_defense(values: Values, a: int, allowed: Allowed) -> int | None:
    """Best defense against a declared attack form (None: no defense form is allowed)."""
    best, choice = None, None
    for d in range(3):
        if allowed[a][d] and (best is None or values[a][d] < best):
            best, choice = values[a][d], d
    return choice


def _against(
    values: Values, undefended: list[float], a: int, d: int, allowed: Allowed, redeclare: bool
) -> float:
    """The value of attack ``a`` against declared defense ``d`` (impossible: by the option)."""
    if allowed[a][d]:
        return values[a][d]
    if redeclare:
        answers = [values[a][e] for e in range(3) if allowed[a][e]]
        if answers:
            return min(answers)
    return undefended[a]


def first_defense(
    values: Values,
    undefended: list[float],
    attacks: list[int],
    allowed: Allowed,
    declarable: list[int],
    redeclare: bool,
) -> int | None:
    """Defense form declared first: the lowest best-attack value over the declarable forms."""
    best, choice = None, None
    for d in declarable:
        worst = max(_against(values, undefended, a, d, allowed, redeclare) for a in attacks)
        if best is None or worst < best:
            best, choice = worst, d
    return choice


def reply_attack(
    values: Values,
    undefended: list[float],
    d: int | None,
    attacks: list[int],
    allowed: Allowed,
    redeclare: bool,
) -> int:
    """Best attack form against a declared defense (None: against no defense)."""
    best, choice = None, attacks[0]
    for a in attacks:
        v = undefended[a] if d is None else _against(values, undefended, a, d, allowed, redeclare)
        if best is None or v > best:
            best, choice = v, a
    return choice


def allowed_table(
    attacks: list[int],
    armor: Armor | None,
    shield: bool,
    weapon: Weapon | None,
    bash_needs_two_hands: bool = True,
) -> tuple[tuple[bool, ...], ...]:
    """``[attack][defense]``: whether the defender's gear allows that defense (forms.py)."""
    return tuple(
        tuple(
            a in attacks
            and defense_allowed(
                d,
                ATTACK_FORMS[a],
                armor=armor,
                shield=shield,
                weapon=weapon,
                bash_needs_two_hands=bash_needs_two_hands,
            )
            for d in DEFENSE_FORMS
        )
        for a in range(3)
    )


def missile_allowed(armor: Armor | None, shield: bool, weapon: Weapon | None) -> list[int]:
    """The defense forms a target's gear allows against a missile."""
    return [
        i
        for i, d in enumerate(DEFENSE_FORMS)
        if missile_defense_allowed(d, armor=armor, shield=shield, weapon=weapon)
    ]
