"""Resolving one missile attack of Combat Proposition Three.

``rules/combat-proposition-three.txt``, the ranged passages of "(ANOTHER) COMBAT PROPOSAL", as
RULINGS part C ("Ranged") reads them, with the pure maths of :mod:`~sim.rules.prop3.ranged`:

- the shooter rolls its Ranged (archery) or Ranged (thrown) pool: one die lost per range increment
  beyond the first, no shot past the maximum range; +1 wiggle for a round spent aiming at this
  target; +1 wiggle per size category the target is larger, one die lost per category smaller;
  plus the wiggle of effects on the target (stumble, a critical dodge) and of focused fire
  (:mod:`~sim.rules.prop3.cluster`);
- the target picks a defense its gear allows against missiles (dodge; block with a shield or heavy
  armor; parry with a weapon), rated by the missile-defense table (dodge average, block and parry
  poor), gets +1 wiggle per increment beyond the first and per size category it is smaller, loses
  a die per category it is larger and to effects on it (fall, a critical block);
- armor plays no part in the defense unless it fails: then armor excellent against the
  ammunition's form gives one more wiggle point that may still save the target
  (``ranged.missile_defense``);
- outcomes, fumbles and critical defenses are those of melee (:func:`melee.settle`); a fumble
  drops the missile weapon.

The missile's attack form matters only for armor (the ammunition's form); there is no form to
declare for the shooter, so the declaration order changes nothing here.
"""

from __future__ import annotations

from typing import Any

from sim.rules.prop3.character import DEFENSE_FORMS, DODGE, RANDOM, pool_dice, stat_now
from sim.rules.prop3.fight import MAX_TIES
from sim.rules.prop3.forms import DefenseForm
from sim.rules.prop3.melee import emit_exchange, settle
from sim.rules.prop3.pool import NOTHING, Kind, Outcome, resolve, roll_pool
from sim.rules.prop3.ranged import (
    armor_save_points,
    in_range,
    range_increments,
    ranged_pools,
    size_effect,
)
from sim.rules.prop3.tactics import melee_value, missile_allowed


def can_shoot(body: Any, distance: float) -> bool:
    """Whether a combatant can shoot at a target ``distance`` feet away now."""
    missile = body.profile.missile
    return (
        missile is not None
        and body.bow
        and body.shots != 0
        and in_range(distance, missile.max_range)
    )


def shot_reach(shooter: Any, target: Any) -> float | None:
    """How far the shooter would shoot at ``target`` (None: nowhere).

    The farthest distance within the maximum range at which its pool keeps ``min_shot_dice``
    dice after range and size.
    """
    body = shooter.state
    profile = body.profile
    missile = profile.missile
    if missile is None or not profile.shoot or not body.bow or body.shots == 0:
        return None
    dice = pool_dice(shooter, profile, missile.roll)
    dice -= size_effect(profile.size, target.state.profile.size).attack_dice_lost
    increments = dice - profile.min_dice + 1
    if increments < 1:
        return None
    return min(missile.max_range, missile.increment * increments)


def _defenses(pd: Any, armed: bool) -> list[int]:
    key = ("missile", armed)
    found = pd.cache.get(key)
    if found is None:
        weapon = pd.weapon if armed and not pd.natural else None
        found = pd.cache[key] = missile_allowed(pd.armor, pd.shield, weapon)
    return found


def _pools(attacker, defender, d, distance, aimed, xw, xl):
    pa = attacker.state.profile
    pd = defender.state.profile
    missile = pa.missile
    base_d = 0 if d is None else max(0, pool_dice(defender, pd, DODGE + d) - xl)
    return ranged_pools(
        pool_dice(attacker, pa, missile.roll),
        base_d,
        DefenseForm.DODGE if d is None else DEFENSE_FORMS[d],
        distance=distance,
        weapon_range=missile.increment,
        max_range=missile.max_range,
        aimed=aimed,
        attacker_size=pa.size,
        target_size=pd.size,
        attack_wiggle=xw,
    )


def _save(pd: Any, missile: Any) -> int:
    return 0 if pd.armor is None else armor_save_points(pd.armor.rating(missile.form))


