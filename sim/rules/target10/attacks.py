"""An attack in a round: whom, with which weapon, the exchange, and what it leaves.

Target 10 text, "Combat Tests": hand-held weapons compare FIGHT with DEFENSE, thrown and missile
weapons SHOOT with DEFENSE; the weapon decides, so a ranged weapon shoots at any distance within
its range, point-blank too, unless the combatant fights hand to hand (``tactics.point_blank``:
:func:`~sim.rules.target10.combat_rolls.weapon_for`). "Actions": Disarm uses the RAV (SHOOT,
``disarm_value``); a pinned combatant "must make a grapple attack of their own to break the
hold"; an attack on a negotiator ends its hold (``negotiate_broken_by``). "Movements": an attack
on a fleer "is automatically successful" (``flee_auto_hit``); a withdrawer "may still attack if
their opponent is advancing" (``withdraw_attacks``). RULINGS part B: every attack of a step
reads the state before the step. Shots use ammunition and firearms reload
(:mod:`~sim.rules.target10.ammunition`).

The attack itself (the test, luck spent to hit, damage, a maneuver's push) is the exchange,
:func:`~sim.rules.target10.exchange.resolve_attack`: this module builds its input from the
round's state and applies its outcome.
"""

from __future__ import annotations

from sim.rules.target10.actions import ACTION_WORDS, DAMAGING, DISARM, GRAPPLE
from sim.rules.target10.ammunition import fire, reload
from sim.rules.target10.combat_rolls import RANGED, flee_auto, weapon_for
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import end_holds
from sim.rules.target10.effects import PUSH, Effect, land_blow
from sim.rules.target10.exchange import AttackInput, AttackOutcome, Weapon, resolve_attack
from sim.rules.target10.movements import MANEUVER, WITHDRAW
from sim.rules.target10.moving import Origins
from sim.rules.target10.parley import break_parley
from sim.rules.target10.state import RoundState


def attack(
    rs: RoundState, f: T10Fighter, r: int, origin: Origins | None, alone: bool = False
) -> Effect | None:
    """Make ``f``'s attack against the state before the step; its effect, or None.

    ``alone``: ``f`` is the step's only attacker, so nothing else in the step reads the state
    before its hit, and a Kill or Subdue lands at once
    (:func:`~sim.rules.target10.effects.land_blow`; None is returned).
    """
    t = opponent(rs, f, r)
    if t is None:
        return None
    exchange = exchange_for(rs, f, t, origin, r)
    if exchange is None:
        return None
    ranged = exchange.weapon.ranged
    f.attacks += 1
    t.attacked = r
    if t.holding is not None:
        end_holds(rs, t, r)
    if t.held_until >= r and rs.rules.neg_any:
        break_parley(rs, t.side, r)
    outcome = resolve_attack(exchange, rs.dice, f.luck, t.hp)
    if ranged:
        fire(rs, f)
    if outcome.lucky:
        f.luck -= 1
    if rs.tracing:
        emit_attack(rs, f, t, outcome, ranged)
    if not outcome.hit:
        return None
    f.hits += 1
    effect = outcome.effect
    if outcome.push:
        return Effect(PUSH, f, t, also=effect)
    if alone and effect in DAMAGING:
        land_blow(rs, f, t, effect, outcome.damage, r)
        return None
    return Effect(effect, f, t, outcome.damage)


def opponent(rs: RoundState, f: T10Fighter, r: int) -> T10Fighter | None:
    """Whom ``f`` attacks this step, or None when it cannot attack anyone.

    Its target, or a new one by its tactics when the target is out; its holder, for a pinned
    grappler; none while a negotiation holds it off, nor for a withdrawer whose opponent is not
    advancing.
    """
    t = f.target
    if t is None or t.out is not None:
        t = rs.choose(f)
        if t is None:
            return None
    if f.held_until >= r:
        if rs.tracing:
            rs.combat.emit("no_attack", f, t, why="held off by a negotiation")
        return None
    pinner = f.pinned_by
    if pinner is not None and f.act == GRAPPLE:
        t = pinner
    if f.move == WITHDRAW and t.move not in rs.rules.withdraw_vs:
        if rs.tracing:
            rs.combat.emit("no_attack", f, t, why="withdrawing from an opponent not advancing")
        return None
    return t


