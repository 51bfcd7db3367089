"""Resolving one melee attack of Combat Proposition Three.

``rules/combat-proposition-three.txt``, "(ANOTHER) COMBAT PROPOSAL" and "CRITICAL HITS, DODGES,
AND FAILURES", as RULINGS part C ("Declaring", "Forms", "Resolving an attack") reads them:

1. Declaring: the lower in initiative of the two declares its form first, the higher chooses
   knowing it (:mod:`~sim.rules.prop3.tactics`). A defense declared first that the attack makes
   impossible (a one-handed parry against a bash) leaves the defender undefended (option
   ``impossible_defense``). A combatant with no defense form allowed is undefended.
2. Pools: each side's stat pool (:mod:`~sim.rules.prop3.character`), with the form table, the
   weapon's rating and the armor's rating (``forms.melee_pools``); the attacker gets the wiggle of
   effects on the defender (stumble, a critical dodge) and of allies' hits this round
   (:mod:`~sim.rules.prop3.cluster`); the defender loses dice to effects on it (fall, a critical
   block). With ``size_in_melee`` the ranged size rules apply too.
3. Rolls: the attacker rolls and wiggles; with no pair it fumbles (the defender does not roll);
   otherwise the defender rolls and answers, seeing the attack. Full ties are re-rolled.
4. Outcome (``pool.resolve``): a hit deals nicks, a critical hit wounds; a critical defense has
   its effect (:mod:`~sim.rules.prop3.criticals`); a fumble rolls the d6
   (:mod:`~sim.rules.prop3.fumbles`).

An undefended attack and an automatic hit use the weapon's rating (and poor armor) only: there is
no defense form to compare the attack form with.
"""

from __future__ import annotations

from typing import Any

from sim.rules.prop3.character import (
    ATTACK_FORMS,
    DEFENSE_FORMS,
    DODGE,
    PARRY,
    RANDOM,
    pool_dice,
    stat_now,
)
from sim.rules.prop3.criticals import critical_defense
from sim.rules.prop3.fight import MAX_TIES
from sim.rules.prop3.fumbles import fumble
from sim.rules.prop3.pool import NOTHING, Kind, Outcome, resolve, roll_pool
from sim.rules.prop3.ranged import size_effect
from sim.rules.prop3.tactics import (
    allowed_table,
    auto_hit_value,
    first_attack,
    first_defense,
    form_effects,
    melee_value,
    reply_attack,
    reply_defense,
    weapon_effect,
)

_PARRY = PARRY - DODGE
_NO_SIZE = (0, 0, 0, 0)


class Matchup:
    """What an attacker's profile can do against a defender's, cached on the attacker's profile.

    Attributes:
        attacks: the attack forms the weapon can make.
        allowed: ``[attack][defense]``: the defender's gear allows that defense.
        declarable: the defense forms allowed against at least one of the attacks.
        effects: the form table with this weapon and armor (``tactics.form_effects``).
        undefended: per attack form, ``(dice lost, wiggle)`` with no defense form.
        size: ``(attack dice lost, attack wiggle, defense dice lost, defense wiggle)``.
    """

    __slots__ = ("allowed", "attacks", "declarable", "effects", "size", "undefended")

    def __init__(self, pa: Any, pd: Any, armed: bool, rules: Any) -> None:
        self.attacks = [a for a in range(3) if pa.rating[a] is not None]
        weapon = pd.weapon if armed and not pd.natural else None
        self.allowed = allowed_table(self.attacks, pd.armor, pd.shield, weapon)
        self.declarable = [d for d in range(3) if any(row[d] for row in self.allowed)]
        self.effects = form_effects(pa.weapon, pd.armor, rules.armor_helps)
        self.undefended = tuple(
            weapon_effect(pa.weapon, pd.armor, rules.armor_helps, a) if a in self.attacks else None
            for a in range(3)
        )
        if rules.size_in_melee:
            s = size_effect(pa.size, pd.size)
            self.size = (s.attack_dice_lost, s.attack_wiggle, s.defense_dice_lost, s.defense_wiggle)
        else:
            self.size = _NO_SIZE