def missile_attack(fight: Any, attacker: Any, defender: Any, primary: bool = False) -> bool:
    """Resolve ``attacker``'s shot at ``defender`` (which must be in range).

    Returns:
        Whether the target rolled a defense.
    """
    rules = fight.rules
    ab, db = attacker.state, defender.state
    pa, pd = ab.profile, db.profile
    missile = pa.missile
    distance = fight.distance(attacker, defender)
    if ab.shots > 0:
        ab.shots -= 1
    aimed = ab.aim is defender
    ab.aim = None
    ab.fired = True
    xw = db.exposed
    if rules.focused_fire:
        xw += fight.cluster.volley_bonus(attacker.side)
    xl = db.shaken
    save = _save(pd, missile)
    choices = _defenses(pd, db.armed)
    can_defend = fight.can_defend(defender, primary)
    d = None
    if can_defend and choices:
        tactic = pd.defense
        if tactic >= 0 and tactic in choices:
            d = tactic
        elif tactic == RANDOM:
            d = choices[fight.dice.index(len(choices))] if len(choices) > 1 else choices[0]
        else:
            d = _best_defense(fight, attacker, defender, choices, distance, aimed, xw, xl, save)
    pools = _pools(attacker, defender, d, distance, aimed, xw, xl)
    a_roll = missile.roll
    a_sides = pa.sides[a_roll]
    stat = stat_now(attacker, pa, a_roll)
    a_crit, a_ones = stat > 2, stat <= 1
    if d is not None:
        d_roll = DODGE + d
        d_sides = pd.sides[d_roll]
        d_stat = stat_now(defender, pd, d_roll)
        d_crit, d_ones = d_stat > 2, d_stat <= 1
    else:
        d_roll = d_sides = 0
        d_crit = d_ones = False
    tracing = fight.tracing
    if tracing:
        fight.combat.emit(
            "shoot",
            attacker,
            defender,
            missile=missile.name,
            distance=distance,
            increments=range_increments(distance, missile.increment),
            aimed=aimed,
            defense=None if d is None else DEFENSE_FORMS[d].value,
            save=save,
            shots_left=ab.shots,
        )
    dice = fight.dice
    rolled = counted = False
    ties = 0
    while True:
        faces = roll_pool(dice, pools.attack_dice, a_sides)
        wiggled = fight.attack_roll(
            attacker, a_roll, faces, a_sides, pools.attack_wiggle, a_crit, a_ones
        )
        result = wiggled.result
        answer = d_faces = None
        if result.kind == Kind.NOTHING:
            outcome = Outcome.FUMBLE
        else:
            if not counted and rules.focused_fire:
                counted = True
                fight.cluster.volley(attacker.side)
            if d is None:
                outcome = resolve(result, NOTHING)
            else:
                d_faces = roll_pool(dice, pools.defense_dice, d_sides)
                if not rolled:
                    rolled = True
                    fight.defense_rolled(defender, primary)
                answer = fight.defense_answer(
                    defender,
                    d_roll,
                    result,
                    d_faces,
                    d_sides,
                    pools.defense_wiggle,
                    d_crit,
                    d_ones,
                    save,
                )
                outcome = resolve(result, answer.result)
        if tracing:
            emit_exchange(
                fight,
                attacker,
                defender,
                0,
                d,
                pools.attack_dice,
                a_sides,
                pools.attack_wiggle,
                faces,
                wiggled,
                pools.defense_dice,
                d_sides,
                pools.defense_wiggle,
                d_faces,
                answer,
                outcome,
                missile=missile.name,
            )
        if outcome != Outcome.TIE:
            break
        ties += 1
        if ties >= MAX_TIES:
            outcome = Outcome.DEFENDED
            break
    settle(fight, attacker, defender, outcome, d, True)
    return rolled


def _best_defense(fight, attacker, defender, choices, distance, aimed, xw, xl, save) -> int:
    """The missile defense with the lowest exact expected damage."""
    rules = fight.rules
    pa = attacker.state.profile
    pd = defender.state.profile
    a_roll = pa.missile.roll
    stat = stat_now(attacker, pa, a_roll)
    best, choice = None, choices[0]
    for d in choices:
        pools = _pools(attacker, defender, d, distance, aimed, xw, xl)
        d_stat = stat_now(defender, pd, DODGE + d)
        value = melee_value(
            pools.attack_dice,
            pa.sides[a_roll],
            pools.attack_wiggle,
            stat > 2,
            stat <= 1,
            pools.defense_dice,
            pd.sides[DODGE + d],
            pools.defense_wiggle,
            d_stat > 2,
            d_stat <= 1,
            rules.keep,
            rules.hit_nicks,
            rules.crit_nicks,
            save,
        )
        if best is None or value < best:
            best, choice = value, d
    return choice


def missile_auto_hit(fight: Any, attacker: Any, defender: Any) -> None:
    """A missile counter-attack that hits automatically, rolled to see whether it is critical."""
    ab, db = attacker.state, defender.state
    pa = ab.profile
    missile = pa.missile
    if ab.shots > 0:
        ab.shots -= 1
    xw = db.exposed
    if fight.rules.focused_fire:
        xw += fight.cluster.volley_bonus(attacker.side)
    distance = fight.distance(attacker, defender)
    pools = _pools(attacker, defender, None, distance, False, xw, 0)
    a_roll = missile.roll
    stat = stat_now(attacker, pa, a_roll)
    faces = roll_pool(fight.dice, pools.attack_dice, pa.sides[a_roll])
    wiggled = fight.attack_roll(
        attacker, a_roll, faces, pa.sides[a_roll], pools.attack_wiggle, stat > 2, stat <= 1
    )
    outcome = Outcome.CRITICAL_HIT if wiggled.result.kind == Kind.TRIPLE else Outcome.HIT
    if fight.tracing:
        emit_exchange(
            fight,
            attacker,
            defender,
            0,
            None,
            pools.attack_dice,
            pa.sides[a_roll],
            pools.attack_wiggle,
            faces,
            wiggled,
            0,
            0,
            0,
            None,
            None,
            outcome,
            automatic=True,
            missile=missile.name,
        )
    settle(fight, attacker, defender, outcome, None, True)
