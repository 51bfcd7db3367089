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

The resolution brings the numbers (its unit, reach, range, steps) through the optional hooks of
:class:`Space`; a resolution with none of them has reach everywhere (every fight starts and
stays in reach).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Protocol

from sim.engine.space import approach, distance, nearest, retreat
from sim.rules.acs.resolution import Resolution, StateT, StatsT

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter

#: Movements of the clock: towards the target, away from the nearest enemy (in flight), back a
#: step with the guard up (a shooter keeping its distance).
CLOSE, FLEE, WITHDRAW = "close", "flee", "withdraw"
MOVEMENTS = (CLOSE, FLEE, WITHDRAW)


def per_action(per_round: float, round_seconds: float, actions: int) -> float:
    """How far one action of a movement goes: a round's distance over its seconds and actions.

    RULINGS part A: combatants "move during segments at their speed". A system that counts
    distance per round (Target 10's paces, Proposition Three's feet) spreads it over the
    ``round_seconds`` a round lasts on the clock, then over the mover's actions of a second; a
    speed already per second (``percentile``) is a round of one second.
    """
    return per_round / round_seconds / actions


class Space(Protocol[StatsT, StateT]):
    """The optional movement and range hooks of a resolution, typed by its stats and state.

    A resolution may define any of these; :data:`NO_SPACE` answers for the rest.
    """

    #: The unit of distances (``paces``, ``feet``): positions, reach, range and speeds.
    distance_unit: str

    def reach(self, stats: StatsT) -> float:
        """Melee reach of a combatant with these hot-path stats."""

    def shot_range(self, clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT]) -> float:
        """How far ``me`` can shoot now (0: it cannot: no ranged weapon, no ammunition)."""

    def step(
        self, clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT], movement: str
    ) -> float:
        """How far one action of ``movement`` takes ``me`` (it may note the movement)."""

    def ready_shot(
        self,
        clock: AcsClock[StatsT, StateT],
        me: AcsFighter[StatsT, StateT],
        target: AcsFighter[StatsT, StateT],
    ) -> bool:
        """Before a shot: True when this action goes to aiming or reloading instead."""

    def movement_word(self, me: AcsFighter[StatsT, StateT], movement: str) -> str:
        """The replay's verb for this move (``charges``, ``advances``): the system's own name."""


class _NoSpace:
    """The answers for a resolution without movement hooks: reach everywhere, never a move.

    Each method takes the fighters of any resolution (it reads nothing of them).
    """

    distance_unit = "paces"

    def reach(self, stats: object) -> float:
        return float("inf")

    def shot_range(self, clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT]) -> float:
        return 0.0

    def step(
        self, clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT], movement: str
    ) -> float:
        return 0.0

    def ready_shot(
        self,
        clock: AcsClock[StatsT, StateT],
        me: AcsFighter[StatsT, StateT],
        target: AcsFighter[StatsT, StateT],
    ) -> bool:
        return False

    def movement_word(self, me: AcsFighter[StatsT, StateT], movement: str) -> str:
        return MOVEMENT_WORDS[movement]


#: The replay's verb for each movement when the resolution has no word of its own.
MOVEMENT_WORDS = {CLOSE: "closes", FLEE: "flees", WITHDRAW: "steps back"}

NO_SPACE = _NoSpace()


class SpaceOf(Generic[StatsT, StateT]):
    """A resolution's space hooks, each its own where it has one, else :data:`NO_SPACE`'s."""

    __slots__ = ("distance_unit", "movement_word", "reach", "ready_shot", "shot_range", "step")

    def __init__(self, resolution: Resolution[StatsT, StateT] | None) -> None:
        self.distance_unit: str = getattr(resolution, "distance_unit", NO_SPACE.distance_unit)
        self.reach: Callable[[StatsT], float] = getattr(resolution, "reach", NO_SPACE.reach)
        self.shot_range: Callable[[AcsClock[StatsT, StateT], AcsFighter[StatsT, StateT]], float] = (
            getattr(resolution, "shot_range", NO_SPACE.shot_range)
        )
        self.step: Callable[[AcsClock[StatsT, StateT], AcsFighter[StatsT, StateT], str], float] = (
            getattr(resolution, "step", NO_SPACE.step)
        )
        self.ready_shot: Callable[
            [AcsClock[StatsT, StateT], AcsFighter[StatsT, StateT], AcsFighter[StatsT, StateT]],
            bool,
        ] = getattr(resolution, "ready_shot", NO_SPACE.ready_shot)
        self.movement_word: Callable[[AcsFighter[StatsT, StateT], str], str] = getattr(
            resolution, "movement_word", NO_SPACE.movement_word
        )


#: The hooks of a scenario where positions do not matter (reach everywhere): built once, for
#: every clock whatever its resolution (``Any``: it reads nothing of their stats or state).
EVERYWHERE: SpaceOf[Any, Any] = SpaceOf(None)


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