def matchup(pa: Any, pd: Any, armed: bool, rules: Any) -> Matchup:
    """The cached :class:`Matchup` of two profiles (the defender's weapon in hand or not)."""
    key = (pd, armed)
    found = pa.cache.get(key)
    if found is None:
        found = pa.cache[key] = Matchup(pa, pd, armed, rules)
    return found


def form_values(fight: Any, a_f: Any, d_f: Any, m: Matchup, xw: int, xl: int) -> tuple:
    """The exact expected damage of each attack form against each defense form, and undefended.

    Cached on the attacker's profile by the state that changes them: both combatants' Vigor, the
    attacker's extra wiggle ``xw`` and the defender's dice lost ``xl``.
    """
    pa = a_f.state.profile
    pd = d_f.state.profile
    key = (m, a_f.hp, d_f.hp, xw, xl)
    found = pa.cache.get(key)
    if found is not None:
        return found
    rules = fight.rules
    keep, hit, crit = rules.keep, rules.hit_nicks, rules.crit_nicks
    s_al, s_aw, s_dl, s_dw = m.size
    values = [[0.0, 0.0, 0.0] for _ in range(3)]
    undefended = [0.0, 0.0, 0.0]
    defense = []
    for d in range(3):
        roll = DODGE + d
        stat = stat_now(d_f, pd, roll)
        defense.append((pool_dice(d_f, pd, roll), pd.sides[roll], stat > 2, stat <= 1))
    for a in m.attacks:
        stat = stat_now(a_f, pa, a)
        base, sides, a_crit, a_ones = pool_dice(a_f, pa, a), pa.sides[a], stat > 2, stat <= 1
        lost, wiggle = m.undefended[a]
        undefended[a] = melee_value(
            max(0, base - lost - s_al),
            sides,
            wiggle + xw + s_aw,
            a_crit,
            a_ones,
            0,
            2,
            0,
            True,
            False,
            keep,
            hit,
            crit,
        )
        for d in range(3):
            if not m.allowed[a][d]:
                continue
            al, aw, dl, dw = m.effects[a][d]
            n_d, d_sides, d_crit, d_ones = defense[d]
            values[a][d] = melee_value(
                max(0, base - al - s_al),
                sides,
                aw + xw + s_aw,
                a_crit,
                a_ones,
                max(0, n_d - dl - xl - s_dl),
                d_sides,
                dw + s_dw,
                d_crit,
                d_ones,
                keep,
                hit,
                crit,
            )
    found = pa.cache[key] = (values, undefended, {})
    return found


class _Values:
    """The form values, computed only if a tactic needs them."""

    __slots__ = ("args", "got")

    def __init__(self, *args: Any) -> None:
        self.args = args
        self.got = None

    def __call__(self) -> tuple:
        if self.got is None:
            self.got = form_values(*self.args)
        return self.got


def _pick(fight: Any, choices: list[int]) -> int:
    return choices[fight.dice.index(len(choices))] if len(choices) > 1 else choices[0]


def choose_attack(
    fight: Any, tactic: int, m: Matchup, values: _Values, d: int | None, first: bool
) -> int:
    """The attack form by the attacker's tactic (declared first, or knowing defense ``d``)."""
    attacks = m.attacks
    if tactic >= 0 and tactic in attacks:
        return tactic
    if tactic == RANDOM:
        return _pick(fight, attacks)
    v, u, memo = values()
    key = -1 if first else d
    choice = memo.get(key)
    if choice is None:
        if first:
            choice = first_attack(v, u, attacks, m.allowed)
        else:
            choice = reply_attack(v, u, d, attacks, m.allowed, fight.rules.redeclare)
        memo[key] = choice
    return choice


def choose_defense(
    fight: Any, tactic: int, m: Matchup, values: _Values, a: int | None
) -> int | None:
    """The defense form by the defender's tactic (declared first if ``a`` is None)."""
    choices = m.declarable if a is None else [d for d in range(3) if m.allowed[a][d]]
    if not choices:
        return None
    if tactic >= 0 and tactic in choices:
        return tactic
    if tactic == RANDOM:
        return _pick(fight, choices)
    v, u, memo = values()
    key = 10 if a is None else 11 + a
    if key in memo:
        return memo[key]
    if a is None:
        choice = first_defense(v, u, m.attacks, m.allowed, choices, fight.rules.redeclare)
    else:
        choice = reply_defense(v, a, m.allowed)
    memo[key] = choice
    return choice


