"""Declaring forms in Proposition Three melee: who may do what, and which form each picks.

``rules/combat-proposition-three.txt``, "(ANOTHER) COMBAT PROPOSAL": "The character with lower
initiative declares which type of attack or defense they intend to use ... Then the character
with the higher initiative makes his or her choice", and the requirements of the defense forms
("Dodges require lighter armors. Parries require a weapon ... Blocks require a two-hander weapon
or a shield"); RULINGS part C ("Declaring", "Forms"). The choice itself is a tactic of
:mod:`~sim.rules.prop3.tactics` (a fixed form, random, or best by the exact odds).

- :class:`Matchup`: what an attacker's gear can do against a defender's (cached per pair of
  profiles, with the defender's weapon in hand or not);
- :class:`FormValues`: the exact expected damage of every attack form against every defense
  form, for both combatants as they stand (cached on the attacker's profile);
- :func:`choose_attack`, :func:`choose_defense`: a combatant's form, declared first or knowing
  the other's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic

from sim.rules.prop3.character import (
    ATTACK_FORMS,
    DODGE,
    RANDOM,
    F,
    Profile,
    pool_dice,
    ready_pool,
)
from sim.rules.prop3.forms import Effect, Modifiers, attack_allowed
from sim.rules.prop3.pool import Pool
from sim.rules.prop3.ranged import size_effect
from sim.rules.prop3.tactics import (
    FormTable,
    allowed_table,
    first_attack,
    first_defense,
    form_effects,
    melee_value,
    reply_attack,
    reply_defense,
    weapon_effect,
)

if TYPE_CHECKING:
    from sim.rules.prop3.character import Combatant
    from sim.rules.prop3.fight import Fight
    from sim.rules.prop3.models import Rules

_NO_SIZE = Modifiers()


class Matchup:
    """What an attacker's profile can do against a defender's, cached on the attacker's profile.

    Attributes:
        attacks: the attack forms the weapon can make.
        allowed: ``[attack][defense]``: the defender's gear allows that defense.
        declarable: the defense forms allowed against at least one of the attacks.
        answers: ``[attack]``: the defense forms allowed against that attack form.
        effects: the form table with this weapon and armor (``tactics.form_effects``).
        undefended: per attack form, the attacker's dice lost and wiggle with no defense form.
        size: the size modifiers (only with the option ``size_in_melee``).
    """

    __slots__ = ("allowed", "answers", "attacks", "declarable", "effects", "size", "undefended")

    def __init__(self, pa: Profile, pd: Profile, armed: bool, rules: Rules) -> None:
        self.attacks = [a for a, form in enumerate(ATTACK_FORMS) if attack_allowed(form, pa.weapon)]
        weapon = pd.weapon if armed and not pd.natural else None
        self.allowed = allowed_table(
            self.attacks, pd.armor, pd.shield, weapon, rules.parry_bash_two_hands
        )
        self.declarable = [d for d in range(3) if any(row[d] for row in self.allowed)]
        self.answers = [[d for d in range(3) if row[d]] for row in self.allowed]
        self.effects: FormTable = form_effects(pa.weapon, pd.armor, rules.armor_helps)
        self.undefended: tuple[Effect | None, ...] = tuple(
            weapon_effect(pa.weapon, pd.armor, rules.armor_helps, a) if a in self.attacks else None
            for a in range(3)
        )
        self.size = size_effect(pa.size, pd.size) if rules.size_in_melee else _NO_SIZE

    def form(self, a: int, d: int) -> Modifiers:
        """The modifiers of attack form ``a`` against defense form ``d`` (``a`` it can make)."""
        row = self.effects[a]
        assert row is not None, "an attack form the weapon cannot make"
        return row[d]

    def unopposed(self, a: int) -> Effect:
        """The attacker's dice lost and wiggle for attack form ``a`` with no defense form."""
        effect = self.undefended[a]
        assert effect is not None, "an attack form the weapon cannot make"
        return effect


def matchup(pa: Profile, pd: Profile, armed: bool, rules: Rules) -> Matchup:
    """The cached :class:`Matchup` of two profiles (the defender's weapon in hand or not)."""
    key = (pd, armed)
    found = pa.matchups.get(key)
    if found is None:
        found = pa.matchups[key] = Matchup(pa, pd, armed, rules)
    return found


class FormValues:
    """The exact expected damage of each attack form against each defense form, and undefended.

    Attributes:
        values: ``[attack][defense]`` expected damage, in nicks (0 where not allowed).
        undefended: per attack form, the expected damage with no defense.
        memo: the forms already chosen from these values, by who chose and knowing what.
    """

    __slots__ = ("memo", "undefended", "values")

    def __init__(self, values: list[list[float]], undefended: list[float]) -> None:
        self.values = values
        self.undefended = undefended
        self.memo: dict[int, int | None] = {}


