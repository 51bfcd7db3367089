"""The Ambition Combat System as a rule system of the engine (``rules: acs``).

Binds the ACS clock (:mod:`sim.rules.acs.clock`) to a resolution chosen by the ``resolution``
option (:mod:`sim.rules.acs.resolution`): the combatant model is the resolution's, which carries
the ACS timing fields; the options are the clock's plus the resolution's.

ACS offers one resolution of its own (``percentile``); the others come from the rule packages
that offer them (``RuleSystem.resolutions``). The table of every resolution is handed to the ACS
rule system when the registry builds it (:mod:`sim.rules.registry`) and read only when a scenario
is validated or prepared, so ACS imports no other rule system and a plug-in's resolution is
found like a built-in one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic

from pydantic import BaseModel, create_model, field_validator

from sim.engine.combat import Combat, TraceEvent
from sim.engine.dice import Dice, DiceExpr
from sim.engine.errors import Problem
from sim.rules.acs.clock import AcsClock
from sim.rules.acs.fighter import AcsFighter, Timing
from sim.rules.acs.models import AcsClockOptions, AcsTiming
from sim.rules.acs.narration import CLOCK_NARRATION, segment_label
from sim.rules.acs.percentile import PERCENTILE
from sim.rules.acs.resolution import StateT, StatsT
from sim.rules.base import ScenarioView

if TYPE_CHECKING:
    from sim.rules.acs.resolution import Resolution, Space

#: The resolution of a scenario that names none.
DEFAULT_RESOLUTION = "percentile"


@dataclass(frozen=True, slots=True)
class RosterEntry(Generic[StatsT]):
    """One combatant of a prepared ACS scenario: what each combat spawns it from."""

    name: str
    side: int
    hp: DiceExpr
    timing: Timing
    stats: StatsT
    #: Where it starts on the line, and its melee reach (the resolution's unit).
    pos: float
    reach: float


class AcsPrepared(Generic[StatsT, StateT]):
    """An ACS scenario ready to play combat after combat."""

    def __init__(
        self,
        options: AcsClockOptions,
        resolution: Resolution[StatsT, StateT],
        scenario: ScenarioView,
    ) -> None:
        self.options = options
        self.resolution = resolution
        self.roster: list[RosterEntry[StatsT]] = []
        for spec in scenario.combatants:
            model = spec.stats
            if not isinstance(model, AcsTiming):
                raise TypeError(f"{spec.name}: a stat block of {resolution.name}, not {model!r}")
            stats = resolution.stats(model, options)
            position = model.position
            self.roster.append(
                RosterEntry(
                    name=spec.name,
                    side=spec.side,
                    hp=DiceExpr.parse(model.hp),
                    timing=Timing.of(model, options),
                    stats=stats,
                    pos=spec.side * options.start_distance if position is None else position,
                    reach=resolution.reach(stats),
                )
            )
        # When anyone may ever stand out of reach of anyone, or move by its tactics, the clock
        # asks movement.engage before every attack; else it never looks at positions.
        spatial = len({entry.pos for entry in self.roster}) > 1 or any(
            entry.timing.moves for entry in self.roster
        )
        self.space: Space[StatsT, StateT] | None = resolution if spatial else None

    def spawn(self, dice: Dice) -> list[AcsFighter[StatsT, StateT]]:
        """Fresh fighters, hit point dice rolled in scenario order."""
        return [
            AcsFighter(
                entry.name,
                entry.side,
                index,
                entry.hp.roll(dice),
                entry.timing,
                entry.stats,
                entry.pos,
                entry.reach,
            )
            for index, entry in enumerate(self.roster)
        ]

    def start(self, combat: Combat[AcsFighter[StatsT, StateT]]) -> None:
        """Start the seconds and the combatants' processes (the resolution's ``begin`` first)."""
        AcsClock(combat, self.options, self.resolution, self.space).start()


class AcsSystem:
    """``rules: acs``: the ACS clock with a resolution (percentile by default).

    Args:
        table: every resolution on offer, by name: the registry's, a view read late (when a
            scenario is validated or prepared, so after the plug-ins are loaded).
    """

    name = "acs"
    title = "The Ambition Combat System"
    default_time_limit_s = 60.0
    #: The resolutions ACS itself offers. Here and below, ``Resolution[Any, Any]``: a table
    #: holds resolutions of different stats and state types, each consistent with itself.
    resolutions: Mapping[str, Resolution[Any, Any]] = {PERCENTILE.name: PERCENTILE}

    def __init__(self, table: Mapping[str, Resolution[Any, Any]]) -> None:
        self._table = table
        self._models: dict[tuple[tuple[str, ...], str | None], type[BaseModel]] = {}

    def options_model(self, raw: Mapping[str, object]) -> type[BaseModel]:
        """The clock's options plus those of the resolution the raw options name.

        An unknown resolution gives the clock's options alone, whose ``resolution`` field then
        says which names exist.
        """
        table = self._table
        name = raw.get("resolution", DEFAULT_RESOLUTION)
        chosen = table.get(name) if isinstance(name, str) else None
        key = (tuple(table), chosen.name if chosen is not None else None)
        model = self._models.get(key)
        if model is None:
            model = self._models[key] = _options_model(key[0], chosen)
        return model

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[TraceEvent], str]]:
        """The clock's sentences and those of the resolution in use."""
        return {**CLOCK_NARRATION, **self._resolution(options).narration}

    def time_label(self, t: float) -> str:
        """``second 2, segment 7`` for simulation time ``t`` (in segments)."""
        return segment_label(t)

    @staticmethod
    def round_seconds(options: BaseModel) -> float | None:
        """None: the clock counts seconds of ten segments, whatever resolution it plays."""
        return None

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """The stat block of the chosen resolution (it includes the ACS timing fields)."""
        return self._resolution(options).combatant_model

    def check(self, scenario: ScenarioView) -> list[Problem]:
        """Named actions whose effect the resolution in use does not play.

        A resolution lists the effects it supports in ``action_effects`` (the clock's default:
        attacks only); the hybrids' hit points are their own systems' (Vigor, Target 10's death
        below 0), so damage, heal and modifier effects are for ``percentile``.
        """
        resolution = self._resolution(scenario.options)
        effects = resolution.action_effects
        problems: list[Problem] = []
        for spec in scenario.combatants:
            model = spec.stats
            if not isinstance(model, AcsTiming):
                continue
            for i, named in enumerate(model.special_actions):
                if named.effect not in effects:
                    problems.append(
                        Problem(
                            scenario.file,
                            (*spec.path, "special_actions", i, "effect"),
                            None,
                            f"{named.effect} under resolution {resolution.name}",
                            f"one of {', '.join(sorted(effects))} (other effects need "
                            "resolution: percentile)",
                        )
                    )
        return problems

    def prepare(self, scenario: ScenarioView) -> AcsPrepared[Any, Any]:
        """Plain objects for the hot path."""
        options = _clock_options(scenario.options)
        return AcsPrepared(options, self._resolution(options), scenario)

    def _resolution(self, options: BaseModel) -> Resolution[Any, Any]:
        return self._table[_clock_options(options).resolution]


def _clock_options(options: BaseModel) -> AcsClockOptions:
    if not isinstance(options, AcsClockOptions):
        raise TypeError(f"ACS options expected, not {type(options).__name__}")
    return options


def _options_model(
    known: tuple[str, ...], resolution: Resolution[Any, Any] | None
) -> type[BaseModel]:
    """The clock's options, refusing a resolution not in ``known``, plus ``resolution``'s own."""

    def known_resolution(cls: type[BaseModel], value: str) -> str:
        if value not in known:
            raise ValueError(f"one of {', '.join(known)}")
        return value

    # Any: what pydantic's create_model takes as __validators__ (its own decorators' types).
    validators: dict[str, Any] = {
        "_known_resolution": field_validator("resolution")(known_resolution)
    }
    if resolution is None:
        return create_model("AcsOptions", __base__=AcsClockOptions, __validators__=validators)
    bases: tuple[type[BaseModel], ...] = (AcsClockOptions, resolution.options_model)
    return create_model(f"AcsOptions_{resolution.name}", __base__=bases, __validators__=validators)