def melee_attack(fight: Any, attacker: Any, defender: Any, primary: bool = False) -> bool:
    """Resolve ``attacker``'s melee attack on ``defender``.

    Args:
        fight: the fight.
        attacker: who attacks (with its weapon in hand).
        defender: its target.
        primary: the attack is an action on the ACS clock (which books its defense itself).

    Returns:
        Whether the defender rolled a defense.
    """
    rules = fight.rules
    ab, db = attacker.state, defender.state
    pa, pd = ab.profile, db.profile
    m = matchup(pa, pd, db.armed, rules)
    if not m.attacks:
        return False
    xw = db.exposed
    if rules.cluster:
        xw += fight.cluster.ally_bonus(attacker, defender, rules.cluster_target)
    xl = db.shaken
    values = _Values(fight, attacker, defender, m, xw, xl)
    can_defend = fight.can_defend(defender, primary)
    if not can_defend or not m.declarable:
        a = choose_attack(fight, pa.attack, m, values, None, False)
        d = None
        first = None
    elif fight.higher(attacker, defender):
        first = defender
        d = choose_defense(fight, pd.defense, m, values, None)
        a = choose_attack(fight, pa.attack, m, values, d, False)
    else:
        first = attacker
        a = choose_attack(fight, pa.attack, m, values, None, True)
        d = choose_defense(fight, pd.defense, m, values, a)
    declared = d
    if d is not None and not m.allowed[a][d]:
        d = choose_defense(fight, pd.defense, m, values, a) if rules.redeclare else None
    tracing = fight.tracing
    if tracing:
        fight.combat.emit(
            "declare",
            attacker,
            defender,
            first=None if first is None else first.name,
            attack=ATTACK_FORMS[a].value,
            declared=None if declared is None else DEFENSE_FORMS[declared].value,
            defense=None if d is None else DEFENSE_FORMS[d].value,
            can_defend=can_defend,
        )
    s_al, s_aw, s_dl, s_dw = m.size
    stat = stat_now(attacker, pa, a)
    a_crit, a_ones = stat > 2, stat <= 1
    base = pool_dice(attacker, pa, a)
    a_sides = pa.sides[a]
    if d is None:
        lost, wiggle = m.undefended[a]
        n_a, w_a = max(0, base - lost - s_al), wiggle + xw + s_aw
        n_d = w_d = d_sides = roll = 0
        d_crit = d_ones = False
    else:
        al, aw, dl, dw = m.effects[a][d]
        n_a, w_a = max(0, base - al - s_al), aw + xw + s_aw
        roll = DODGE + d
        d_stat = stat_now(defender, pd, roll)
        d_crit, d_ones = d_stat > 2, d_stat <= 1
        n_d = max(0, pool_dice(defender, pd, roll) - dl - xl - s_dl)
        w_d = dw + s_dw
        d_sides = pd.sides[roll]
    dice = fight.dice
    rolled = False
    ties = 0
    while True:
        faces = roll_pool(dice, n_a, a_sides)
        wiggled = fight.attack_roll(attacker, a, faces, a_sides, w_a, a_crit, a_ones)
        result = wiggled.result
        answer = d_faces = None
        if result.kind == Kind.NOTHING:
            outcome = Outcome.FUMBLE
        elif d is None:
            outcome = resolve(result, NOTHING)
        else:
            d_faces = roll_pool(dice, n_d, d_sides)
            if not rolled:
                rolled = True
                fight.defense_rolled(defender, primary)
            answer = fight.defense_answer(
                defender, roll, result, d_faces, d_sides, w_d, d_crit, d_ones
            )
            outcome = resolve(result, answer.result)
        if tracing:
            emit_exchange(
                fight,
                attacker,
                defender,
                a,
                d,
                n_a,
                a_sides,
                w_a,
                faces,
                wiggled,
                n_d,
                d_sides,
                w_d,
                d_faces,
                answer,
                outcome,
            )
        if outcome != Outcome.TIE:
            break
        ties += 1
        if ties >= MAX_TIES:
            outcome = Outcome.DEFENDED
            break
    settle(fight, attacker, defender, outcome, d, False)
    return rolled