def melee_pools(
    a_f: Combatant, d_f: Combatant, m: Matchup, a: int, d: int | None, xw: int, xl: int
) -> tuple[Pool, Pool | None]:
    """Both pools of attack form ``a`` against defense form ``d`` (None: no defense roll).

    The form table, the weapon and the armor (``m``), size with ``size_in_melee``, the
    attacker's extra wiggle ``xw`` (effects on the defender, allies' hits) and the defender's
    dice lost ``xl`` (effects on it). With no defense form only the weapon's rating and poor
    armor count. Cached on the attacker's profile by everything they depend on.
    """
    pa = a_f.state.profile
    key = (m, a_f.hp, d_f.hp, xw, xl, a, d)
    found = pa.pools.get(key)
    if found is not None:
        return found
    size = m.size
    base = pool_dice(a_f, pa, a)
    if d is None:
        alone = m.unopposed(a)
        lost = alone.dice_lost + size.attack_dice_lost
        attack = ready_pool(a_f, a, max(0, base - lost), alone.wiggle + xw + size.attack_wiggle)
        found = pa.pools[key] = (attack, None)
        return found
    form = m.form(a, d)
    lost = form.attack_dice_lost + size.attack_dice_lost
    attack = ready_pool(a_f, a, max(0, base - lost), form.attack_wiggle + xw + size.attack_wiggle)
    roll = DODGE + d
    lost = form.defense_dice_lost + xl + size.defense_dice_lost
    defense = ready_pool(
        d_f,
        roll,
        max(0, pool_dice(d_f, d_f.state.profile, roll) - lost),
        form.defense_wiggle + size.defense_wiggle,
    )
    found = pa.pools[key] = (attack, defense)
    return found


def form_values(
    fight: Fight[F], a_f: F, d_f: F, m: Matchup, xw: int, xl: int
) -> FormValues:
    """The :class:`FormValues` of an attack, cached on the attacker's profile.

    The key is the state that changes them: both combatants' Vigor, the attacker's extra wiggle
    ``xw`` and the defender's dice lost ``xl``.
    """
    pa = a_f.state.profile
    key = (m, a_f.hp, d_f.hp, xw, xl)
    found = pa.values.get(key)
    if found is not None:
        return found
    rules = fight.rules
    keep, hit, crit = rules.keep, rules.hit_nicks, rules.crit_nicks
    values = [[0.0, 0.0, 0.0] for _ in range(3)]
    undefended = [0.0, 0.0, 0.0]
    for a in m.attacks:
        attack, _ = melee_pools(a_f, d_f, m, a, None, xw, xl)
        undefended[a] = melee_value(attack, None, keep, hit, crit)
        for d in range(3):
            if m.allowed[a][d]:
                attack, defense = melee_pools(a_f, d_f, m, a, d, xw, xl)
                values[a][d] = melee_value(attack, defense, keep, hit, crit, 0, rules.cuts)
    found = pa.values[key] = FormValues(values, undefended)
    return found


class LazyValues(Generic[F]):
    """The form values of one attack, computed only if a tactic needs them."""

    __slots__ = ("a_f", "d_f", "fight", "got", "m", "xl", "xw")

    def __init__(self, fight: Fight[F], a_f: F, d_f: F, m: Matchup, xw: int, xl: int) -> None:
        self.fight, self.a_f, self.d_f, self.m, self.xw, self.xl = fight, a_f, d_f, m, xw, xl
        self.got: FormValues | None = None

    def __call__(self) -> FormValues:
        """The values (computed on the first call)."""
        if self.got is None:
            self.got = form_values(self.fight, self.a_f, self.d_f, self.m, self.xw, self.xl)
        return self.got


def pick(fight: Fight[F], choices: list[int]) -> int:
    """One of ``choices`` at random, on the combat's dice (no roll when there is one choice)."""
    return choices[fight.dice.index(len(choices))] if len(choices) > 1 else choices[0]


def choose_attack(
    fight: Fight[F], tactic: int, m: Matchup, values: LazyValues[F], d: int | None, first: bool
) -> int:
    """The attack form by the attacker's tactic (declared first, or knowing defense ``d``)."""
    attacks = m.attacks
    if tactic >= 0 and tactic in attacks:
        return tactic
    if tactic == RANDOM:
        return pick(fight, attacks)
    got = values()
    memo_key = -1 if first else (-2 if d is None else d)
    choice = got.memo.get(memo_key)
    if choice is None:
        if first:
            choice = first_attack(got.values, got.undefended, attacks, m.allowed)
        else:
            choice = reply_attack(
                got.values, got.undefended, d, attacks, m.allowed, fight.rules.redeclare
            )
        got.memo[memo_key] = choice
    return choice


def choose_defense(
    fight: Fight[F], tactic: int, m: Matchup, values: LazyValues[F], a: int | None
) -> int | None:
    """The defense form by the defender's tactic (declared first if ``a`` is None)."""
    choices = m.declarable if a is None else m.answers[a]
    if not choices:
        return None
    if tactic >= 0 and tactic in choices:
        return tactic
    if tactic == RANDOM:
        return pick(fight, choices)
    got = values()
    key = 10 if a is None else 11 + a
    if key in got.memo:
        return got.memo[key]
    if a is None:
        choice = first_defense(
            got.values, got.undefended, m.attacks, m.allowed, choices, fight.rules.redeclare
        )
    else:
        choice = reply_defense(got.values, a, m.allowed)
    got.memo[key] = choice
    return choice
