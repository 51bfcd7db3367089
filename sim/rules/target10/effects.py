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
    BREAK,
    DAMAGING,
    DISARM,
    GRAPPLE,
    KILL,
    NONE,
    SUBDUE,
    TRIP,
    subdue_dealt,
    take_damage,
)
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import hamper, put_out, release
from sim.rules.target10.exchange import blow_lands
from sim.rules.target10.luck import cancel_hits, spend_on_hit
from sim.rules.target10.state import RoundState

#: The effect kind of a maneuvering hit (beyond the action codes and BREAK): a push.
PUSH = 100
_NAMES = {PUSH: "push", BREAK: "break"}


@dataclass(frozen=True, slots=True)
class Effect:
    """A successful attack of a step, waiting to land with the step's other hits.

    Attributes:
        kind: the attacker's action code (:mod:`~sim.rules.target10.actions`), BREAK (a
            pinned grappler breaking free) or :data:`PUSH` (a maneuvering hit).
        by: the attacker.
        on: the target.
        amount: the damage of a Kill or Subdue (0 for the others).
        also: with :data:`PUSH`, the action whose effect lands too (trip, grapple, disarm or
            BREAK; option ``maneuver_keeps_action``), or NONE.
    """

    kind: int
    by: T10Fighter
    on: T10Fighter
    amount: int = 0
    also: int = NONE


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

    What it does is :func:`~sim.rules.target10.exchange.blow_lands`' answer.
    """
    if t.out is not None:
        return
    landing = blow_lands(kind, amount, t.hp, t.luck, t.stats.luck_policy, rs.rules.test.zero_hp)
    if landing.ignored:
        spend(rs, t, by)
        return
    by.damage_dealt += landing.dealt
    wound(rs, t, landing.hp, landing.out, (by,) if rs.tracing else (), r)


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
    after, how = take_damage(t.hp, kill, subdue, rs.rules.test.zero_hp)
    wound(rs, t, after, how, by, r)


def wound(
    rs: RoundState, t: T10Fighter, after: int, how: str | None, by: Sequence[T10Fighter], r: int
) -> None:
    """``t`` is left with ``after`` hit points by the hits of ``by``, and is out ``how``.

    What is left and whether ``t`` is out is
    :func:`~sim.rules.target10.actions.take_damage`'s answer, for one hit
    (:func:`~sim.rules.target10.exchange.blow_lands`) or a step's together (:func:`hurt`).
    """
    hp = t.hp
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
    if kind == PUSH:
        if effect.also != NONE:
            # The action's own effect first (a trip, a pin, a disarm), then the push: a pin
            # pushed beyond its holder's reach breaks, as any pin whose two are parted.
            apply(rs, Effect(effect.also, f, t), r)
        shove(rs, f, t, r)
        return
    if kind == TRIP:
        t.on_ground = True
        hamper(rs, t)
    elif kind == GRAPPLE:
        pin(rs, f, t)
    elif kind == BREAK:
        if f.pinned_by is t:
            release(rs, t)
    elif kind == DISARM:
        disarm(rs, t)
    if rs.tracing:
        name = _NAMES.get(kind) or ACTION_WORDS[kind]
        rs.combat.emit("effect", f, t, effect=name, weapon_at=t.weapon_at)


def pin(rs: RoundState, f: T10Fighter, t: T10Fighter) -> None:
    """``f``'s Grapple pins ``t`` (unless someone already does), letting go of anyone else."""
    if t.pinned_by is None:
        if f.pinning is not None:
            release(rs, f)
        t.pinned_by = f
        f.pinning = t
        hamper(rs, t)


def disarm(rs: RoundState, t: T10Fighter) -> None:
    """``t``'s weapon flies ``disarm_paces`` away, on a side the d2 picks."""
    if t.weapon_at is None:
        dice = rs.dice
        way = 1 if dice.roll(2) == 2 else -1
        t.weapon_at = t.pos + way * rs.rules.disarm_dice.roll(dice)


def shove(rs: RoundState, f: T10Fighter, t: T10Fighter, r: int) -> None:
    """A maneuvering hit moves ``t`` ``maneuver_paces``; a pin so parted breaks."""
    rules = rs.rules
    start = t.pos
    t.pos = push(t.pos, f.pos, rules.maneuver_paces, f.stats.push_away, t.stats.home)
    if rules.exchange.maneuver_bonus:
        f.edge = (t, r + 1)
    holder = t.pinned_by
    if holder is not None and abs(holder.pos - t.pos) > holder.stats.reach:
        release(rs, holder)
    held = t.pinning
    if held is not None and abs(held.pos - t.pos) > t.stats.reach:
        release(rs, t)
    if rs.tracing:
        rs.combat.emit("effect", f, t, effect="push", start=start, end=t.pos)
