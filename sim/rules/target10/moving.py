"""The movement part of an initiative step: advance, charge, flee, withdraw, stand, recover.

Target 10 text, "Movements" (the paces are :mod:`~sim.rules.target10.movements`): Advance and
Withdraw move 3 paces with the guard up, Charge and Flee triple speed, Hold and Maneuver do not
move, Stand gets up ("A character cannot stand if they are being attacked",
``stand_blocked_by``). RULINGS part B: everyone of a step moves from the positions before the
step; a withdrawer strikes from where it stood (a fighting retreat); a grappler that moves out of
reach lets go; a pinned combatant that moves (``held_cannot_move: false``) stays within its
holder's reach; a fleer may be out as soon as it has moved (``escape: on_move``). "Recover" is
the extra action of picking up a disarmed weapon (:mod:`~sim.rules.target10.actions`).
"""

from __future__ import annotations

from sim.engine.space import approach, nearest, retreat, tethered
from sim.rules.target10.actions import ATTACKS, FLED
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import hamper, put_out, release
from sim.rules.target10.movements import (
    ADVANCE,
    CHARGE,
    FLEE,
    HOLD,
    MANEUVER,
    MOVEMENTS,
    STAND,
    WITHDRAW,
    run_paces,
)
from sim.rules.target10.state import RoundState

#: Where each withdrawer stood before the step (it attacks from there).
Origins = dict[T10Fighter, float]


def move(rs: RoundState, members: tuple[T10Fighter, ...], r: int) -> Origins | None:
    """Move every member from the positions before the step; return withdrawers' origins."""
    rules = rs.rules
    moves: list[tuple[T10Fighter, float]] = []
    origin: Origins | None = None
    for f in members:
        m = f.move
        if m in (HOLD, MANEUVER):
            continue
        if m == STAND:
            stand(rs, f, r)
            continue
        target = f.target
        if m == FLEE:
            away = nearest(f, rs.fighters)
            if away is None:
                continue
            run = run_paces(f.speed, rules.run_multiplier)
            moves.append((f, retreat(f.pos, away.pos, run, f.stats.home)))
            continue
        if target is None or target.out is not None:
            continue
        if m == ADVANCE:
            moves.append((f, approach(f.pos, target.pos, rules.advance, f.reach)))
        elif m == CHARGE:
            run = run_paces(f.speed, rules.run_multiplier)
            moves.append((f, approach(f.pos, target.pos, run, f.reach)))
        elif m == WITHDRAW:
            if origin is None:
                origin = {}
            origin[f] = f.pos
            moves.append((f, retreat(f.pos, target.pos, rules.withdraw, f.stats.home)))
    tracing = rs.tracing
    for i, (f, pos) in enumerate(moves):
        holder = f.pinned_by
        if holder is not None:
            # Only a grapple breaks a pin: the pinned mover stays within its holder's reach
            # (the holder where it stood before the step).
            pos = tethered(pos, holder.pos, holder.reach)
            moves[i] = (f, pos)
    for f, pos in moves:
        if tracing:
            rs.combat.emit("move", f, movement=MOVEMENTS[f.move], start=f.pos, end=pos)
        f.pos = pos
        if f.move == FLEE:
            f.fled = True
            rs.flight = rules.escape != "on_move"
    for f, _ in moves:
        held = f.pinning
        if held is not None and abs(f.pos - held.pos) > f.reach:
            release(rs, f)
        if f.fled and rules.escape == "on_move" and f.out is None:
            put_out(rs, f, FLED, r)
    return origin


def stand(rs: RoundState, f: T10Fighter, r: int) -> None:
    """``f`` tries to get up, unless it is being attacked (option ``stand_blocked_by``)."""
    if not f.on_ground:
        return
    if rs.rules.stand_declared:
        blocked = any(
            e.out is None
            and e.target is f
            and e.act in ATTACKS
            and e.held_until < r
            and threatens(e, f)
            for e in rs.fighters
        )
    else:
        blocked = f.attacked == r
    if not blocked:
        f.on_ground = False
        hamper(rs, f)
    if rs.tracing:
        rs.combat.emit("stand", f, success=not blocked)


def recover(rs: RoundState, f: T10Fighter) -> None:
    """A disarmed ``f`` goes to its weapon, up to its speed, and picks it up if it gets there."""
    spot = f.weapon_at
    if spot is None:
        return
    if abs(spot - f.pos) <= f.speed:
        f.pos = spot
        f.weapon_at = None
        done = True
    else:
        f.pos = approach(f.pos, spot, f.speed, 0.0)
        done = False
    if rs.tracing:
        rs.combat.emit("recover", f, success=done, pos=f.pos)


def threatens(e: T10Fighter, f: T10Fighter) -> bool:
    """Whether ``e`` is in a position to attack ``f``: within its reach, or its range."""
    distance = abs(e.pos - f.pos)
    return distance <= e.reach or (e.weapon_at is None and distance <= e.range)
