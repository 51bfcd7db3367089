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
from typing import TYPE_CHECKING, Any, Generic, TypeVar

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


class WakeUp(Event):
    """An event that fires at ``time`` with ``priority`` (lower fires first at equal times).

    The rule systems' one kind of wake-up: SimPy's ``Timeout`` with a priority, so that the order
    of actions inside a segment comes from the rules. It is born triggered with no value, as
    SimPy's ``Timeout`` is (``_ok`` and ``_value``, the two fields SimPy's own events set for
    that), and goes onto the queue through ``env.schedule``. The time is a whole number of
    segments, so its key on the queue is the time itself.

    Raises:
        ValueError: ``time`` is before the current time (``env.schedule`` would silently move
            the clock backwards).
    """

    def __init__(self, env: simpy.Environment, time: int, priority: int) -> None:
        now = env.now
        if time < now:
            raise ValueError(
                f"a wake-up at {time} is before the current time {now}: "
                "the clock never goes backwards"
            )
        self.env = env
        self.callbacks = []
        self._ok = True
        self._value = None
        # SimPy types a priority as its EventPriority (an int); a rule's priority is an int.
        env.schedule(self, priority, time - now)  # type: ignore[arg-type]


#: ``wake_at(env, time, priority)``: an event that fires at ``time`` with ``priority``.
wake_at = WakeUp


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

    if TYPE_CHECKING:

        @property
        def now(self) -> int:
            """The current time: a combat's clock counts whole segments (:class:`WakeUp`)."""


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
        self.env.run(until=self._end_event)
        return self