def exchange_for(
    rs: RoundState, f: T10Fighter, t: T10Fighter, origin: Origins | None, r: int
) -> AttackInput | None:
    """The exchange's input for ``f`` attacking ``t`` in round ``r``, or None out of reach.

    The weapon is what reaches from where ``f`` stands (a withdrawer: where it stood): a ranged
    weapon within its range, point-blank too unless ``f`` fights hand to hand
    (:func:`~sim.rules.target10.combat_rolls.weapon_for`); when neither reaches, a firearm
    still to be loaded is reloaded instead.

    Inputs are values, and a chunk's combats meet the same few again and again, so the round
    keeps those it has made (:attr:`~sim.rules.target10.state.RoundState.exchanges`), keyed by
    what :func:`attack_input` reads that can change during a fight. The weapon stands for its
    owner's fixed values (it is made once per combatant and scenario: its ``id`` is a key for
    as long as the memo, which the scenario's preparation owns, lives).
    """
    distance = abs((f.pos if origin is None else origin.get(f, f.pos)) - t.pos)
    s = f.stats
    armed = f.weapon_at is None
    use = weapon_for(distance, s.reach, f.range if armed and not f.reload_left else 0.0,
                     s.point_blank)
    if use is None:
        if armed and f.reload_left:
            reload(rs, f)
        elif rs.tracing:
            rs.combat.emit("no_attack", f, t, why="out of reach", distance=distance)
        return None
    if use == RANGED:
        weapon = s.shot
        assert weapon is not None  # only a combatant with a ranged weapon has a range
    elif f.act == DISARM and rs.rules.disarm_shoot:
        weapon = s.disarm if armed else s.disarm_unarmed
    else:
        weapon = s.melee if armed else s.unarmed
    edge = f.edge
    key = (
        id(weapon),
        f.act,
        f.move,
        f.charging,
        f.hampered,
        f.pinned_by is t,
        edge is not None and edge[0] is t and edge[1] == r,
        t.dv,
        t.hampered,
        t.stats.cover,
        t.fleeing and flee_auto(rs.rules.flee_auto_hit, f.init, t.init),
    )
    exchange = rs.exchanges.get(key)
    if exchange is None:
        exchange = rs.exchanges[key] = attack_input(rs, f, t, weapon, r)
    return exchange


def attack_input(
    rs: RoundState, f: T10Fighter, t: T10Fighter, weapon: Weapon, r: int
) -> AttackInput:
    """The exchange's input: ``f`` attacking ``t`` with ``weapon`` in round ``r``."""
    edge = f.edge
    return AttackInput(
        rs.rules.exchange,
        weapon,
        action=f.act,
        defense=t.dv,
        situational=f.stats.situational,
        charging=f.charging,
        hampered=f.hampered,
        target_hampered=t.hampered,
        edge=edge is not None and edge[0] is t and edge[1] == r,
        cover=t.stats.cover,
        automatic=t.fleeing and flee_auto(rs.rules.flee_auto_hit, f.init, t.init),
        maneuver=f.move == MANEUVER,
        pinned_by_target=f.pinned_by is t,
        succeed=f.stats.succeed,
    )


def emit_attack(
    rs: RoundState, f: T10Fighter, t: T10Fighter, outcome: AttackOutcome, ranged: bool
) -> None:
    """The replay's ``attack`` event."""
    roll = outcome.roll
    rs.combat.emit(
        "attack",
        f,
        t,
        action=ACTION_WORDS[f.act],
        roll=roll.face,
        modifier=roll.modifier,
        need=roll.need,
        hit=outcome.hit,
        auto=roll.automatic,
        ranged=ranged,
        maneuver=f.move == MANEUVER,
        luck=outcome.lucky,
        luck_left=f.luck,
    )
