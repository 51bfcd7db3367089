"""What a successful attack does, and how the hits of one initiative step land together.

Target 10 text, "Actions": Kill and Subdue score damage (Kill may go below 0 hit points, Subdue
stops at 0, leaving the target unconscious); Trip puts the target on the ground; Grapple locks
it in a pin, which its victim breaks "with a grapple attack of their own"; Disarm knocks its
weapon away, "the item flies 1d6 paces in a random direction" (``disarm_paces``). "Movements",
Maneuver: a hit scores no damage but moves the opponent 3 paces (``maneuver_paces``); the text
takes away only the damage, so a maneuvering Trip, Grapple or Disarm still trips, pins or
disarms (``maneuver_keeps_action``, default true; false: the push alone). "Luck
Points": a point can be spent "to ignore an opponent's success" (the tactic ``luck``).

RULINGS part B: equal initiative is simultaneous, so the hits of a step land together: luck is
spent looking at all of them (:func:`~sim.rules.target10.luck.cancel_hits`), conditions land
before damage, and Kill damage before Subdue damage
(:func:`~sim.rules.target10.actions.take_damage`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sim.engine.space import push
from sim.rules.target10.actions import (
    ACTION_WORDS,
    DAMAGING,
    DISARM,
    GRAPPLE,
    KILL,
    SUBDUE,
    TRIP,
    subdue_dealt,
    take_damage,
)
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import hamper, put_out, release
from sim.rules.target10.luck import cancel_hits, spend_on_hit
from sim.rules.target10.state import RoundState

#: Effect kinds beyond the action codes: a maneuvering hit's push, breaking free of a pin.
PUSH, BREAK = 100, 101
_NAMES = {PUSH: "push", BREAK: "break"}


@dataclass(slots=True)
class Effect:
    """A successful attack, waiting to land.

    A value: nothing changes it once made. Not ``frozen=True``: a frozen dataclass costs about
    five times as much to build (one ``object.__setattr__`` per field), and one is made per hit.

    Attributes:
        kind: the attacker's action code (:mod:`~sim.rules.target10.actions`), or
            :data:`PUSH` (a maneuvering hit) or :data:`BREAK` (a pinned grappler breaking free).
        by: the attacker.
        on: the target.
        amount: the damage of a Kill or Subdue (0 for the others).
        also: with :data:`PUSH`, the action whose effect lands too (trip, grapple, disarm or
            :data:`BREAK`; option ``maneuver_keeps_action``), or -1 for none.
    """

    kind: int
    by: T10Fighter
    on: T10Fighter
    amount: int = 0
    also: int = -1


def land_one(rs: RoundState, effect: Effect, r: int) -> None:
    """Let a single successful attack take effect in round ``r``."""
    kind = effect.kind
    if kind in DAMAGING:
        land_blow(rs, effect.by, effect.on, kind, effect.amount, r)
        return
    t = effect.on
    if t.out is not None:
        return
    if t.luck > 0 and spend_on_hit(t.stats.luck_policy, False):
        spend(rs, t, effect.by)
    else:
        apply(rs, effect, r)


def land_blow(
    rs: RoundState, by: T10Fighter, t: T10Fighter, kind: int, amount: int, r: int
) -> None:
    """A single Kill or Subdue of ``amount`` by ``by`` lands on ``t`` (its luck may ignore it).

    What :func:`land_one` does with a damaging :class:`Effect`, taking the hit's parts: a hit
    that lands alone as soon as it is rolled (the duel lane's, a step's only attacker's) needs
    no :class:`Effect` made for it (a made object costs several times a call).
    """
    if t.out is not None:
        return
    hp = t.hp
    if t.luck > 0 and spend_on_hit(t.stats.luck_policy, hp - amount <= 0):
        spend(rs, t, by)
        return
    who = (by,) if rs.tracing else ()  # only the replay reads who hit
    if kind == KILL:
        by.damage_dealt += amount
        wound(rs, t, amount, 0, who, r)
    else:
        by.damage_dealt += subdue_dealt(amount, hp)
        wound(rs, t, 0, amount, who, r)


def land(rs: RoundState, effects: list[Effect], r: int) -> None:
    """Let the step's successful attacks take effect together."""
    if len(effects) == 1:
        land_one(rs, effects[0], r)
        return
    by_target: dict[T10Fighter, list[Effect]] = {}
    for effect in effects:
        by_target.setdefault(effect.on, []).append(effect)
    survivors = []
    for t, hits in by_target.items():
        if t.out is not None:
            continue
        damaging = [h for h in hits if h.kind in DAMAGING]
        others = [h for h in hits if h.kind not in DAMAGING]
        policy = t.stats.luck_policy
        if t.luck > 0 and damaging:
            cancelled = cancel_hits(t.hp, [h.amount for h in damaging], t.luck, policy)
            for i in sorted(cancelled):
                spend(rs, t, damaging[i].by)
            damaging = [h for i, h in enumerate(damaging) if i not in cancelled]
        if t.luck > 0 and others and policy == "always":
            kept = []
            for h in others:
                if t.luck > 0:
                    spend(rs, t, h.by)
                else:
                    kept.append(h)
            others = kept
        survivors.append((t, damaging, others))
    for _, _, others in survivors:
        for h in others:
            apply(rs, h, r)
    for t, damaging, _ in survivors:
        if damaging:
            hurt(rs, t, damaging, r)


def spend(rs: RoundState, t: T10Fighter, attacker: T10Fighter) -> None:
    """``t`` spends a luck point to ignore a hit by ``attacker`` (it counts as a defense won)."""
    t.luck -= 1
    t.defenses += 1
    t.defenses_won += 1
    if rs.tracing:
        rs.combat.emit("luck", t, attacker, left=t.luck)


def hurt(rs: RoundState, t: T10Fighter, hits: Sequence[Effect], r: int) -> None:
    """Damaging hits on ``t`` land together: Kill damage first, then Subdue damage."""
    kill = 0
    subdue = 0
    for h in hits:
        if h.kind == KILL:
            kill += h.amount
            h.by.damage_dealt += h.amount
        else:
            subdue += h.amount
    if subdue:
        left = t.hp - kill
        for h in hits:
            if h.kind == SUBDUE:
                dealt = subdue_dealt(h.amount, left)
                left -= dealt
                h.by.damage_dealt += dealt
    # Who hit, Kill's first: only the replay reads it.
    by = (
        [h.by for h in hits if h.kind == KILL] + [h.by for h in hits if h.kind == SUBDUE]
        if rs.tracing
        else ()
    )
    wound(rs, t, kill, subdue, by, r)


def wound(
    rs: RoundState, t: T10Fighter, kill: int, subdue: int, by: Sequence[T10Fighter], r: int
) -> None:
    """``t`` takes Kill damage ``kill`` and Subdue damage ``subdue`` from ``by`` (Kill's first).

    :func:`~sim.rules.target10.actions.take_damage` says what is left and whether ``t`` is out.
    """
    hp = t.hp
    after, how = take_damage(hp, kill, subdue, rs.rules.test.zero_hp)
    t.hp = after
    t.damage_taken += hp - after
    if rs.tracing:
        rs.combat.emit(
            "damage",
            by[0] if len(by) == 1 else None,
            t,
            amount=hp - after,
            hp=after,
            by=[f.name for f in by],
        )
    if how is not None:
        put_out(rs, t, how, r)


def apply(rs: RoundState, effect: Effect, r: int) -> None:
    """A hit that leaves a condition: trip, grapple, break free, disarm, or a maneuver's push."""
    kind = effect.kind
    f = effect.by
    t = effect.on
    if kind == TRIP:
        t.on_ground = True
        hamper(rs, t)
    elif kind == GRAPPLE:
        if t.pinned_by is None:
            if f.pinning is not None:
                release(rs, f)
            t.pinned_by = f
            f.pinning = t
            hamper(rs, t)
    elif kind == BREAK:
        if f.pinned_by is t:
            release(rs, t)
    elif kind == DISARM:
        if t.weapon_at is None:
            dice = rs.dice
            way = 1 if dice.roll(2) == 2 else -1
            t.weapon_at = t.pos + way * rs.rules.disarm_dice.roll(dice)
    elif kind == PUSH:
        if effect.also >= 0:
            # The action's own effect first (a trip, a pin, a disarm), then the push: a pin
            # pushed beyond its holder's reach breaks, as any pin whose two are parted.
            apply(rs, Effect(effect.also, f, t), r)
        rules = rs.rules
        start = t.pos
        t.pos = push(t.pos, f.pos, rules.maneuver_paces, f.stats.push_away, t.stats.home)
        if rules.maneuver_bonus:
            f.edge = (t, r + 1)
        holder = t.pinned_by
        if holder is not None and abs(holder.pos - t.pos) > holder.reach:
            release(rs, holder)
        held = t.pinning
        if held is not None and abs(held.pos - t.pos) > t.reach:
            release(rs, t)
        if rs.tracing:
            rs.combat.emit("effect", f, t, effect="push", start=start, end=t.pos)
        return
    if rs.tracing:
        name = _NAMES.get(kind) or ACTION_WORDS[kind]
        rs.combat.emit("effect", f, t, effect=name, weapon_at=t.weapon_at)
