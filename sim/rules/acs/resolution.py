"""What resolves an attack on the ACS clock: the :class:`Resolution` protocol.

ACS is "a timing framework to be modified to fit each game's mechanics": the clock decides who
acts when, a resolution decides what an attack does. A resolution brings its own rule options
and stat-block model (which must include :class:`~sim.rules.acs.models.AcsTiming`), makes plain
hot-path stats from a validated stat block, sets up each combat's shared state once before the
first second (:meth:`Resolution.begin`), and resolves one attack, telling the clock whether the
defender rolled a defense (which may cost it an action or disrupt a long one).

Two optional hooks, looked up on the resolution with a default when it has none:

- ``defensive_maneuver(clock, fighter)``: what a lost action taken as a defensive maneuver does
  (option ``lost_action: defensive_maneuver``). Default :func:`sim.rules.acs.clock.on_guard`:
  the fighter defends every attack for the rest of the second with the resolution's own defense
  (Target 10's Defend, a Proposition Three defense form). ``percentile`` adds ``maneuver_bonus``
  to its defense chance instead.
- ``action_effects``: the effects of named actions (:mod:`sim.rules.acs.spells`) it plays.
  Default attacks only; ``percentile`` plays all four.

Resolutions are not listed here. Each rule package offers its own on its rule system
(``RuleSystem.resolutions``: ACS ``percentile``, Target 10 ``target10``, Proposition Three
``prop3``, and any plug-in's), and the registry (:mod:`sim.rules.registry`) collects them and
hands the table to the ACS rule system; ACS imports no other rule system.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel

from sim.engine.combat import TraceEvent

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter

#: A resolution's hot-path stats of one combatant (``AcsFighter.stats``).
StatsT = TypeVar("StatsT")
#: A resolution's per-combat state of one combatant (``AcsFighter.state``), set by ``begin``.
StateT = TypeVar("StateT")


class Resolution(Protocol[StatsT, StateT]):
    """What the ACS clock asks of a resolution."""

    @property
    def name(self) -> str:
        """The name the ``resolution`` option uses."""

    @property
    def options_model(self) -> type[BaseModel]:
        """The resolution's own rule options, merged with the clock's into the scenario's.

        Derived from its rule system's own option models, never a copy of their fields.
        """

    @property
    def combatant_model(self) -> type[BaseModel]:
        """A combatant's stat block: the ACS timing fields plus the resolution's own."""

    @property
    def narration(self) -> Mapping[str, Callable[[TraceEvent], str]]:
        """Sentences for the events the resolution emits (for ``combatsim replay``)."""

    def stats(self, model: Any, options: Any) -> StatsT:
        """Plain hot-path stats from a validated stat block under the merged options."""

    def begin(self, clock: AcsClock[StatsT, StateT]) -> None:
        """Set up one combat: called once after the fighters are spawned, before the first second.

        It gives every fighter its starting ``state`` (luck points, a body) and builds whatever
        the combat shares, so that :meth:`attack` never sets anything up lazily.
        """

    def attack(
        self,
        clock: AcsClock[StatsT, StateT],
        attacker: AcsFighter[StatsT, StateT],
        target: AcsFighter[StatsT, StateT],
        can_defend: bool,
    ) -> bool:
        """Resolve one attack; True when the target rolled a defense."""
