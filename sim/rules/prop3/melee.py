"""Resolving one melee attack of Combat Proposition Three.

``rules/combat-proposition-three.txt``, "(ANOTHER) COMBAT PROPOSAL" and "CRITICAL HITS, DODGES,
AND FAILURES", as RULINGS part C ("Declaring", "Forms", "Resolving an attack") reads them:

1. Declaring: the lower in initiative of the two declares its form first, the higher chooses
   knowing it (:mod:`~sim.rules.prop3.declaring`). A defense declared first that the attack makes
   impossible (a one-handed parry against a bash) leaves the defender undefended (option
   ``impossible_defense``). A combatant with no defense form allowed is undefended.
2. Pools: each side's stat pool (:mod:`~sim.rules.prop3.character`), with the form table, the
   weapon's rating and the armor's rating (``forms.melee_pools``); the attacker gets the wiggle of
   effects on the defender (stumble, a critical dodge) and of allies' hits this round
   (:mod:`~sim.rules.prop3.cluster`); the defender loses dice to effects on it (fall, a critical
   block). With ``size_in_melee`` the ranged size rules apply too.
3. Rolls: one exchange, attempts until one is not a full tie
   (:func:`~sim.rules.prop3.exchange.roll_exchange`, played by ``Fight.exchange``).
4. Outcome: :func:`~sim.rules.prop3.outcomes.settle`.

An undefended attack and an automatic hit use the weapon's rating (and poor armor) only: there is
no defense form to compare the attack form with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from sim.rules.prop3.character import ATTACK_FORMS, ATTACK_NAMES, DEFENSE_FORMS, RANDOM, F
from sim.rules.prop3.declaring import (
    LazyValues,
    Matchup,
    choose_attack,
    choose_defense,
    matchup,
    melee_pools,
    pick,
)
from sim.rules.prop3.exchange import AttemptPlan, attempt_plan
from sim.rules.prop3.outcomes import settle
from sim.rules.prop3.pool import Pool
from sim.rules.prop3.tactics import auto_hit_value

if TYPE_CHECKING:
    from sim.rules.prop3.fight import Fight


def melee_attack(fight: Fight[F], attacker: F, defender: F, primary: bool = False) -> bool:
    """Resolve ``attacker``'s melee attack on ``defender``.

    Args:
        fight: the fight.
        attacker: who attacks (with its weapon in hand).
        defender: its target.
        primary: the attack is an action on the ACS clock (which books its defense itself).

    Returns:
        Whether the defender rolled a defense.
    """
    plan = melee_plan(fight, attacker, defender, primary)
    if plan is None:
        return False
    forms = plan.forms
    a, declared, d = forms.attack, forms.declared, forms.defense
    if fight.tracing:
        fight.combat.emit(
            "declare",
            attacker,
            defender,
            first=None if forms.first is None else (defender if forms.first else attacker).name,
            attack=ATTACK_FORMS[a].value,
            declared=None if declared is None else DEFENSE_FORMS[declared].value,
            defense=None if d is None else DEFENSE_FORMS[d].value,
            can_defend=plan.can_defend,
        )
    exchange = fight.exchange(
        attacker,
        defender,
        plan.attack,
        plan.defense,
        name=ATTACK_NAMES[a],
        primary=primary,
        first=plan.first,
    )
    settle(fight, attacker, defender, exchange, d, missile=False)
    return exchange.defense_rolled


class MeleePlan(NamedTuple):
    """A melee attack before its rolls: the forms declared and both pools (steps 1 and 2).

    Attributes:
        forms: the forms declared.
        attack: the attacker's pool.
        defense: the defender's pool (None: undefended).
        can_defend: the fight lets the defender defend.
        first: the tables of the exchange's first attempt (``exchange.attempt_plan``) when its
            input is the same every time (no persistent points to spend), else None.
    """

    forms: Declared
    attack: Pool
    defense: Pool | None
    can_defend: bool
    first: AttemptPlan | None = None


def melee_plan(
    fight: Fight[F], attacker: F, defender: F, primary: bool = False
) -> MeleePlan | None:
    """The forms and pools of ``attacker``'s melee attack on ``defender`` (None: no attack).

    A pure function of the combatants as they stand, except that a tactic ``random`` draws its
    form on the fight's dice. Without one, the plan is a function of the matchup, both Vigors,
    the defender's exposure and dice lost, whether it may defend and who is higher, so it is
    kept on the attacker's profile by those.
    """
    facing = _facing(fight, attacker, defender)
    if facing is None:
        return None
    m, xw = facing
    xl = defender.state.shaken
    can_defend = fight.can_defend(defender, primary)
    pa = attacker.state.profile
    if pa.attack == RANDOM or defender.state.profile.defense == RANDOM:
        return _plan(fight, attacker, defender, m, xw, xl, can_defend)
    higher = can_defend and bool(m.declarable) and fight.higher(attacker, defender)
    key = (m, attacker.hp, defender.hp, xw, xl, can_defend, higher)
    found = pa.plans.get(key)
    if found is None:
        found = pa.plans[key] = _plan(fight, attacker, defender, m, xw, xl, can_defend)
    return found


def _plan(
    fight: Fight[F], attacker: F, defender: F, m: Matchup, xw: int, xl: int, can_defend: bool
) -> MeleePlan:
    """The plan of :func:`melee_plan`, worked out (uncached)."""
    opposed = can_defend and bool(m.declarable)
    forms = declare(fight, attacker, defender, m, xw, xl, opposed)
    attack, defense = melee_pools(attacker, defender, m, forms.attack, forms.defense, xw, xl)
    fixed = fight.fixed_input(attacker, defender, attack, defense)
    first = None if fixed is None else attempt_plan(fixed, 0, 0)
    return MeleePlan(forms, attack, defense, can_defend, first)


class Declared(NamedTuple):
    """The forms of one melee attack, as declared (RULINGS part C, "Declaring").

    Attributes:
        attack: the attack form.
        declared: the defense form declared (None: none).
        defense: the defense form rolled (None: undefended).
        first: whether the defender declared first (None: nobody declared a defense).
    """

    attack: int
    declared: int | None
    defense: int | None
    first: bool | None


def declare(
    fight: Fight[F], attacker: F, defender: F, m: Matchup, xw: int, xl: int, opposed: bool
) -> Declared:
    """The forms of ``attacker``'s attack on ``defender`` (``opposed``: a defense may be declared).

    The lower in initiative declares first. When neither tactic is random the forms are a function
    of the matchup and the state its form values read (both Vigors, ``xw``, ``xl``) and of who is
    higher, so they are kept on the attacker's profile by those.
    """
    pa, pd = attacker.state.profile, defender.state.profile
    higher = opposed and fight.higher(attacker, defender)
    if pa.attack == RANDOM or pd.defense == RANDOM:
        return _declare(fight, attacker, defender, m, xw, xl, opposed, higher)
    key = (m, attacker.hp, defender.hp, xw, xl, opposed, higher)
    found = pa.declared.get(key)
    if found is None:
        found = _declare(fight, attacker, defender, m, xw, xl, opposed, higher)
        pa.declared[key] = found
    return found


def _declare(
    fight: Fight[F],
    attacker: F,
    defender: F,
    m: Matchup,
    xw: int,
    xl: int,
    opposed: bool,
    higher: bool,
) -> Declared:
    """The forms, declared by the tactics (:func:`declare`, uncached)."""
    pa, pd = attacker.state.profile, defender.state.profile
    values = LazyValues(fight, attacker, defender, m, xw, xl)
    d: int | None
    if not opposed:
        a = choose_attack(fight, pa.attack, m, values, None, False)
        d = None
        first = None
    elif higher:
        first = True
        d = choose_defense(fight, pd.defense, m, values, None)
        a = choose_attack(fight, pa.attack, m, values, d, False)
    else:
        first = False
        a = choose_attack(fight, pa.attack, m, values, None, True)
        d = choose_defense(fight, pd.defense, m, values, a)
    declared = d
    if d is not None and not m.allowed[a][d]:
        d = choose_defense(fight, pd.defense, m, values, a) if fight.rules.redeclare else None
    return Declared(a, declared, d, first)


def auto_hit(fight: Fight[F], attacker: F, defender: F) -> None:
    """A melee counter-attack that hits automatically, rolled to see whether it is critical."""
    planned = auto_hit_pool(fight, attacker, defender)
    if planned is None:
        return
    a, pool = planned
    exchange = fight.exchange(attacker, defender, pool, None, name=ATTACK_NAMES[a], automatic=True)
    settle(fight, attacker, defender, exchange, None, missile=False)


def _facing(fight: Fight[F], attacker: F, defender: F) -> tuple[Matchup, int] | None:
    """The forms ``attacker`` may use on ``defender`` and the defender's exposure (None: none).

    The exposure is the defender's ``exposed`` points and, with clustering, the attacker's
    allies' bonus.
    """
    rules = fight.rules
    db = defender.state
    m = matchup(attacker.state.profile, db.profile, db.armed, rules)
    if not m.attacks:
        return None
    xw = db.exposed
    if rules.cluster:
        xw += fight.cluster.ally_bonus(attacker, defender, rules.cluster_target)
    return m, xw


def auto_hit_pool(fight: Fight[F], attacker: F, defender: F) -> tuple[int, Pool] | None:
    """The attack form and pool of an automatic melee hit (None: the weapon cannot attack).

    A pure function of the combatants as they stand, except that a tactic ``random`` draws its
    form on the fight's dice.
    """
    facing = _facing(fight, attacker, defender)
    if facing is None:
        return None
    m, xw = facing
    rules = fight.rules

    def pool(form: int) -> Pool:  # an automatic hit: the weapon's rating and poor armor only
        return melee_pools(attacker, defender, m, form, None, xw, 0)[0]

    tactic = attacker.state.profile.attack
    if tactic >= 0 and tactic in m.attacks:
        a = tactic
    elif tactic == RANDOM:
        a = pick(fight, m.attacks)
    else:
        a, best = m.attacks[0], None
        for form in m.attacks:
            value = auto_hit_value(pool(form), rules.keep, rules.hit_nicks, rules.crit_nicks)
            if best is None or value > best:
                a, best = form, value
    return a, pool(a)
