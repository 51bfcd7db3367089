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
    moves: list[tuple[T10Fighter, float]] = []
    origin: Origins | None = None
    for f in members:
        if f.move == STAND:
            stand(rs, f, r)
            continue
        pos = destination(rs, f)
        if pos is None:
            continue
        if f.move == WITHDRAW:
            if origin is None:
                origin = {}
            origin[f] = f.pos
        moves.append((f, pos))
    arrive(rs, moves, r)
    return origin


def destination(rs: RoundState, f: T10Fighter) -> float | None:
    """Where ``f``'s movement takes it from the positions before the step (None: it stays).

    A fleer runs from its nearest enemy; the others move by their target (none: no move). Only
    a grapple breaks a pin: a pinned mover stays within its holder's reach (the holder where
    it stood before the step).
    """
    m = f.move
    rules = rs.rules
    if m == FLEE:
        away = nearest(f, rs.fighters)
        if away is None:
            return None
        run = run_paces(f.stats.speed, rules.run_multiplier)
        pos = retreat(f.pos, away.pos, run, f.stats.home)
    else:
        target = f.target
        if target is None or target.out is not None:
            return None
        if m == ADVANCE:
            pos = approach(f.pos, target.pos, rules.advance, f.stats.reach)
        elif m == CHARGE:
            run = run_paces(f.stats.speed, rules.run_multiplier)
            pos = approach(f.pos, target.pos, run, f.stats.reach)
        elif m == WITHDRAW:
            pos = retreat(f.pos, target.pos, rules.withdraw, f.stats.home)
        else:
            return None  # Hold and Maneuver stay where they are
    holder = f.pinned_by
    if holder is not None:
        pos = tethered(pos, holder.pos, holder.stats.reach)
    return pos


def arrive(rs: RoundState, moves: list[tuple[T10Fighter, float]], r: int) -> None:
    """The step's movers reach their places.

    Then grapplers out of reach let go, and a fleer may be out at once (``escape: on_move``).
    """
    rules = rs.rules
    for f, pos in moves:
        if rs.tracing:
            rs.combat.emit("move", f, movement=MOVEMENTS[f.move], start=f.pos, end=pos)
        f.pos = pos
        if f.move == FLEE:
            f.fled = True
            rs.flight = rules.escape != "on_move"
    for f, _ in moves:
        held = f.pinning
        if held is not None and abs(f.pos - held.pos) > f.stats.reach:
            release(rs, f)
        if f.fled and rules.escape == "on_move" and f.out is None:
            put_out(rs, f, FLED, r)


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
    if abs(spot - f.pos) <= f.stats.speed:
        f.pos = spot
        f.weapon_at = None
        done = True
    else:
        f.pos = approach(f.pos, spot, f.stats.speed, 0.0)
        done = False
    if rs.tracing:
        rs.combat.emit("recover", f, success=done, pos=f.pos)


def threatens(e: T10Fighter, f: T10Fighter) -> bool:
    """Whether ``e`` is in a position to attack ``f``: within its reach, or its range."""
    distance = abs(e.pos - f.pos)
    return distance <= e.stats.reach or (e.weapon_at is None and distance <= e.range)
