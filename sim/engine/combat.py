"""The engine: one combat on a SimPy clock whose unit is one ACS segment (0.1 s).

The engine owns what every rule system shares: the SimPy environment, the combat's dice stream,
the combatants and their sides, taking combatants out, deciding when the fight is over, and the
trace of events that observers (the narrated replay, the trace tests) read. It knows nothing of
hitting, defending or initiative: a rule system's *round process* (the ACS seconds and segments,
Target 10 rounds, Proposition Three rounds) is started on the environment and drives the fight.

Same-time order is SimPy's ``(time, priority, event id)``; the rule systems give every action
its own priority (:func:`wake_at`) so that the order inside a segment comes from the rules
(ambition, initiative), never from the order in which processes were created.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from heapq import heappop, heappush
from operator import attrgetter
from typing import Any, Generic, TypeVar

import simpy
from simpy.events import Event

from sim.engine.combatant import Fighter
from sim.engine.dice import Dice

#: The fighter type of a combat: each rule system plays with its own subclass of Fighter.
F = TypeVar("F", bound=Fighter)

#: Simulation time units per second of game time (one unit = one segment).
SEGMENTS_PER_SECOND = 10

#: SimPy's own priorities are 0 (urgent) and 1 (normal); rule-ordered wake-ups use larger ones.
FIRST_RULE_PRIORITY = 2


class SimPyInternals:
    """The one place where combatsim touches SimPy's private attributes, and why.

    Four shortcuts through SimPy 4's internals, all on the path every combat takes:

    - :meth:`run_until` is SimPy's ``env.run(until=end)`` with ``env.step`` inlined: the same
      order, the same handling of failed events, one method call (and its ``try``) less per
      event, and no ``StopSimulation`` raised at the end of every combat;
    - :class:`WakeUp` (rule systems make one per action) is born triggered, as SimPy's own
      ``Timeout`` is, and pushes itself onto the queue with the key ``env.schedule`` would
      give it, without the method call;
    - :attr:`now_of` reads the clock as ``env.now`` does, with a C ``attrgetter`` instead of
      the property's Python call (the ACS clock reads it on every attack and defense);
    - :meth:`drop_pending` empties the queue when the fight is over, so that a finished
      combat's processes are freed at once, not by the garbage collector.

    It stays because it pays, against plain ``env.run()``, ``env.schedule`` and ``env.now``,
    more than the speed policy asks on some reference duel (the rule and the measurement:
    ``docs/architecture.md``, "Speed policy"). The price:
    ``env._now``, ``env._queue``, ``env._eid``, ``event._ok`` and ``event._value`` are read or
    set here and nowhere else, and ``pyproject.toml`` pins ``simpy<5``.

    What keeps it honest:

    - tests/test_engine_simpy.py plays every bundled scenario through these shortcuts and
      through plain ``env.run()`` and ``env.schedule``, and asserts the same traces and records;
    - a wake-up refuses a time in the past (SimPy's ``schedule`` would silently move the clock
      backwards), so the inlined loop never sees the clock go back;
    - the same file checks that no process of a finished combat is left to the collector, and
      that dropped events are not counted as processed.
    """

    __slots__ = ()

    class WakeUp(Event):
        """An event that fires at ``time`` with ``priority`` (lower fires first at equal times).

        One object and one heap push per wake-up: the cheapest event SimPy can process. The
        time is a whole number of segments, so its key on the queue is the time itself.

        Raises:
            ValueError: ``time`` is before the current time.
        """

        def __init__(self, env: simpy.Environment, time: int, priority: int) -> None:
            if time < env._now:
                raise ValueError(
                    f"a wake-up at {time} is before the current time {env._now}: "
                    "the clock never goes backwards"
                )
            self.env = env
            self.callbacks = []
            # Born triggered with no value, like SimPy's Timeout, and on the instance as it
            # does: the run loop and each resumed process read both (an attribute of the class
            # is read through the slow path, at about ten times the cost).
            self._ok = True
            self._value = None
            # env.schedule(self, priority, time - now) keys it at now + (time - now): ``time``
            # itself, as the clocks count time in whole segments (integers, no rounding).
            queue: list[Any] = env._queue
            heappush(queue, (time, priority, next(env._eid), self))

    #: ``now_of(env)``: ``env.now`` (SimPy's current time), without the property's Python call.
    now_of = staticmethod(attrgetter("_now"))

    @staticmethod
    def run_until(env: simpy.Environment, end: Event) -> None:
        """``env.run(until=end)``: process events in order until ``end`` has been processed.

        Raises:
            RuntimeError: the queue ran dry before ``end`` (a round process stopped early), or
                an event failed and nobody defused it (as ``env.step`` raises it).
        """
        # Events as SimPy's step sees them: their callbacks become None once processed.
        queue: list[Any] = env._queue
        while end.callbacks is not None:
            if not queue:
                raise RuntimeError("combat stalled: its round process stopped before the end")
            env._now, _, _, event = heappop(queue)
            callbacks, event.callbacks = event.callbacks, None
            for callback in callbacks:
                callback(event)
            if not event._ok and not hasattr(event, "_defused"):
                exc = type(event._value)(*event._value.args)
                exc.__cause__ = event._value
                raise exc

    @staticmethod
    def drop_pending(env: CombatEnvironment) -> None:
        """Drop the events still queued once a combat is over: none of them will ever happen.

        SimPy holds an environment and its queued events, and a sleeping process and the event
        it sleeps on, in reference cycles. Cut when the fight ends (each event's callbacks
        dropped, the queue emptied), they no longer keep the combat's processes and fighters
        alive until the garbage collector's next pass: all is freed as soon as the combat is
        let go. How many were dropped is kept for :meth:`events_processed`.
        """
        queue: list[Any] = env._queue
        for _, _, _, event in queue:
            event.callbacks = None
        env.dropped = len(queue)
        queue.clear()

    @staticmethod
    def events_processed(env: CombatEnvironment) -> int:
        """How many events ``env`` has processed (for the benchmarks; draws one event id).

        Every event, however scheduled, draws one id; those still queued, or dropped when the
        combat ended, never happened.
        """
        return next(env._eid) - len(env._queue) - env.dropped


#: An event that fires at ``time`` with ``priority``: ``WakeUp(env, time, priority)``.
WakeUp = SimPyInternals.WakeUp

#: ``wake_at(env, time, priority)``: an event that fires at ``time`` with ``priority``.
wake_at = WakeUp

#: ``now_of(env)``: the current time of ``env``, as ``env.now`` gives it.
now_of = SimPyInternals.now_of


class CombatEnvironment(simpy.Environment):
    """A combat's SimPy environment: SimPy's own, made without binding its helpers to itself.

    ``simpy.Environment.__init__`` walks its instance's class ``__dict__`` and stores a bound
    copy of each helper it finds there (``process``, ``timeout``, ``event``, ``all_of``,
    ``any_of``) on the instance. Each combat makes one environment and asks it for only a
    few processes; the walk and the five bound helpers, each pointing back at the environment
    (a cycle only the garbage collector frees), cost more than that: this subclass's own
    ``__dict__`` holds no helper, so the walk binds nothing, and ``env.process`` is bound on
    use through SimPy's descriptor, as on any instance (the ACS clock makes its processes
    with ``simpy.Process(env, ...)`` itself). Nothing private is read or set.
    """

    #: Events still queued when the combat ended, dropped unprocessed
    #: (:meth:`SimPyInternals.drop_pending`).
    dropped = 0


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """Something that happened, as observers see it.

    Attributes:
        t: simulation time in segments.
        kind: what happened (``"ambition"``, ``"attack"``, ``"defense"``, ``"damage"``, ...).
        actor: who did it, if anyone.
        target: whom it was done to, if anyone.
        data: the numbers (rolls, totals, segments).
    """

    t: float
    kind: str
    actor: str | None = None
    target: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


class Combat(Generic[F]):
    """One fight in progress.

    Args:
        fighters: every combatant, in scenario order.
        side_names: the names of the sides, by side index.
        dice: the combat's random stream.
        time_limit_s: game time after which the fight is a draw.
        trace: a list to append :class:`TraceEvent` records to, or None for no tracing.
    """

    __slots__ = (
        "_end_event",
        "dice",
        "duration_s",
        "end_reason",
        "env",
        "fighters",
        "side_names",
        "sides",
        "time_limit_s",
        "trace",
        "winner",
    )

    def __init__(
        self,
        fighters: list[F],
        side_names: tuple[str, ...],
        dice: Dice,
        time_limit_s: float,
        trace: list[TraceEvent] | None = None,
    ) -> None:
        self.env: CombatEnvironment = CombatEnvironment()
        self.dice = dice
        self.fighters = fighters
        self.side_names = side_names
        self.sides: list[list[F]] = [[] for _ in side_names]
        for fighter in fighters:
            self.sides[fighter.side].append(fighter)
        self.time_limit_s = time_limit_s
        self.trace = trace
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.duration_s: float = 0.0
        self._end_event = Event(self.env)

    # -- observers -----------------------------------------------------------------------------

    def emit(
        self, kind: str, actor: Fighter | None = None, target: Fighter | None = None, **data: Any
    ) -> None:
        """Record an event for observers (a no-op unless tracing)."""
        if self.trace is not None:
            self.trace.append(
                TraceEvent(
                    self.env.now,
                    kind,
                    actor.name if actor is not None else None,
                    target.name if target is not None else None,
                    data,
                )
            )

    # -- who is where ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The fight has ended."""
        return self.end_reason is not None

    def enemies(self, fighter: F) -> list[F]:
        """Able combatants of every other side, in scenario order."""
        side = fighter.side
        return [f for f in self.fighters if f.out is None and f.side != side]

    def allies(self, fighter: F) -> list[F]:
        """Able combatants of the fighter's side other than itself, in scenario order."""
        return [f for f in self.sides[fighter.side] if f.out is None and f is not fighter]

    def able_sides(self, stop_at: int | None = None) -> list[int]:
        """Indices of the sides that still have someone able to fight.

        Args:
            stop_at: stop looking once this many are found (enough to know the fight goes on).
        """
        able = []
        for i, side in enumerate(self.sides):
            for f in side:
                if f.out is None:
                    able.append(i)
                    if len(able) == stop_at:
                        return able
                    break
        return able

    # -- changes --------------------------------------------------------------------------------

    def damage(
        self,
        attacker: Fighter | None,
        target: Fighter,
        amount: int,
        out_at_or_below: int = 0,
        how: str = "down",
    ) -> None:
        """Take ``amount`` hit points from ``target``; out when at ``out_at_or_below`` or less."""
        if amount <= 0:
            return
        target.hp -= amount
        target.damage_taken += amount
        if attacker is not None:
            attacker.damage_dealt += amount
        if self.trace is not None:
            self.emit("damage", attacker, target, amount=amount, hp=target.hp)
        if target.hp <= out_at_or_below and target.out is None:
            self.take_out(target, how)

    def take_out(self, fighter: Fighter, how: str) -> None:
        """Take a combatant out of the fight and end the fight if only one side is left."""
        if fighter.out is not None:
            return
        fighter.out = how
        fighter.out_at = self.env.now
        if self.trace is not None:
            self.emit("out", fighter, how=how)
        self.check_end()

    def check_end(self, duration_s: float | None = None) -> None:
        """End the fight if at most one side still has someone able to fight.

        Args:
            duration_s: the game time the fight took, if the round process knows better than
                "the end of the current segment".
        """
        if self.end_reason is not None:
            return
        sides = self.able_sides(stop_at=2)
        if len(sides) > 1:
            return
        if duration_s is None:
            duration_s = (self.env.now + 1) / SEGMENTS_PER_SECOND
        if sides:
            self.finish("victory", duration_s, sides[0])
        else:
            self.finish("mutual", duration_s, None)

    def finish(self, reason: str, duration_s: float, winner: int | None = None) -> None:
        """End the fight now (``victory``, ``mutual`` or ``time_limit``)."""
        if self.end_reason is not None:
            return
        self.end_reason = reason
        self.winner = winner
        self.duration_s = round(duration_s, 6)
        if self.trace is not None:
            self.emit(
                "end",
                reason=reason,
                winner=self.side_names[winner] if winner is not None else None,
                duration_s=self.duration_s,
            )
        self._end_event.succeed()

    # -- running --------------------------------------------------------------------------------

    def run(self, start: Callable[[Combat[F]], None]) -> Combat[F]:
        """Start the round process with ``start(self)`` and run until the fight is over."""
        self.check_end(0.0)
        if self.over:
            return self
        start(self)
        SimPyInternals.run_until(self.env, self._end_event)
        SimPyInternals.drop_pending(self.env)
        return self
