"""The ACS clock's side of the resolution contract: its types and its default hooks.

ACS is "a timing framework to be modified to fit each game's mechanics": the clock decides who
acts when, a resolution decides what an attack does. The protocol a resolution answers is the
neutral :class:`sim.rules.base.Resolution`; here it is named with the clock's own types,
``Resolution[Stats, State]``: the hooks are handed this clock (``AcsClock[Stats, State]``) and its
fighters (``AcsFighter[Stats, State]``), whose ``stats`` the resolution made and whose ``state``
its ``begin`` set.

:class:`Defaults` is what the clock does where a resolution says nothing (every hook of
:class:`~sim.rules.base.OptionalHooks`); a resolution derives from it and overrides what its
system says:

- ``defensive_maneuver(clock, fighter)``: what a lost action taken as a defensive maneuver does
  (option ``lost_action: defensive_maneuver``). Default :func:`on_guard`: the fighter defends
  every attack for the rest of the second with the resolution's own defense (Target 10's Defend,
  a Proposition Three defense form). ``percentile`` adds ``maneuver_bonus`` to its defense chance
  instead.
- ``action_effects``: the effects of named actions (:mod:`sim.rules.acs.spells`) it plays.
  Default attacks only; ``percentile`` plays all four.
- the movement and range hooks of :class:`~sim.rules.base.Space` (:mod:`sim.rules.acs.movement`):
  by default reach everywhere, no shots and no moves, in paces.

Resolutions are not listed here. Each rule package offers its own on its rule system
(``RuleSystem.resolutions``: ACS ``percentile``, Target 10 ``target10``, Proposition Three
``prop3``), plug-ins in the ``combatsim.resolutions`` entry-point group, and the registry
(:mod:`sim.rules.registry`) collects them and hands the table to the ACS rule system; ACS imports
no other rule system.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sim.rules import base
from sim.rules.base import CLOSE, FLEE, WITHDRAW

if TYPE_CHECKING:
    from typing import TypeAlias

    from sim.rules.acs.clock import AcsClock
    from sim.rules.acs.fighter import AcsFighter

#: A resolution's hot-path stats of one combatant (``AcsFighter.stats``).
StatsT = TypeVar("StatsT")
#: A resolution's per-combat state of one combatant (``AcsFighter.state``), set by ``begin``.
StateT = TypeVar("StateT")

#: The effects a resolution supports when it says nothing (``Resolution.action_effects``).
ATTACK_ONLY = frozenset({"attack"})

if TYPE_CHECKING:
    #: A resolution of the ACS clock, with stats ``StatsT`` and state ``StateT``.
    Resolution: TypeAlias = base.Resolution[
        AcsClock[StatsT, StateT], AcsFighter[StatsT, StateT], StatsT
    ]
    #: Its movement and range hooks.
    Space: TypeAlias = base.Space[AcsClock[StatsT, StateT], AcsFighter[StatsT, StateT], StatsT]
else:
    # At run time the names are the neutral protocols (kept here for plug-ins that import them).
    Resolution = base.Resolution
    Space = base.Space

#: The replay's verb for each movement when the resolution has no word of its own.
MOVEMENT_WORDS = {CLOSE: "closes", FLEE: "flees", WITHDRAW: "steps back"}


def on_guard(clock: AcsClock[Any, Any], fighter: AcsFighter[Any, Any]) -> None:
    """The default defensive maneuver: defend every attack for the rest of the second.

    ACS "Defenses": the lost action "may be taken ... by a defensive maneuver". A resolution that
    says nothing more (``Resolution.defensive_maneuver``) gets this: the per-segment count of
    defensive actions no longer limits the fighter this second, so every attack meets the
    resolution's own defense (Target 10's Defend, a Proposition Three defense form).
    """
    fighter.guarded = clock.second


class Defaults(Generic[StatsT, StateT]):
    """The clock's answer to every optional hook: derive a resolution from it.

    Reach everywhere (every fight starts and stays in reach), no shots, no moves, distances in
    paces; a defensive maneuver is :func:`on_guard`; named actions are attacks only.
    """

    #: The unit of distances.
    distance_unit = "paces"
    #: The effects of named actions the resolution plays.
    action_effects: frozenset[str] = ATTACK_ONLY

    def reach(self, stats: StatsT) -> float:
        """Everywhere."""
        return float("inf")

    def shot_range(self, clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT]) -> float:
        """No shots."""
        return 0.0

    def step(
        self, clock: AcsClock[StatsT, StateT], me: AcsFighter[StatsT, StateT], movement: str
    ) -> float:
        """No moves."""
        return 0.0

    def ready_shot(
        self,
        clock: AcsClock[StatsT, StateT],
        me: AcsFighter[StatsT, StateT],
        target: AcsFighter[StatsT, StateT],
    ) -> bool:
        """Nothing to aim or reload."""
        return False

    def movement_word(self, me: AcsFighter[StatsT, StateT], movement: str) -> str:
        """The clock's own verbs (:data:`MOVEMENT_WORDS`)."""
        return MOVEMENT_WORDS[movement]

    #: :func:`on_guard`, the function itself (the clock calls it as ``(clock, fighter)``).
    defensive_maneuver = staticmethod(on_guard)


#: The defaults as an object: the answers of a scenario where positions do not matter, and what
#: the registry completes a plug-in with. (``Any``: they answer for any stats and state.)
DEFAULTS: Defaults[Any, Any] = Defaults()
