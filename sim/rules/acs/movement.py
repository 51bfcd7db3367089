"""Movement and range on the ACS clock: what an action does when the target is not in reach.

ACS text, "Movement": "The ability to move during combat should not be considered a separate
action, although it takes place over the course of actions and segments. Movement is based on
the mechanics utilizing this system." RULINGS part A: "where distance matters, combatants move
during segments at their speed". This module reads that as follows (``docs/rules/acs.md``,
"Movement and range on the clock"):

- Every combatant stands on the engine's line (:mod:`sim.engine.space`); side ``i`` starts at
  ``i * start_distance`` (clock option, default 0: everyone in reach, as before positions
  existed) unless its stat block gives a ``position``.
- Movement is no action of its own: it takes place on the mover's action segments. On each
  action segment a combatant whose target is beyond its reach (and, for a shooter, beyond its
  range) covers its share of the second's distance: the resolution says how far one action
  goes (:meth:`Space.step`: Target 10's Charge, Proposition Three's speed, a percentile
  ``speed``), and it stops as soon as it is in reach (or in range). Having arrived it attacks on
  its next action segment.
- A target in reach is attacked; a target beyond reach but within the attacker's range is shot
  at (tactic ``ranged: shoot``), after any aiming or reloading the resolution asks for
  (:meth:`Space.ready_shot`), unless an enemy nearer than ``keep_distance`` makes it step back.
- A combatant at or below ``flee_below_hp`` hit points flees from the nearest enemy at its
  flight speed, and is out (``fled``) once it is more than ``escape_distance`` from every enemy.
- A multi-segment attack whose target has moved out of reach (or range) by the time it
  completes is lost: the target has escaped it.

The resolution brings the numbers (its unit, reach, range, steps) through the hooks of
:class:`sim.rules.base.Space`, which every resolution has (the clock's defaults,
:class:`sim.rules.acs.resolution.Defaults`, give reach everywhere: every fight starts and stays
in reach).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.engine.space import approach, distance, nearest, retreat
from sim.rules.acs.resolution import StateT, StatsT
from sim.rules.base import CLOSE, FLEE, WITHDRAW

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter


def per_action(per_round: float, round_seconds: float, actions: int) -> float:
    """How far one action of a movement goes: a round's distance over its seconds and actions.

    RULINGS part A: combatants "move during segments at their speed". A system that counts
    distance per round (Target 10's paces, Proposition Three's feet) spreads it over the
    ``round_seconds`` a round lasts on the clock, then over the mover's actions of a second; a
    speed already per second (``percentile``) is a round of one second.
    """
    return per_round / round_seconds / actions


def engage(
    clock: AcsClock[StatsT, StateT],
    me: AcsFighter[StatsT, StateT],
    target: AcsFighter[StatsT, StateT],
) -> bool:
    """Before an attack: move, flee, step back, aim or reload if need be.

    Returns True when the action was spent so (no attack this action), False when ``me``
    attacks ``target`` now (in reach, or in range of a shot).
    """
    space = clock.space
    tactics = me.timing
    if tactics.flee_below and me.hp <= tactics.flee_below:
        flee(clock, me)
        return True
    me.moving = None
    gap = distance(me, target)
    keep = tactics.keep
    if gap <= me.reach and not (keep and gap < keep and tactics.shoots):
        return False
    reach = space.shot_range(clock, me) if tactics.shoots else 0.0
    if gap <= reach:
        if keep and gap < keep and _back_off(clock, me, target):
            return True
        return space.ready_shot(clock, me, target)
    if gap <= me.reach:
        return False
    step = space.step(clock, me, CLOSE) if tactics.closes else 0.0
    if step <= 0:
        if clock.combat.trace is not None:
            clock.combat.emit("hold", me, target, distance=gap, unit=space.distance_unit)
        return True
    stop = reach if reach > me.reach else me.reach
    move(clock, me, approach(me.pos, target.pos, step, stop), CLOSE, target)
    return True


def in_reach(
    clock: AcsClock[StatsT, StateT],
    me: AcsFighter[StatsT, StateT],
    target: AcsFighter[StatsT, StateT],
) -> bool:
    """Whether ``target`` is within ``me``'s reach, or the range of a shot it may take now."""
    gap = distance(me, target)
    if gap <= me.reach:
        return True
    return me.timing.shoots and gap <= clock.space.shot_range(clock, me)


def flee(clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT]) -> None:
    """``me`` runs from the nearest enemy; out (``fled``) once beyond ``escape_distance`` of all."""
    combat = clock.combat
    away = nearest(me, combat.fighters)
    if away is None:
        return
    step = clock.space.step(clock, me, FLEE)
    move(clock, me, retreat(me.pos, away.pos, step, me.home), FLEE, away)
    me.moving = FLEE
    escape = clock.options.escape_distance
    if escape is not None:
        closest = nearest(me, combat.fighters)
        if closest is None or distance(closest, me) > escape:
            combat.take_out(me, "fled")


def _back_off(
    clock: AcsClock[StatsT, StateT],
    me: AcsFighter[StatsT, StateT],
    target: AcsFighter[StatsT, StateT],
) -> bool:
    """A shooter with an enemy nearer than ``keep_distance`` steps back (False: it cannot)."""
    away = nearest(me, clock.combat.fighters) or target
    step = clock.space.step(clock, me, WITHDRAW)
    if step <= 0:
        return False
    move(clock, me, retreat(me.pos, away.pos, step, me.home), WITHDRAW, away)
    me.moving = WITHDRAW
    return True


def move(
    clock: AcsClock[StatsT, StateT],
    me: AcsFighter[StatsT, StateT],
    to: float,
    movement: str,
    towards: AcsFighter[StatsT, StateT],
) -> None:
    """Put ``me`` at ``to`` (the replay says from where, how, and how far from ``towards``)."""
    start = me.pos
    me.pos = to
    if movement == CLOSE:
        me.moving = CLOSE
    combat = clock.combat
    if combat.trace is not None:
        combat.emit(
            "move",
            me,
            towards,
            movement=movement,
            how=clock.space.movement_word(me, movement),
            start=start,
            end=to,
            distance=distance(me, towards),
            unit=clock.space.distance_unit,
            segment=clock.segment_now(me),
        )