def settle(
    fight: Any, attacker: Any, defender: Any, outcome: Outcome, d: int | None, missile: bool
) -> None:
    """Apply an attack's outcome: damage, a critical defense's effect, or the fumble table."""
    rules = fight.rules
    if outcome == Outcome.FUMBLE:
        fumble(fight, attacker, defender, d == _PARRY, missile)
    elif outcome == Outcome.DEFENDED:
        defender.defenses_won += 1
    elif outcome == Outcome.CRITICAL_DEFENSE:
        defender.defenses_won += 1
        critical_defense(fight, attacker, defender, d)
    else:
        attacker.hits += 1
        if missile:
            if rules.focused_fire:
                fight.cluster.struck(defender.side)
        elif rules.cluster:
            fight.cluster.hit(attacker, defender)
        if outcome == Outcome.CRITICAL_HIT:
            attacker.criticals += 1
            fight.harm(attacker, defender, 0, rules.critical_wounds)
        else:
            fight.harm(attacker, defender, rules.hit_nicks, 0)


def auto_hit(fight: Any, attacker: Any, defender: Any) -> None:
    """A melee counter-attack that hits automatically, rolled to see whether it is critical."""
    rules = fight.rules
    ab, db = attacker.state, defender.state
    pa, pd = ab.profile, db.profile
    m = matchup(pa, pd, db.armed, rules)
    if not m.attacks:
        return
    xw = db.exposed
    if rules.cluster:
        xw += fight.cluster.ally_bonus(attacker, defender, rules.cluster_target)
    s_al, s_aw = m.size[0], m.size[1]
    tactic = pa.attack
    if tactic >= 0 and tactic in m.attacks:
        a = tactic
    elif tactic == RANDOM:
        a = _pick(fight, m.attacks)
    else:
        a, best = m.attacks[0], None
        for form in m.attacks:
            stat = stat_now(attacker, pa, form)
            lost, wiggle = m.undefended[form]
            value = auto_hit_value(
                max(0, pool_dice(attacker, pa, form) - lost - s_al),
                pa.sides[form],
                wiggle + xw + s_aw,
                stat > 2,
                stat <= 1,
                rules.keep,
                rules.hit_nicks,
                rules.crit_nicks,
            )
            if best is None or value > best:
                a, best = form, value
    stat = stat_now(attacker, pa, a)
    lost, wiggle = m.undefended[a]
    n_a = max(0, pool_dice(attacker, pa, a) - lost - s_al)
    w_a = wiggle + xw + s_aw
    faces = roll_pool(fight.dice, n_a, pa.sides[a])
    wiggled = fight.attack_roll(attacker, a, faces, pa.sides[a], w_a, stat > 2, stat <= 1)
    outcome = Outcome.CRITICAL_HIT if wiggled.result.kind == Kind.TRIPLE else Outcome.HIT
    if fight.tracing:
        emit_exchange(
            fight,
            attacker,
            defender,
            a,
            None,
            n_a,
            pa.sides[a],
            w_a,
            faces,
            wiggled,
            0,
            0,
            0,
            None,
            None,
            outcome,
            automatic=True,
        )
    settle(fight, attacker, defender, outcome, None, False)


def emit_exchange(
    fight,
    attacker,
    defender,
    a,
    d,
    n_a,
    a_sides,
    w_a,
    faces,
    wiggled,
    n_d,
    d_sides,
    w_d,
    d_faces,
    answer,
    outcome,
    automatic=False,
    missile=None,
) -> None:
    """Trace one exchange of rolls (a no-op unless tracing; callers check first)."""
    fight.combat.emit(
        "exchange",
        attacker,
        defender,
        attack=ATTACK_FORMS[a].value if missile is None else missile,
        defense=None if d is None else DEFENSE_FORMS[d].value,
        dice=n_a,
        sides=a_sides,
        wiggle=w_a,
        faces=list(faces),
        wiggled=list(wiggled.faces),
        result=str(wiggled.result),
        d_dice=n_d,
        d_sides=d_sides,
        d_wiggle=w_d,
        d_faces=None if d_faces is None else list(d_faces),
        d_wiggled=None if answer is None else list(answer.wiggled.faces),
        d_result=None if answer is None else str(answer.result),
        outcome=outcome.value,
        automatic=automatic,
    )
