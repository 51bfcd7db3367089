"""An attack in a round: whom, with which value, and the combat test.

Target 10 text, "Combat Tests": hand-held weapons compare FIGHT with DEFENSE, thrown and missile
weapons SHOOT with DEFENSE (the test itself is :func:`~sim.rules.target10.combat_rolls.
attack_modifier` and :func:`~sim.rules.target10.skill_tests.outcomes`, looked up through
:func:`~sim.rules.target10.combat_rolls.attack_rolls`: the one copy the duel lane and the ACS
hybrid use too). "Movements": a charger adds
double its STR bonus to FIGHT; an attack on a fleer "is automatically successful"
(``flee_auto_hit``); a withdrawer "may still attack if their opponent is advancing"
(``withdraw_attacks``); a maneuvering hit scores no damage but pushes. "Actions": Disarm uses the
RAV (SHOOT, ``disarm_value``); a pinned combatant "must make a grapple attack of their own to
break the hold"; grounded and pinned combatants suffer -2 and -1 to attack and defend
(``penalties_as``: as situational modifiers, or on the values); an attack on a negotiator ends its
hold (``negotiate_broken_by``). RULINGS part B: every attack of a step reads the state before the
step, and a Maneuver's edge gives ``maneuver_bonus`` against that opponent next round.

A ranged weapon shoots at any distance within its range, point-blank too, unless the combatant
fights hand to hand (``tactics.point_blank``); an attack on a fleer succeeds without a roll by
``flee_auto_hit``; a failed attack test may be turned by a luck point (``tactics.luck_to_succeed``);
a target's ``cover`` is a situational penalty; shots use ammunition and firearms reload
(:mod:`~sim.rules.target10.ammunition`). A maneuvering hit keeps its action's other effect
(``maneuver_keeps_action``).
"""

from __future__ import annotations

from sim.rules.target10.actions import ACTION_WORDS, DAMAGING, DISARM, GRAPPLE
from sim.rules.target10.ammunition import fire, reload
from sim.rules.target10.combat_rolls import (
    RANGED,
    attack_rolls,
    cover_modifier,
    damage_roll,
    flee_auto,
    lucky_hit,
    weapon_for,
)
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import end_holds
from sim.rules.target10.effects import BREAK, PUSH, Effect, land_blow
from sim.rules.target10.movements import MANEUVER, WITHDRAW
from sim.rules.target10.moving import Origins
from sim.rules.target10.parley import break_parley
from sim.rules.target10.skill_tests import DIE
from sim.rules.target10.state import RoundState


def attack(
    rs: RoundState, f: T10Fighter, r: int, origin: Origins | None, alone: bool = False
) -> Effect | None:
    """Roll one attack against the state before the step; its effect, or None on a miss.

    ``alone``: ``f`` is the step's only attacker, so nothing else in the step reads the state
    before its hit, and a Kill or Subdue lands at once
    (:func:`~sim.rules.target10.effects.land_blow`; None is returned).
    """
    t = f.target
    if t is None or t.out is not None:
        t = rs.choose(f)
        if t is None:
            return None
    tracing = rs.tracing
    if f.held_until >= r:
        if tracing:
            rs.combat.emit("no_attack", f, t, why="held off by a negotiation")
        return None
    rules = rs.rules
    act = f.act
    move = f.move
    pinner = f.pinned_by
    if pinner is not None and act == GRAPPLE:
        t = pinner
    if move == WITHDRAW and t.move not in rules.withdraw_vs:
        if tracing:
            rs.combat.emit("no_attack", f, t, why="withdrawing from an opponent not advancing")
        return None
    distance = (f.pos if origin is None else origin.get(f, f.pos)) - t.pos
    if distance < 0:
        distance = -distance
    s = f.stats
    armed = f.weapon_at is None
    use = weapon_for(
        distance, f.reach, f.range if armed and not f.reload_left else 0.0, s.point_blank
    )
    if use is None:
        if armed and f.reload_left:
            reload(rs, f)
        elif tracing:
            rs.combat.emit("no_attack", f, t, why="out of reach", distance=distance)
        return None
    ranged = use == RANGED
    if ranged:
        value = s.shoot
    elif act == DISARM and rules.disarm_shoot:
        value = s.shoot_melee if armed else s.shoot_unarmed
    else:
        value = s.fight if armed else s.fight_unarmed
        if f.charging:
            value += s.charge_str
    situational = s.situational
    penalty = t.hampered - f.hampered
    if penalty:
        if rules.pen_values:
            value += penalty
        else:
            situational += penalty
    if f.edge is not None and f.edge[0] is t and f.edge[1] == r:
        situational += rules.maneuver_bonus
    cover = t.stats.cover
    if cover:
        situational += cover_modifier(cover, ranged, rules.cover_all)
    f.attacks += 1
    t.attacked = r
    if t.holding is not None:
        end_holds(rs, t, r)
    if t.held_until >= r and rules.neg_any:
        break_parley(rs, t.side, r)
    test = rules.test
    # The roll of roll_test, on the test's table by face (index 0: automatic, no die rolled).
    rolls = attack_rolls(value, t.dv, situational, test)
    auto = t.fleeing and flee_auto(rules.flee_auto_hit, f.init, t.init)
    roll = rolls[0] if auto else rolls[rs.dice.roll(DIE)]
    if ranged:
        fire(rs, f)
    hit = roll.success
    lucky = False
    damaging = act in DAMAGING and move != MANEUVER
    if not hit and f.luck > 0 and s.succeed.spends:
        if damaging:
            damage = s.ranged_damage if ranged else s.melee_damage
            bonus = s.dex_mod if ranged else s.str_mod
        else:
            damage, bonus = None, 0
        if lucky_hit(s.succeed, roll.modifier, test.need, t.hp, damage, bonus, test.min_damage):
            f.luck -= 1
            hit = lucky = True
    if tracing:
        rs.combat.emit(
            "attack",
            f,
            t,
            action=ACTION_WORDS[act],
            roll=roll.face,
            modifier=roll.modifier,
            need=roll.need,
            hit=hit,
            auto=roll.automatic,
            ranged=ranged,
            maneuver=move == MANEUVER,
            luck=lucky,
            luck_left=f.luck,
        )
    if not hit:
        return None
    f.hits += 1
    if move == MANEUVER:
        if not rules.maneuver_keeps or act in DAMAGING:
            return Effect(PUSH, f, t)
        return Effect(PUSH, f, t, also=BREAK if act == GRAPPLE and pinner is t else act)
    if damaging:
        faces = s.ranged_faces if ranged else s.melee_faces
        if faces is not None:
            # damage_roll, its table by face (combat_test.damage_faces) looked up.
            amount = faces[rs.dice.roll(len(faces) - 1)]
        elif ranged:
            damage = s.ranged_damage
            assert damage is not None  # only a combatant with a ranged weapon has a range
            amount = damage_roll(rs.dice, damage, s.dex_mod, test.min_damage)
        else:
            amount = damage_roll(rs.dice, s.melee_damage, s.str_mod, test.min_damage)
        if alone:
            land_blow(rs, f, t, act, amount, r)
            return None
        return Effect(act, f, t, amount)
    if act == GRAPPLE and pinner is t:
        return Effect(BREAK, f, t)
    return Effect(act, f, t)
